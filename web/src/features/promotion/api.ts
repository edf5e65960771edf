// The coupon centre's, the points mall's and the lucky draw's reads and actions.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type {
  Claimed,
  CouponCentre,
  DrawActivity,
  DrawAds,
  DrawCheck,
  DrawResult,
  PointsGoods,
  PointsMallPage,
  PointsOrder,
  PointsOrderPage,
  Winners,
} from '@/api/types';
import { keys } from '@/lib/query-keys';
import { DRAW_DELAY, wait } from './draw';

/** What a centre card's button says and whether it can be pressed. */
export const CLAIM_STATES: Record<string, { label: string; enabled: boolean }> = {
  claim: { label: '立即领取', enabled: true },
  claimed: { label: '已领取', enabled: false },
  gone: { label: '已抢光', enabled: false },
};

/** How much of a template has been claimed, as a whole percentage for the progress bar. */
export function claimedPercent(claimed: number, stock: number): number {
  if (stock <= 0) return 100;
  return Math.min(100, Math.floor((claimed * 100) / stock));
}

export function couponCentreQuery() {
  return queryOptions({ queryKey: keys.promotion.centre(), queryFn: () => api.get<CouponCentre>('/api/coupon/centre') });
}

/** Claims a coupon; the centre, the wallet and checkout's coupons are read again. */
export function useClaim() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<Claimed>(`/api/coupon/${id}/claim`),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.promotion.all }),
        client.invalidateQueries({ queryKey: keys.wallet.all }),
        client.invalidateQueries({ queryKey: keys.centre.all }),
      ]),
  });
}

/** The mall's filters: `kind` 0 every kind, 1 goods, 2 coupons, 3 red packets. */
export interface MallFilter {
  page: number;
  kind: number;
  sort: '' | 'points_asc' | 'points_desc';
}

export function mallParams(filter: MallFilter): Record<string, string | number> {
  const params: Record<string, string | number> = { page: filter.page };
  if (filter.kind > 0) params.kind = filter.kind;
  if (filter.sort) params.sort = filter.sort;
  return params;
}

export function pointsMallQuery(filter: MallFilter) {
  return queryOptions({
    queryKey: keys.promotion.mall(filter),
    queryFn: () => api.get<PointsMallPage>('/api/points_mall', { params: mallParams(filter) }),
    placeholderData: keepPreviousData,
  });
}

/** Redeems `number` of an item (goods to `address`, the default address when absent). */
export function useRedeem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, number, address }: { id: number; number: number; address?: number }) => {
      const form: Record<string, string | number> = { number };
      if (address) form.address_id = address;
      return api.post<PointsOrder>(`/api/points_mall/${id}/redeem`, form);
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.promotion.all }),
        client.invalidateQueries({ queryKey: keys.wallet.all }),
        client.invalidateQueries({ queryKey: keys.centre.all }),
      ]),
  });
}

export function pointsOrdersQuery(page: number, status: number) {
  return queryOptions({
    queryKey: keys.promotion.orders(page, status),
    queryFn: () => api.get<PointsOrderPage>('/api/points_orders', { params: status >= 0 ? { page, status } : { page } }),
    placeholderData: keepPreviousData,
  });
}

export function useReceivePoints() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<PointsOrder>(`/api/points_orders/${id}/receive`),
    onSettled: () => client.invalidateQueries({ queryKey: keys.promotion.all }),
  });
}

/** The most the member may redeem of an item now: its stock, what is left of their limit, and 99. */
export function redeemable(item: Pick<PointsGoods, 'stock' | 'per_member' | 'mine'>): number {
  const limit = item.per_member > 0 ? item.per_member - item.mine : Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(item.stock, limit, 99));
}

// The lucky draw (§4): the popup's check, the activity it opens, its winners, rules and ads.
// Each is asked silently and not again on a failure: the popup simply does not open.

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
    queryFn: () => api.get<DrawActivity>('/api/draw', { params: { id: id ?? 0 }, silent: true }),
    enabled: !!id,
    staleTime: Infinity,
    retry: false,
  });
}

/** An activity's latest winners (`draw/new_record`). */
export function drawWinnersQuery(id: number) {
  return queryOptions({
    queryKey: keys.draw.winners(id),
    queryFn: () => api.get<Winners>('/api/draw/new_record', { params: { id }, silent: true }),
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
      const [drawn] = await Promise.all([api.post<DrawResult>('/api/draw', { id }), wait(DRAW_DELAY)]);
      return drawn;
    },
    onSuccess: (_, id) => {
      void client.invalidateQueries({ queryKey: keys.draw.winners(id) });
      void client.invalidateQueries({ queryKey: keys.draw.rules(id) });
      void client.invalidateQueries({ queryKey: keys.draw.activity(id) });
    },
  });
}
