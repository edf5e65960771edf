// The router, made from the route table: each entry's page, the spec's redirects and aliases,
// and /404 for everything else.
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ROUTES, REDIRECTS } from './routes';
import { RootLayout } from './layout/root-layout';
import { HomePage } from '@/features/home/components/home-page';
import { LoginPage } from '@/features/auth/components/login-page';
import { RegisterPage } from '@/features/auth/components/register-page';
import { ForgetPage } from '@/features/auth/components/forget-page';
import { GoodsListPage } from '@/features/goods/components/goods-list-page';
import { GoodsDetailPage } from '@/features/goods/components/goods-detail-page';
import { FavoritesPage } from '@/features/favorites/components/favorites-page';
import { CartPage } from '@/features/cart/components/cart-page';
import { CheckoutPage } from '@/features/cart/components/checkout-page';
import { PayPage } from '@/features/cart/components/pay-page';
import { PaidPage } from '@/features/cart/components/paid-page';
import { NotFoundPage, NoActivityPage, LoadingPage, LeavePage } from './layout/simple-pages';

/** Each named route's page. */
const PAGES: Record<string, ComponentType> = {
  index: HomePage,
  login: LoginPage,
  not_found: NotFoundPage,
  no_activity: NoActivityPage,
  loading: LoadingPage,
  loading_activity: LoadingPage,
  eleven_index: LeavePage,
  cart_step1: CartPage,
  cart_step2: CheckoutPage,
  cart_step3: PayPage,
  cart_step4: PaidPage,
  cart_hm: PayPage,
  list_index: GoodsListPage,
  list_table: GoodsListPage,
  list_no_image: GoodsListPage,
  list_other: GoodsListPage,
  list_info: GoodsDetailPage,
  search_index: GoodsListPage,
  search_table: GoodsListPage,
  register_step1: RegisterPage,
  register_step2: RegisterPage,
  register_step3: RegisterPage,
  register_dd_step1: RegisterPage,
  register_dd_step2: RegisterPage,
  register_dd_step3: RegisterPage,
  forget_step1: ForgetPage,
  forget_step2: ForgetPage,
  forget_step3: ForgetPage,
  zzfw_star: FavoritesPage,
};

export const routeObjects: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...ROUTES.map((route): RouteObject => {
        const Page = PAGES[route.name];
        if (!Page) throw new Error(`route ${route.name} has no page`);
        return { path: route.path, element: <Page />, handle: { route } };
      }),
      ...REDIRECTS.map((redirect): RouteObject => ({ path: redirect.from, element: <Navigate to={redirect.to} replace /> })),
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routeObjects);
