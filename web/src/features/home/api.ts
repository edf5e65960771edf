// The home page's data: banners, flash sales, recommendations, daily specials. The member
// panel's figures are the member centre's (`@/api/member`).
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Ad, Card, Recommendations, SpikeFloor } from '@/api/types';
import { keys } from '@/lib/query-keys';

export function bannersQuery() {
  return queryOptions({ queryKey: keys.home.banners(), queryFn: () => api.get<Ad[]>('/api/focus', { silent: true }), staleTime: 300_000 });
}

export function spikeQuery() {
  return queryOptions({
    queryKey: keys.home.spike(),
    queryFn: () => api.get<SpikeFloor>('/api/index/spike', { silent: true }),
  });
}

export function recommendedQuery() {
  return queryOptions({
    queryKey: keys.home.recommendations(1),
    queryFn: () => api.get<Recommendations>('/api/index_wntj/1', { silent: true }),
  });
}

export function everydayPriceQuery() {
  return queryOptions({
    queryKey: keys.home.everydayPrice(),
    queryFn: () => api.get<Card[]>('/api/activity/everyday_price', { silent: true }),
  });
}
