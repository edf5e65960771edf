// The frame of every page, as the current route's layout flags say (§2): header or
// login-style header, nav, footer, right-side widget, top-right ad, the lucky-draw popup. Also: the page title,
// the page-view report, scroll restoration, the one-time reload after login, and the
// bridge that lets the API client show messages and navigate.
import { useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigate } from 'react-router';
import { connectUi } from '@/lib/notify';
import { reportPageView } from '@/lib/report';
import { pageTitle, type RouteEntry, NO_USER_FETCH } from '../routes';
import { useKnownUser, useUserBase } from '@/api/user';
import { Header } from './header';
import { LoginHeader } from './login-header';
import { NavBar } from './nav-bar';
import { Footer } from './footer';
import { RightWidget } from './right-widget';
import { TopAd } from './top-ad';
import { DrawPopup } from '@/features/promotion/components/draw-popup';
import { NO_DRAW_ROUTES } from '@/features/promotion/draw';
import { useUi } from '@/lib/ui';

function useCurrentRoute(): RouteEntry | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index].handle as { route?: RouteEntry } | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}

export function RootLayout() {
  const route = useCurrentRoute();
  const location = useLocation();
  const navigate = useNavigate();
  const { message, modal } = useUi();

  useEffect(() => {
    connectUi({ message, modal, navigate: (path) => navigate(path), reload: () => window.location.reload() });
    return () => connectUi(null);
  }, [message, modal, navigate]);

  // §2: a session flag login=1 (set by a login) makes the page reload once.
  useEffect(() => {
    if (sessionStorage.getItem('login') === '1') {
      sessionStorage.removeItem('login');
      window.location.reload();
      return;
    }
    sessionStorage.removeItem('loading');
  }, [location.pathname]);

  useEffect(() => {
    document.title = pageTitle(route);
    if (route) reportPageView(route.name, location.pathname, route.title);
  }, [route, location.pathname]);

  const fetchUser = !!route && !NO_USER_FETCH.has(route.name);
  const fetched = useUserBase(fetchUser, location.pathname);
  // Where the header does not ask (§6: the member centre answers its own), it shows the member
  // the last route asked about.
  const known = useKnownUser();
  const user = { data: fetchUser ? fetched.data : (fetched.data ?? known) };
  const layout = route?.layout;
  // The open cart panel takes its width from the page rather than covering it.
  const [panelOpen, setPanelOpen] = useState(false);
  const withPanel = panelOpen && !!layout?.rightWidget;

  return (
    <div className={['shop', layout?.rightWidget ? 'with-rail' : '', withPanel ? 'with-panel' : ''].filter(Boolean).join(' ')}>
      <ScrollRestoration getKey={(at) => (route?.noScrollRestore ? `${at.key}:${Date.now()}` : at.key)} />
      {layout?.header && <Header user={user.data} />}
      {layout?.loginHeader && <LoginHeader title={route?.title ?? ''} />}
      {layout?.nav && <NavBar open={route?.name === 'index'} user={user.data} />}
      {layout?.topAd && <TopAd />}
      <main className="shop-main">
        <Outlet />
      </main>
      {layout?.footer && <Footer />}
      {layout?.rightWidget && <RightWidget user={user.data} openOnStart={route?.name === 'cart_step1'} onToggle={setPanelOpen} />}
      <DrawPopup enabled={!!route && !NO_DRAW_ROUTES.has(route.name) && !!user.data?.login} />
    </div>
  );
}
