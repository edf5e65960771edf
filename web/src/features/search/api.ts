// The search box's reads: the hot terms of its dropdown, and the suggestions for what is typed.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { QueryOf } from '@/api/requests';
import type { SearchType } from './suggestions';

/** `goods/hot`: the dropdown's hot terms, asked on the box's first empty focus and kept a while. */
export function hotTermsQuery() {
  return queryOptions({
    queryKey: keys.goods.hot(),
    queryFn: () => api.get<string[]>('/api/goods/hot', { silent: true }),
    staleTime: 5 * 60_000,
  });
}

/** `goods/search`: the suggestions for the keywords typed. The suggestion box asks it itself, on
 * its own timing (suggestions.ts), and drops an answer a newer keystroke has made useless: the
 * answers are not cached. */
export function fetchSuggestions(keywords: string, type: SearchType) {
  return api.get<string[]>('/api/goods/search', { params: { keywords, type } satisfies QueryOf<'/api/goods/search'>, silent: true });
}
