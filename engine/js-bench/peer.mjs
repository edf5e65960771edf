// The peer a JavaScript team would write instead of the WebAssembly engine: the rules of
// docs/pricing.md in plain JavaScript with big.js. It is the benchmark's baseline
// only; the shop never uses it. Input validation is left out, as such a peer would.
import Big from 'big.js';

Big.NE = -40; // never exponent notation in toString()
Big.PE = 60;

const ZERO = new Big(0);
const floor2 = (x) => x.round(2, Big.roundDown);
const money = (x) => new Big(x);
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
  let total = ZERO,
    coupon = ZERO,
    nonCoupon = ZERO,
    youx = ZERO,
    zy = ZERO,
    qx = ZERO;
  let manjian = ZERO,
    discount = ZERO;
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
      ladder,
      free_shipping_hint: on(goods.is_dpby) ? { qg_number: goods.qg_number || 0, reached: quantity >= (goods.qg_number || 0) } : null,
    };
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
    if (item.goods_manjian_amount != null) discount = discount.plus(money(item.goods_manjian_amount));
    if (on(goods.is_dpby) && quantity >= (goods.qg_number || 0)) freeShipping = true;
  }
  const discountCut = floor2(discount);
  const payable = total.minus(discountCut);
  const reached = [],
    unreached = [];
  for (const tier of cart.activity_data?.manjians ?? []) {
    const amount = money(tier.amount);
    const shortfall = amount.minus(coupon);
    const row = {
      amount: price(amount),
      reduce: price(tier.reduce != null ? money(tier.reduce) : ZERO),
      status: shortfall.gt(0) ? 0 : 1,
      need: shortfall.gt(0) ? floor2(shortfall).toFixed(2) : '0.00',
    };
    (row.status ? reached : unreached).push(row);
  }
  let need = null;
  if (!freeShipping) {
    const shipping = cart.shipping_data ?? {};
    const rest = money(shipping.shipping_amount ?? 0)
      .minus(total)
      .minus(money(shipping.no_trans_order_amount ?? 0));
    if (rest.gt(0)) need = floor2(rest).toFixed(2);
  }
  return {
    lines,
    totals: {
      total: total.toFixed(2),
      coupon: coupon.toFixed(2),
      non_coupon: nonCoupon.toFixed(2),
      youx: youx.toFixed(2),
      zy: zy.toFixed(2),
      qx: qx.toFixed(2),
      manjian: manjian.toFixed(2),
      discount: discountCut.toFixed(2),
      payable: (payable.gt(0) ? payable : ZERO).toFixed(2),
    },
    counts: { items: items.length, selected, units, badge: Math.min(items.length, 99) },
    manjian_tiers: reached.concat(unreached),
    shipping: { free_shipping: freeShipping, need },
  };
}
