// The next-tier and free-shipping hints with the real engine: the server's `cart/next_hint` is
// shown while it agrees with the browser's quote of the cart on screen, the engine's own
// sentences otherwise.
import { describe, expect, it } from 'vitest';
import { quote, shippingHint, tierHint } from '@/lib/engine';
import type { CartLine } from '@/api/cart';
import type { NextHint } from '@/api/types';
import { cartLine } from '@/testing/cart';
import { engineInput } from './model';
import { agrees, nextHints } from './next-hint';

function quoted(lines: CartLine[]) {
  return quote(
    engineInput({
      data: lines.map((line) => ({ ...line, goods_manjian_id: 1 })),
      shipping_data: { shipping_amount: '800.00', no_trans_order_amount: '0.00' },
      activity_data: {
        manjians: [
          { amount: '100.00', reduce: '10.00', title: '满100减10' },
          { amount: '300.00', reduce: '30.00', title: '满300减30' },
        ],
      },
    }),
  );
}

/** The origin's answer for the same cart: the first tier not reached and the shipping need. */
function serverHint(need: string, shipping: string | null, tier = { amount: '300.00', reduce: '30.00' }): NextHint {
  return {
    manjian: { ...tier, need, text: tierHint(need, tier.reduce) },
    shipping: shipping ? { need: shipping, text: shippingHint(shipping) } : null,
    free_shipping: false,
  };
}

describe('nextHints', () => {
  it("shows the server's hint when it says what the engine says", () => {
    const cart = quoted([cartLine(1, 12, '10.00')]);
    const server = serverHint('180.00', '680.00');
    expect(agrees(cart, server)).toBe(true);
    expect(nextHints(cart, server)).toEqual({
      tier: { text: '再买 ¥180.00 可减 ¥30.00', source: 'server' },
      shipping: { text: '还差 ¥680.00 免运费', source: 'server' },
      freeShipping: false,
      agrees: true,
    });
  });

  it("keeps the engine's sentences while the server's hint is behind an edit", () => {
    const cart = quoted([cartLine(1, 15, '10.00')]);
    const stale = serverHint('180.00', '680.00');
    expect(agrees(cart, stale)).toBe(false);
    expect(nextHints(cart, stale)).toMatchObject({
      tier: { text: '再买 ¥150.00 可减 ¥30.00', source: 'engine' },
      shipping: { text: '还差 ¥650.00 免运费', source: 'engine' },
      agrees: false,
    });
    expect(nextHints(cart, undefined).tier?.source).toBe('engine');
  });

  it('says nothing more once every tier and the shipping threshold are reached', () => {
    const cart = quoted([cartLine(1, 90, '10.00')]);
    // `free_shipping` is the single-goods free shipping (is_dpby), which no line has here.
    const server: NextHint = { manjian: null, shipping: null, free_shipping: false };
    expect(nextHints(cart, server)).toEqual({ tier: null, shipping: null, freeShipping: false, agrees: true });
    expect(agrees(cart, { ...server, free_shipping: true })).toBe(false);
    // A server that still sees a tier to reach disagrees.
    expect(agrees(cart, serverHint('10.00', null))).toBe(false);
  });
});
