// The home common data (§3): hot terms, nav (at most 9), category trees, brands, the clock; the
// ads of a position, the help groups and the friendly links. Each read is its query options;
// the `use…` hooks are those options as the page frame reads them on every page.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { setServerTime } from '@/lib/server-clock';
import type { Ad, HelpGroup, HomeData, Link } from './types';
import { keys } from '@/lib/query-keys';
import type { QueryOf } from './requests';

export const NAV_MAX = 9;

async function fetchCommonData(): Promise<HomeData> {
  // §8: a failure of the home data is ignored silently.
  const data = await api.get<HomeData>('/api/index', { silent: true });
  setServerTime(data.timestamp);
  return { ...data, nav: data.nav.slice(0, NAV_MAX) };
}

export function commonDataQuery() {
  return queryOptions({ queryKey: keys.home.common(), queryFn: fetchCommonData, staleTime: 60_000 });
}

export function useCommonData() {
  return useQuery(commonDataQuery());
}

/** The right-hand / top ad of a position key (xrtj, top, ppzq, kxzq, zyzq, login, yx, common, postList). */
export function adQuery(position: string) {
  return queryOptions({
    queryKey: keys.home.ad(position),
    queryFn: () => api.get<Ad[]>('/api/focus/right', { params: { position } satisfies QueryOf<'/api/focus/right'>, silent: true }),
    staleTime: 300_000,
  });
}

export function useAd(position: string) {
  return useQuery(adQuery(position));
}

const HELP_CACHE = 'help-categories';

/** The help article groups (§3: cached in local storage). */
export function helpGroupsQuery() {
  return queryOptions({
    queryKey: keys.home.helpGroups(),
    queryFn: async () => {
      const groups = await api.get<HelpGroup[]>('/api/article/category', {
        params: { category_id: '3' } satisfies QueryOf<'/api/article/category'>,
        silent: true,
      });
      localStorage.setItem(HELP_CACHE, JSON.stringify(groups));
      return groups;
    },
    initialData: () => {
      try {
        const cached = localStorage.getItem(HELP_CACHE);
        return cached ? (JSON.parse(cached) as HelpGroup[]) : undefined;
      } catch {
        return undefined;
      }
    },
    staleTime: 0,
  });
}

export function useHelpGroups() {
  return useQuery(helpGroupsQuery());
}

export function linksQuery() {
  return queryOptions({
    queryKey: keys.home.links(),
    queryFn: () => api.get<Link[]>('/api/global/links', { silent: true }),
    staleTime: 300_000,
  });
}

export function useLinks() {
  return useQuery(linksQuery());
}
