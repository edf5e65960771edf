// Checkout validation through the edge vs straight to the origin, on the same stack, in the
// same run: requests take turns between the paths so that all see the same machine.
//
// Paths: straight to the origin; the edge under `wrangler dev` (as `scripts/run` serves it,
// with wrangler's local proxy in front); the same Worker in workerd through Miniflare's API
// (Miniflare's entry worker in front); and the same Worker in workerd alone, from a generated
// config, which is what the Workers runtime itself adds.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { startStack, Client } from '../../scripts/lib/stack.mjs';
import { startWorkerd } from './workerd.mjs';

const LINES = Number(process.env.LINES ?? 20);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const WARMUP = 200;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const stack = await startStack({ originBin: process.env.ORIGIN_BIN });
let miniflare;
let workerd;
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

  const build = join(dirname(fileURLToPath(import.meta.url)), '../build');
  miniflare = new Miniflare({
    modules: true,
    scriptPath: join(build, 'worker/shim.mjs'),
    compatibilityDate: '2026-04-01',
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    bindings: { ORIGIN_URL: stack.origin, EDGE_SECRET: stack.secret, PUBLIC_CACHE_TTL: '60' },
    host: '127.0.0.1',
    port: 0,
  });
  const miniflareUrl = (await miniflare.ready).toString().replace(/\/$/, '');
  workerd = await startWorkerd({ origin: stack.origin, secret: stack.secret });

  const paths = [
    ['straight to the origin', stack.origin],
    ['through the edge, wrangler dev', stack.edge],
    ['through the edge, workerd via Miniflare', miniflareUrl],
    ['through the edge, workerd alone', workerd.url],
  ].map(([name, base]) => {
    // Straight to the origin, a client must prove what the edge proves (`X-Edge-Proof`).
    const client = new Client(base, base === stack.origin ? { proofSecret: stack.secret } : {});
    client.cookies = new Map(edge.cookies);
    return [name, client];
  });
  const calls = [
    [`POST /api/cart/checkout (${cart.data.length} lines, checked by the edge)`, (client) => client.post('/api/cart/checkout', fields)],
    ['GET /api/cart/total (forwarded as it is)', (client) => client.get('/api/cart/total')],
  ];

  for (const [call, send] of calls) {
    const timings = new Map(paths.map(([name]) => [name, []]));
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      for (let k = 0; k < paths.length; k++) {
        const [name, client] = paths[(i + k) % paths.length];
        const start = process.hrtime.bigint();
        const answer = await send(client);
        const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
        if (answer.status !== 200) throw new Error(`${name}: ${answer.text}`);
        if (i >= WARMUP) timings.get(name).push(elapsed);
      }
    }
    const rows = paths.map(([name]) => {
      const sorted = timings.get(name).sort((a, b) => a - b);
      return [name, percentile(sorted, 50), percentile(sorted, 99)];
    });
    const [, base50, base99] = rows[0];
    const ms = (value) => `${value.toFixed(2)} ms`;
    console.log(`\n${call}: ${REQUESTS} requests per path, one at a time, taking turns`);
    console.log('| path | p50 | p99 | added p50 | added p99 |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, p50, p99] of rows) {
      const added = name === rows[0][0] ? '| | |' : `| ${ms(p50 - base50)} | ${ms(p99 - base99)} |`;
      console.log(`| ${name} | ${ms(p50)} | ${ms(p99)} ${added}`);
    }
  }

  const files = ['worker/shim.mjs', 'index.js', 'index_bg.wasm'];
  const bytes = files.map((file) => readFileSync(join(build, file)));
  const raw = bytes.reduce((sum, data) => sum + data.length, 0);
  const gzip = bytes.reduce((sum, data) => sum + gzipSync(data, { level: 9 }).length, 0);
  console.log(`\nWorker bundle (${files.join(', ')}): ${raw} bytes, ${gzip} bytes gzipped`);
} finally {
  await miniflare?.dispose();
  workerd?.stop();
  await stack.stop();
}
