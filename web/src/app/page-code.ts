// Where each page's code is: the module that holds it, the name it exports, and whether it
// prices with the pricing engine (the goods cards' prices, the cart, the form rules), which then
// loads beside it. The router makes its lazy pages from this table (router.tsx), and the boot
// script starts loading the code of the page the app opens on before the app itself has come
// (boot.ts). No React here: the boot script is small and runs first.
import { resolvePath, routeForPath } from './routes';

/** A module of pages: how to load it, and whether its pages price with the engine. */
export interface PageModule<M = unknown> {
  load: () => Promise<M>;
  engine: boolean;
}

const withEngine = <M>(load: () => Promise<M>): PageModule<M> => ({ load, engine: true });
const plain = <M>(load: () => Promise<M>): PageModule<M> => ({ load, engine: false });

const home = withEngine(() => import('@/features/home/components/home-page'));
const list = withEngine(() => import('@/features/goods/components/goods-list-page'));
const cart = withEngine(() => import('@/features/cart/components/cart-page'));
const checkout = withEngine(() => import('@/features/cart/components/checkout-page'));
const pay = withEngine(() => import('@/features/cart/components/pay-page'));
const paid = withEngine(() => import('@/features/cart/components/paid-page'));
const detail = withEngine(() => import('@/features/goods/components/goods-detail-page'));
const login = withEngine(() => import('@/features/auth/components/login-page'));
const register = withEngine(() => import('@/features/auth/components/register-page'));
const forget = withEngine(() => import('@/features/auth/components/forget-page'));
const favorites = withEngine(() => import('@/features/favorites/components/favorites-page'));
const centre = plain(() => import('@/features/member/components/member-centre-page'));
const wallet = withEngine(() => import('@/features/wallet/components/wallet-pages'));
const account = withEngine(() => import('@/features/account/components/account-pages'));
const orders = withEngine(() => import('@/features/order/components/order-pages'));
const promotions = withEngine(() => import('@/features/promotion/components/promotion-pages'));
const zones = withEngine(() => import('@/features/zone/components/zone-pages'));
const activities = withEngine(() => import('@/features/activity/components/activity-pages'));
const controlled = withEngine(() => import('@/features/kxzq/components/kxzq-pages'));
const help = plain(() => import('@/features/help/components/help-pages'));
const simple = plain(() => import('./layout/simple-pages'));
const selfService = withEngine(() => import('@/features/self-service/components/self-service-pages'));

/** A page: the module that holds it, and its export's name. */
export interface PageEntry {
  module: PageModule;
  name: string;
}

function page<M>(module: PageModule<M>, name: keyof M & string): PageEntry {
  return { module: module as PageModule, name };
}

/** Each named route's page. */
export const PAGES: Record<string, PageEntry> = {
  index: page(home, 'HomePage'),
  login: page(login, 'LoginPage'),
  not_found: page(simple, 'NotFoundPage'),
  no_activity: page(simple, 'NoActivityPage'),
  loading: page(simple, 'LoadingPage'),
  loading_activity: page(activities, 'ActivityLoadingPage'),
  eleven_index: page(simple, 'LeavePage'),
  cart_step1: page(cart, 'CartPage'),
  cart_step2: page(checkout, 'CheckoutPage'),
  cart_step3: page(pay, 'PayPage'),
  cart_step4: page(paid, 'PaidPage'),
  cart_hm: page(pay, 'PayPage'),
  list_index: page(list, 'GoodsListPage'),
  list_table: page(list, 'GoodsListPage'),
  list_no_image: page(list, 'GoodsListPage'),
  list_other: page(list, 'GoodsListPage'),
  list_info: page(detail, 'GoodsDetailPage'),
  search_index: page(list, 'GoodsListPage'),
  search_table: page(list, 'GoodsListPage'),
  register_step1: page(register, 'RegisterPage'),
  register_step2: page(register, 'RegisterPage'),
  register_step3: page(register, 'RegisterPage'),
  register_dd_step1: page(register, 'RegisterPage'),
  register_dd_step2: page(register, 'RegisterPage'),
  register_dd_step3: page(register, 'RegisterPage'),
  forget_step1: page(forget, 'ForgetPage'),
  forget_step2: page(forget, 'ForgetPage'),
  forget_step3: page(forget, 'ForgetPage'),
  zzfw_star: page(favorites, 'FavoritesPage'),
  user_hyzx: page(centre, 'MemberCentrePage'),
  wdqb: page(wallet, 'WalletPage'),
  wdqb_yegl: page(wallet, 'BalancePage'),
  wdqb_zhhb: page(wallet, 'RedPacketPage'),
  wdqb_jfgl: page(wallet, 'PointsPage'),
  wdqb_yhq: page(wallet, 'CouponsPage'),
  wdqb_xjq: page(wallet, 'VouchersPage'),
  jcxx_index: page(account, 'BasicInfoPage'),
  zhzx_zzzj: page(account, 'CertificatesPage'),
  zhzx_ddgl: page(account, 'StoresPage'),
  zhzx_addr: page(account, 'AddressesPage'),
  zhzx_wdxx: page(account, 'MessagesPage'),
  zhzx_bdwx: page(account, 'WechatPage'),
  order_index: page(orders, 'OrderListPage'),
  order_info: page(orders, 'OrderDetailPage'),
  order_return: page(orders, 'ReturnPage'),
  order_after_sales: page(orders, 'AfterSalesPage'),
  zzfw_dzfp: page(orders, 'InvoicesPage'),
  jfdd: page(promotions, 'PointsOrdersPage'),
  lqzx: page(promotions, 'CouponCentrePage'),
  jfsc: page(promotions, 'PointsMallPage'),
  dzht: page(account, 'AgreementPage'),
  zyyp: page(zones, 'HerbZonePage'),
  qxzq: page(zones, 'DeviceZonePage'),
  help_xrzn_hyzc: page(help, 'HelpPage'),
  help_xrzn_gwzn: page(help, 'HelpPage'),
  help_xrzn_aqgy: page(help, 'HelpPage'),
  help_fwbz_wzzz: page(help, 'HelpPage'),
  help_fwbz_yhxy: page(help, 'HelpPage'),
  help_fwbz_zskf: page(help, 'HelpPage'),
  help_us_tsjy: page(help, 'HelpPage'),
  help_us_link: page(help, 'HelpPage'),
  help_pay: page(help, 'PayHelpPage'),
  help_zfps_ddzf: page(help, 'PayHelpPage'),
  help_zfps_hwps: page(help, 'PayHelpPage'),
  help_zfps_ypth: page(help, 'PayHelpPage'),
  news_hy: page(help, 'IndustryNewsPage'),
  news_company: page(help, 'CompanyNewsPage'),
  news_info: page(help, 'NewsInfoPage'),
  zzfw_kjcg: page(selfService, 'QuickPurchasePage'),
  zzfw_pzqg: page(selfService, 'WantedListPage'),
  zzfw_pzqg_add: page(selfService, 'WantedAddPage'),
  zzfw_pzqg_info: page(selfService, 'WantedInfoPage'),
  zzfw_yjfk: page(selfService, 'FeedbackPage'),
  yjh: page(activities, 'ActivityZonePage'),
  hdzx: page(activities, 'ActivityCentrePage'),
  zqmb: page(activities, 'TemplatePage'),
  hdmb: page(activities, 'TemplatePage'),
  yyh: page(activities, 'YyhPage'),
  yyh_list: page(activities, 'YyhListPage'),
  kxzq: page(controlled, 'KxZonePage'),
  kxzq_new: page(controlled, 'KxNewPage'),
  kxzq_goods: page(controlled, 'KxProgrammePage'),
  zhzq: page(zones, 'CombinationZonePage'),
  hb: page(zones, 'CashbackPage'),
  welfare: page(zones, 'WelfarePage'),
  mrtj: page(zones, 'EverydayZonePage'),
  jxqzc: page(zones, 'NearExpiryZonePage'),
  yx_index: page(zones, 'FreeShippingZonePage'),
  yx_table: page(zones, 'FreeShippingTablePage'),
  yx_rule: page(zones, 'FreeShippingRulePage'),
  ppzq: page(zones, 'BrandZonePage'),
  ppzq_info: page(zones, 'BrandInfoPage'),
};

/** The page at `pathname`, if a route shows it. */
export function pageAt(pathname: string): PageEntry | undefined {
  const route = routeForPath(resolvePath(pathname));
  return route ? PAGES[route.name] : undefined;
}

/** Starts loading the code of the page at `pathname`, and the engine when it prices with it. */
export function startPageCode(pathname: string): void {
  const entry = pageAt(pathname);
  if (!entry) return;
  // A failed load is the page's to report when the router opens it.
  entry.module.load().catch(() => undefined);
  if (entry.module.engine) import('engine').catch(() => undefined);
}
