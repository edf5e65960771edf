// The peer a JavaScript team would write instead of the WebAssembly engine: the rules of
// docs/pricing.md in plain JavaScript with big.js: rules 1–10 (`quotePeer`) and the settlement,
// rules 11–19 (`settlePeer`). It is the benchmark's baseline only; the shop never uses it.
// Input validation is left out, as such a peer would; the errors of rules 13 and 14 (a
// `coupon_id` or `cash_voucher_id` naming nothing usable) are thrown with the engine's text.
import Big from 'big.js';

Big.NE = -40; // never exponent notation in toString()
Big.PE = 60;

const ZERO = new Big(0),
  ONE = new Big(1);
const CENT = new Big('0.01');
const floor2 = (x) => x.round(2, Big.roundDown);
const money = (x) => new Big(x);
const min = (a, b) => (a.lt(b) ? a : b);

/** `floor(a / b)` for a ≥ 0, b > 0: a whole-number division, exact (big.js divides to `DP` places). */
function quotient(a, b) {
  const dp = Big.DP,
    rm = Big.RM;
  Big.DP = 0;
  Big.RM = Big.roundDown;
  try {
    return a.div(b);
  } finally {
    Big.DP = dp;
    Big.RM = rm;
  }
}

/** A `Flag` of the engine's input: 1 or true. */
const on = (flag) => flag === 1 || flag === true;

/** Line types (`CartItem.type`). */
const FLASH_SALE = 1,
  COMBINATION = 3;

/** A passed-through price: exact, with at least two decimals. */
function price(x) {
  const text = x.toString();
  const dot = text.indexOf('.');
  return dot < 0 || text.length - dot - 1 < 2 ? x.toFixed(2) : text;
}

function ladderSteps(raw) {
  const steps = raw
    .map((step) => ({ number: step.number, price: money(step.price) }))
    .sort((a, b) => a.number - b.number || a.price.cmp(b.price));
  return steps.filter((step, i) => i === 0 || step.number !== steps[i - 1].number);
}

export function quotePeer(cart) {
  const items = cart.items;
  const lines = new Array(items.length);
  // Rule 8's weights: each buyable coupon line's amount, else 0.
  const weights = new Array(items.length);
  let total = ZERO,
    coupon = ZERO,
    nonCoupon = ZERO,
    youx = ZERO,
    zy = ZERO,
    qx = ZERO;
  let manjian = ZERO;
  let selected = 0,
    units = 0,
    freeShipping = false;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const goods = item.type === COMBINATION && item.combination ? item.combination : item.goods;
    const quantity = item.number;
    const buyable = on(item.is_selected) && on(goods.is_buy) && goods.number > 0;
    const followsLadder = item.type !== FLASH_SALE && item.type !== COMBINATION;
    let unit = money(item.price);
    let priceKind = item.type === FLASH_SALE ? 'flash_sale' : item.type === COMBINATION ? 'combination' : 'regular';
    let ladder = [];
    if (followsLadder && goods.ladder_price && goods.ladder_price.length) {
      const steps = ladderSteps(goods.ladder_price);
      const bands = goods.ladder_price_type === 1;
      ladder = steps.map((step, k) => {
        if (step.number <= quantity) {
          unit = step.price;
          priceKind = step.price.eq(money(item.price)) ? 'regular' : 'ladder';
        }
        const row = { number: step.number };
        if (bands) row.max = k + 1 < steps.length ? steps[k + 1].number - 1 : null;
        row.price = price(step.price);
        row.reached = quantity >= step.number;
        row.need = Math.max(0, step.number - quantity);
        return row;
      });
    }
    const amount = floor2(unit.times(quantity));
    const base = goods.base_price != null ? money(goods.base_price) : null;
    const savings = base && base.gt(unit) ? floor2(base.minus(unit).times(quantity)) : ZERO;
    lines[i] = {
      id: item.id,
      is_selected: buyable ? 1 : 0,
      buyable,
      over_stock: quantity > goods.number,
      unit_price: price(unit),
      price_kind: priceKind,
      amount: amount.toFixed(2),
      savings: savings.toFixed(2),
      goods_manjian_amount: '0.00',
      ladder,
      free_shipping_hint: on(goods.is_dpby) ? { qg_number: goods.qg_number || 0, reached: quantity >= (goods.qg_number || 0) } : null,
    };
    weights[i] = buyable && on(item.with_coupon) ? amount : ZERO;
    if (!buyable) continue;
    selected++;
    units += quantity;
    total = total.plus(amount);
    if (on(item.with_coupon)) coupon = coupon.plus(amount);
    else nonCoupon = nonCoupon.plus(amount);
    if (on(goods.is_youx)) youx = youx.plus(amount);
    if (goods.type === 2) zy = zy.plus(amount);
    if (goods.type === 3) qx = qx.plus(amount);
    if (item.goods_manjian_id > 0) manjian = manjian.plus(amount);
    if (on(goods.is_dpby) && quantity >= (goods.qg_number || 0)) freeShipping = true;
  }
  const reached = [],
    unreached = [];
  // Rule 8: the greatest reduce among the reached tiers, cut, at most the coupon total.
  let greatest = ZERO;
  for (const tier of cart.activity_data?.manjians ?? []) {
    const amount = money(tier.amount);
    const reduce = tier.reduce != null ? money(tier.reduce) : ZERO;
    const shortfall = amount.minus(coupon);
    const row = {
      amount: price(amount),
      reduce: price(reduce),
      status: shortfall.gt(0) ? 0 : 1,
      need: shortfall.gt(0) ? floor2(shortfall).toFixed(2) : '0.00',
    };
    if (row.status && reduce.gt(greatest)) greatest = reduce;
    (row.status ? reached : unreached).push(row);
  }
  const discount = min(coupon, floor2(greatest));
  const payable = total.minus(discount);
  if (discount.gt(0)) {
    const shares = shareOut(discount, weights);
    for (let i = 0; i < items.length; i++) if (shares[i].gt(0)) lines[i].goods_manjian_amount = shares[i].toFixed(2);
  }
  let need = null;
  if (!freeShipping) {
    const shipping = cart.shipping_data ?? {};
    const rest = money(shipping.shipping_amount ?? 0)
      .minus(total)
      .minus(money(shipping.no_trans_order_amount ?? 0));
    if (rest.gt(0)) need = floor2(rest).toFixed(2);
  }
  const quote = {
    lines,
    totals: {
      total: total.toFixed(2),
      coupon: coupon.toFixed(2),
      non_coupon: nonCoupon.toFixed(2),
      youx: youx.toFixed(2),
      zy: zy.toFixed(2),
      qx: qx.toFixed(2),
      manjian: manjian.toFixed(2),
      discount: discount.toFixed(2),
      payable: payable.toFixed(2),
    },
    counts: { items: items.length, selected, units, badge: Math.min(items.length, 99) },
    manjian_tiers: reached.concat(unreached),
    shipping: { free_shipping: freeShipping, need },
  };
  if (cart.settlement != null) quote.settlement = settlePeer(cart, quote, cart.settlement);
  return quote;
}

/**
 * Shares `value` (yuan, whole cents) over `weights` (yuan, ≥ 0) in proportion, in whole cents
 * by largest remainder (rules 8 and 19): each gets `floor(cents × wᵢ / W)` cents, and the cents
 * left go one each to the largest remainders, equal remainders to the earlier line.
 */
function shareOut(value, weights) {
  const shares = new Array(weights.length).fill(ZERO);
  let total = ZERO;
  for (const weight of weights) total = total.plus(weight);
  if (!value.gt(0) || !total.gt(0)) return shares;
  const cents = value.times(100);
  let left = cents;
  const remainders = [];
  for (let i = 0; i < weights.length; i++) {
    if (!weights[i].gt(0)) continue;
    const product = cents.times(weights[i]);
    const share = quotient(product, total);
    const remainder = product.minus(share.times(total));
    shares[i] = share.times(CENT);
    left = left.minus(share);
    if (remainder.gt(0)) remainders.push({ i, remainder });
  }
  if (left.gt(0)) {
    remainders.sort((a, b) => b.remainder.cmp(a.remainder)); // stable: ties keep input order
    for (let k = 0; k < left.toNumber(); k++) shares[remainders[k].i] = shares[remainders[k].i].plus(CENT);
  }
  return shares;
}

/** Rule 12: no `now`, or `starts_at <= now < ends_at` (each bound when given). */
const valid = (now, startsAt, endsAt) => now == null || ((startsAt == null || startsAt <= now) && (endsAt == null || now < endsAt));

/** Coupon scopes (rule 12): 0 every coupon line, 1 preferred goods, 2 Chinese herbs, 3 medical devices. */
const inScope = (scope, goods) =>
  scope === 0 || (scope === 1 && on(goods.is_youx)) || (scope === 2 && goods.type === 2) || (scope === 3 && goods.type === 3);

/**
 * Rules 13 and 14: the coupon (voucher) to spend, `{ id, value }` or null. `asked` absent: the
 * usable one of greatest value above 0 (ties: earliest `ends_at`, absent last; then smallest
 * id); 0: none; else that one, which must be usable.
 */
function choose(asked, candidates, field) {
  if (asked === 0) return null;
  if (asked != null) {
    const found = candidates.find((c) => c.id === asked);
    if (!found || !found.usable) throw new Error(`settlement.${field}: not usable: ${asked}`);
    return found;
  }
  let best = null;
  for (const c of candidates) {
    if (!c.usable || !c.value.gt(0)) continue;
    const order = best ? c.value.cmp(best.value) || (best.endsAt ?? Infinity) - (c.endsAt ?? Infinity) || best.id - c.id : 1;
    if (order > 0) best = c;
  }
  return best;
}

/** Rule 19: shares `value` over what is unpaid on each line and takes the shares off it. */
function take(unpaid, value) {
  const shares = shareOut(value, unpaid);
  for (let k = 0; k < unpaid.length; k++) unpaid[k] = unpaid[k].minus(shares[k]);
  return shares;
}

/**
 * Rules 11–19: the settlement of a cart with `input` (a `SettlementInput`), from the cart's
 * quote (rules 1–10, its lines carrying their rule 8 shares), as the engine's `settlement`.
 */
export function settlePeer(cart, quote, input) {
  const items = cart.items,
    now = input.now;
  // Rule 11: each buyable line's net; the bases of the four coupon scopes.
  const goods = money(quote.totals.payable);
  const lines = [];
  const bases = [ZERO, ZERO, ZERO, ZERO];
  for (let i = 0; i < items.length; i++) {
    const line = quote.lines[i];
    if (!line.buyable) continue;
    const item = items[i];
    const effective = item.type === COMBINATION && item.combination ? item.combination : item.goods;
    const net = money(line.amount).minus(money(line.goods_manjian_amount));
    let scopes = 0;
    if (on(item.with_coupon)) {
      for (let scope = 0; scope < 4; scope++) {
        if (!inScope(scope, effective)) continue;
        scopes |= 1 << scope;
        bases[scope] = bases[scope].plus(net);
      }
    }
    lines.push({ id: line.id, net, scopes });
  }

  // Rules 12 and 13.
  const couponInputs = input.coupons ?? [];
  const coupons = [],
    candidates = [];
  for (const coupon of couponInputs) {
    const base = bases[coupon.scope ?? 0];
    const threshold = money(coupon.threshold ?? 0);
    const shortfall = floor2(threshold.minus(base));
    const usable = valid(now, coupon.starts_at, coupon.ends_at) && base.gt(0) && base.gte(threshold);
    let value = ZERO;
    if (usable) {
      if (coupon.kind === 1) value = min(floor2(money(coupon.reduce)), base);
      else {
        value = floor2(base.times(ONE.minus(money(coupon.rate))));
        if (coupon.max_reduce != null) value = min(value, floor2(money(coupon.max_reduce)));
      }
      value = min(value, goods);
    }
    candidates.push({ id: coupon.id, usable, value, endsAt: coupon.ends_at ?? undefined, scope: coupon.scope ?? 0 });
    coupons.push({ id: coupon.id, usable, value: value.toFixed(2), need: (shortfall.gt(0) ? shortfall : ZERO).toFixed(2) });
  }
  const coupon = choose(input.coupon_id, candidates, 'coupon_id');
  const afterCoupon = coupon ? goods.minus(coupon.value) : goods;

  // Rule 14.
  const cashVouchers = [];
  candidates.length = 0;
  for (const voucher of input.cash_vouchers ?? []) {
    const usable = valid(now, voucher.starts_at, voucher.ends_at) && afterCoupon.gt(0) && afterCoupon.gte(money(voucher.threshold ?? 0));
    const value = usable ? min(floor2(money(voucher.amount)), afterCoupon) : ZERO;
    candidates.push({ id: voucher.id, usable, value, endsAt: voucher.ends_at ?? undefined });
    cashVouchers.push({ id: voucher.id, usable, value: value.toFixed(2) });
  }
  const voucher = choose(input.cash_voucher_id, candidates, 'cash_voucher_id');
  const afterVoucher = voucher ? afterCoupon.minus(voucher.value) : afterCoupon;

  // Rule 15.
  const redPacket = on(input.use_red_packet)
    ? min(floor2(money(input.red_packet_balance ?? 0)), floor2(afterVoucher.times(money(input.red_packet_max_rate ?? 0))))
    : ZERO;
  const afterRed = afterVoucher.minus(redPacket);

  // Rule 16: the points the cap is worth, at most the balance, and what they pay.
  let pointsUsed = ZERO,
    pointsValue = ZERO;
  if (on(input.use_points)) {
    const perYuan = new Big(input.points_per_yuan ?? 100);
    const cap = floor2(afterRed.times(money(input.points_max_rate ?? 0)));
    const points = min(new Big(input.points_balance ?? 0), cap.times(perYuan).round(0, Big.roundDown));
    pointsValue = quotient(points.times(100), perYuan).times(CENT);
    pointsUsed = pointsValue.times(perYuan).round(0, Big.roundUp);
  }

  // Rules 17 and 18.
  const shipping = quote.shipping;
  const shippingFee = shipping.free_shipping || shipping.need === null ? ZERO : floor2(money(input.shipping_fee ?? 0));
  const due = afterRed.minus(pointsValue).plus(shippingFee);

  // Rule 19: each deduction over what is still unpaid on each line.
  const scope = coupon ? 1 << coupon.scope : 0;
  const couponShares = shareOut(
    coupon ? coupon.value : ZERO,
    lines.map((line) => (line.scopes & scope ? line.net : ZERO)),
  );
  const unpaid = lines.map((line, k) => line.net.minus(couponShares[k]));
  const voucherShares = take(unpaid, voucher ? voucher.value : ZERO);
  const redShares = take(unpaid, redPacket);
  const pointsShares = take(unpaid, pointsValue);
  const settled = lines.map((line, k) => ({
    id: line.id,
    coupon: couponShares[k].toFixed(2),
    cash_voucher: voucherShares[k].toFixed(2),
    red_packet: redShares[k].toFixed(2),
    points: pointsShares[k].toFixed(2),
    paid: unpaid[k].toFixed(2),
  }));
  const chosen = (c) => (c ? { id: c.id, value: c.value.toFixed(2) } : null);
  return {
    goods: goods.toFixed(2),
    coupons,
    coupon: chosen(coupon),
    cash_vouchers: cashVouchers,
    cash_voucher: chosen(voucher),
    red_packet: redPacket.toFixed(2),
    points_used: pointsUsed.toNumber(),
    points_value: pointsValue.toFixed(2),
    shipping_fee: shippingFee.toFixed(2),
    due: due.toFixed(2),
    lines: settled,
  };
}
