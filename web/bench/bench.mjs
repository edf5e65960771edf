// Measures, in Chromium against the running shop:
// 1. a 200-line cart: from setting a line's quantity (the input event) to the moment the
//    payable on the page shows the new figure (a MutationObserver, after React's commit) —
//    the engine's CartSession and the render, before any server answer;
// 2. the JavaScript and WebAssembly the home page loads, gzipped.
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startStack, Client } from '../../scripts/lib/stack.mjs';
import { LAUNCH } from './chromium.mjs';

const LINES = Number(process.env.LINES ?? 200);
const EDITS = Number(process.env.EDITS ?? 60);

const stack = await startStack({ originBin: process.env.ORIGIN_BIN });
const browser = await chromium.launch(LAUNCH);
try {
  // What the home page loads.
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const loaded = [];
  page.on('response', async (response) => {
    const url = response.url();
    if (/\.(js|mjs|wasm)(\?|$)/.test(url))
      loaded.push(response.body().then((body) => ({ url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
  });
  await page.goto(stack.edge, { waitUntil: 'networkidle' });
  const files = await Promise.all(loaded);
  const js = files.filter((file) => !file.url.endsWith('.wasm'));
  const wasm = files.filter((file) => file.url.endsWith('.wasm'));
  const sum = (list, key) => list.reduce((total, file) => total + file[key], 0);

  // A 200-line cart for the demo member.
  const api = new Client(stack.edge);
  await api.login();
  let added = 0;
  for (let pageNumber = 1; added < LINES && pageNumber < 10; pageNumber++) {
    const list = await api.get(`/api/goods/list?page_size=100&page=${pageNumber}`);
    for (const goods of list.json.data.list) {
      if (added >= LINES) break;
      if (goods.is_buy !== 1 || goods.number < 100 || goods.flash_sale) continue;
      const answer = await api.post('/api/cart', { goods_id: goods.id, number: 1 });
      if (answer.status === 200) added++;
    }
  }
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: stack.edge })));
  const cart = await context.newPage();
  // The server's edits are held back: what is measured is the browser alone.
  await cart.route('**/api/cart/*/edit', () => new Promise(() => undefined));
  await cart.goto(`${stack.edge}/cart`, { waitUntil: 'networkidle' });
  await cart.waitForSelector('[data-testid="cart-row"]');
  const rows = await cart.locator('[data-testid="cart-row"]').count();
  const timings = await cart.evaluate(async (edits) => {
    const payable = document.querySelector('[data-testid="payable"]');
    const inputs = [...document.querySelectorAll('[data-testid="cart-row"] input[role="spinbutton"]')];
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const results = [];
    for (let i = 0; i < edits; i++) {
      const input = inputs[(i * 37) % inputs.length];
      const next = String(2 + (i % 9));
      const before = payable.textContent;
      const changed = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (payable.textContent !== before) {
            observer.disconnect();
            resolve(performance.now());
          }
        });
        observer.observe(payable, { childList: true, characterData: true, subtree: true });
      });
      const start = performance.now();
      setValue.call(input, next);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const end = await Promise.race([changed, new Promise((resolve) => setTimeout(() => resolve(null), 1000))]);
      if (end !== null) results.push(end - start);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    return results;
  }, EDITS);
  timings.sort((a, b) => a - b);
  const at = (p) => timings[Math.min(timings.length - 1, Math.ceil((p / 100) * timings.length) - 1)];
  console.log(`Quantity change to updated total, ${rows}-line cart, ${timings.length} of ${EDITS} edits changed the payable:`);
  console.log(
    `| p50 | p95 | max |\n|---:|---:|---:|\n| ${at(50).toFixed(1)} ms | ${at(95).toFixed(1)} ms | ${timings.at(-1).toFixed(1)} ms |`,
  );
  console.log('Home page loads:');
  console.log(`| what | files | raw | gzip |\n|---|---:|---:|---:|`);
  console.log(`| JavaScript | ${js.length} | ${sum(js, 'raw')} B | ${sum(js, 'gzip')} B |`);
  console.log(`| WebAssembly | ${wasm.length} | ${sum(wasm, 'raw')} B | ${sum(wasm, 'gzip')} B |`);
} finally {
  await browser.close();
  await stack.stop();
}
