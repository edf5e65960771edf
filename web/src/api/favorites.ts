// Favourites (收藏): the goods' detail page adds and removes one, the favourites page removes one.
// After either, the favourites and the detail of those goods (its 已收藏) are read again.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { FavoriteForm } from './types';

function refreshFavorites(client: QueryClient, goodsIds: number[]) {
  return Promise.all([
    ...goodsIds.map((id) => client.invalidateQueries({ queryKey: keys.goods.detailOf(id) })),
    client.invalidateQueries({ queryKey: keys.favorites.all }),
  ]);
}

export function useAddFavorite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (goodsIds: number[]) => api.post<unknown>('/api/favorite', { goods_ids: goodsIds } satisfies FavoriteForm),
    onSuccess: (_, goodsIds) => refreshFavorites(client, goodsIds),
  });
}

export function useCancelFavorite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (goodsIds: number[]) => api.post<unknown>('/api/favorite/cancel', { goods_ids: goodsIds } satisfies FavoriteForm),
    onSuccess: (_, goodsIds) => refreshFavorites(client, goodsIds),
  });
}
