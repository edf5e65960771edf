// The home page's data: banners, flash sales, recommendations, daily specials.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Ad, Card, MemberCentre, Recommendations, SpikeFloor } from '@/api/types';
import { keys } from '@/lib/query-keys';

export function useBanners() {
  return useQuery({ queryKey: keys.home.banners(), queryFn: () => api.get<Ad[]>('/api/focus', { silent: true }), staleTime: 300_000 });
}

export function useSpike() {
  return useQuery({
    queryKey: keys.home.spike(),
    queryFn: () => api.get<SpikeFloor>('/api/index/spike', { silent: true }),
  });
}

export function useRecommended() {
  return useQuery({
    queryKey: keys.home.recommendations(1),
    queryFn: () => api.get<Recommendations>('/api/index_wntj/1', { silent: true }),
  });
}

export function useEverydayPrice() {
  return useQuery({
    queryKey: keys.home.everydayPrice(),
    queryFn: () => api.get<Card[]>('/api/activity/everyday_price', { silent: true }),
  });
}

/** The signed-in member's figures for the home page's panel (the member centre's own answer). */
export function useMemberSummary(enabled: boolean) {
  return useQuery({
    queryKey: keys.centre.summary(),
    queryFn: () => api.get<MemberCentre>('/api/user/center', { silent: true }),
    enabled,
  });
}
