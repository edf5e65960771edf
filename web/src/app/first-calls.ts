// The GETs a page makes as it opens, known from its address alone: the frame's (the common
// data, the footer's help and links, the top ad, the member's state, the cart's count, the
// lucky-draw check — as the route's layout flags say) and the page's own first data. The boot
// script starts them while the app's code is on its way, and a pointer resting on a link
// starts the next page's (lib/early.ts); the page's queries then take the answers. Each URL is
// written exactly as the API client writes it. A call listed here that the page does not make
// would be asked for nothing: the browser walk "first calls" checks that every one is taken.
import { encode, type Params } from '@/lib/api-client';
import type { PathWith, QueryOf } from '@/api/requests';
import type { GoodsQuery } from '@/api/goods';
import { DRAW_CLOSED, NO_DRAW_ROUTES } from '@/features/promotion/draw';
import { listParams, PAGE_SIZE } from '@/features/goods/list-params';
import { NO_USER_FETCH, resolvePath, routeForPath, type RouteEntry } from './routes';

/** A GET with its query as the origin's document declares it. */
export function url<P extends PathWith<'get'>>(path: P, params: QueryOf<P>): string {
  const query = encode(params as Params).toString();
  return query ? `${path}?${query}` : path;
}

const ZONE_PAGE: GoodsQuery = { page: 1, page_size: PAGE_SIZE };

/** The first page of each zone's goods at its default sort, and the zone's banner position. */
export const ZONES: Record<string, { goods: GoodsQuery; banner?: string }> = {
  zyyp: { goods: { shop: 'zy', ...ZONE_PAGE }, banner: 'zyzq' },
  qxzq: { goods: { shop: 'qx', ...ZONE_PAGE }, banner: 'common' },
  jxqzc: { goods: { near_expiry: 1, ...ZONE_PAGE, sort: 'expiry', order: 'asc' }, banner: 'common' },
  mrtj: { goods: { everyday: 1, ...ZONE_PAGE }, banner: 'common' },
  yx_index: { goods: { shop: 'youx', ...ZONE_PAGE }, banner: 'yx' },
};

/** The page's own first calls (not the frame's). */
function pageCalls(route: RouteEntry, pathname: string, search: URLSearchParams): string[] {
  const plain = [...search.keys()].length === 0;
  const zone = ZONES[route.name];
  if (zone)
    return plain ? [url('/api/goods/list', zone.goods), ...(zone.banner ? [url('/api/focus/right', { position: zone.banner })] : [])] : [];
  switch (route.name) {
    case 'index':
      return ['/api/focus', '/api/user/center', '/api/index/spike', '/api/activity/everyday_price', '/api/index_wntj/1'];
    case 'list_index':
    case 'list_table':
    case 'search_index':
    case 'search_table':
      return [url('/api/goods/list', { page_size: PAGE_SIZE, ...listParams(search) })];
    case 'list_info': {
      const id = /^\/list\/info\/(\d+)$/.exec(pathname)?.[1];
      return id && plain ? [`/api/goods/detail/${id}`, url('/api/goods/activities', { goods_id: Number(id) })] : [];
    }
    case 'cart_step1':
      // Its next-tier hint (`cart/next_hint`) is a read sent as a POST: not started early.
      return ['/api/cart/list'];
    case 'cart_step2':
      return ['/api/cart/list'];
    case 'user_hyzx':
      return ['/api/user/center', '/api/draw/record'];
    case 'wdqb':
      return [
        '/api/user/user_money',
        '/api/user/couponNum',
        url('/api/user/cash_voucher', { status: 0, page: 1 }),
        url('/api/user/user_money_log', { page: 1 }),
      ];
    case 'jcxx_index':
      return ['/api/user/jyfw'];
    case 'order_index':
      return plain ? [url('/api/order', { page: 1 })] : [];
    case 'jfsc':
      return plain ? [url('/api/points_mall', { page: 1 })] : [];
    case 'ppzq':
      return pathname === '/ppzq' ? [url('/api/brand', { page: 1 })] : [];
    case 'zhzq':
      return ['/api/combination', url('/api/focus/right', { position: 'postList' })];
    case 'lqzx':
      return ['/api/coupon/centre'];
    // Their goods are asked for only while the activity runs: the activity's answer says so.
    case 'welfare':
      return ['/api/activity/welfare'];
    case 'hb':
      return ['/api/activity/cashback'];
    case 'news_hy':
      return [url('/api/article/category', { category_id: 'hy' })];
    case 'zzfw_kjcg':
      return [url('/api/user/fast_buy', { page: 1, order: 'recent' })];
    default:
      return [];
  }
}

/**
 * Every GET the page at `pathname` + `search` makes as it opens, frame first; none for an
 * address no route shows. `opening: false` for a move inside the app, where the frame keeps
 * what it has and asks again only for the member's state, which it asks on every route.
 */
export function firstCalls(pathname: string, search = '', { opening = true } = {}): string[] {
  const route = routeForPath(resolvePath(pathname));
  if (!route || route.leave || resolvePath(pathname) !== pathname) return [];
  const { layout } = route;
  const calls: string[] = [];
  const memberState = layout.header && !NO_USER_FETCH.has(route.name);
  if (opening) {
    if (layout.header) calls.push('/api/index');
    if (layout.footer) calls.push(url('/api/article/category', { category_id: '3' }), '/api/global/links');
    if (layout.topAd) calls.push(url('/api/focus/right', { position: 'top' }));
    if (memberState) calls.push('/api/user/base', '/api/cart/total');
    // A popup the member closed stays closed for the session: its check is not asked again.
    const drawClosed = typeof sessionStorage !== 'undefined' && sessionStorage.getItem(DRAW_CLOSED) === '1';
    if (memberState && !NO_DRAW_ROUTES.has(route.name) && !drawClosed) calls.push('/api/draw/simple');
  } else if (memberState) {
    calls.push('/api/user/base');
  }
  calls.push(...pageCalls(route, pathname, new URLSearchParams(search)));
  return [...new Set(calls)];
}
