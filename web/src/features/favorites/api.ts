// 我的收藏: a page of the member's favourite goods. Removing one is `@/api/favorites`.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { FavoritePage } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

export function favoritesQuery(page: number) {
  return queryOptions({
    queryKey: keys.favorites.page(page),
    queryFn: () => api.get<FavoritePage>('/api/favorite', { params: { page } satisfies QueryOf<'/api/favorite'> }),
    placeholderData: keepPreviousData,
  });
}
