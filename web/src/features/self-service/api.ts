// Self-service: quick purchase (the goods bought before) and wanted varieties.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { BoughtPage, FeedbackPage, Wanted, WantedPage } from '@/api/types';
import { keys } from '@/lib/query-keys';

export function useBought(page: number, order: 'recent' | 'often') {
  return useQuery({
    queryKey: keys.selfService.fastBuy(page, order),
    queryFn: () => api.get<BoughtPage>('/api/user/fast_buy', { params: { page, order } }),
    placeholderData: keepPreviousData,
  });
}

export function useWantedList(page: number) {
  return useQuery({
    queryKey: keys.selfService.wantedPage(page),
    queryFn: () => api.get<WantedPage>('/api/user/buy', { params: { page } }),
    placeholderData: keepPreviousData,
    // The shop answers from outside the app: asked again whenever the page opens.
    staleTime: 0,
  });
}

export function useWanted(id: number) {
  return useQuery({
    queryKey: keys.selfService.wantedOne(id),
    queryFn: () => api.get<Wanted>(`/api/user/buy/${id}`, { silent: true }),
    enabled: id > 0,
    retry: false,
    staleTime: 0,
  });
}

/** The lines to add for the chosen goods: each at the quantity typed (at least 1). */
export function chosenLines(chosen: number[], numbers: Record<number, number>): { goods_id: number; number: number }[] {
  return chosen.map((id) => ({ goods_id: id, number: Math.max(1, Math.floor(numbers[id] ?? 1)) }));
}

/** The member's feedback with the shop's replies (asked again whenever the page opens). */
export function useFeedback(page: number) {
  return useQuery({
    queryKey: keys.selfService.feedbackPage(page),
    queryFn: () => api.get<FeedbackPage>('/api/user/feedback', { params: { page } }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
