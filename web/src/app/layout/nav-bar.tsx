// The nav bar: 全部商品分类 with the multi-level category menu (first 7 top-level entries,
// children in a flyout) and up to 9 nav entries. The menu follows the shop-type view: the herb
// zone shows the herb categories (category_zy), the device zone the device ones (category_qx),
// the free-shipping zone the preferred ones (category_yx), and their links keep to that shop. A
// member whose account does not show preferred goods (is_show_youx 0) sees no youx entries.
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useCommonData } from '@/api/common';
import type { UserState } from '@/api/user';
import type { CategoryNode } from '@/api/types';
import { MENU_TITLES, MENU_TOP, categoryLink, isYouxEntry, shopView, viewCategories, type ShopView } from './shop-view';

export function CategoryMenu({ categories, open, view = 'general' }: { categories: CategoryNode[]; open: boolean; view?: ShopView }) {
  const [hover, setHover] = useState<number | null>(null);
  const top = categories.slice(0, MENU_TOP);
  const current = top.find((category) => category.id === hover);
  return (
    <div className={open ? 'category-menu open' : 'category-menu'} onMouseLeave={() => setHover(null)}>
      <ul className="category-top">
        {top.map((category) => (
          <li key={category.id} className={category.id === hover ? 'active' : ''} onMouseEnter={() => setHover(category.id)}>
            <Link to={categoryLink(category.id, view)}>{category.name}</Link>
            <span className="category-hint">
              {category.children
                .slice(0, 2)
                .map((child) => child.name)
                .join(' / ')}
            </span>
          </li>
        ))}
      </ul>
      {current && (
        <div className="category-flyout" role="menu" aria-label={current.name}>
          {current.children.map((child) => (
            <dl key={child.id}>
              <dt>
                <Link to={categoryLink(child.id, view)}>{child.name}</Link>
              </dt>
              <dd>
                {child.children.map((leaf) => (
                  <Link key={leaf.id} to={categoryLink(leaf.id, view)}>
                    {leaf.name}
                  </Link>
                ))}
              </dd>
            </dl>
          ))}
        </div>
      )}
    </div>
  );
}

export function NavBar({ open, user }: { open: boolean; user?: UserState }) {
  const common = useCommonData();
  const view = shopView(useLocation().pathname);
  const [menuOpen, setMenuOpen] = useState(false);
  const hideYoux = user?.is_show_youx === 0;
  const entries = (common.data?.nav ?? []).filter((item) => !(hideYoux && isYouxEntry(item.url)));
  return (
    <nav className="nav-bar" aria-label="主导航">
      <div className="container nav-inner">
        <div className="nav-all" onMouseEnter={() => setMenuOpen(true)} onMouseLeave={() => setMenuOpen(false)}>
          <span className="nav-all-title" data-testid="menu-title">
            {MENU_TITLES[view]}
          </span>
          {(open || menuOpen) && common.data && <CategoryMenu categories={viewCategories(common.data, view)} open={open} view={view} />}
        </div>
        <ul className="nav-items">
          <li>
            <Link to="/">首页</Link>
          </li>
          {entries.map((item) => (
            <li key={item.id}>
              {item.is_open ? (
                <a href={item.url} target="_blank" rel="noreferrer">
                  {item.name}
                </a>
              ) : (
                <Link to={item.url}>{item.name}</Link>
              )}
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
