// The zones' reads: a zone's goods (the catalogue's list with the zone's own filter), the
// brands of the brand zone and one brand.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Params } from '@/lib/api-client';
import type { BrandPage, BrandZone, CashbackPage, CombinationCard, GoodsPage, Welfare } from '@/api/types';
import { keys } from '@/lib/query-keys';

export const ZONE_PAGE_SIZE = 20;

/** A zone's list query: its own filter, then the buyer's sort and page. */
export function zoneParams(filter: Params, sort: string, order: string, page: number): Params {
  const params: Params = { ...filter, page, page_size: ZONE_PAGE_SIZE };
  if (sort && sort !== 'default') params.sort = sort;
  if (order) params.order = order;
  return params;
}

export function useZoneGoods(params: Params) {
  return useQuery({
    queryKey: keys.zones.goods(params),
    queryFn: () => api.get<GoodsPage>('/api/goods/list', { params }),
    placeholderData: keepPreviousData,
  });
}

export function useBrands(page: number) {
  return useQuery({
    queryKey: keys.zones.brands(page),
    queryFn: () => api.get<BrandPage>('/api/brand', { params: { page } }),
    placeholderData: keepPreviousData,
  });
}

export function useBrand(id: number) {
  return useQuery({ queryKey: keys.zones.brand(id), queryFn: () => api.get<BrandZone>(`/api/focus/brand/${id}`), enabled: id > 0 });
}

/** A page number from the address (`/ppzq/3`): 1 when absent or not a positive whole number. */
export function pageFromPath(segment: string | undefined): number {
  const page = Number(segment);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The store-wide discount running now, or null. */
export function useWelfare() {
  return useQuery({ queryKey: keys.zones.welfare(), queryFn: () => api.get<Welfare | null>('/api/activity/welfare') });
}

/** 满额返现: the running activity with its tiers, and the member's orders that earned cash back. */
export function useCashback() {
  return useQuery({ queryKey: keys.zones.cashback(), queryFn: () => api.get<CashbackPage>('/api/activity/cashback') });
}

/** 组合购: every set with its goods. */
export function useCombinations() {
  return useQuery({ queryKey: keys.zones.combinations(), queryFn: () => api.get<CombinationCard[]>('/api/combination') });
}
