// The router, made from the route table: each entry's page, the spec's redirects and aliases,
// and /404 for everything else.
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ROUTES, REDIRECTS } from './routes';
import { RootLayout } from './layout/root-layout';
import { HomePage } from '@/features/home/components/home-page';
import { GoodsListPage } from '@/features/goods/components/goods-list-page';
import { NotFoundPage, NoActivityPage, LoadingPage, LeavePage, RedirectTo } from './layout/simple-pages';

type Page = ComponentType;
type LazyPage = () => Promise<Page>;

// Pages the home page does not need load on first use, with the engine's WebAssembly
// (imported by the cart, the detail's ladder table and the phone checks).
const cart = () => import('@/features/cart/components/cart-page');
const checkout = () => import('@/features/cart/components/checkout-page');
const pay = () => import('@/features/cart/components/pay-page');
const paid = () => import('@/features/cart/components/paid-page');
const detail = () => import('@/features/goods/components/goods-detail-page');
const login = () => import('@/features/auth/components/login-page');
const register = () => import('@/features/auth/components/register-page');
const forget = () => import('@/features/auth/components/forget-page');
const favorites = () => import('@/features/favorites/components/favorites-page');
const centre = () => import('@/features/member/components/member-centre-page');
const wallet = () => import('@/features/wallet/components/wallet-pages');
const account = () => import('@/features/account/components/account-pages');
const orders = () => import('@/features/order/components/order-pages');
const promotions = () => import('@/features/promotion/components/promotion-pages');
const zones = () => import('@/features/zone/components/zone-pages');
const activities = () => import('@/features/activity/components/activity-pages');
const controlled = () => import('@/features/kxzq/components/kxzq-pages');
const help = () => import('@/features/help/components/help-pages');
const selfService = () => import('@/features/self-service/components/self-service-pages');

/** Each named route's page. */
const PAGES: Record<string, Page | LazyPage> = {
  index: HomePage,
  login: () => login().then((module) => module.LoginPage),
  not_found: NotFoundPage,
  no_activity: NoActivityPage,
  loading: LoadingPage,
  loading_activity: () => activities().then((module) => module.ActivityLoadingPage),
  eleven_index: LeavePage,
  cart_step1: () => cart().then((module) => module.CartPage),
  cart_step2: () => checkout().then((module) => module.CheckoutPage),
  cart_step3: () => pay().then((module) => module.PayPage),
  cart_step4: () => paid().then((module) => module.PaidPage),
  cart_hm: () => pay().then((module) => module.PayPage),
  list_index: GoodsListPage,
  list_table: GoodsListPage,
  list_no_image: GoodsListPage,
  list_other: GoodsListPage,
  list_info: () => detail().then((module) => module.GoodsDetailPage),
  search_index: GoodsListPage,
  search_table: GoodsListPage,
  register_step1: () => register().then((module) => module.RegisterPage),
  register_step2: () => register().then((module) => module.RegisterPage),
  register_step3: () => register().then((module) => module.RegisterPage),
  register_dd_step1: () => register().then((module) => module.RegisterPage),
  register_dd_step2: () => register().then((module) => module.RegisterPage),
  register_dd_step3: () => register().then((module) => module.RegisterPage),
  forget_step1: () => forget().then((module) => module.ForgetPage),
  forget_step2: () => forget().then((module) => module.ForgetPage),
  forget_step3: () => forget().then((module) => module.ForgetPage),
  zzfw_star: () => favorites().then((module) => module.FavoritesPage),
  user_hyzx: () => centre().then((module) => module.MemberCentrePage),
  wdqb: () => wallet().then((module) => module.WalletPage),
  wdqb_yegl: () => wallet().then((module) => module.BalancePage),
  wdqb_zhhb: () => wallet().then((module) => module.RedPacketPage),
  wdqb_jfgl: () => wallet().then((module) => module.PointsPage),
  wdqb_yhq: () => wallet().then((module) => module.CouponsPage),
  wdqb_xjq: () => wallet().then((module) => module.VouchersPage),
  jcxx_index: () => account().then((module) => module.BasicInfoPage),
  zhzx_zzzj: () => account().then((module) => module.CertificatesPage),
  zhzx_ddgl: () => account().then((module) => module.StoresPage),
  zhzx_addr: () => account().then((module) => module.AddressesPage),
  zhzx_wdxx: () => account().then((module) => module.MessagesPage),
  zhzx_bdwx: () => account().then((module) => module.WechatPage),
  order_index: () => orders().then((module) => module.OrderListPage),
  order_info: () => orders().then((module) => module.OrderDetailPage),
  order_return: () => orders().then((module) => module.ReturnPage),
  order_after_sales: () => orders().then((module) => module.AfterSalesPage),
  zzfw_dzfp: () => orders().then((module) => module.InvoicesPage),
  jfdd: () => promotions().then((module) => module.PointsOrdersPage),
  lqzx: () => promotions().then((module) => module.CouponCentrePage),
  jfsc: () => promotions().then((module) => module.PointsMallPage),
  dzht: () => account().then((module) => module.AgreementPage),
  zyyp: () => zones().then((module) => module.HerbZonePage),
  qxzq: () => zones().then((module) => module.DeviceZonePage),
  help_xrzn_hyzc: () => help().then((module) => module.HelpPage),
  help_xrzn_gwzn: () => help().then((module) => module.HelpPage),
  help_xrzn_aqgy: () => help().then((module) => module.HelpPage),
  help_fwbz_wzzz: () => help().then((module) => module.HelpPage),
  help_fwbz_yhxy: () => help().then((module) => module.HelpPage),
  help_fwbz_zskf: () => help().then((module) => module.HelpPage),
  help_us_tsjy: () => help().then((module) => module.HelpPage),
  help_us_link: () => help().then((module) => module.HelpPage),
  help_pay: () => help().then((module) => module.PayHelpPage),
  help_zfps_ddzf: () => help().then((module) => module.PayHelpPage),
  help_zfps_hwps: () => help().then((module) => module.PayHelpPage),
  help_zfps_ypth: () => help().then((module) => module.PayHelpPage),
  news_hy: () => help().then((module) => module.IndustryNewsPage),
  news_company: () => help().then((module) => module.CompanyNewsPage),
  news_info: () => help().then((module) => module.NewsInfoPage),
  zzfw_kjcg: () => selfService().then((module) => module.QuickPurchasePage),
  zzfw_pzqg: () => selfService().then((module) => module.WantedListPage),
  zzfw_pzqg_add: () => selfService().then((module) => module.WantedAddPage),
  zzfw_pzqg_info: () => selfService().then((module) => module.WantedInfoPage),
  zzfw_yjfk: () => selfService().then((module) => module.FeedbackPage),
  yjh: () => activities().then((module) => module.ActivityZonePage),
  hdzx: () => activities().then((module) => module.ActivityCentrePage),
  zqmb: () => activities().then((module) => module.TemplatePage),
  hdmb: () => activities().then((module) => module.TemplatePage),
  yyh: () => activities().then((module) => module.YyhPage),
  yyh_list: () => activities().then((module) => module.YyhListPage),
  kxzq: () => controlled().then((module) => module.KxZonePage),
  kxzq_new: () => controlled().then((module) => module.KxNewPage),
  kxzq_goods: () => controlled().then((module) => module.KxProgrammePage),
  zhzq: () => zones().then((module) => module.CombinationZonePage),
  hb: () => zones().then((module) => module.CashbackPage),
  welfare: () => zones().then((module) => module.WelfarePage),
  mrtj: () => zones().then((module) => module.EverydayZonePage),
  jxqzc: () => zones().then((module) => module.NearExpiryZonePage),
  yx_index: () => zones().then((module) => module.FreeShippingZonePage),
  yx_table: () => zones().then((module) => module.FreeShippingTablePage),
  yx_rule: () => zones().then((module) => module.FreeShippingRulePage),
  ppzq: () => zones().then((module) => module.BrandZonePage),
  ppzq_info: () => zones().then((module) => module.BrandInfoPage),
};

const LAZY = new Set<string>([
  'login',
  'cart_step1',
  'cart_step2',
  'cart_step3',
  'cart_step4',
  'cart_hm',
  'list_info',
  'register_step1',
  'register_step2',
  'register_step3',
  'register_dd_step1',
  'register_dd_step2',
  'register_dd_step3',
  'forget_step1',
  'forget_step2',
  'forget_step3',
  'zzfw_star',
  'user_hyzx',
  'wdqb',
  'wdqb_yegl',
  'wdqb_zhhb',
  'wdqb_jfgl',
  'wdqb_yhq',
  'wdqb_xjq',
  'jcxx_index',
  'zhzx_zzzj',
  'zhzx_ddgl',
  'zhzx_addr',
  'zhzx_wdxx',
  'zhzx_bdwx',
  'order_index',
  'order_info',
  'order_return',
  'order_after_sales',
  'zzfw_dzfp',
  'jfdd',
  'lqzx',
  'jfsc',
  'dzht',
  'zyyp',
  'qxzq',
  'loading_activity',
  'help_xrzn_hyzc',
  'help_xrzn_gwzn',
  'help_xrzn_aqgy',
  'help_fwbz_wzzz',
  'help_fwbz_yhxy',
  'help_fwbz_zskf',
  'help_us_tsjy',
  'help_us_link',
  'help_pay',
  'help_zfps_ddzf',
  'help_zfps_hwps',
  'help_zfps_ypth',
  'news_hy',
  'news_company',
  'news_info',
  'zzfw_kjcg',
  'zzfw_pzqg',
  'zzfw_pzqg_add',
  'zzfw_pzqg_info',
  'zzfw_yjfk',
  'yjh',
  'hdzx',
  'zqmb',
  'hdmb',
  'yyh',
  'yyh_list',
  'kxzq',
  'kxzq_new',
  'kxzq_goods',
  'zhzq',
  'hb',
  'welfare',
  'mrtj',
  'jxqzc',
  'yx_index',
  'yx_table',
  'yx_rule',
  'ppzq',
  'ppzq_info',
]);

function pageRoute(name: string): Pick<RouteObject, 'element' | 'lazy'> {
  const page = PAGES[name];
  if (!page) throw new Error(`route ${name} has no page`);
  if (LAZY.has(name)) {
    const load = page as LazyPage;
    return { lazy: async () => ({ Component: await load() }) };
  }
  const Component = page as Page;
  return { element: <Component /> };
}

export const routeObjects: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...ROUTES.map((route): RouteObject => ({ path: route.path, handle: { route }, ...pageRoute(route.name) })),
      ...REDIRECTS.map((redirect): RouteObject => ({ path: redirect.from, element: <RedirectTo to={redirect.to} /> })),
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routeObjects);
