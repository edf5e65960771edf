// The catalogue's reads: the goods list with its filters, a goods' detail and the activities it
// takes part in. Adding to the cart is `@/api/cart`; favourites are `@/api/favorites`.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Params } from '@/lib/api-client';
import type { GoodsActivities, GoodsDetail, GoodsPage } from '@/api/types';
import { keys } from '@/lib/query-keys';
import { PAGE_SIZE } from './list-params';

export { PAGE_SIZE };

export function goodsListQuery(params: Params) {
  return queryOptions({
    queryKey: keys.goods.list(params),
    queryFn: () => api.get<GoodsPage>('/api/goods/list', { params: { page_size: PAGE_SIZE, ...params } }),
    placeholderData: keepPreviousData,
  });
}

export function goodsDetailQuery(id: number, query: Params) {
  return queryOptions({
    queryKey: keys.goods.detail(id, query),
    queryFn: () => api.get<GoodsDetail>(`/api/goods/detail/${id}`, { params: query }),
    enabled: Number.isFinite(id) && id > 0,
  });
}

/** The promotions a goods takes part in: its full-reduction activity, a running flash sale, the
 * combinations it is sold in (`goods/activities`). */
export function goodsActivitiesQuery(id: number) {
  const params = { goods_id: id };
  return queryOptions({
    queryKey: keys.goods.activities(params),
    queryFn: () => api.get<GoodsActivities>('/api/goods/activities', { params }),
    enabled: Number.isFinite(id) && id > 0,
  });
}
