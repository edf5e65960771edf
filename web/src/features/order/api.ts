// The order centre's reads and actions.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AfterSalePage, BoughtAgain, InvoicePage, OrderDetail, OrderPage, ReturnInfo, ReturnQuote } from '@/api/types';
import { keys } from '@/lib/query-keys';

/** The tag colour of each state: 待付款, 待发货, 待收货, 已完成, 已取消. */
export const STATUS_COLOURS = ['orange', 'blue', 'cyan', 'green', 'default'];

/** The list's filters; times are Unix seconds. */
export interface OrderFilter {
  page: number;
  /** -1 every state. */
  status: number;
  keyword: string;
  start?: number;
  end?: number;
}

export function orderParams(filter: OrderFilter): Record<string, string | number> {
  const params: Record<string, string | number> = { page: filter.page };
  if (filter.status >= 0) params.status = filter.status;
  if (filter.keyword.trim()) params.keyword = filter.keyword.trim();
  if (filter.start !== undefined) params.start_time = filter.start;
  if (filter.end !== undefined) params.end_time = filter.end;
  return params;
}

export function useOrders(filter: OrderFilter) {
  return useQuery({
    queryKey: keys.orders.list(filter),
    queryFn: () => api.get<OrderPage>('/api/order', { params: orderParams(filter) }),
    placeholderData: keepPreviousData,
  });
}

export function useOrder(id: number) {
  return useQuery({
    queryKey: keys.orders.detail(id),
    queryFn: () => api.get<OrderDetail>(`/api/order/${id}`),
    enabled: id > 0,
  });
}

/** The member's actions on an order; each refreshes the order centre (and the cart). */
export function useOrderActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keys.orders.all }),
      client.invalidateQueries({ queryKey: keys.centre.all }),
      client.invalidateQueries({ queryKey: keys.cart.all }),
    ]);
  return {
    cancel: async (id: number) => {
      await api.post<OrderDetail>(`/api/order/${id}/cancel`);
      await refresh();
    },
    receive: async (id: number) => {
      await api.post<OrderDetail>(`/api/order/${id}/receive`);
      await refresh();
    },
    buyAgain: async (id: number) => {
      const bought = await api.post<BoughtAgain>(`/api/order/${id}/buy_again`);
      await refresh();
      return bought;
    },
  };
}

/** One order's after-sales cases. */
export function useAfterSales(order: number) {
  return useQuery({
    queryKey: keys.orders.afterSales(order),
    queryFn: () => api.get<AfterSalePage>('/api/after_sales', { params: { order_id: order } }),
    enabled: order > 0,
  });
}

/** The multipart form of an after-sales message: its text, photos, and for a new case its kind. */
export function afterSaleForm(body: string, photos: File[], kind?: number): FormData {
  const form = new FormData();
  if (kind !== undefined) form.append('kind', String(kind));
  form.append('body', body.trim());
  for (const photo of photos) form.append('photos', photo, photo.name);
  return form;
}

/** The member's invoice requests and invoices. */
export function useInvoices(page: number) {
  return useQuery({
    queryKey: keys.orders.invoices(page),
    queryFn: () => api.get<InvoicePage>('/api/invoices', { params: { page } }),
    placeholderData: keepPreviousData,
  });
}

/** An order's returns page: its lines with what can still be returned, and its returns. */
export function useReturns(order: number) {
  return useQuery({
    queryKey: keys.orders.returns(order),
    queryFn: () => api.get<ReturnInfo>(`/api/order/${order}/returns`),
    enabled: order > 0,
  });
}

/** The chosen units as the API names them: `12:1,13:2` (order line id, units), lines with none left out. */
export function returnLines(chosen: Record<number, number>): string {
  return Object.entries(chosen)
    .filter(([, units]) => units > 0)
    .map(([line, units]) => `${line}:${units}`)
    .join(',');
}

/** What returning the chosen units refunds, as the engine computes it on the server. */
export function useReturnQuote(order: number, lines: string) {
  return useQuery({
    queryKey: keys.orders.returnQuote(order, lines),
    queryFn: () => api.get<ReturnQuote>(`/api/order/${order}/return_quote`, { params: { lines }, silent: true }),
    enabled: order > 0 && lines !== '',
    retry: false,
  });
}

/** The multipart form of a return request. */
export function returnForm(request: { lines: string; reason: number; description: string; refund: string; photos: File[] }): FormData {
  const form = new FormData();
  form.append('lines', request.lines);
  form.append('reason', String(request.reason));
  form.append('description', request.description.trim());
  form.append('refund', request.refund);
  for (const photo of request.photos) form.append('photos', photo, photo.name);
  return form;
}
