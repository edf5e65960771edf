// Checkout validation through the edge vs straight to the origin, on the same stack, in the
// same run: requests alternate between the two so that both see the same machine.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack, Client } from '../tests/harness.mjs';

const LINES = Number(process.env.LINES ?? 20);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WARMUP = 200;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const stack = await startStack({ originBin: process.env.ORIGIN_BIN });
try {
  const edge = new Client(stack.edge);
  await edge.login();
  const list = await edge.get('/api/goods/list?page_size=100');
  const goods = list.json.data.list.filter((item) => item.is_buy === 1 && item.number >= 50).slice(0, LINES);
  for (const item of goods) {
    const added = await edge.post('/api/cart', { goods_id: item.id, number: 2 });
    if (added.status !== 200) throw new Error(added.text);
  }
  const cart = (await edge.get('/api/cart/list')).json.data;
  const fields = { ids: cart.data.map((line) => line.id).join(','), new: 1, expected_payable: cart.quote.totals.payable };
  const origin = new Client(stack.origin);
  origin.cookies = new Map(edge.cookies);

  const timings = { edge: [], origin: [] };
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    for (const [name, client] of i % 2 ? [['edge', edge], ['origin', origin]] : [['origin', origin], ['edge', edge]]) {
      const start = process.hrtime.bigint();
      const answer = await client.post('/api/cart/checkout', fields);
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (answer.status !== 200) throw new Error(`${name}: ${answer.text}`);
      if (i >= WARMUP) timings[name].push(elapsed);
    }
  }
  const row = (name) => {
    const sorted = [...timings[name]].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const [throughEdge, straight] = [row('edge'), row('origin')];
  console.log(`POST /api/cart/checkout, ${cart.data.length} lines, ${REQUESTS} requests each, one at a time, alternating`);
  console.log('| path | p50 | p99 |');
  console.log('|---|---:|---:|');
  console.log(`| straight to the origin | ${straight.p50.toFixed(2)} ms | ${straight.p99.toFixed(2)} ms |`);
  console.log(`| through the edge (workerd) | ${throughEdge.p50.toFixed(2)} ms | ${throughEdge.p99.toFixed(2)} ms |`);
  console.log(`| the edge adds | ${(throughEdge.p50 - straight.p50).toFixed(2)} ms | ${(throughEdge.p99 - straight.p99).toFixed(2)} ms |`);

  const build = join(dirname(fileURLToPath(import.meta.url)), '../build');
  const files = ['worker/shim.mjs', 'index.js', 'index_bg.wasm'];
  const bytes = files.map((file) => readFileSync(join(build, file)));
  const raw = bytes.reduce((sum, data) => sum + data.length, 0);
  const gzip = bytes.reduce((sum, data) => sum + gzipSync(data, { level: 9 }).length, 0);
  console.log(`Worker bundle (${files.join(', ')}): ${raw} bytes, ${gzip} bytes gzipped`);
} finally {
  await stack.stop();
}
