// Checkout validation through the edge vs straight to the origin, on the same stack, in the
// same run: requests alternate between the two so that both see the same machine.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
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

  // The same Worker in workerd without wrangler dev's local proxy layers (Miniflare's API),
  // which is closer to what the Workers runtime itself adds.
  const build = join(dirname(fileURLToPath(import.meta.url)), '../build');
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: join(build, 'worker/shim.mjs'),
    compatibilityDate: '2026-04-01',
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }, { type: 'CompiledWasm', include: ['**/*.wasm'] }],
    bindings: { ORIGIN_URL: stack.origin, EDGE_SECRET: stack.secret, PUBLIC_CACHE_TTL: '60' },
    host: '127.0.0.1',
    port: 0,
  });
  const direct = new Client((await miniflare.ready).toString().replace(/\/$/, ''));
  direct.cookies = new Map(edge.cookies);

  const sides = [['origin', origin], ['wrangler', edge], ['workerd', direct]];
  const timings = Object.fromEntries(sides.map(([name]) => [name, []]));
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    for (let k = 0; k < sides.length; k++) {
      const [name, client] = sides[(i + k) % sides.length];
      const start = process.hrtime.bigint();
      const answer = await client.post('/api/cart/checkout', fields);
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (answer.status !== 200) throw new Error(`${name}: ${answer.text}`);
      if (i >= WARMUP) timings[name].push(elapsed);
    }
  }
  await miniflare.dispose();
  const row = (name) => {
    const sorted = [...timings[name]].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const [straight, wrangler, workerd] = [row('origin'), row('wrangler'), row('workerd')];
  const ms = (value) => `${value.toFixed(2)} ms`;
  console.log(`POST /api/cart/checkout, ${cart.data.length} lines, ${REQUESTS} requests each, one at a time, taking turns`);
  console.log('| path | p50 | p99 | added p50 | added p99 |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| straight to the origin | ${ms(straight.p50)} | ${ms(straight.p99)} | | |`);
  console.log(`| through the edge, wrangler dev | ${ms(wrangler.p50)} | ${ms(wrangler.p99)} | ${ms(wrangler.p50 - straight.p50)} | ${ms(wrangler.p99 - straight.p99)} |`);
  console.log(`| through the edge, workerd (Miniflare) | ${ms(workerd.p50)} | ${ms(workerd.p99)} | ${ms(workerd.p50 - straight.p50)} | ${ms(workerd.p99 - straight.p99)} |`);

  const files = ['worker/shim.mjs', 'index.js', 'index_bg.wasm'];
  const bytes = files.map((file) => readFileSync(join(build, file)));
  const raw = bytes.reduce((sum, data) => sum + data.length, 0);
  const gzip = bytes.reduce((sum, data) => sum + gzipSync(data, { level: 9 }).length, 0);
  console.log(`Worker bundle (${files.join(', ')}): ${raw} bytes, ${gzip} bytes gzipped`);
} finally {
  await stack.stop();
}
