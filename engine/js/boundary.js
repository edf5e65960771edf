// The engine's JavaScript side of the WebAssembly boundary: conversion only, no pricing.
//
// Reading a 1,000-line cart object property by property from WebAssembly, or through
// JSON.stringify, costs more than pricing it; so this module walks the cart in JavaScript,
// takes only the fields the engine reads, and hands WebAssembly one Float64Array of tokens and
// one string (all strings one after the other, each token saying its length). The quote comes
// back the same way and is built here with object literals.
// `src/wasm/tokens.rs` and `src/wasm/output.rs` are the Rust halves; the keys' table below is
// read by both (engine/build.rs writes the Rust one from it).

const NULL = 0,
  FALSE = 1,
  TRUE = 2,
  NUM = 3,
  STR = 4,
  ARR = 5,
  MAP = 6;

/**
 * Every key the engine reads; a key travels as its index here. The one list of both halves: the
 * engine's build script writes its Rust `Key` enum from it (engine/build.rs).
 */
const KEYS = [
  'items',
  'shipping_data',
  'activity_data',
  'shipping_amount',
  'no_trans_order_amount',
  'manjians',
  'amount',
  'reduce',
  'id',
  'type',
  'number',
  'price',
  'is_selected',
  'with_coupon',
  'goods_manjian_id',
  'goods',
  'combination',
  'is_buy',
  'is_youx',
  'is_dpby',
  'qg_number',
  'base_price',
  'ladder_price',
  'ladder_price_type',
  'settlement',
  'now',
  'coupons',
  'coupon_id',
  'cash_vouchers',
  'cash_voucher_id',
  'red_packet_balance',
  'use_red_packet',
  'points_balance',
  'use_points',
  'shipping_fee',
  'red_packet_max_rate',
  'points_per_yuan',
  'points_max_rate',
  'kind',
  'scope',
  'threshold',
  'rate',
  'max_reduce',
  'starts_at',
  'ends_at',
];

const K = Object.fromEntries(KEYS.map((key, index) => [key, index]));

let tokens = new Float64Array(1 << 14);
let size = 0;
let strings = [];

/** Thrown when the cart holds something JSON would write differently (a Date, a BigInt...). */
const NOT_PLAIN = Symbol('not plain data');

/** Makes room for `count` more tokens; writers reserve before they write, never per token. */
function reserve(count) {
  if (size + count <= tokens.length) return;
  let length = tokens.length * 2;
  while (length < size + count) length *= 2;
  const bigger = new Float64Array(length);
  bigger.set(tokens.subarray(0, size));
  tokens = bigger;
}

/** An object's most tokens before its lists: 10 fields of key, tag and value or length, and its head. */
const RECORD = 44;

/**
 * Writes one field the engine reads as a scalar (key, then value as JSON.stringify then
 * serde_json would give it), and answers 1; answers 0 for values JSON leaves out. An object or
 * array there is an error the engine reports by its type alone: written empty.
 */
function field(key, value) {
  switch (typeof value) {
    case 'number':
      tokens[size++] = key;
      tokens[size++] = NUM;
      tokens[size++] = value;
      return 1;
    case 'string':
      tokens[size++] = key;
      tokens[size++] = STR;
      tokens[size++] = value.length;
      strings.push(value);
      return 1;
    case 'boolean':
      tokens[size++] = key;
      tokens[size++] = value ? TRUE : FALSE;
      return 1;
    case 'object':
      tokens[size++] = key;
      empty(value);
      return 1;
    case 'bigint':
      throw NOT_PLAIN;
    default:
      return 0; // undefined, function, symbol
  }
}

/** A value in a place that wants an object or a list, but is not one. */
function scalar(value) {
  switch (typeof value) {
    case 'number':
      tokens[size++] = NUM;
      tokens[size++] = value;
      return;
    case 'string':
      tokens[size++] = STR;
      tokens[size++] = value.length;
      strings.push(value);
      return;
    case 'boolean':
      tokens[size++] = value ? TRUE : FALSE;
      return;
    case 'object':
      empty(value);
      return;
    case 'bigint':
      throw NOT_PLAIN;
    default:
      tokens[size++] = NULL; // undefined, function, symbol: null inside an array
  }
}

function empty(value) {
  if (value === null) {
    tokens[size++] = NULL;
    return;
  }
  plain(value);
  tokens[size++] = Array.isArray(value) ? ARR : MAP;
  tokens[size++] = 0;
}

function plain(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && !Array.isArray(value)) throw NOT_PLAIN;
}

/** Starts an object that has fields for the engine; answers where its field count goes. */
function open(value) {
  plain(value);
  reserve(RECORD);
  if (Array.isArray(value)) {
    tokens[size++] = ARR;
    tokens[size++] = 0;
    return -1;
  }
  tokens[size++] = MAP;
  tokens[size++] = 0;
  return size - 1;
}

const omitted = (value) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** A list of records, each written by `each`; anything else as a scalar. */
function list(value, each) {
  reserve(4);
  if (!Array.isArray(value)) {
    scalar(value);
    return;
  }
  tokens[size++] = ARR;
  tokens[size++] = value.length;
  for (let i = 0; i < value.length; i++) {
    const element = value[i];
    if (typeof element === 'object' && element !== null) each(element);
    else {
      reserve(4);
      scalar(element);
    }
  }
}

function recordField(key, value, each) {
  if (omitted(value)) return 0;
  reserve(4);
  tokens[size++] = key;
  if (typeof value === 'object' && value !== null) each(value);
  else scalar(value);
  return 1;
}

function step(s) {
  const at = open(s);
  if (at < 0) return;
  const n = field(K.number, s.number) + field(K.price, s.price);
  tokens[at] = n; // after the fields: writing them may have replaced `tokens`
}

function goods(g) {
  const at = open(g);
  if (at < 0) return;
  let n =
    field(K.id, g.id) +
    field(K.is_buy, g.is_buy) +
    field(K.number, g.number) +
    field(K.is_youx, g.is_youx) +
    field(K.type, g.type) +
    field(K.is_dpby, g.is_dpby) +
    field(K.qg_number, g.qg_number) +
    field(K.base_price, g.base_price) +
    field(K.ladder_price_type, g.ladder_price_type);
  const ladder = g.ladder_price;
  if (!omitted(ladder)) {
    reserve(1);
    tokens[size++] = K.ladder_price;
    list(ladder, step);
    n++;
  }
  tokens[at] = n;
}

function item(it) {
  const at = open(it);
  if (at < 0) return;
  const n =
    field(K.id, it.id) +
    field(K.type, it.type) +
    field(K.number, it.number) +
    field(K.price, it.price) +
    field(K.is_selected, it.is_selected) +
    field(K.with_coupon, it.with_coupon) +
    field(K.goods_manjian_id, it.goods_manjian_id) +
    recordField(K.goods, it.goods, goods) +
    recordField(K.combination, it.combination, goods);
  tokens[at] = n; // after the fields: writing them may have replaced `tokens`
}

function tier(t) {
  const at = open(t);
  if (at < 0) return;
  const n = field(K.amount, t.amount) + field(K.reduce, t.reduce);
  tokens[at] = n; // after the fields: writing them may have replaced `tokens`
}

function shipping(s) {
  const at = open(s);
  if (at < 0) return;
  const n = field(K.shipping_amount, s.shipping_amount) + field(K.no_trans_order_amount, s.no_trans_order_amount);
  tokens[at] = n; // after the fields: writing them may have replaced `tokens`
}

function activity(a) {
  const at = open(a);
  if (at < 0) return;
  let n = 0;
  if (!omitted(a.manjians)) {
    reserve(1);
    tokens[size++] = K.manjians;
    list(a.manjians, tier);
    n++;
  }
  tokens[at] = n;
}

function cart(c) {
  const at = open(c);
  if (at < 0) return;
  let n = recordField(K.shipping_data, c.shipping_data, shipping) + recordField(K.activity_data, c.activity_data, activity);
  if (!omitted(c.items)) {
    reserve(1);
    tokens[size++] = K.items;
    list(c.items, item);
    n++;
  }
  tokens[at] = n;
}

/**
 * The cart as tokens: `{ tokens: Float64Array, text }`. A cart holding values JSON writes
 * differently (a Date, a class instance) is first made plain by a JSON round trip, so that the
 * engine always reads what JSON would carry; that round trip throws on cycles and BigInts.
 */
export function encodeCart(value) {
  try {
    return encodePlain(value);
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
  }
  return encodePlain(JSON.parse(JSON.stringify(value)));
}

function encodePlain(value) {
  size = 0;
  strings = [];
  cart(value);
  return { tokens: tokens.subarray(0, size), text: strings.join('') };
}

/**
 * Any plain value, keeping only the keys the engine reads (the settlement object: small, so
 * written generically rather than field by field as carts are).
 */
function any(value) {
  reserve(4);
  if (typeof value !== 'object' || value === null) {
    scalar(value);
    return;
  }
  plain(value);
  if (Array.isArray(value)) {
    tokens[size++] = ARR;
    tokens[size++] = value.length;
    for (let i = 0; i < value.length; i++) any(value[i]);
    return;
  }
  tokens[size++] = MAP;
  const at = size++;
  let n = 0;
  for (const key of Object.keys(value)) {
    const element = value[key];
    if (!Object.hasOwn(K, key) || omitted(element)) continue;
    reserve(1);
    tokens[size++] = K[key];
    any(element);
    n++;
  }
  tokens[at] = n; // after the fields: writing them may have replaced `tokens`
}

/** A settlement object as tokens, like `encodeCart`. */
export function encodeSettlement(value) {
  try {
    return encodeAny(value);
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
  }
  return encodeAny(JSON.parse(JSON.stringify(value)));
}

function encodeAny(value) {
  size = 0;
  strings = [];
  any(value);
  return { tokens: tokens.subarray(0, size), text: strings.join('') };
}

/** Builds the summary (totals, counts, tiers, shipping) written by output.rs from `at`, and moves `at` past it. */
function summary(n, m, at) {
  let i = at.i,
    j = at.j;
  const totals = {
    total: m[j++],
    coupon: m[j++],
    non_coupon: m[j++],
    youx: m[j++],
    zy: m[j++],
    qx: m[j++],
    manjian: m[j++],
    discount: m[j++],
    payable: m[j++],
  };
  const counts = { items: n[i++], selected: n[i++], units: n[i++], badge: n[i++] };
  const tiers = new Array(n[i++]);
  for (let t = 0; t < tiers.length; t++) {
    tiers[t] = { amount: m[j++], reduce: m[j++], status: n[i++], need: m[j++] };
  }
  const free = n[i++] === 1;
  const need = n[i++] === 1 ? m[j++] : null;
  at.i = i;
  at.j = j;
  return { totals, counts, manjian_tiers: tiers, shipping: { free_shipping: free, need } };
}

/** A chosen coupon or voucher: `{ id, value }` or null. */
function chosen(n, m, at) {
  if (n[at.i++] !== 1) return null;
  return { id: n[at.i++], value: m[at.j++] };
}

/** Builds the settlement written by output.rs from `at`, and moves `at` past it. */
function settlement(n, m, at) {
  const goods = m[at.j++];
  const coupons = new Array(n[at.i++]);
  for (let c = 0; c < coupons.length; c++) {
    coupons[c] = { id: n[at.i++], usable: n[at.i++] === 1, value: m[at.j++], need: m[at.j++] };
  }
  const coupon = chosen(n, m, at);
  const vouchers = new Array(n[at.i++]);
  for (let v = 0; v < vouchers.length; v++) {
    vouchers[v] = { id: n[at.i++], usable: n[at.i++] === 1, value: m[at.j++] };
  }
  const voucher = chosen(n, m, at);
  const redPacket = m[at.j++],
    pointsUsed = n[at.i++],
    pointsValue = m[at.j++],
    shippingFee = m[at.j++],
    due = m[at.j++];
  const lines = new Array(n[at.i++]);
  for (let l = 0; l < lines.length; l++) {
    lines[l] = {
      id: n[at.i++],
      coupon: m[at.j++],
      cash_voucher: m[at.j++],
      red_packet: m[at.j++],
      points: m[at.j++],
      paid: m[at.j++],
    };
  }
  return {
    goods,
    coupons,
    coupon,
    cash_vouchers: vouchers,
    cash_voucher: voucher,
    red_packet: redPacket,
    points_used: pointsUsed,
    points_value: pointsValue,
    shipping_fee: shippingFee,
    due,
    lines,
  };
}

const ascii = new TextDecoder();

/** `PriceKind` by its number in output.rs. */
const PRICE_KINDS = ['regular', 'ladder', 'flash_sale', 'combination'];

/** The quote output.rs wrote (numbers, and money as comma-joined ASCII): lines, then the summary. */
export function decodeQuote(n, text) {
  const m = ascii.decode(text).split(',');
  let i = 0,
    j = 0;
  const lines = new Array(n[i++]);
  for (let k = 0; k < lines.length; k++) {
    const id = n[i++],
      selected = n[i++],
      sellable = n[i++] === 1,
      buyable = n[i++] === 1,
      overStock = n[i++] === 1;
    const rows = n[i++],
      bands = n[i++] === 1,
      priceKind = PRICE_KINDS[n[i++]];
    const unitPrice = m[j++],
      amount = m[j++],
      savings = m[j++],
      share = m[j++];
    const ladder = new Array(rows);
    for (let r = 0; r < rows; r++) {
      const number = n[i++];
      if (bands) {
        const max = n[i++];
        ladder[r] = { number, max: max < 0 ? null : max, price: m[j++], reached: n[i++] === 1, need: n[i++] };
      } else {
        ladder[r] = { number, price: m[j++], reached: n[i++] === 1, need: n[i++] };
      }
    }
    const hint = n[i++] === 1 ? { qg_number: n[i++], reached: n[i++] === 1 } : null;
    lines[k] = {
      id,
      is_selected: selected,
      sellable,
      buyable,
      over_stock: overStock,
      unit_price: unitPrice,
      price_kind: priceKind,
      amount,
      savings,
      goods_manjian_amount: share,
      ladder,
      free_shipping_hint: hint,
    };
  }
  const at = { i, j };
  const quote = summary(n, m, at);
  if (n[at.i++] === 1) quote.settlement = settlement(n, m, at);
  return { lines, ...quote };
}

/** The summary alone (CartSession.totals). */
export function decodeSummary(n, text) {
  return summary(n, ascii.decode(text).split(','), { i: 0, j: 0 });
}

/** The settlement alone (CartSession.settle). */
export function decodeSettlement(n, text) {
  return settlement(n, ascii.decode(text).split(','), { i: 0, j: 0 });
}
