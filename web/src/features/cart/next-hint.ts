// The cart's next-tier hint (再买 ¥x 可减 ¥y) and free-shipping hint (还差 ¥x 免运费): the
// server's `cart/next_hint`, shown while it agrees with the browser engine's quote of the cart on
// screen. The engine in the browser is the source of truth for money: while an edit has not
// reached the server yet, or if the two ever disagree, the engine's own sentences stand.
import type { NextHint } from '@/api/types';
import { compareMoney, shippingHint, tierHint, type CartQuote, type MoneyInput } from '@/lib/engine';
import { positive } from '@/lib/money';

/** A hint's sentence and who said it. */
export interface Hint {
  text: string;
  source: 'server' | 'engine';
}

export interface NextHints {
  /** The next full-reduction tier and what it still needs; `null` when every tier is reached or there is none. */
  tier: Hint | null;
  /** What free shipping still needs; `null` when it is reached (or nothing is selected). */
  shipping: Hint | null;
  freeShipping: boolean;
  /** Whether the server's hint agrees with the engine's quote (and so is the one shown). */
  agrees: boolean;
}

function same(a: MoneyInput, b: MoneyInput): boolean {
  return compareMoney(a, b) === 0;
}

/** The engine's next tier: the first not reached (the quote lists the reached ones first). */
function engineTier(quote: CartQuote) {
  return quote.manjian_tiers.find((tier) => tier.status === 0) ?? null;
}

function engineShippingNeed(quote: CartQuote) {
  const need = quote.shipping.need;
  return need !== null && positive(need) ? need : null;
}

/** Whether the server's hint says what the engine's quote says. */
export function agrees(quote: CartQuote, server: NextHint): boolean {
  const tier = engineTier(quote);
  const tierAgrees =
    tier === null
      ? server.manjian === null
      : server.manjian !== null &&
        same(server.manjian.amount, tier.amount) &&
        same(server.manjian.reduce, tier.reduce) &&
        same(server.manjian.need, tier.need);
  const need = engineShippingNeed(quote);
  const serverNeed = server.shipping !== null && positive(server.shipping.need) ? server.shipping.need : null;
  const shippingAgrees = need === null ? serverNeed === null : serverNeed !== null && same(serverNeed, need);
  return tierAgrees && shippingAgrees && server.free_shipping === quote.shipping.free_shipping;
}

/** The hints to show beside the engine's totals. */
export function nextHints(quote: CartQuote, server: NextHint | undefined): NextHints {
  if (server && agrees(quote, server)) {
    return {
      tier: server.manjian ? { text: server.manjian.text, source: 'server' } : null,
      shipping: server.shipping && positive(server.shipping.need) ? { text: server.shipping.text, source: 'server' } : null,
      freeShipping: server.free_shipping,
      agrees: true,
    };
  }
  const tier = engineTier(quote);
  const need = engineShippingNeed(quote);
  return {
    tier: tier ? { text: tierHint(tier.need, tier.reduce), source: 'engine' } : null,
    shipping: need ? { text: shippingHint(need), source: 'engine' } : null,
    freeShipping: quote.shipping.free_shipping,
    agrees: false,
  };
}
