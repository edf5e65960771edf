// The catalogue's calls: the goods list with its filters, a goods' detail and the activities it
// takes part in, favourites.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Params } from '@/lib/api-client';
import type { GoodsActivities, GoodsDetail, GoodsPage } from '@/api/types';
import { keys } from '@/lib/query-keys';
import { PAGE_SIZE } from './list-params';

export { PAGE_SIZE };

export function useGoodsList(params: Params) {
  return useQuery({
    queryKey: keys.goods.list(params),
    queryFn: () => api.get<GoodsPage>('/api/goods/list', { params: { page_size: PAGE_SIZE, ...params } }),
    placeholderData: keepPreviousData,
  });
}

export function useGoodsDetail(id: number, query: Params) {
  return useQuery({
    queryKey: keys.goods.detail(id, query),
    queryFn: () => api.get<GoodsDetail>(`/api/goods/detail/${id}`, { params: query }),
    enabled: Number.isFinite(id) && id > 0,
  });
}

/** The promotions a goods takes part in: its full-reduction activity, a running flash sale, the
 * combinations it is sold in (`goods/activities`). */
export function useGoodsActivities(id: number) {
  const params = { goods_id: id };
  return useQuery({
    queryKey: keys.goods.activities(params),
    queryFn: () => api.get<GoodsActivities>('/api/goods/activities', { params }),
    enabled: Number.isFinite(id) && id > 0,
  });
}

export function addFavorite(goodsIds: number[]) {
  return api.post('/api/favorite', { goods_ids: goodsIds });
}

export function cancelFavorite(goodsIds: number[]) {
  return api.post('/api/favorite/cancel', { goods_ids: goodsIds });
}
