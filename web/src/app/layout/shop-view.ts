// The shop-type views (general, youx, zy, qx): which a path belongs to, its category tree and
// menu title, and where its category links lead.
import type { CategoryNode, HomeData } from '@/api/types';

export type ShopView = 'general' | 'youx' | 'zy' | 'qx';

/** The shop-type view a path belongs to. */
export function shopView(pathname: string): ShopView {
  if (pathname === '/zyyp') return 'zy';
  if (pathname === '/qxzq') return 'qx';
  if (pathname === '/yx' || pathname.startsWith('/yx/')) return 'youx';
  return 'general';
}

export const MENU_TITLES: Record<ShopView, string> = {
  general: '全部商品分类',
  youx: '优选商品分类',
  zy: '中药饮片分类',
  qx: '医疗器械分类',
};

/** The view's category tree. */
export function viewCategories(common: HomeData, view: ShopView): CategoryNode[] {
  if (view === 'zy') return common.category_zy;
  if (view === 'qx') return common.category_qx;
  if (view === 'youx') return common.category_yx;
  return common.category;
}

/** A category's list address in a view. */
export function categoryLink(id: number, view: ShopView): string {
  return view === 'general' ? `/list?category=${id}` : `/list?category=${id}&shop=${view}`;
}

/** Whether a nav entry leads to preferred (youx) goods. */
export function isYouxEntry(url: string): boolean {
  return url === '/yx' || url.startsWith('/yx/') || url.includes('shop=youx');
}

/** §9: the menu shows the first 7 top-level entries. */
export const MENU_TOP = 7;
