// Checkout, orders and payment (api.md §Checkout and orders).
import { api } from '@/lib/api';
import type { CartLine } from '@/api/cart';
import type { CartQuote } from '@/lib/engine';

export interface Address {
  id: number;
  contact: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  is_default: number;
}

export interface Coupon {
  id: number;
  title: string;
  amount: string;
  min_amount: string;
  expires_at: number;
}

export interface Preview {
  lines: CartLine[];
  quote: CartQuote;
  addresses: Address[];
  coupons: Coupon[];
}

export interface Order {
  id: number;
  order_no: string;
  status: number;
  status_name: string;
  total: string;
  discount: string;
  payable: string;
  address?: string;
  remark?: string;
  created_at?: number;
  paid_at?: number | null;
  balance?: string;
  items?: { goods_id: number; name: string; ypgg: string; sccj: string; bzdw: string; number: number; price: string; amount: string }[];
}

export function previewCheckout(ids: number[], expectedPayable: string) {
  return api.post<Preview>('/api/cart/checkout', { ids, new: 1, expected_payable: expectedPayable });
}

export function placeOrder(key: string, fields: { ids: number[]; address_id: number; remark: string; expected_payable: string }) {
  return api.post<Order>('/api/order', fields, { headers: { 'Idempotency-Key': key } });
}

export function fetchOrder(id: number) {
  return api.get<Order>(`/api/order/${id}`);
}

export function payOrder(id: number, method: 'balance') {
  return api.post<Order>(`/api/order/${id}/pay`, { method });
}

export function fetchBalance() {
  return api.get<{ balance: string }>('/api/user/user_money');
}
