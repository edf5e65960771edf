// The catalogue's reads: the goods list with its filters, a goods' detail and the activities it
// takes part in. Adding to the cart is `@/api/cart`; favourites are `@/api/favorites`.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryOf } from '@/api/requests';
import type { GoodsActivities, GoodsDetail, GoodsPage } from '@/api/types';
import { keys } from '@/lib/query-keys';
import { PAGE_SIZE, type ListQuery } from './list-params';

export { PAGE_SIZE };

export function goodsListQuery(params: ListQuery) {
  return queryOptions({
    queryKey: keys.goods.list(params),
    queryFn: () => api.get<GoodsPage>('/api/goods/list', { params: { page_size: PAGE_SIZE, ...params } satisfies ListQuery }),
    placeholderData: keepPreviousData,
  });
}

export function goodsDetailQuery(id: number, query: QueryOf<'/api/goods/detail/{id}'>) {
  return queryOptions({
    queryKey: keys.goods.detail(id, query),
    queryFn: () => api.get<GoodsDetail>(`/api/goods/detail/${id}`, { params: query }),
    enabled: Number.isFinite(id) && id > 0,
  });
}

/** The promotions a goods takes part in: its full-reduction activity, a running flash sale, the
 * combinations it is sold in (`goods/activities`). */
export function goodsActivitiesQuery(id: number) {
  const params: QueryOf<'/api/goods/activities'> = { goods_id: id };
  return queryOptions({
    queryKey: keys.goods.activities(params),
    queryFn: () => api.get<GoodsActivities>('/api/goods/activities', { params }),
    enabled: Number.isFinite(id) && id > 0,
  });
}
