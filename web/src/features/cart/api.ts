// Checkout, orders and payment (docs/api.md, "Orders and Idempotency-Key").
import { api } from '@/lib/api';
import type { CheckoutPreview, OrderDetail, PaidOrder, PlacedOrder, Wallet } from '@/api/types';
import type { CartQuote } from '@/lib/engine';

/** Cart step 2's preview, its `quote` typed as the engine's own. */
export type Preview = Omit<CheckoutPreview, 'quote'> & { quote: CartQuote };

export function previewCheckout(ids: number[], expectedPayable: string) {
  return api.post<Preview>('/api/cart/checkout', { ids, new: 1, expected_payable: expectedPayable });
}

export function placeOrder(key: string, fields: { ids: number[]; address_id: number; remark: string; expected_payable: string }) {
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
