// The order centre's reads and writes: the list, after-sales cases, invoices and returns. One
// order and the actions on it (cancel, receive, buy again) are `@/api/orders`. After these
// writes the page reads its own queries again.
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type {
  AfterSale,
  AfterSalePage,
  Invoice,
  InvoiceForm,
  InvoicePage,
  OrderPage,
  ReturnForm,
  ReturnInfo,
  ReturnQuote,
} from '@/api/types';
import { multipart, type MultipartFields, type QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

/** The tag colour of each state: 待付款, 待发货, 待收货, 已完成, 已取消. */
export const STATUS_COLOURS = ['orange', 'blue', 'cyan', 'green', 'default'];

/** The list's filters as the page holds them; times are Unix seconds. */
export interface OrderFilter {
  page: number;
  /** -1 every state. */
  status: number;
  keyword: string;
  start?: number;
  end?: number;
}

/** `order`'s query: the filters set, the keyword trimmed. */
export function orderParams(filter: OrderFilter): QueryOf<'/api/order'> {
  const params: QueryOf<'/api/order'> = { page: filter.page };
  if (filter.status >= 0) params.status = filter.status;
  if (filter.keyword.trim()) params.keyword = filter.keyword.trim();
  if (filter.start !== undefined) params.start_time = filter.start;
  if (filter.end !== undefined) params.end_time = filter.end;
  return params;
}

export function ordersQuery(filter: OrderFilter) {
  return queryOptions({
    queryKey: keys.orders.list(filter),
    queryFn: () => api.get<OrderPage>('/api/order', { params: orderParams(filter) }),
    placeholderData: keepPreviousData,
  });
}

/** One order's after-sales cases. */
export function afterSalesQuery(order: number) {
  return queryOptions({
    queryKey: keys.orders.afterSales(order),
    queryFn: () => api.get<AfterSalePage>('/api/after_sales', { params: { order_id: order } satisfies QueryOf<'/api/after_sales'> }),
    enabled: order > 0,
  });
}

/** The member's invoice requests and invoices. */
export function invoicesQuery(page: number) {
  return queryOptions({
    queryKey: keys.orders.invoices(page),
    queryFn: () => api.get<InvoicePage>('/api/invoices', { params: { page } satisfies QueryOf<'/api/invoices'> }),
    placeholderData: keepPreviousData,
  });
}

/** An order's returns page: its lines with what can still be returned, and its returns. */
export function returnsQuery(order: number) {
  return queryOptions({
    queryKey: keys.orders.returns(order),
    queryFn: () => api.get<ReturnInfo>(`/api/order/${order}/returns`),
    enabled: order > 0,
  });
}

/** The chosen units as the API names them: `12:1,13:2` (order line id, units), lines with none left out. */
/** The lines of a return: `line:units`, and `:lot` when the member named the lot it comes back from. */
export function returnLines(chosen: Record<number, number>, lots: Record<number, number> = {}): string {
  return Object.entries(chosen)
    .filter(([, units]) => units > 0)
    .map(([line, units]) => (lots[Number(line)] ? `${line}:${units}:${lots[Number(line)]}` : `${line}:${units}`))
    .join(',');
}

/** What returning the chosen units refunds, as the engine computes it on the server. */
export function returnQuoteQuery(order: number, lines: string) {
  return queryOptions({
    queryKey: keys.orders.returnQuote(order, lines),
    queryFn: () =>
      api.get<ReturnQuote>(`/api/order/${order}/return_quote`, {
        params: { lines } satisfies QueryOf<'/api/order/{id}/return_quote'>,
        silent: true,
      }),
    enabled: order > 0 && lines !== '',
    retry: false,
  });
}

/** The multipart form of a return request, the description trimmed. */
export function returnForm(request: MultipartFields<ReturnForm, 'photos'>): FormData {
  return multipart<ReturnForm, 'photos'>({ ...request, description: request.description?.trim() });
}

/** A new after-sales case on an order: its kind, text and photos (a multipart form). */
export function useOpenAfterSale() {
  return useMutation({
    mutationFn: ({ order, form }: { order: number; form: FormData }) => api.upload<AfterSale>(`/api/order/${order}/after_sales`, form),
  });
}

/** A reply with photos on an open after-sales case. */
export function useReplyAfterSale() {
  return useMutation({
    mutationFn: ({ id, form }: { id: number; form: FormData }) => api.upload<AfterSale>(`/api/after_sales/${id}/reply`, form),
  });
}

/** 问题已解决: closes an after-sales case. */
export function useResolveAfterSale() {
  return useMutation({ mutationFn: (id: number) => api.post<AfterSale>(`/api/after_sales/${id}/resolve`) });
}

/** An invoice request for a paid order (普票, or 专票 with the company's bank details). */
export function useRequestInvoice() {
  return useMutation({
    mutationFn: ({ order, form }: { order: number; form: InvoiceForm }) => api.post<Invoice>(`/api/order/${order}/invoice`, form),
  });
}

/** A return request (its multipart form, `returnForm`). */
export function useRequestReturn() {
  return useMutation({
    mutationFn: ({ order, form }: { order: number; form: FormData }) => api.upload<ReturnInfo>(`/api/order/${order}/return`, form),
  });
}

/** Withdraws a return request not yet decided. */
export function useWithdrawReturn() {
  return useMutation({ mutationFn: (id: number) => api.post<ReturnInfo>(`/api/return/${id}/withdraw`) });
}
