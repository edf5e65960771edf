// Cart step 2's settlement with the real engine: the browser settles as quoteCart (the edge's and
// the origin's engine) does with the same accounts and choices.
import { describe, expect, it } from 'vitest';
import { quote, type SettlementInput } from '@/lib/engine';
import { cartLine } from '@/testing/cart';
import { engineInput } from './model';
import { CheckoutSettlement, DEFAULT_CHOICES, explicitChoices, refusedChoice, settlementInput } from './settlement';

const input = engineInput({
  data: [cartLine(1, 4, '25.00'), cartLine(2, 1, '80.00', { type: 2 })],
  shipping_data: { shipping_amount: '300.00', no_trans_order_amount: '0.00' },
  activity_data: { manjians: [] },
});

const accounts: SettlementInput = {
  now: 1_700_000_000,
  coupons: [
    { id: 1, kind: 1, threshold: '100', reduce: '10' },
    { id: 2, kind: 2, scope: 2, threshold: '0', rate: '0.9' },
  ],
  cash_vouchers: [{ id: 1, amount: '3', threshold: '0' }],
  red_packet_balance: '5.00',
  red_packet_max_rate: '0.1',
  points_balance: 250,
  points_per_yuan: 100,
  points_max_rate: '0.5',
  shipping_fee: '8.00',
  use_red_packet: 0,
  use_points: 0,
};

describe('CheckoutSettlement', () => {
  it('passes only the choices made, over the accounts', () => {
    expect(settlementInput({ ...accounts, coupon_id: 9 }, DEFAULT_CHOICES)).not.toHaveProperty('coupon_id');
    const chosen = settlementInput(accounts, { coupon_id: 0, use_red_packet: 1, use_points: 0 });
    expect(chosen).toMatchObject({ coupon_id: 0, use_red_packet: 1, use_points: 0, points_balance: 250 });
    expect(chosen).not.toHaveProperty('cash_voucher_id');
  });

  it('settles as quoteCart does, for every choice', () => {
    const model = new CheckoutSettlement(input, accounts);
    for (const choices of [
      DEFAULT_CHOICES,
      { coupon_id: 2, use_red_packet: 1 as const, use_points: 1 as const },
      { coupon_id: 0, cash_voucher_id: 0, use_red_packet: 0 as const, use_points: 1 as const },
    ]) {
      expect(model.settle(choices)).toEqual(quote({ ...input, settlement: settlementInput(accounts, choices) }).settlement);
    }
    model.dispose();
  });

  it('says what red packets and points would take, and orders the choices explicitly', () => {
    const model = new CheckoutSettlement(input, accounts);
    const offer = model.offer(DEFAULT_CHOICES);
    // 180.00 − 10.00 (coupon 1 beats 10 % of the 80.00 herbs line) − 3.00 + 8.00.
    expect(offer.settlement.due).toBe('175.00');
    expect(offer.redPacket).toBe('5.00');
    // Half of 167.00 may be paid with points, but 250 points pay 2.50.
    expect(offer.points).toEqual({ used: 250, value: '2.50' });
    expect(explicitChoices(offer)).toEqual({ coupon_id: 1, cash_voucher_id: 1, use_red_packet: 0, use_points: 0 });
    // A model disposed (a page unmounted and mounted again) settles again.
    model.dispose();
    expect(model.offer({ ...DEFAULT_CHOICES, use_points: 1 }).settlement.due).toBe('172.50');
    model.dispose();
  });

  it('tells which choice the engine refused', () => {
    const model = new CheckoutSettlement(input, { ...accounts, cash_vouchers: [{ id: 1, amount: '3', threshold: '171' }] });
    let refused: unknown = null;
    try {
      model.settle({ coupon_id: 1, cash_voucher_id: 1, use_red_packet: 0, use_points: 0 });
    } catch (error) {
      refused = error;
    }
    expect(refusedChoice(refused)).toBe('cash_voucher_id');
    expect(model.settle({ coupon_id: 2, cash_voucher_id: 1, use_red_packet: 0, use_points: 0 }).cash_voucher).toEqual({
      id: 1,
      value: '3.00',
    });
    expect(refusedChoice(new Error('settlement.coupon_id: not usable: 7'))).toBe('coupon_id');
    expect(refusedChoice(new Error('items[0].price: not a decimal'))).toBe(null);
    model.dispose();
  });

  it('shows the server settlement of the preview when it differs from the browser', () => {
    const model = new CheckoutSettlement(input, accounts);
    const server = quote({ ...input, settlement: accounts }).settlement!;
    expect(model.first(server)).toMatchObject({ agrees: true, offer: { settlement: server } });
    const wrong = { ...server, due: '1.00' };
    const first = model.first(wrong);
    expect(first.agrees).toBe(false);
    expect(first.offer.settlement.due).toBe('1.00');
    expect(first.browser.due).toBe('175.00');
    model.dispose();
  });
});
