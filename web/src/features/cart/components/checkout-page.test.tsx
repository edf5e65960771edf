// Cart step 2 with the real engine (pkg/, WebAssembly): every choice of coupon, cash voucher, red
// packets and points is settled in the browser at once, and the order sends what was shown.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { UiHost } from '@/components/ui-host';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MemberCoupon, MemberVoucher } from '@/api/types';
import { api } from '@/lib/api';
import { quote, type SettlementInput } from '@/lib/engine';
import { reportAnomaly } from '@/lib/report';
import { cartLine } from '@/testing/cart';
import type { Preview } from '../api';
import { engineInput } from '../model';
import { CheckoutPage } from './checkout-page';

// Ant Design's steps and table measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// The server: the preview, an order placed as order 42, no coupons in the list of all usable ones.
vi.mock('@/lib/api', () => ({ api: { get: vi.fn(), post: vi.fn() } }));
const post = vi.mocked(api.post);
const previews = () => post.mock.calls.filter(([path]) => path === '/api/cart/checkout');
const orderPlaced = (fields: unknown) =>
  expect(post).toHaveBeenCalledWith('/api/order', fields, { headers: { 'Idempotency-Key': expect.any(String) } });
vi.mock('@/lib/report', () => ({ reportAnomaly: vi.fn(), reportPageView: vi.fn() }));

const NOW = 1_700_000_000;
const DAY = 86_400;

/** The member's coupon cards and the engine's coupons, alike. */
const COUPONS = [
  { id: 1, title: '新人专享满300减15', kind: 1, scope: 0, min_amount: '300.00', reduce: '15.00' },
  { id: 2, title: '满500减20', kind: 1, scope: 0, min_amount: '500.00', reduce: '20.00' },
  { id: 3, title: '全场98折', kind: 2, scope: 0, min_amount: '0.00', reduce: '0.00', rate: '0.98' },
  { id: 4, title: '满2000减150', kind: 1, scope: 0, min_amount: '2000.00', reduce: '150.00', starts_at: NOW + 3 * DAY },
];
const VOUCHERS = [
  { id: 11, title: '现金券5元（无门槛）', amount: '5.00', min_amount: '0.00' },
  { id: 12, title: '现金券30元（满800可用）', amount: '30.00', min_amount: '800.00' },
  { id: 13, title: '现金券10元（满390可用）', amount: '10.00', min_amount: '390.00' },
];

function couponCard(coupon: (typeof COUPONS)[number]): MemberCoupon {
  return {
    id: coupon.id,
    title: coupon.title,
    kind: coupon.kind,
    kind_name: coupon.kind === 1 ? '满减券' : '折扣券',
    scope: coupon.scope,
    scope_name: '全场通用',
    reduce: coupon.reduce,
    rate: coupon.rate ?? null,
    max_reduce: null,
    min_amount: coupon.min_amount,
    starts_at: coupon.starts_at ?? NOW - DAY,
    expires_at: (coupon.starts_at ?? NOW) + 30 * DAY,
    status: 0,
    status_name: '未使用',
    order_id: null,
    used_at: null,
  };
}

function voucherCard(voucher: (typeof VOUCHERS)[number]): MemberVoucher {
  return { ...voucher, starts_at: NOW - DAY, expires_at: NOW + 30 * DAY, status: 0, status_name: '未使用', order_id: null };
}

const ACCOUNTS: SettlementInput = {
  now: NOW,
  coupons: COUPONS.map((coupon) => ({
    id: coupon.id,
    kind: coupon.kind as 1 | 2,
    scope: 0,
    threshold: coupon.min_amount,
    reduce: coupon.kind === 1 ? coupon.reduce : null,
    rate: coupon.rate ?? null,
    starts_at: coupon.starts_at ?? NOW - DAY,
    ends_at: (coupon.starts_at ?? NOW) + 30 * DAY,
  })),
  cash_vouchers: VOUCHERS.map((voucher) => ({
    id: voucher.id,
    amount: voucher.amount,
    threshold: voucher.min_amount,
    starts_at: NOW - DAY,
    ends_at: NOW + 30 * DAY,
  })),
  red_packet_balance: '88.00',
  red_packet_max_rate: '0.1',
  points_balance: 3000,
  points_per_yuan: 100,
  points_max_rate: '0.1',
  shipping_fee: '10.00',
  use_red_packet: 0,
  use_points: 0,
};

/** 10 × 30.00 and 2 × 50.00: goods 400.00, below the 800.00 that ships free. */
function preview(): Preview {
  const lines = [cartLine(1, 10, '30.00'), cartLine(2, 2, '50.00')];
  const input = engineInput({
    data: lines,
    shipping_data: { shipping_amount: '800.00', no_trans_order_amount: '0.00' },
    activity_data: { manjians: [] },
  });
  return {
    lines,
    input,
    // As the origin answers it: the engine's quote with the default choices.
    quote: quote({ ...input, settlement: ACCOUNTS }),
    store: null,
    addresses: [
      {
        id: 5,
        contact: '陈静',
        phone: '13812345678',
        province: '浙江省',
        city: '杭州市',
        district: '拱墅区',
        detail: '莫干山路1088号',
        is_default: 1,
      },
    ] as Preview['addresses'],
    coupons: COUPONS.map(couponCard),
    cash_vouchers: VOUCHERS.map(voucherCard),
    settlement_input: ACCOUNTS,
  };
}

function renderCheckout(data: Preview) {
  post.mockImplementation((path: string) => Promise.resolve(path === '/api/cart/checkout' ? data : { id: 42 }) as never);
  vi.mocked(api.get).mockResolvedValue({ list: [], total: 0 });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <UiHost>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[{ pathname: '/cart/step2', state: { ids: [1, 2], payable: data.quote.totals.payable } }]}>
          <Routes>
            <Route path="/cart/step2" element={<CheckoutPage />} />
            <Route path="/cart/step3/:id" element={<p>支付订单</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </UiHost>,
  );
}

const due = () => screen.getByTestId('checkout-due').textContent;
const coupon = (name: RegExp | string) => within(screen.getByRole('radiogroup', { name: '优惠券' })).getByRole('radio', { name });
const voucher = (name: RegExp | string) => within(screen.getByRole('radiogroup', { name: '现金券' })).getByRole('radio', { name });

describe('the checkout page', () => {
  beforeEach(() => vi.clearAllMocks());

  it("starts with the engine's choices and shows every coupon's state", async () => {
    renderCheckout(preview());
    // 400.00 − 15.00 (the best coupon) − 5.00 (the only usable voucher) + 10.00 shipping.
    expect((await screen.findByTestId('checkout-due')).textContent).toBe('¥390.00');
    expect((coupon(/新人专享满300减15/) as HTMLInputElement).checked).toBe(true);
    expect(coupon(/新人专享满300减15/).closest('label')!.textContent).toContain('可减 ¥15.00');
    expect(coupon(/全场98折/).closest('label')!.textContent).toContain('可减 ¥8.00');
    // Unusable: greyed out with what is missing, or with its dates when it is not valid yet.
    expect((coupon(/满500减20/) as HTMLInputElement).disabled).toBe(true);
    expect(coupon(/满500减20/).closest('label')!.textContent).toContain('还差 ¥100.00');
    expect((coupon(/满2000减150/) as HTMLInputElement).disabled).toBe(true);
    expect(coupon(/满2000减150/).closest('label')!.textContent).toContain('有效期');
    expect((voucher(/现金券5元/) as HTMLInputElement).checked).toBe(true);
    expect((voucher(/现金券10元/) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('checkout-coupon').textContent).toBe('-¥15.00');
    expect(screen.getByTestId('checkout-voucher').textContent).toBe('-¥5.00');
    expect(screen.getByTestId('checkout-shipping').textContent).toBe('+¥10.00');
    // Not ticked: what they would take.
    expect(screen.getByTestId('red-packet-offer').textContent).toBe('可抵扣 ¥38.00');
    expect(screen.getByTestId('points-offer').textContent).toBe('可用 3000 积分抵扣 ¥30.00');
    expect(reportAnomaly).not.toHaveBeenCalled();
  });

  it('settles a chosen coupon and ticked points at once, and orders what it showed', async () => {
    renderCheckout(preview());
    await screen.findByTestId('checkout-due');
    fireEvent.click(coupon(/全场98折/));
    // No await: the amount due follows the click before anything else happens.
    // 400.00 − 8.00 leaves 392.00, which reaches voucher 13 (10.00 from 390): 382.00 + 10.00.
    expect(due()).toBe('¥392.00');
    expect((voucher(/现金券10元/) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: '使用积分' }));
    // Points pay 10 % of 382.00 at most: 38.20, but 3000 points pay 30.00.
    expect(due()).toBe('¥362.00');
    expect(screen.getByTestId('points-offer').textContent).toBe('使用 3000 积分，抵扣 ¥30.00');
    expect(screen.getByTestId('checkout-points').textContent).toBe('-¥30.00');
    fireEvent.click(screen.getByRole('checkbox', { name: '使用红包' }));
    // Red packets first: 38.20 of 382.00; then points: 10 % of 343.80 is 34.38, 3000 points 30.00.
    expect(due()).toBe('¥323.80');
    fireEvent.click(screen.getByRole('checkbox', { name: '使用红包' }));
    expect(due()).toBe('¥362.00');
    expect(previews()).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: /提交订单/ }));
    expect(await screen.findByText('支付订单')).toBeTruthy();
    orderPlaced({
      ids: [1, 2],
      address_id: 5,
      remark: '',
      expected_payable: '400.00',
      expected_due: '362.00',
      coupon_id: 3,
      cash_voucher_id: 13,
      use_red_packet: 0,
      use_points: 1,
    });
  });

  it('sends no coupon when 不使用优惠券 is chosen', async () => {
    renderCheckout(preview());
    await screen.findByTestId('checkout-due');
    fireEvent.click(coupon('不使用优惠券'));
    // 400.00 reaches voucher 13: 390.00 + 10.00.
    expect(due()).toBe('¥400.00');
    expect(screen.getByTestId('checkout-coupon').textContent).toBe('-¥0.00');
    fireEvent.click(screen.getByRole('button', { name: /提交订单/ }));
    await screen.findByText('支付订单');
    orderPlaced(expect.objectContaining({ coupon_id: 0, cash_voucher_id: 13, expected_due: '400.00' }));
  });

  it('gives the engine its best voucher again when a coupon leaves too little for the chosen one', async () => {
    renderCheckout(preview());
    await screen.findByTestId('checkout-due');
    fireEvent.click(coupon(/全场98折/));
    // The engine's pick (voucher 13) made the buyer's own: another voucher first, then it.
    fireEvent.click(voucher(/现金券5元/));
    expect(due()).toBe('¥397.00');
    fireEvent.click(voucher(/现金券10元/));
    expect(due()).toBe('¥392.00');
    // 15.00 off leaves 385.00, below voucher 13's 390.00: the 5.00 voucher instead.
    fireEvent.click(coupon(/新人专享满300减15/));
    expect(due()).toBe('¥390.00');
    expect((voucher(/现金券5元/) as HTMLInputElement).checked).toBe(true);
    expect(await screen.findByText('所选现金券不可用，已为您重新选择')).toBeTruthy();
  });

  it("reports a server settlement that differs from the browser's, and shows the server's", async () => {
    const data = preview();
    const settlement = data.quote.settlement!;
    data.quote = { ...data.quote, settlement: { ...settlement, due: '389.99' } };
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderCheckout(data);
    expect((await screen.findByTestId('checkout-due')).textContent).toBe('¥389.99');
    expect(reportAnomaly).toHaveBeenCalledWith(
      'checkout_settlement_mismatch',
      expect.objectContaining({ server: expect.objectContaining({ due: '389.99' }), browser: expect.objectContaining({ due: '390.00' }) }),
    );
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
