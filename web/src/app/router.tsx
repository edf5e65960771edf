// The router, made from the route table: each entry's page, the spec's redirects and aliases,
// and /404 for everything else.
import { createElement, lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ROUTES, REDIRECTS, resolvePath, routeForPath } from './routes';
import { RootLayout } from './layout/root-layout';
import { RedirectTo } from './layout/redirect-to';
import { loadEngine } from '@/lib/engine';
import { startEarly } from '@/lib/early';
import { firstCalls } from './first-calls';
import { PAGES, type PageEntry, type PageModule } from './page-code';
import { queryClient } from './query-client';

type Page = ComponentType;

// Every page loads on first use: the first load is the app's frame, and the page it opens on
// comes beside it. The frame is drawn (and asks for the member, the cart and the menus) while
// the page's code comes: each page is a React.lazy component in its route's element, not the
// router's own `lazy`, which would hold the whole app until it came. Moving to a page whose code
// is not there yet keeps the current one on screen until it is (the router's updates are
// transitions). A page that uses the pricing engine (its prices, the goods cards' list prices,
// the cart, the form rules) loads it with its own code, in parallel; the member centre, help
// and news, and the small screens never load it (lib/engine.ts). Where each page's code is:
// page-code.ts, which the boot script reads too.

/** A page: its loader, and the lazy component that renders it (one per page, whatever routes show it). */
interface PageSource {
  load: () => Promise<Page>;
  Component: LazyExoticComponent<Page>;
  /** The page's component, once its code has come. */
  loaded?: Page;
}

/**
 * What the lazy component of a page whose code has already come resolves to: a thenable that
 * answers at once, which React.lazy reads in the same render. A promise, even a settled one,
 * answers only on the next microtask, and by then React has suspended and drawn the fallback;
 * the content then waits for React's fallback throttle (300 ms after the fallback was drawn), a
 * third of a second added to every load whose page code came before the frame's first render.
 */
function settled(page: Page): Promise<{ default: Page }> {
  const thenable = { then: (resolve: (module: { default: Page }) => void) => resolve({ default: page }) };
  return thenable as unknown as Promise<{ default: Page }>;
}

const sources = new Map<PageModule, Map<string, PageSource>>();

/** The loader and lazy component of a page (one per page, whatever routes show it). */
function source({ module, name }: PageEntry): PageSource {
  let byName = sources.get(module);
  if (!byName) sources.set(module, (byName = new Map()));
  let known = byName.get(name);
  if (!known) {
    const code = module.engine ? () => Promise.all([module.load(), loadEngine()]).then(([loaded]) => loaded) : module.load;
    const page: PageSource = {
      load: () =>
        code().then((loaded) => {
          page.loaded = (loaded as Record<string, Page>)[name];
          return page.loaded;
        }),
      Component: lazy(() => (page.loaded ? settled(page.loaded) : page.load().then((Component) => ({ default: Component })))),
    };
    known = page;
    byName.set(name, known);
  }
  return known;
}

function pageRoute(name: string): Pick<RouteObject, 'element'> {
  const entry = PAGES[name];
  if (!entry) throw new Error(`route ${name} has no page`);
  const { Component } = source(entry);
  return {
    element: (
      <Suspense fallback={null}>
        <Component />
      </Suspense>
    ),
  };
}

// The back office (/admin, features/admin): its own frame and client, its code loaded only there.
// The router ranks `/admin/*` above the shop's catch-all whatever their order.
const adminConsole = lazy(() => import('@/features/admin/console').then((module) => ({ default: module.AdminConsole })));

export const routeObjects: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...ROUTES.map((route): RouteObject => ({ path: route.path, handle: { route }, ...pageRoute(route.name) })),
      ...REDIRECTS.map((redirect): RouteObject => ({ path: redirect.from, element: <RedirectTo to={redirect.to} /> })),
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
  {
    path: '/admin/*',
    element: <Suspense fallback={null}>{createElement(adminConsole)}</Suspense>,
  },
];

export const router = createBrowserRouter(routeObjects);

/**
 * Starts loading the page at `pathname` (its code, and the engine when it uses it); answers
 * whether there is one. `loaded()` settles once that load has, whether it came or failed.
 */
export function preloadPage(pathname: string): boolean {
  const route = routeForPath(resolvePath(pathname));
  const entry = route && PAGES[route.name];
  if (!entry) return false;
  if (!preloaded.has(route.name)) {
    // A failed load is the page's to report, when it is opened; a hover tries again.
    preloaded.set(
      route.name,
      source(entry)
        .load()
        .then(
          () => undefined,
          () => void preloaded.delete(route.name),
        ),
    );
  }
  return true;
}

const preloaded = new Map<string, Promise<void>>();

/** Settles once the code of the page at `pathname` has come or failed (at once for an address no page shows). */
export function pageLoaded(pathname: string): Promise<void> {
  const route = routeForPath(resolvePath(pathname));
  preloadPage(pathname);
  return (route && preloaded.get(route.name)) ?? Promise.resolve();
}

/** The code that puts a page's first answers in the query cache, loaded with the first page pointed at. */
const firstQueries = () => import('./first-queries');

/** How long the pointer rests on a link before the page's data is asked for: a pointer passing over does not ask. */
export const DATA_INTENT_MS = 80;

/**
 * Loads a page's code while the pointer rests on a link to it, or the keyboard focuses it, and
 * once it has rested DATA_INTENT_MS, starts the page's first calls (lib/early.ts) and puts their
 * answers in the query cache as they come (app/first-queries.ts): the time between the two and
 * the click is usually enough, and the page then opens with its content in its first render.
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
    // Their answers go into the query cache as they come, so that the page draws them at once.
    void firstQueries().then(
      ({ prefillFirstQueries }) => prefillFirstQueries(queryClient, link.pathname, link.search),
      () => undefined,
    );
  };
  root.addEventListener(
    'pointerover',
    (event) => {
      const link = linkOf(event);
      if (!link || resting?.link === link) return;
      if (resting) clearTimeout(resting.timer);
      preloadPage(link.pathname);
      void firstQueries().catch(() => undefined);
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
