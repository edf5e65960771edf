// An order as both the checkout's payment pages and the order centre read it, and the member's
// actions on it: cancel, confirm receipt, buy again. Each action reads the order centre, the
// member centre's figures and the cart again.
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { BoughtAgain, OrderDetail } from './types';

/** One of the member's orders (`order/{id}`); asked only for an id that can be one. */
export function orderQuery(id: number) {
  return queryOptions({ queryKey: keys.orders.detail(id), queryFn: () => api.get<OrderDetail>(`/api/order/${id}`), enabled: id > 0 });
}

function refreshAfterAction(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: keys.orders.all }),
    client.invalidateQueries({ queryKey: keys.centre.all }),
    client.invalidateQueries({ queryKey: keys.cart.all }),
  ]);
}

/** Cancels an unpaid order; its stock goes back (docs/api.md, "Order states"). */
export function useCancelOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<OrderDetail>(`/api/order/${id}/cancel`),
    onSuccess: () => refreshAfterAction(client),
  });
}

/** Confirms the receipt of a shipped order. */
export function useReceiveOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<OrderDetail>(`/api/order/${id}/receive`),
    onSuccess: () => refreshAfterAction(client),
  });
}

/** Puts an order's lines back into the cart; answers what was added and what was not, and why. */
export function useBuyAgain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<BoughtAgain>(`/api/order/${id}/buy_again`),
    onSuccess: () => refreshAfterAction(client),
  });
}
