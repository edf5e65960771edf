// Checkout and payment (docs/api.md, "Orders and Idempotency-Key"): cart step 2's preview and the
// member's coupons usable now, placing the order, paying it. The order itself and cancelling it
// are `@/api/orders`; the balance is `@/api/wallet`.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { fetchCart, refreshCart } from '@/api/cart';
import type { CheckoutForm, CheckoutPreview, CouponPage, OrderRequest, PaidOrder, PayForm, PaymentStarted, PlacedOrder } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import type { CartInput, CartQuote, SettlementInput } from '@/lib/engine';
import { keys } from '@/lib/query-keys';

/**
 * Cart step 2's preview, its `quote`, `input` and `settlement_input` typed as the engine's own
 * (the browser settles `input` with `settlement_input` and the member's choices).
 */
export type Preview = Omit<CheckoutPreview, 'quote' | 'input' | 'settlement_input'> & {
  quote: CartQuote;
  input: CartInput;
  settlement_input: SettlementInput;
};

/** The lines chosen on step 1 and the payable the buyer saw there. */
export type Chosen = { ids: number[]; payable: string } | null;

/** The preview with the engine's default choices (the best coupon and voucher, no red packets, no points). */
function previewCheckout(ids: number[], expectedPayable: string) {
  return api.post<Preview>('/api/cart/checkout', { ids, expected_payable: expectedPayable } satisfies CheckoutForm);
}

/** What step 2 checks out: the lines chosen on step 1, or after a reload the selected lines. */
async function loadPreview(chosen: Chosen): Promise<Preview> {
  if (chosen?.ids.length) return previewCheckout(chosen.ids, chosen.payable);
  const list = await fetchCart();
  const ids = list.quote.lines.filter((line) => line.is_selected === 1 && line.buyable).map((line) => line.id);
  return previewCheckout(ids, list.quote.totals.payable);
}

/** Cart step 2's preview (`cart/checkout`, a read sent as a POST), read once per visit. */
export function checkoutPreviewQuery(chosen: Chosen) {
  return queryOptions({
    queryKey: keys.checkout.preview(chosen),
    queryFn: () => loadPreview(chosen),
    retry: false,
    staleTime: Infinity,
  });
}

/** A page of the member's coupons usable now (`availableCoupon`) of a kind (0 every kind). */
export function availableCouponsQuery(kind: number, page: number) {
  return queryOptions({
    queryKey: keys.checkout.coupons(kind, page),
    queryFn: () =>
      api.get<CouponPage>('/api/user/availableCoupon', {
        params: { type: kind || undefined, page } satisfies QueryOf<'/api/user/availableCoupon'>,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Places an order under an `Idempotency-Key`: the lines `ids`, settled with the explicit
 * choices, `expected_due` the amount due the buyer saw. The ordered lines leave the cart: the
 * badge, the side panel and the order centre ask again. */
export function usePlaceOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, fields }: { key: string; fields: OrderRequest }) =>
      api.post<PlacedOrder>('/api/order', fields, { headers: { 'Idempotency-Key': key } }),
    onSuccess: () => Promise.all([refreshCart(client), client.invalidateQueries({ queryKey: keys.orders.all })]),
  });
}

/** Pays an order from the balance; the order centre asks again. */
export function usePayByBalance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<PaidOrder>(`/api/order/${id}/pay`, { method: 'balance' } satisfies PayForm),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.orders.all }),
  });
}

/** Starts paying an order at the payment provider: its cashier's address and the payment to wait for. */
export function usePayOnline() {
  return useMutation({ mutationFn: (id: number) => api.post<PaymentStarted>(`/api/order/${id}/pay_online`) });
}
