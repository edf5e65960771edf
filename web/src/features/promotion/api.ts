// The coupon centre's and the points mall's reads and actions. The lucky draw's are draw-api.ts
// (the popup is on every page: its calls come with the page frame, these do not).
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Claimed, CouponCentre, PointsGoods, PointsMallPage, PointsOrder, PointsOrderPage, RedeemForm } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

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

/** The mall's filters as the page holds them: `kind` 0 every kind, 1 goods, 2 coupons, 3 red packets. */
export interface MallFilter {
  page: number;
  kind: number;
  sort: '' | 'points_asc' | 'points_desc';
}

/** `points_mall`'s query: the filters set. */
export function mallParams(filter: MallFilter): QueryOf<'/api/points_mall'> {
  const params: QueryOf<'/api/points_mall'> = { page: filter.page };
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

/** Redeems `number` of an item (goods to `address_id`, the default address when absent). */
export function useRedeem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...form }: { id: number } & RedeemForm) => api.post<PointsOrder>(`/api/points_mall/${id}/redeem`, form),
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
    queryFn: () =>
      api.get<PointsOrderPage>('/api/points_orders', {
        params: (status >= 0 ? { page, status } : { page }) satisfies QueryOf<'/api/points_orders'>,
      }),
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
