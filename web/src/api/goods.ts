// The catalogue's goods list as the zones ask it (the zones' pages and the controlled-sales zone):
// the zone's own filter, then the buyer's sort and page.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { GoodsPage } from './types';
import type { QueryOf } from './requests';

/** `goods/list`'s query: a zone's own filter is part of it. */
export type GoodsQuery = QueryOf<'/api/goods/list'>;

export const ZONE_PAGE_SIZE = 20;

/** A zone's list query: its own filter, then the buyer's sort and page. */
export function zoneParams(filter: GoodsQuery, sort: string, order: string, page: number): GoodsQuery {
  const params: GoodsQuery = { ...filter, page, page_size: ZONE_PAGE_SIZE };
  if (sort && sort !== 'default') params.sort = sort;
  if (order) params.order = order;
  return params;
}

/** A page of a zone's goods (`goods/list` with the zone's query). */
export function zoneGoodsQuery(params: GoodsQuery) {
  return queryOptions({
    queryKey: keys.zones.goods(params),
    queryFn: () => api.get<GoodsPage>('/api/goods/list', { params }),
    placeholderData: keepPreviousData,
  });
}
