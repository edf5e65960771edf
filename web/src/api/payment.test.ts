import { describe, expect, it } from 'vitest';
import type { PaymentState } from '@/api/types';
import { isSettled } from './payment';

const state = (status: number): PaymentState => ({
  payment_no: 'P1',
  kind: 'recharge',
  status,
  status_name: '',
  amount: '100.00',
  bonus: '0.00',
  order_id: null,
});

describe('a payment being waited for', () => {
  it('is asked again while pending, and no more once settled any way', () => {
    expect(isSettled(undefined)).toBe(false);
    expect(isSettled(state(0))).toBe(false);
    for (const status of [1, 2, 3]) expect(isSettled(state(status))).toBe(true);
  });
});
