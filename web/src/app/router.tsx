// The router, made from the route table: each entry's page, the spec's redirects and aliases,
// and /404 for everything else.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ROUTES, REDIRECTS, resolvePath, routeForPath } from './routes';
import { RootLayout } from './layout/root-layout';
import { RedirectTo } from './layout/redirect-to';
import { loadEngine } from '@/lib/engine';
import { startEarly } from '@/lib/early';
import { firstCalls } from './first-calls';

type Page = ComponentType;

// Every page loads on first use: the first load is the app's frame, and the page it opens on
// comes beside it. The frame is drawn (and asks for the member, the cart and the menus) while
// the page's code comes: each page is a React.lazy component in its route's element, not the
// router's own `lazy`, which would hold the whole app until it came. Moving to a page whose code
// is not there yet keeps the current one on screen until it is (the router's updates are
// transitions). A page that uses the pricing engine (its prices, the goods cards' list prices,
// the cart, the form rules) loads it with its own code, in parallel; the member centre, help
// and news, and the small screens never load it (lib/engine.ts).
const withEngine =
  <T,>(load: () => Promise<T>) =>
  () =>
    Promise.all([load(), loadEngine()]).then(([module]) => module);

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
const centre = () => import('@/features/member/components/member-centre-page');
const wallet = withEngine(() => import('@/features/wallet/components/wallet-pages'));
const account = withEngine(() => import('@/features/account/components/account-pages'));
const orders = withEngine(() => import('@/features/order/components/order-pages'));
const promotions = withEngine(() => import('@/features/promotion/components/promotion-pages'));
const zones = withEngine(() => import('@/features/zone/components/zone-pages'));
const activities = withEngine(() => import('@/features/activity/components/activity-pages'));
const controlled = withEngine(() => import('@/features/kxzq/components/kxzq-pages'));
const help = () => import('@/features/help/components/help-pages');
const simple = () => import('./layout/simple-pages');
const selfService = withEngine(() => import('@/features/self-service/components/self-service-pages'));

/** A page: its loader, and the lazy component that renders it (one per page, whatever routes show it). */
interface PageSource {
  load: () => Promise<Page>;
  Component: LazyExoticComponent<Page>;
}

const sources = new WeakMap<object, Map<string, PageSource>>();

/** The page exported as `name` by the module `module` loads. */
function page<M>(module: () => Promise<M>, name: keyof M & string): PageSource {
  let byName = sources.get(module);
  if (!byName) sources.set(module, (byName = new Map()));
  let source = byName.get(name);
  if (!source) {
    const load = () => module().then((loaded) => loaded[name] as Page);
    source = { load, Component: lazy(() => load().then((Component) => ({ default: Component }))) };
    byName.set(name, source);
  }
  return source;
}

/** Each named route's page. */
const PAGES: Record<string, PageSource> = {
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

function pageRoute(name: string): Pick<RouteObject, 'element'> {
  const source = PAGES[name];
  if (!source) throw new Error(`route ${name} has no page`);
  const { Component } = source;
  return {
    element: (
      <Suspense fallback={null}>
        <Component />
      </Suspense>
    ),
  };
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

/** Starts loading the page at `pathname` (its code, and the engine when it uses it); answers whether there is one. */
export function preloadPage(pathname: string): boolean {
  const route = routeForPath(resolvePath(pathname));
  const source = route && PAGES[route.name];
  if (!source) return false;
  if (!preloaded.has(route.name)) {
    preloaded.add(route.name);
    // A failed load is the page's to report, when it is opened; a hover tries again.
    source.load().catch(() => preloaded.delete(route.name));
  }
  return true;
}

const preloaded = new Set<string>();

/** How long the pointer rests on a link before the page's data is asked for: a pointer passing over does not ask. */
export const DATA_INTENT_MS = 80;

/**
 * Loads a page's code while the pointer rests on a link to it, or the keyboard focuses it, and
 * once it has rested DATA_INTENT_MS, starts the page's first calls (lib/early.ts): the time
 * between the two and the click is usually enough, and the page then opens at once.
 */
export function preloadOnIntent(root: Document = document): void {
  let resting: { link: HTMLAnchorElement; timer: ReturnType<typeof setTimeout> } | undefined;
  const linkOf = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin || link.target === '_blank') return undefined;
    return link;
  };
  const startData = (link: HTMLAnchorElement) => {
    if (link.pathname === window.location.pathname && link.search === window.location.search) return;
    startEarly(firstCalls(link.pathname, link.search, { opening: false }));
  };
  root.addEventListener(
    'pointerover',
    (event) => {
      const link = linkOf(event);
      if (!link || resting?.link === link) return;
      if (resting) clearTimeout(resting.timer);
      preloadPage(link.pathname);
      resting = { link, timer: setTimeout(() => startData(link), DATA_INTENT_MS) };
    },
    { passive: true },
  );
  root.addEventListener(
    'pointerout',
    (event) => {
      if (
        resting &&
        !(event instanceof PointerEvent && event.relatedTarget instanceof Node && resting.link.contains(event.relatedTarget))
      ) {
        if (linkOf(event) === resting.link) {
          clearTimeout(resting.timer);
          resting = undefined;
        }
      }
    },
    { passive: true },
  );
  root.addEventListener('focusin', (event) => {
    const link = linkOf(event);
    if (link) preloadPage(link.pathname);
  });
}
