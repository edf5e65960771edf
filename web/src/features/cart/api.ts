// Checkout, orders and payment (docs/api.md, "Orders and Idempotency-Key").
import { api } from '@/lib/api';
import type { CheckoutPreview, OrderDetail, PaidOrder, PlacedOrder, Wallet } from '@/api/types';
import type { CartInput, CartQuote, SettlementInput } from '@/lib/engine';
import type { Choices } from './settlement';

/**
 * Cart step 2's preview, its `quote`, `input` and `settlement_input` typed as the engine's own
 * (the browser settles `input` with `settlement_input` and the member's choices).
 */
export type Preview = Omit<CheckoutPreview, 'quote' | 'input' | 'settlement_input'> & {
  quote: CartQuote;
  input: CartInput;
  settlement_input: SettlementInput;
};

/** The preview with the engine's default choices (the best coupon and voucher, no red packets, no points). */
export function previewCheckout(ids: number[], expectedPayable: string) {
  return api.post<Preview>('/api/cart/checkout', { ids, new: 1, expected_payable: expectedPayable });
}

/** An order of the lines `ids`, settled with the explicit choices; `expected_due` is the amount due the buyer saw. */
export function placeOrder(
  key: string,
  fields: Required<Choices> & { ids: number[]; address_id: number; remark: string; expected_payable: string; expected_due: string },
) {
  return api.post<PlacedOrder>('/api/order', fields, { headers: { 'Idempotency-Key': key } });
}

export function fetchOrder(id: number) {
  return api.get<OrderDetail>(`/api/order/${id}`);
}

export function payOrder(id: number, method: 'balance') {
  return api.post<PaidOrder>(`/api/order/${id}/pay`, { method });
}

/** Cancels an unpaid order; its stock goes back (docs/api.md, "Order states"). */
export function cancelOrder(id: number) {
  return api.post<OrderDetail>(`/api/order/${id}/cancel`);
}

export function fetchBalance() {
  return api.get<Wallet>('/api/user/user_money');
}
