// The lucky draw's reads and its one write (§4): the popup's check, the activity it opens, its
// winners, rules and ads, and a draw. Each read is asked silently and not again on a failure:
// the popup simply does not open.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { DrawActivity, DrawAds, DrawCheck, DrawId, DrawResult, Winners } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';
import { DRAW_DELAY, wait } from './draw';

/** Whether a running activity waits for the member (`draw/simple`), asked once per session. */
export function drawCheckQuery() {
  return queryOptions({
    queryKey: keys.draw.simple(),
    queryFn: () => api.get<DrawCheck>('/api/draw/simple', { silent: true }),
    staleTime: Infinity,
    retry: false,
  });
}

/** The activity the popup shows; asked only for an id. */
export function drawActivityQuery(id: number | null) {
  return queryOptions({
    queryKey: keys.draw.activity(id),
    queryFn: () => api.get<DrawActivity>('/api/draw', { params: { id: id ?? 0 } satisfies QueryOf<'/api/draw'>, silent: true }),
    enabled: !!id,
    staleTime: Infinity,
    retry: false,
  });
}

/** An activity's latest winners (`draw/new_record`). */
export function drawWinnersQuery(id: number) {
  return queryOptions({
    queryKey: keys.draw.winners(id),
    queryFn: () => api.get<Winners>('/api/draw/new_record', { params: { id } satisfies QueryOf<'/api/draw/new_record'>, silent: true }),
    retry: false,
  });
}

/** An activity's rules and the prizes left (`draw/{id}/activity`). */
export function drawRulesQuery(id: number) {
  return queryOptions({
    queryKey: keys.draw.rules(id),
    queryFn: () => api.get<DrawActivity>(`/api/draw/${id}/activity`, { silent: true }),
    retry: false,
  });
}

/** The activities running now, as ads. */
export function drawAdsQuery() {
  return queryOptions({
    queryKey: keys.draw.ads(),
    queryFn: () => api.get<DrawAds>('/api/draw/ads', { silent: true }),
    retry: false,
    staleTime: 60_000,
  });
}

/** Draws once in activity `id`; the answer comes no sooner than §9's delay after the press. The
 * member's own win joins the winners and a prize taken leaves one less: the activity, its
 * winners and its rules are asked again (without waiting for them). */
export function useDraw() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const [drawn] = await Promise.all([api.post<DrawResult>('/api/draw', { id } satisfies DrawId), wait(DRAW_DELAY)]);
      return drawn;
    },
    onSuccess: (_, id) => {
      void client.invalidateQueries({ queryKey: keys.draw.winners(id) });
      void client.invalidateQueries({ queryKey: keys.draw.rules(id) });
      void client.invalidateQueries({ queryKey: keys.draw.activity(id) });
    },
  });
}
