// Times the WebAssembly engine against the big.js peer in one Node process, on the carts
// `engine/benches/support/cart_gen.rs` makes.
// Usage: node bench.mjs <pkg dir> <carts dir> [<pkg dir built with boundary-comparison>]
// (`engine/bench/run` builds both and calls this).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { quotePeer } from './peer.mjs';

const [pkgDir, cartsDir, swbDir] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const engine = require(`${pkgDir}/engine.js`);
// The same engine built with `--features boundary-comparison`: quoteCart through serde-wasm-bindgen.
const swb = swbDir ? require(`${swbDir}/engine.js`) : null;
const SIZES = [10, 200, 1000, 10000];

/**
 * Median time of one call in microseconds, over 21 rounds of enough calls to last ~20 ms each,
 * with a full garbage collection before each round (run node with --expose-gc), so that one
 * contender's garbage is not collected on another's time.
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

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);
const rows = [];
for (const size of SIZES) {
  const cart = JSON.parse(readFileSync(`${cartsDir}/cart-${size}.json`, 'utf8'));
  const wasmQuote = engine.quoteCart(cart);
  if (!isDeepStrictEqual(wasmQuote, quotePeer(cart))) {
    throw new Error(`the peer and the engine disagree on the ${size}-line cart`);
  }
  const ids = cart.items.map((item) => item.id);
  const session = new engine.CartSession(cart);
  const peer = time(() => quotePeer(cart));
  const wasm = time(() => engine.quoteCart(cart));
  const edit = time((i) => {
    session.setNumber(ids[(i * 7919) % ids.length], 1 + (i % 97));
    return session.totals();
  });
  const row = { size, peer, wasm, edit };
  if (swb) {
    if (!isDeepStrictEqual(swb.quoteCartSerdeWasmBindgen(cart), wasmQuote)) {
      throw new Error(`the two boundaries disagree on the ${size}-line cart`);
    }
    if (!isDeepStrictEqual(swb.quoteCartJson(cart), wasmQuote)) {
      throw new Error(`the JSON boundary disagrees on the ${size}-line cart`);
    }
    row.swb = time(() => swb.quoteCartSerdeWasmBindgen(cart));
    row.json = time(() => swb.quoteCartJson(cart));
  }
  rows.push(row);
}

console.log(`node ${process.version}, ${pkgDir}`);
console.log('| lines | big.js peer quote | WASM quoteCart | speed-up | CartSession setNumber + totals | vs peer quote |' +
  (rows[0].swb ? ' quoteCart via serde-wasm-bindgen | quoteCart via JSON text |' : ''));
console.log('|---:|---:|---:|---:|---:|---:|' + (rows[0].swb ? '---:|---:|' : ''));
for (const r of rows) {
  console.log(`| ${r.size} | ${fmt(r.peer)} | ${fmt(r.wasm)} | ${(r.peer / r.wasm).toFixed(2)}× | ${fmt(r.edit)} | ${Math.round(r.peer / r.edit)}× |` +
    (r.swb ? ` ${fmt(r.swb)} | ${fmt(r.json)} |` : ''));
}
