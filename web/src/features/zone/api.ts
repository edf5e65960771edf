// The zones' reads: the brands of the brand zone and one brand, the store-wide discount, cash
// back and the combinations. A zone's goods are the catalogue's list (`@/api/goods`).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { BrandPage, BrandZone, CashbackPage, CombinationCard, Welfare } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

export function brandsQuery(page: number) {
  return queryOptions({
    queryKey: keys.zones.brands(page),
    queryFn: () => api.get<BrandPage>('/api/brand', { params: { page } satisfies QueryOf<'/api/brand'> }),
    placeholderData: keepPreviousData,
  });
}

export function brandQuery(id: number) {
  return queryOptions({ queryKey: keys.zones.brand(id), queryFn: () => api.get<BrandZone>(`/api/focus/brand/${id}`), enabled: id > 0 });
}

/** A page number from the address (`/ppzq/3`): 1 when absent or not a positive whole number. */
export function pageFromPath(segment: string | undefined): number {
  const page = Number(segment);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The store-wide discount running now, or null. */
export function welfareQuery() {
  return queryOptions({ queryKey: keys.zones.welfare(), queryFn: () => api.get<Welfare | null>('/api/activity/welfare') });
}

/** 满额返现: the running activity with its tiers, and the member's orders that earned cash back. */
export function cashbackQuery() {
  return queryOptions({ queryKey: keys.zones.cashback(), queryFn: () => api.get<CashbackPage>('/api/activity/cashback') });
}

/** 组合购: every set with its goods. */
export function combinationsQuery() {
  return queryOptions({ queryKey: keys.zones.combinations(), queryFn: () => api.get<CombinationCard[]>('/api/combination') });
}
