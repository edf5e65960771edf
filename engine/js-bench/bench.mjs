// Times the WebAssembly engine against the big.js peer, on the carts
// `engine/benches/support/cart_gen.rs` makes: `cart-<n>.json`, and `cart-<n>-settled.json`, the
// same cart with the bench settlement (20 coupons, 5 cash vouchers, red packets and points).
// Usage: node --expose-gc bench.mjs <pkg dir> <carts dir> [<pkg dir built with boundary-comparison>]
// Each cart size is timed in fresh Node processes (three, the median kept), so that one size's
// garbage and compiled code do not weigh on the next.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { quotePeer, settlePeer } from './peer.mjs';

const SIZES = [10, 200, 1000, 10000];
const RUNS = 3;
const [pkgDir, cartsDir, swbDir, size] = process.argv.slice(2);

/**
 * Median time of one call in microseconds, over 21 rounds of enough calls to last ~20 ms each,
 * with a full garbage collection before each round.
 */
function time(fn) {
  let calls = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn(i);
    if (Number(process.hrtime.bigint() - start) > 2e7 || calls > 1e6) break;
    calls *= 2;
  }
  const rounds = [];
  for (let r = 0; r < 21; r++) {
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn(i);
    rounds.push(Number(process.hrtime.bigint() - start) / calls / 1e3);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(rounds.length / 2)];
}

/** One size, in this process: answers a JSON row on stdout. */
function measure(size) {
  const require = createRequire(import.meta.url);
  const engine = require(`${pkgDir}/engine.js`);
  // The same engine built with `--features boundary-comparison`.
  const other = swbDir !== '-' ? require(`${swbDir}/engine.js`) : null;
  const cart = JSON.parse(readFileSync(`${cartsDir}/cart-${size}.json`, 'utf8'));
  const quote = engine.quoteCart(cart);
  if (!isDeepStrictEqual(quote, quotePeer(cart))) throw new Error(`the peer disagrees on ${size} lines`);
  // The settled cart: the peer must agree on the whole quote, and its settlement alone (from its
  // own quote of the cart) must be the engine's, and what `CartSession.settle` answers.
  const settledCart = JSON.parse(readFileSync(`${cartsDir}/cart-${size}-settled.json`, 'utf8'));
  const { settlement } = settledCart;
  const settledQuote = engine.quoteCart(settledCart);
  if (!isDeepStrictEqual(settledQuote, quotePeer(settledCart))) throw new Error(`the peer disagrees on ${size} settled lines`);
  const peerQuote = quotePeer(cart);
  if (!isDeepStrictEqual(settlePeer(cart, peerQuote, settlement), settledQuote.settlement)) {
    throw new Error(`the peer's settlement disagrees on ${size} lines`);
  }
  const settling = new engine.CartSession(cart);
  if (!isDeepStrictEqual(settling.settle(settlement), settledQuote.settlement)) {
    throw new Error(`CartSession.settle disagrees with quoteCart on ${size} lines`);
  }
  const ids = cart.items.map((item) => item.id);
  const session = new engine.CartSession(cart);
  const row = {
    peer: time(() => quotePeer(cart)),
    wasm: time(() => engine.quoteCart(cart)),
    edit: time((i) => {
      session.setNumber(ids[(i * 7919) % ids.length], 1 + (i % 97));
      return session.totals();
    }),
    // One click at checkout (a coupon picked, points ticked): the session settles the cart it
    // holds; the peer, which has no session, quotes the cart and settles it (`quotePeer` of the
    // settled cart), or, given a quote already made, only settles.
    settle: time(() => settling.settle(settlement)),
    settlePeer: time(() => settlePeer(cart, peerQuote, settlement)),
    clickPeer: time(() => quotePeer(settledCart)),
    wasmSettled: time(() => engine.quoteCart(settledCart)),
  };
  if (other) {
    for (const [name, call] of [
      ['swb', other.quoteCartSerdeWasmBindgen],
      ['json', other.quoteCartJson],
    ]) {
      if (!isDeepStrictEqual(call(cart), quote)) throw new Error(`${name} disagrees on ${size} lines`);
      row[name] = time(() => call(cart));
    }
  }
  console.log(JSON.stringify(row));
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);

if (size) {
  measure(Number(size));
} else {
  const self = fileURLToPath(import.meta.url);
  const rows = SIZES.map((n) => {
    const runs = Array.from({ length: RUNS }, () =>
      JSON.parse(execFileSync(process.execPath, ['--expose-gc', self, pkgDir, cartsDir, swbDir ?? '-', String(n)], { encoding: 'utf8' })),
    );
    const row = { size: n };
    for (const key of Object.keys(runs[0])) row[key] = median(runs.map((run) => run[key]));
    return row;
  });
  const other = rows[0].swb !== undefined;
  console.log(`node ${process.version}; each cell the median of ${RUNS} processes`);
  console.log(
    '| lines | big.js peer quote | WASM quoteCart | speed-up | CartSession setNumber + totals | vs peer quote |' +
      (other ? ' quoteCart via serde-wasm-bindgen | quoteCart via JSON text |' : ''),
  );
  console.log('|---:|---:|---:|---:|---:|---:|' + (other ? '---:|---:|' : ''));
  for (const r of rows) {
    console.log(
      `| ${r.size} | ${fmt(r.peer)} | ${fmt(r.wasm)} | ${(r.peer / r.wasm).toFixed(2)}× | ${fmt(r.edit)} | ${Math.round(r.peer / r.edit)}× |` +
        (other ? ` ${fmt(r.swb)} | ${fmt(r.json)} |` : ''),
    );
  }
  console.log();
  console.log(
    "Settlement (20 coupons, 5 cash vouchers, red packets and points); the ≥ 10× target compares CartSession.settle with the peer's quote + settle:",
  );
  console.log(
    '| lines | WASM CartSession.settle | big.js quotePeer + settlePeer (one click) | speed-up | big.js settlePeer alone (quote given) | speed-up | WASM quoteCart with settlement |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.size} | ${fmt(r.settle)} | ${fmt(r.clickPeer)} | ${(r.clickPeer / r.settle).toFixed(1)}× | ${fmt(r.settlePeer)} | ${(r.settlePeer / r.settle).toFixed(1)}× | ${fmt(r.wasmSettled)} |`,
    );
  }
}
