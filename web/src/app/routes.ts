// The one route table (product spec §2): every screen's name, path, Chinese title and layout
// flags. The router, the page title, the layout and the header's user fetch all read it.

export const SITE_TITLE = '医药批发商城';

export interface Layout {
  /** The full header: top bar, logo, search, cart button. */
  header: boolean;
  /** The slim login-style header (logo and title) instead. */
  loginHeader: boolean;
  footer: boolean;
  /** The right-side rail with the cart panel. */
  rightWidget: boolean;
  /** The category menu and nav bar under the header. */
  nav: boolean;
  /** The dismissible top-right ad (never with the login-style header). */
  topAd: boolean;
}

export interface RouteEntry {
  name: string;
  path: string;
  title: string;
  layout: Layout;
  /** Do not restore this page's scroll position. */
  noScrollRestore?: boolean;
  /** Leave the app for the site root. */
  leave?: boolean;
}

export interface Redirect {
  /** A route name, for the spec's named redirects and aliases. */
  name?: string;
  from: string;
  to: string;
}

const SHOP: Layout = { header: true, loginHeader: false, footer: true, rightWidget: true, nav: true, topAd: true };
const PLAIN: Layout = { ...SHOP, nav: false, topAd: false };
const LOGIN_STYLE: Layout = { header: false, loginHeader: true, footer: true, rightWidget: false, nav: false, topAd: false };
const CART: Layout = { ...SHOP, nav: false, topAd: false };
/** 组合购: the shop's frame with the menu hidden. */
const NO_MENU: Layout = { ...SHOP, nav: false };
const BARE: Layout = { header: false, loginHeader: false, footer: false, rightWidget: false, nav: false, topAd: false };

export const ROUTES: readonly RouteEntry[] = [
  { name: 'index', path: '/', title: '首页', layout: SHOP },
  { name: 'login', path: '/login', title: '会员登录', layout: LOGIN_STYLE },
  { name: 'not_found', path: '/404', title: '页面不存在', layout: PLAIN },
  { name: 'no_activity', path: '/noActivity', title: '活动不存在', layout: PLAIN },
  { name: 'loading', path: '/loading', title: '加载中', layout: BARE, noScrollRestore: true },
  { name: 'loading_activity', path: '/loading/activity', title: '活动加载中', layout: BARE, noScrollRestore: true },
  { name: 'eleven_index', path: '/eleven', title: '首页', layout: BARE, leave: true },

  { name: 'cart_step1', path: '/cart', title: '购物车', layout: CART },
  { name: 'cart_step2', path: '/cart/step2', title: '核对订单信息', layout: CART },
  { name: 'cart_step3', path: '/cart/step3/:id', title: '支付订单', layout: CART },
  { name: 'cart_step4', path: '/cart/step4', title: '支付完成', layout: CART },
  { name: 'cart_hm', path: '/cart/hm', title: '支付订单', layout: CART },

  { name: 'list_index', path: '/list', title: '商品列表', layout: SHOP },
  { name: 'list_table', path: '/list/table', title: '商品列表', layout: SHOP },
  { name: 'list_no_image', path: '/list/no_image', title: '商品列表', layout: SHOP },
  { name: 'list_info', path: '/list/info/:id', title: '商品详情', layout: SHOP },
  { name: 'list_other', path: '/list/other/:id/:name?', title: '商品列表', layout: SHOP },
  { name: 'search_index', path: '/search', title: '搜索结果', layout: SHOP },
  { name: 'search_table', path: '/search/table', title: '搜索结果', layout: SHOP },

  { name: 'register_step1', path: '/register/step1', title: '注册会员', layout: LOGIN_STYLE },
  { name: 'register_step2', path: '/register/step2', title: '注册会员', layout: LOGIN_STYLE },
  { name: 'register_step3', path: '/register/step3', title: '注册会员', layout: LOGIN_STYLE },
  { name: 'register_dd_step1', path: '/register/dd/step1', title: '注册会员', layout: LOGIN_STYLE },
  { name: 'register_dd_step2', path: '/register/dd/step2', title: '注册会员', layout: LOGIN_STYLE },
  { name: 'register_dd_step3', path: '/register/dd/step3', title: '注册会员', layout: LOGIN_STYLE },
  { name: 'forget_step1', path: '/forget/step1', title: '忘记密码', layout: LOGIN_STYLE },
  { name: 'forget_step2', path: '/forget/step2', title: '重置密码', layout: LOGIN_STYLE },
  { name: 'forget_step3', path: '/forget/step3', title: '重置成功', layout: LOGIN_STYLE },

  { name: 'zzfw_star', path: '/zzfw/star', title: '我的收藏', layout: PLAIN },
  { name: 'zzfw_kjcg', path: '/zzfw/kjcg', title: '快速采购', layout: PLAIN },
  { name: 'zzfw_pzqg', path: '/zzfw/pzqg', title: '品种求购', layout: PLAIN },
  { name: 'zzfw_pzqg_add', path: '/zzfw/pzqg/add', title: '添加求购', layout: PLAIN },
  { name: 'zzfw_pzqg_info', path: '/zzfw/pzqg/info', title: '求购详情', layout: PLAIN },
  { name: 'zzfw_yjfk', path: '/zzfw/yjfk', title: '意见反馈', layout: PLAIN },

  { name: 'user_hyzx', path: '/user', title: '会员中心', layout: PLAIN },
  { name: 'wdqb', path: '/wdqb', title: '我的钱包', layout: PLAIN },
  { name: 'wdqb_yegl', path: '/wdqb/yegl', title: '余额管理', layout: PLAIN },
  { name: 'wdqb_zhhb', path: '/wdqb/zhhb', title: '账户红包', layout: PLAIN },
  { name: 'wdqb_jfgl', path: '/wdqb/jfgl', title: '积分管理', layout: PLAIN },
  { name: 'wdqb_yhq', path: '/wdqb/yhq', title: '优惠券', layout: PLAIN },
  { name: 'wdqb_xjq', path: '/wdqb/xjq', title: '现金券', layout: PLAIN },
  { name: 'jcxx_index', path: '/zhzx/basic', title: '基础信息', layout: PLAIN },
  { name: 'zhzx_zzzj', path: '/zhzx/zzzj', title: '资质证件', layout: PLAIN },
  { name: 'zhzx_ddgl', path: '/zhzx/ddgl', title: '多店管理', layout: PLAIN },
  { name: 'zhzx_addr', path: '/zhzx/addr', title: '收货地址', layout: PLAIN },
  { name: 'zhzx_wdxx', path: '/zhzx/wdxx', title: '我的消息', layout: PLAIN },
  { name: 'dzht', path: '/dzht', title: '电子合同', layout: PLAIN },
  { name: 'zhzx_bdwx', path: '/register/wechat', title: '绑定微信', layout: LOGIN_STYLE },

  { name: 'order_index', path: '/order', title: '我的订单', layout: PLAIN },
  { name: 'order_info', path: '/order/info/:id', title: '订单详情', layout: PLAIN },
  { name: 'order_return', path: '/order/returnInfo/:id', title: '退货详情', layout: PLAIN },
  { name: 'order_after_sales', path: '/order/afterSalesInfo/:id', title: '售后详情', layout: PLAIN },
  { name: 'zzfw_dzfp', path: '/zzfw/dzfp', title: '电子发票', layout: PLAIN },
  { name: 'jfdd', path: '/jfdd', title: '积分订单', layout: PLAIN },

  { name: 'lqzx', path: '/lqzx', title: '领券中心', layout: SHOP },
  { name: 'jfsc', path: '/jfsc', title: '积分商城', layout: SHOP },
  { name: 'zyyp', path: '/zyyp', title: '中药专区', layout: SHOP },
  { name: 'qxzq', path: '/qxzq', title: '器械专区', layout: SHOP },
  { name: 'help_xrzn_hyzc', path: '/help/xrzn/hyzc', title: '会员注册', layout: SHOP },
  { name: 'help_xrzn_gwzn', path: '/help/xrzn/gwzn', title: '购物指南', layout: SHOP },
  { name: 'help_xrzn_aqgy', path: '/help/xrzn/aqgy', title: '安全购药', layout: SHOP },
  { name: 'help_fwbz_wzzz', path: '/help/fwbz/wzzz', title: '网站资质', layout: SHOP },
  { name: 'help_fwbz_yhxy', path: '/help/fwbz/yhxy', title: '用户协议', layout: SHOP },
  { name: 'help_fwbz_zskf', path: '/help/fwbz/zskf', title: '专属客服', layout: SHOP },
  { name: 'help_us_tsjy', path: '/help/us/tsjy', title: '投诉建议', layout: SHOP },
  { name: 'help_us_link', path: '/help/us/link', title: '联系我们', layout: SHOP },
  { name: 'help_pay', path: '/help/pay', title: '支付与配送', layout: LOGIN_STYLE },
  { name: 'help_zfps_ddzf', path: '/help/zfps/ddzf', title: '订单支付', layout: LOGIN_STYLE },
  { name: 'help_zfps_hwps', path: '/help/zfps/hwps', title: '货物配送', layout: LOGIN_STYLE },
  { name: 'help_zfps_ypth', path: '/help/zfps/ypth', title: '药品退换货', layout: LOGIN_STYLE },
  { name: 'news_hy', path: '/news/hy', title: '行业新闻', layout: SHOP },
  { name: 'news_company', path: '/news/company', title: '公司新闻', layout: SHOP },
  { name: 'news_info', path: '/news/info/:id/:type', title: '新闻详情', layout: SHOP },
  { name: 'yjh', path: '/yjh/:id?', title: '活动专区', layout: SHOP },
  { name: 'hdzx', path: '/Hdzx/:ids/:id?', title: '活动中心', layout: SHOP },
  { name: 'zqmb', path: '/zqmb', title: '', layout: SHOP },
  { name: 'hdmb', path: '/hdmb', title: '', layout: SHOP },
  { name: 'yyh', path: '/yyh', title: '优医汇', layout: SHOP },
  { name: 'yyh_list', path: '/yyh/list', title: '优医汇', layout: SHOP },
  { name: 'kxzq', path: '/kxzq', title: '控销专区', layout: SHOP },
  { name: 'kxzq_new', path: '/kxzq/new', title: '控销新品', layout: SHOP },
  { name: 'kxzq_goods', path: '/kxzq/goods/:url/:ads?', title: '控销专区', layout: SHOP },
  { name: 'zhzq', path: '/zhzq', title: '组合购', layout: NO_MENU },
  { name: 'hb', path: '/hb', title: '满额返现', layout: SHOP },
  { name: 'welfare', path: '/welfare', title: '全场94折', layout: SHOP },
  { name: 'mrtj', path: '/mrtj', title: '天天特价', layout: SHOP },
  { name: 'jxqzc', path: '/jxqzc', title: '近效期专区', layout: SHOP },
  { name: 'yx_index', path: '/yx', title: '包邮专区', layout: SHOP },
  { name: 'yx_table', path: '/yx/table', title: '包邮专区', layout: SHOP },
  { name: 'yx_rule', path: '/yx/rule', title: '包邮规则', layout: BARE },
  { name: 'ppzq', path: '/ppzq/:page?', title: '品牌专区', layout: SHOP },
  { name: 'ppzq_info', path: '/ppzq/info/:id/:page?', title: '品牌专区', layout: SHOP },
];

/** The wallet's and the account centre's children, reachable by their short paths too. */
const MEMBER_ALIASES: readonly Redirect[] = [
  ...['yegl', 'zhhb', 'jfgl', 'yhq', 'xjq'].map((child) => ({ from: `/${child}`, to: `/wdqb/${child}` })),
  ...['zzzj', 'ddgl', 'addr', 'wdxx'].map((child) => ({ from: `/${child}`, to: `/zhzx/${child}` })),
  ...['kjcg', 'pzqg', 'pzqg/add', 'pzqg/info', 'yjfk', 'dzfp', 'star'].map((child) => ({ from: `/${child}`, to: `/zzfw/${child}` })),
  { from: '/zzfw', to: '/zzfw/kjcg' },
  { from: '/basic', to: '/zhzx/basic' },
  { from: '/jcxx_index', to: '/zhzx/basic' },
];

/** The spec's redirects and aliases. Any other unknown path goes to /404. */
export const REDIRECTS: readonly Redirect[] = [
  { name: 'register', from: '/register', to: '/register/step1' },
  { name: 'register_index', from: '/register_index', to: '/register/step1' },
  { name: 'register_dd', from: '/register_dd', to: '/register/dd/step1' },
  { from: '/register_dd/step1', to: '/register/dd/step1' },
  { from: '/register_dd/step2', to: '/register/dd/step2' },
  { from: '/register_dd/step3', to: '/register/dd/step3' },
  { name: 'forget', from: '/forget', to: '/forget/step1' },
  { name: 'activity', from: '/activity/:url?/:url1?/:url2?', to: '/loading/activity?url=:url&url1=:url1&url2=:url2' },
  { name: 'zhzx_jcxx', from: '/zhzx', to: '/zhzx/basic' },
  { name: 'order_wl', from: '/order/wl/:id', to: '/order/info/:id' },
  ...MEMBER_ALIASES,
];

const BY_NAME = new Map(ROUTES.map((route) => [route.name, route]));

export function routeByName(name: string): RouteEntry {
  const route = BY_NAME.get(name);
  if (!route) throw new Error(`no route named ${name}`);
  return route;
}

/** The path of a named route with its parameters filled in. */
export function pathOf(name: string, params: Record<string, string | number> = {}): string {
  return routeByName(name)
    .path.replace(/\/:(\w+)\?/g, (_, key: string) => (params[key] !== undefined ? `/${params[key]}` : ''))
    .replace(/:(\w+)/g, (_, key: string) => String(params[key] ?? ''));
}

/** The document title of a page: its title, then the site's. */
export function pageTitle(route: Pick<RouteEntry, 'title'> | undefined): string {
  return route?.title ? `${route.title} - ${SITE_TITLE}` : SITE_TITLE;
}

/** The parameters of `pathname` when it matches `pattern`, else `undefined`. */
function matchParams(pattern: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part ? `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` : '';
      names.push(part.replace(/^:|\?$/g, ''));
      return part.endsWith('?') ? '(?:/([^/]+))?' : '/([^/]+)';
    })
    .join('');
  const found = new RegExp(`^${source || '/'}/?$`).exec(pathname);
  if (!found) return undefined;
  return Object.fromEntries(names.flatMap((name, index) => (found[index + 1] === undefined ? [] : [[name, found[index + 1]]])));
}

function matches(pattern: string, pathname: string): boolean {
  return matchParams(pattern, pathname) !== undefined;
}

/** A redirect's target with the parameters of the path it was reached by: `/order/wl/7` → `/order/info/7`. */
export function redirectTarget(to: string, params: Record<string, string | undefined>): string {
  const filled = to.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
  const [path, query] = filled.split('?');
  if (query === undefined) return path;
  // A query parameter whose path parameter was absent is left out.
  const kept = query.split('&').filter((pair) => !pair.endsWith('='));
  return kept.length > 0 ? `${path}?${kept.join('&')}` : path;
}

/** The route a path shows, if any. */
export function routeForPath(pathname: string): RouteEntry | undefined {
  const exact = ROUTES.filter((route) => !route.path.includes(':')).find((route) => matches(route.path, pathname));
  return exact ?? ROUTES.find((route) => matches(route.path, pathname));
}

/** Where a path leads: itself when a route shows it, its redirect target, or /404. */
export function resolvePath(pathname: string): string {
  if (routeForPath(pathname)) return pathname;
  for (const redirect of REDIRECTS) {
    const params = matchParams(redirect.from, pathname);
    if (params) return redirectTarget(redirect.to, params);
  }
  return '/404';
}

/** Routes whose header does not fetch the user's base info (§6). */
export const NO_USER_FETCH: ReadonlySet<string> = new Set(['user_hyzx', 'login', 'zhzx_bdwx']);
