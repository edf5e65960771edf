// The built npm package (pkg/, what the web app imports) used from JavaScript: the same vector
// files give the same answers as the native engine, errors are JavaScript Errors naming the
// field, and the TypeScript declarations cover the API.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as shipped from '../../pkg/engine.js';
import {
  quoteCart,
  CartSession,
  isPhone,
  isEmail,
  checkUsername,
  checkPassword,
  compareMoney,
  manjianTitle,
  ladderHint,
  tierHint,
  shippingHint,
  LineType,
  discountLabel,
} from '../../pkg/engine.js';

// Rules 20–22 (refunds, points and cash back taken back) run in the origin; the browser calls
// none of them, so the shipped package leaves them out and they come from the test package: the
// same crate built with the feature `after-sale` (`build_test_pkg` in scripts/lib/setup.sh).
const TEST_PKG = process.env.ENGINE_TEST_PKG;
assert.ok(TEST_PKG, 'ENGINE_TEST_PKG names the test package (scripts/test sets it)');
const { refund, pointsTakeBack, cashback, cashbackTakeBack } = await import(pathToFileURL(`${TEST_PKG}/engine.js`).href);

const vectorsDir = new URL('../tests/vectors/', import.meta.url);
const golden = JSON.parse(readFileSync(new URL('golden/quotes.json', vectorsDir), 'utf8'));
const files = readdirSync(vectorsDir).filter((name) => name.endsWith('.json'));

/** What a call answers, or the message of the Error it throws. */
function attempt(call) {
  try {
    return call();
  } catch (error) {
    assert.ok(error instanceof Error, 'throws an Error');
    return { error: error.message };
  }
}

/** The answer to a vector: the quote (through a CartSession when it has edits), the refund, the points take-back, the cash back or the discount label. */
function answer(vector) {
  if (vector.refund) {
    const { paid, number, returned_before: before, k } = vector.refund;
    return attempt(() => ({ refund: refund(paid, number, before, k) }));
  }
  if (vector.take_back) {
    const { earned, due, refunded_before: before, refund: now, held, points_per_yuan: rate } = vector.take_back;
    return attempt(() => ({ ...pointsTakeBack(earned, due, before, now, held, rate) }));
  }
  if (vector.cashback) {
    const { tiers, net } = vector.cashback;
    return attempt(() => ({ back: cashback(tiers, net) }));
  }
  if (vector.cashback_take_back) {
    const { tiers, held, net_after: after, refund: now } = vector.cashback_take_back;
    return attempt(() => ({ taken: cashbackTakeBack(tiers, held, after, now) }));
  }
  if (vector.discount_label) return attempt(() => ({ label: discountLabel(vector.discount_label.rate) }));
  if (!vector.edits) return attempt(() => quoteCart(vector.input));
  return attempt(() => {
    const session = new CartSession(vector.input);
    for (const edit of vector.edits) {
      if (edit.set_number) session.setNumber(...edit.set_number);
      else if (edit.select) session.select(...edit.select);
      else session.remove(...edit.remove);
    }
    return session.quote();
  });
}

/** CartSession.settle of the vector's settlement on its cart, when it has one and the cart reads. */
function settledBySession(vector) {
  const { settlement, ...cart } = vector.input ?? {};
  if (settlement == null || vector.edits) return undefined;
  let session;
  try {
    session = new CartSession(cart);
  } catch {
    return undefined;
  }
  return attempt(() => session.settle(settlement));
}

test('every vector answers as the native engine did (golden file)', () => {
  let count = 0;
  for (const file of files) {
    for (const vector of JSON.parse(readFileSync(new URL(file, vectorsDir), 'utf8'))) {
      const name = `${file} / ${vector.name}`;
      const answered = answer(vector);
      assert.deepEqual(answered, golden[name], name);
      const settled = settledBySession(vector);
      if (settled !== undefined) assert.deepEqual(settled, answered.settlement ?? { error: answered.error }, `${name}: settle`);
      count++;
    }
  }
  assert.ok(count >= 80, `${count} vectors`);
  console.log(`${count} vectors through the built package, identical to native`);
});

test('a bad field throws an Error naming it', () => {
  const cart = { items: [{ id: 1, number: 2, price: '1.00', is_selected: 1, goods: { id: 1, is_buy: 1, number: 9 } }] };
  assert.equal(quoteCart(cart).totals.total, '2.00');
  cart.items[0].price = 'abc';
  assert.throws(() => quoteCart(cart), { name: 'Error', message: 'items[0].price: not a decimal: "abc"' });
  assert.throws(() => quoteCart(undefined), Error);
  assert.throws(() => new CartSession({ items: 'x' }), /^Error: items: invalid type/);
});

test('a CartSession edit equals quoteCart of the edited cart', () => {
  const cart = {
    items: [1, 2, 3].map((id) => ({
      id,
      number: id,
      price: `${id}.10`,
      is_selected: 1,
      with_coupon: id % 2,
      goods: { id, is_buy: 1, number: 100, ladder_price: [{ number: 5, price: `${id}.00` }] },
    })),
    activity_data: { manjians: [{ amount: 10, reduce: 1 }] },
  };
  const session = new CartSession(cart);
  session.setNumber(2, 7);
  session.select([3], 0);
  cart.items[1].number = 7;
  cart.items[2].is_selected = 0;
  assert.deepEqual(session.quote(), quoteCart(cart));
  const { lines, ...summary } = quoteCart(cart);
  assert.deepEqual(session.totals(), summary);
  assert.equal(typeof lines[0].id, 'number');
});

test('validators', () => {
  assert.equal(isPhone('13800138000'), true);
  assert.equal(isPhone('0571-1234567'), false);
  assert.equal(isPhone('0571-1234567', true), true);
  assert.equal(isEmail('caigou@yaofang.com.cn'), true);
  assert.equal(isEmail('caigou@yaofang'), false);
});

test('the shipped package leaves out what only the origin calls (rules 20–22)', () => {
  const afterSale = { refund, pointsTakeBack, cashback, cashbackTakeBack };
  for (const name of Object.keys(afterSale)) {
    assert.equal(shipped[name], undefined, `pkg/ does not export ${name}`);
    assert.equal(typeof afterSale[name], 'function', `the test package exports ${name}`);
  }
  assert.equal(typeof shipped.discountLabel, 'function', "the discount label is the browser's too");
});

test('TypeScript declarations cover the API (the types generated from the contract)', () => {
  const types = readFileSync(new URL('../../pkg/engine.d.ts', import.meta.url), 'utf8');
  const afterSale = readFileSync(`${TEST_PKG}/engine.d.ts`, 'utf8');
  for (const name of [
    'export function refund(paid: MoneyInput, number: number, returnedBefore: number, k: number): string',
    'export function pointsTakeBack(earned: number, due: MoneyInput, refundedBefore: MoneyInput, refund: MoneyInput, held: number, pointsPerYuan: number): PointsTakeBack',
    'export function cashback(tiers: CashbackTierInput[], net: MoneyInput): string',
    'export function cashbackTakeBack(tiers: CashbackTierInput[], held: MoneyInput, netAfter: MoneyInput, refund: MoneyInput): string',
  ]) {
    assert.ok(afterSale.includes(name), `the test package's engine.d.ts declares ${name}`);
    assert.ok(!types.includes(name), `pkg/engine.d.ts does not declare ${name}`);
  }
  for (const name of [
    'export function quoteCart(input: CartInput): CartQuote',
    'export class CartSession',
    'setNumber(id: number, number: number): void',
    'totals(): CartSummary',
    "export type CartQuote = components['schemas']['CartQuote'];",
    'export function isPhone(text: string, allowLandline?: boolean | null): boolean',
    'settle(settlement: SettlementInput): Settlement',
    "export type Settlement = components['schemas']['Settlement'];",
    "export type PointsTakeBack = components['schemas']['PointsTakeBack'];",
    'export function discountLabel(rate: MoneyInput): string',
  ]) {
    assert.ok(types.includes(name), `engine.d.ts declares ${name}`);
  }
});

test("settle follows the member's choices as they change, and refunds add up", () => {
  const cart = {
    items: [1, 2, 3].map((id) => ({
      id,
      number: 2,
      price: `${id}00.00`,
      is_selected: 1,
      with_coupon: 1,
      goods: { id, is_buy: 1, number: 9, is_youx: id === 3 ? 1 : 0 },
    })),
  };
  const session = new CartSession(cart);
  const accounts = {
    coupons: [
      { id: 11, kind: 1, threshold: '500', reduce: '30' },
      { id: 12, kind: 2, scope: 1, rate: '0.9' },
    ],
    cash_vouchers: [{ id: 21, amount: '10', threshold: '100' }],
    red_packet_balance: '50',
    red_packet_max_rate: '0.1',
    points_balance: 1000,
    points_per_yuan: 100,
    points_max_rate: '0.05',
  };
  // The best coupon (95 % of 600 off the youx line: 60.00 > 30.00), the voucher; no red packets, no points.
  const best = session.settle(accounts);
  assert.deepEqual([best.coupon, best.cash_voucher, best.due], [{ id: 12, value: '60.00' }, { id: 21, value: '10.00' }, '1130.00']);
  const chosen = session.settle({ ...accounts, coupon_id: 11, use_red_packet: 1, use_points: 1 });
  assert.deepEqual([chosen.coupon.value, chosen.red_packet, chosen.points_used, chosen.points_value], ['30.00', '50.00', 1000, '10.00']);
  assert.equal(chosen.due, '1100.00');
  assert.deepEqual(chosen, quoteCart({ ...cart, settlement: { ...accounts, coupon_id: 11, use_red_packet: 1, use_points: 1 } }).settlement);
  assert.throws(() => session.settle({ ...accounts, coupon_id: 99 }), { message: 'settlement.coupon_id: not usable: 99' });
  const line = chosen.lines[0];
  const parts = [1, 1].map((k, before) => refund(line.paid, 2, before, k));
  assert.equal(compareMoney(String(parts.reduce((sum, part) => sum + Math.round(Number(part) * 100), 0) / 100), line.paid), 0);
  assert.throws(() => refund('1.005', 3, 0, 1), { message: 'paid: more than two decimals' });
});

test('values JSON writes differently are read as JSON would carry them', () => {
  const line = (extra) => ({
    items: [{ id: 1, number: 3, price: '2.50', is_selected: 1, goods: { id: 7, is_buy: 1, number: 9 }, ...extra }],
  });
  const plain = quoteCart(line({}));
  // Fields the engine does not read are not even looked at: a Date, a cycle, a BigInt there.
  const cyclic = line({ added_at: new Date(0), note: 10n });
  cyclic.items[0].self = cyclic.items[0];
  assert.deepEqual(quoteCart(cyclic), plain);
  // A Date where money belongs reads as JSON writes it: its ISO text, not a decimal.
  assert.throws(() => quoteCart(line({ price: new Date(0) })), { message: 'items[0].price: not a decimal: "1970-01-01T00:00:00.000Z"' });
  // A class instance as the goods reads as a plain object.
  class Goods {
    constructor() {
      this.id = 7;
      this.is_buy = 1;
      this.number = 9;
    }
  }
  assert.deepEqual(quoteCart(line({ goods: new Goods() })), plain);
  assert.throws(() => quoteCart(line({ number: 3n })), { message: /not serializable as JSON/ });
});

test('number money is read through String(x); strings are read as they are', () => {
  const cart = (price) => ({ items: [{ id: 1, number: 1, price, is_selected: 1, goods: { id: 7, is_buy: 1, number: 9 } }] });
  assert.equal(quoteCart(cart(1e-7)).lines[0].unit_price, '0.0000001');
  assert.equal(quoteCart(cart(1.5e21)).lines[0].unit_price, '1500000000000000000000.00');
  assert.equal(quoteCart(cart(0.1)).lines[0].unit_price, '0.10');
  assert.throws(() => quoteCart(cart('1e-7')), { message: 'items[0].price: not a decimal: "1e-7"' });
  assert.throws(() => quoteCart(cart('1\u00002')), { message: 'items[0].price: not a decimal: "1\\u{0}2"' });
  assert.throws(() => quoteCart(cart('¥12')), { message: 'items[0].price: not a decimal: "¥12"' });
  assert.throws(() => quoteCart(cart('\ud800')), { message: /items\[0\]\.price: not a decimal/ });
});

test('the form rules answer the same messages as the origin', () => {
  assert.equal(checkUsername('pharma_01'), undefined);
  assert.equal(checkUsername(''), '请填写用户名');
  assert.equal(checkUsername('1abc'), '用户名为4-20位字母、数字或下划线，以字母开头');
  assert.equal(checkPassword('abc123'), undefined);
  assert.equal(checkPassword('aaaaaa'), '密码须同时包含字母和数字');
  assert.equal(checkPassword('a1'), '密码长度为6-20位');
});

test('money compares exactly, and the price sentences are written once', () => {
  assert.equal(compareMoney('0.30', 0.3), 0);
  assert.equal(compareMoney('10.001', '10'), 1);
  assert.equal(compareMoney('9.99', '10.00'), -1);
  assert.equal(compareMoney('100000000000000000.01', '100000000000000000.02'), -1, 'beyond a double');
  assert.throws(() => compareMoney('abc', '1'), { message: 'a: not a decimal: "abc"' });
  assert.equal(manjianTitle('500.00', 50), '满500减50');
  assert.equal(ladderHint(3, '盒', '11.609'), '再买 3 盒 享 ¥11.60');
  assert.equal(tierHint('80.00', '20'), '再买 ¥80.00 可减 ¥20.00');
  assert.equal(shippingHint('120.05'), '还差 ¥120.05 免运费');
  assert.deepEqual([LineType.Normal, LineType.FlashSale, LineType.Combination], [0, 1, 3]);
});

test('each line says where its price comes from', () => {
  const goods = { id: 1, is_buy: 1, number: 99, ladder_price: [{ number: 5, price: '9.00' }] };
  const line = (id, type, number) => ({ id, type, number, price: '10.00', is_selected: 1, goods, combination: goods });
  const quote = quoteCart({ items: [line(1, 0, 1), line(2, 0, 5), line(3, LineType.FlashSale, 5), line(4, LineType.Combination, 1)] });
  assert.deepEqual(
    quote.lines.map((each) => each.price_kind),
    ['regular', 'ladder', 'flash_sale', 'combination'],
  );
});

test('a settlement of few keys carries amounts longer than its tokens', () => {
  const cart = {
    items: [{ id: 1, number: 1, price: '100.00', is_selected: 1, goods: { id: 7, is_buy: 1, number: 9 } }],
    shipping_data: { shipping_amount: '500', no_trans_order_amount: 0 },
  };
  for (const [settlement, due] of [
    [{ shipping_fee: '100.00' }, '200.00'],
    [{ red_packet_balance: '1234567.89', use_red_packet: 1 }, '100.00'],
    [{ red_packet_max_rate: '0.123456789012345678', use_red_packet: 1, red_packet_balance: 100 }, '87.66'],
    [{ shipping_fee: '12.345678901234567890' }, '112.34'],
  ]) {
    assert.equal(quoteCart({ ...cart, settlement }).settlement.due, due, JSON.stringify(settlement));
    assert.equal(new CartSession(cart).settle(settlement).due, due, JSON.stringify(settlement));
  }
});

test('an unticked line in stock is sellable; only goods off sale or out of stock are not', () => {
  const line = (id, is_selected, is_buy, number) => ({ id, number: 1, price: '1.00', is_selected, goods: { id, is_buy, number } });
  const session = new CartSession({ items: [line(1, 0, 1, 5), line(2, 1, 0, 5), line(3, 1, 1, 0), line(4, 1, 1, 5)] });
  const flags = () => session.quote().lines.map(({ sellable, buyable }) => [sellable, buyable]);
  assert.deepEqual(flags(), [
    [true, false],
    [false, false],
    [false, false],
    [true, true],
  ]);
  session.select([4], 0);
  assert.deepEqual(flags()[3], [true, false]);
});
