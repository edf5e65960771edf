import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { startStack, Client } from '../tests/harness.mjs';
const N = 1000;
const p = (s, q) => s[Math.min(s.length - 1, Math.ceil((q / 100) * s.length) - 1)];
const stack = await startStack({ originBin: process.env.ORIGIN_BIN });
try {
  const edge = new Client(stack.edge);
  await edge.login();
  const list = await edge.get('/api/goods/list?page_size=100');
  const goods = list.json.data.list.filter((item) => item.is_buy === 1 && item.number >= 50).slice(0, 20);
  for (const item of goods) await edge.post('/api/cart', { goods_id: item.id, number: 2 });
  const cart = (await edge.get('/api/cart/list')).json.data;
  const fields = { ids: cart.data.map((line) => line.id).join(','), new: 1, expected_payable: cart.quote.totals.payable };
  const origin = new Client(stack.origin); origin.cookies = new Map(edge.cookies);
  const build = join(dirname(fileURLToPath(import.meta.url)), '../build');
  const mf = new Miniflare({ modules: true, scriptPath: join(build, 'worker/shim.mjs'), compatibilityDate: '2026-04-01',
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }, { type: 'CompiledWasm', include: ['**/*.wasm'] }],
    bindings: { ORIGIN_URL: stack.origin, EDGE_SECRET: stack.secret, PUBLIC_CACHE_TTL: '60' }, host: '127.0.0.1', port: 0 });
  const w = new Client((await mf.ready).toString().replace(/\/$/, '')); w.cookies = new Map(edge.cookies);
  const cases = [
    ['total', (c) => c.get('/api/cart/total')],
    ['list', (c) => c.get('/api/cart/list')],
    ['checkout', (c) => c.post('/api/cart/checkout', fields)],
  ];
  const extra = process.env.HEADERS ? JSON.parse(process.env.HEADERS) : {};
  for (const [name, call] of cases) {
    const t = { origin: [], workerd: [] };
    for (let i = 0; i < N + 100; i++) for (const [side, c] of [['origin', origin], ['workerd', w]]) {
      const s = process.hrtime.bigint(); const a = await call(c); const e = Number(process.hrtime.bigint() - s) / 1e6;
      if (a.status !== 200) throw new Error(a.text);
      if (i >= 100) t[side].push(e);
    }
    const o = t.origin.sort((a, b) => a - b), k = t.workerd.sort((a, b) => a - b);
    console.log(`${name}: origin p50 ${p(o, 50).toFixed(2)} p99 ${p(o, 99).toFixed(2)} | workerd p50 ${p(k, 50).toFixed(2)} p99 ${p(k, 99).toFixed(2)} | added ${(p(k, 50) - p(o, 50)).toFixed(2)}`);
  }
  await mf.dispose();
} finally { await stack.stop(); }
