// An order as both the checkout's payment pages and the order centre read it, and the member's
// actions on it: cancel, confirm receipt, buy again. Each action reads the order centre, the
// member centre's figures and the cart again (the order itself only when its answer is not it).
import { hashKey, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { BoughtAgain, OrderDetail } from './types';

/** One of the member's orders (`order/{id}`); asked only for an id that can be one. */
export function orderQuery(id: number) {
  return queryOptions({ queryKey: keys.orders.detail(id), queryFn: () => api.get<OrderDetail>(`/api/order/${id}`), enabled: id > 0 });
}

/** Reads the order centre, the member centre's figures and the cart again after an action. An
 * action that answers the order as it now is (cancel, confirm receipt) has it written into the
 * order's own query at once, which is then not asked again: a read of it that was under way as
 * the action ran may still answer the order as it was. */
function refreshAfterAction(client: QueryClient, order?: OrderDetail) {
  if (order) client.setQueryData(keys.orders.detail(order.id), order);
  const written = order && hashKey(keys.orders.detail(order.id));
  return Promise.all([
    client.invalidateQueries({ queryKey: keys.orders.all, predicate: (query) => query.queryHash !== written }),
    client.invalidateQueries({ queryKey: keys.centre.all }),
    client.invalidateQueries({ queryKey: keys.cart.all }),
  ]);
}

/** Cancels an unpaid order; its stock goes back (docs/api.md, "Order states"). */
export function useCancelOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<OrderDetail>(`/api/order/${id}/cancel`),
    onSuccess: (order) => refreshAfterAction(client, order),
  });
}

/** Confirms the receipt of a shipped order. */
export function useReceiveOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<OrderDetail>(`/api/order/${id}/receive`),
    onSuccess: (order) => refreshAfterAction(client, order),
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
