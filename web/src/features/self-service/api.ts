// Self-service: quick purchase (the goods bought before), wanted varieties and feedback.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { BoughtPage, CartAddForm, Feedback, FeedbackPage, Wanted, WantedForm, WantedPage } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

export function boughtQuery(page: number, order: 'recent' | 'often') {
  return queryOptions({
    queryKey: keys.selfService.fastBuy(page, order),
    queryFn: () => api.get<BoughtPage>('/api/user/fast_buy', { params: { page, order } satisfies QueryOf<'/api/user/fast_buy'> }),
    placeholderData: keepPreviousData,
  });
}

export function wantedListQuery(page: number) {
  return queryOptions({
    queryKey: keys.selfService.wantedPage(page),
    queryFn: () => api.get<WantedPage>('/api/user/buy', { params: { page } satisfies QueryOf<'/api/user/buy'> }),
    placeholderData: keepPreviousData,
    // The shop answers from outside the app: asked again whenever the page opens.
    staleTime: 0,
  });
}

export function wantedQuery(id: number) {
  return queryOptions({
    queryKey: keys.selfService.wantedOne(id),
    queryFn: () => api.get<Wanted>(`/api/user/buy/${id}`, { silent: true }),
    enabled: id > 0,
    retry: false,
    staleTime: 0,
  });
}

/** The lines to add for the chosen goods: each at the quantity typed (at least 1). */
export function chosenLines(chosen: number[], numbers: Record<number, number>): CartAddForm[] {
  return chosen.map((id) => ({ goods_id: id, number: Math.max(1, Math.floor(numbers[id] ?? 1)) }));
}

/** The member's feedback with the shop's replies (asked again whenever the page opens). */
export function feedbackQuery(page: number) {
  return queryOptions({
    queryKey: keys.selfService.feedbackPage(page),
    queryFn: () => api.get<FeedbackPage>('/api/user/feedback', { params: { page } satisfies QueryOf<'/api/user/feedback'> }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** 添加求购: a wanted variety; the list asks again. */
export function useAddWanted() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: WantedForm) => api.post<Wanted>('/api/user/buy', form),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.selfService.wanted() }),
  });
}

/** 意见反馈: a suggestion or complaint with photos (its multipart form); the list asks again. */
export function useSendFeedback() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => api.upload<Feedback>('/api/user/feedback', form),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.selfService.feedback() }),
  });
}
