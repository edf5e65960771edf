// The nav bar: 全部商品分类 with the multi-level category menu (first 7 top-level entries,
// children in a flyout) and up to 9 nav entries.
import { useState } from 'react';
import { Link } from 'react-router';
import { useCommonData } from '@/api/common';
import type { CategoryNode } from '@/api/types';

/** §9: the menu shows the first 7 top-level entries. */
export const MENU_TOP = 7;

export function CategoryMenu({ categories, open }: { categories: CategoryNode[]; open: boolean }) {
  const [hover, setHover] = useState<number | null>(null);
  const top = categories.slice(0, MENU_TOP);
  const current = top.find((category) => category.id === hover);
  return (
    <div className={open ? 'category-menu open' : 'category-menu'} onMouseLeave={() => setHover(null)}>
      <ul className="category-top">
        {top.map((category) => (
          <li key={category.id} className={category.id === hover ? 'active' : ''} onMouseEnter={() => setHover(category.id)}>
            <Link to={`/list?category=${category.id}`}>{category.name}</Link>
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
                <Link to={`/list?category=${child.id}`}>{child.name}</Link>
              </dt>
              <dd>
                {child.children.map((leaf) => (
                  <Link key={leaf.id} to={`/list?category=${leaf.id}`}>
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

export function NavBar({ open }: { open: boolean }) {
  const common = useCommonData();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <nav className="nav-bar" aria-label="主导航">
      <div className="container nav-inner">
        <div className="nav-all" onMouseEnter={() => setMenuOpen(true)} onMouseLeave={() => setMenuOpen(false)}>
          <span className="nav-all-title">全部商品分类</span>
          {(open || menuOpen) && common.data && <CategoryMenu categories={common.data.category} open={open} />}
        </div>
        <ul className="nav-items">
          <li>
            <Link to="/">首页</Link>
          </li>
          {common.data?.nav.map((item) => (
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
