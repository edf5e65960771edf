// The shop's pages in Chromium through the edge, signed in as the demo member: how long until
// each page's content is visible, cold (a fresh browser context: empty cache, no connections)
// and on a reload, how long an in-app navigation takes, what the home page loads (JavaScript,
// gzipped) and how many requests each page makes. Figures for BENCHMARKS.md.
//
// "Content visible": the first animation frame in which the page's own content is in the DOM
// and shown (its selector below matches a visible element inside <main>, with text), and
// nothing inside <main> is still loading: no spinning .ant-spin, no .ant-skeleton. Times are
// from the start of the navigation (performance.timeOrigin) for loads and reloads, and from the
// click for in-app navigations (the pointer on the link 200 ms before, as a hand does).
//
// With BASELINE, the same is measured on another build of the shop beside this one, the two
// taking turns page by page and run by run, so that both see the same machine: on a shared
// machine whose load comes and goes, a before and an after measured an hour apart say little.
//
//   ORIGIN_BIN           the origin (release build: web/bench/run builds it)
//   RUNS                 loads per page, cold and reload each (default 7)
//   PAGES                only the pages whose path contains one of these comma-separated words
//   WRITE                a Markdown file to write the tables to (BENCHMARKS.md: its generated block)
//   BASELINE             another checkout of the shop, built (web/dist, edge/build, edge/node_modules)
//   BASELINE_ORIGIN_BIN  its origin (release build)
//   BASELINE_NAME        what the tables call it (default: "before"; this build is "after")
//
// A load whose content has not shown after STALL_MS is taken again in a fresh context (at most
// twice) and counted: wrangler dev sometimes never answers a request for one of the app's files
// (docs/edge.md, "A request `wrangler dev` never answered"), and such a page never draws. The
// tables say how many loads stalled, and which requests had no answer.
import { gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { chromium } from '@playwright/test';
import { startStack } from '../../scripts/lib/stack.mjs';
import { LAUNCH, signedInWithCart } from './chromium.mjs';

const RUNS = Number(process.env.RUNS ?? 7);
const STALL_MS = 20_000;
const TRIES = 3;
const CONTEXT = { viewport: { width: 1400, height: 900 }, locale: 'zh-CN' };

/** Targets (issue 24, "Speed you can feel"). */
const TARGET = { cold: 500, reload: 250, navigation: 100, firstLoadJs: 250 * 1024 };

// The pages of the product spec's §2, each with the selector of its own content.
const ALL_PAGES = [
  { path: '/', ready: '.floor .goods-card' },
  { path: '/list', ready: '.goods-grid .goods-card' },
  { path: '/list/table', ready: '.ant-table-row' },
  { path: '/list/info/1', ready: '.goods-detail h1' },
  { path: '/search?keyword=%E9%98%BF%E8%8E%AB%E8%A5%BF%E6%9E%97', ready: '.goods-grid .goods-card' },
  { path: '/cart', ready: '[data-testid="cart-row"]' },
  { path: '/cart/step2', ready: '.checkout-page .ant-table-row' },
  { path: '/user', ready: '.member-centre .member-card' },
  { path: '/wdqb', ready: '.member-stats .ant-card' },
  { path: '/zhzx/basic', ready: '.member-main .ant-descriptions' },
  { path: '/order', ready: '.member-main .order-card, .member-main .ant-empty' },
  { path: '/jfsc', ready: '.mall-card' },
  { path: '/zyyp', ready: '.zone-grid .goods-card' },
  { path: '/qxzq', ready: '.zone-grid .goods-card' },
  { path: '/jxqzc', ready: '.zone-grid .goods-card' },
  { path: '/mrtj', ready: '.zone-grid .goods-card' },
  { path: '/yx', ready: '.zone-grid .goods-card' },
  { path: '/ppzq', ready: '.brand-tile' },
  { path: '/zhzq', ready: '.combination-set' },
  { path: '/lqzx', ready: '.coupon-card' },
  { path: '/welfare', ready: '.zone-grid .goods-card' },
  { path: '/hb', ready: '.zone-grid .goods-card' },
  { path: '/help/xrzn/hyzc?id=66', ready: '.article-body' },
  { path: '/news/hy', ready: '.ant-list-item' },
  { path: '/zzfw/kjcg', ready: '.member-main .ant-table' },
];
const PAGES = ALL_PAGES.filter((page) => !process.env.PAGES || process.env.PAGES.split(',').some((word) => page.path.includes(word)));

// In-app navigations: from a page whose content is visible, a click on a link to another page,
// the pointer resting on it HOVER_MS before.
// HOVER_MS=800: long enough that the first answers have come before the click (the render path alone).
const HOVER_MS = Number(process.env.HOVER_MS ?? 200);
const NAVIGATIONS = [
  { from: '/', link: 'a[href="/cart"]', to: '/cart', ready: '[data-testid="cart-row"]' },
  { from: '/', link: '.floor .goods-card a[href^="/list/info/"]', to: '/list/info/', ready: '.goods-detail h1' },
  { from: '/', link: 'a[href="/zyyp"]', to: '/zyyp', ready: '.zone-grid .goods-card' },
  { from: '/list', link: 'a[href="/order"]', to: '/order', ready: '.member-main .order-card, .member-main .ant-empty' },
  { from: '/list/info/1', link: 'a[href="/"]', to: '/', ready: '.floor .goods-card' },
];

// Runs in every document before the app, given each page's selector: each animation frame,
// checks whether the content is visible and keeps the first time it was.
function watchContent(readyByPath) {
  const busy = '.ant-spin-spinning, .ant-skeleton';
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.textContent.trim() !== '';
  };
  const here = location.pathname + location.search;
  const entry = readyByPath.find(([path]) => path === here) ?? readyByPath.find(([path]) => path !== '/' && here.startsWith(path));
  window.__bench = { ready: entry?.[1] ?? null, path: null, since: 0, visible: null };
  const check = () => {
    const bench = window.__bench;
    if (bench.ready && bench.visible === null && (!bench.path || location.pathname.startsWith(bench.path))) {
      const main = document.querySelector('main');
      const content =
        main && [...main.querySelectorAll(bench.ready)].find((element) => !element.closest('[data-bench-old]') && shown(element));
      if (content && !main.querySelector(busy)) bench.visible = performance.now() - bench.since;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

const READY_BY_PATH = [...ALL_PAGES, ...NAVIGATIONS.map((navigation) => ({ path: navigation.to, ready: navigation.ready }))].map((page) => [
  page.path,
  page.ready,
]);

const sorted = (values) => [...values].sort((a, b) => a - b);
const percentile = (values, p) => {
  const list = sorted(values);
  return list[Math.min(list.length - 1, Math.max(0, Math.ceil((p / 100) * list.length) - 1))];
};
const ms = (value) => `${Math.round(value)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Starts a shop (`startStack` of its checkout), signed in as the demo member with a few lines in the cart. */
async function openShop(name, start, originBin) {
  const stack = await start({ originBin });
  const cookies = await signedInWithCart(stack);
  return {
    name,
    stack,
    cookies,
    pages: new Map(PAGES.map((page) => [page.path, { cold: [], reload: [], coldRequests: [], reloadRequests: [] }])),
    navigations: new Map(NAVIGATIONS.map((navigation) => [`${navigation.from} → ${navigation.to}`, []])),
    stalls: [],
  };
}

const shops = [];
if (process.env.BASELINE) {
  const baseline = await import(new URL(`file://${process.env.BASELINE.replace(/\/$/, '')}/scripts/lib/stack.mjs`).href);
  shops.push(await openShop(process.env.BASELINE_NAME ?? 'before', baseline.startStack, process.env.BASELINE_ORIGIN_BIN));
}
shops.push(await openShop(process.env.BASELINE ? 'after' : 'this build', startStack, process.env.ORIGIN_BIN));
const load = { start: loadavg(), cpus: cpus().length };

const browser = await chromium.launch(LAUNCH);

/** A fresh context (empty cache) on `shop`, signed in, with the content watcher and a request log. */
async function freshPage(shop) {
  const context = await browser.newContext(CONTEXT);
  await context.addCookies(shop.cookies);
  await context.addInitScript(watchContent, READY_BY_PATH);
  const page = await context.newPage();
  // Requests that reached the edge (cache hits in Chromium do not), and the JavaScript received.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const log = { requests: [] };
  const entry = (id) => log.requests.findLast((request) => request.id === id);
  cdp.on('Network.requestWillBeSent', (event) =>
    log.requests.push({ id: event.requestId, url: event.request.url, type: event.type, cached: false, done: false }),
  );
  const done = (event) => Object.assign(entry(event.requestId) ?? {}, { done: true });
  cdp.on('Network.loadingFinished', done);
  cdp.on('Network.loadingFailed', done);
  cdp.on('Network.requestServedFromCache', (event) => Object.assign(entry(event.requestId) ?? {}, { cached: true }));
  cdp.on('Network.responseReceived', (event) => {
    const { fromDiskCache, fromPrefetchCache, fromServiceWorker } = event.response;
    if (fromDiskCache || fromPrefetchCache || fromServiceWorker) Object.assign(entry(event.requestId) ?? {}, { cached: true });
  });
  return { context, page, log };
}

/** A page whose content did not show within STALL_MS. */
class Stalled extends Error {}

/** Waits until the page's content is visible; answers the time (ms) the watcher measured. */
async function visible(page, log) {
  try {
    await page.waitForFunction(() => window.__bench?.visible != null, null, { timeout: STALL_MS, polling: 20 });
  } catch (error) {
    const state = await page
      .evaluate(() => ({ readyState: document.readyState, main: document.querySelector('main')?.innerHTML.slice(0, 200) ?? null }))
      .catch((failure) => ({ error: String(failure) }));
    const unanswered = log.requests.filter((request) => !request.done).map((request) => new URL(request.url).pathname);
    const at = new URL(page.url()).pathname;
    throw new Stalled(`no content visible in ${STALL_MS} ms at ${at}: ${JSON.stringify({ ...state, unanswered })}`, {
      cause: error,
    });
  }
  return page.evaluate(() => window.__bench.visible);
}

/** `measure()` in a fresh context of `shop`, taken again (at most TRIES times) when its page stalls. */
async function untilDrawn(shop, what, measure) {
  for (let tries = 1; ; tries++) {
    const fresh = await freshPage(shop);
    try {
      return await measure(fresh);
    } catch (error) {
      if (!(error instanceof Stalled) || tries === TRIES) throw error;
      shop.stalls.push(`${what}: ${error.message}`);
      console.error(`${shop.name}: stalled, taken again: ${error.message}`);
    } finally {
      await fresh.context.close();
    }
  }
}

/** Requests sent over the network since `from` (Chromium's own cache hits left out). */
const networkRequests = (log, from = 0) =>
  log.requests.slice(from).filter((request) => !request.cached && !request.url.startsWith('data:'));

async function settle(page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** One page of `shop`, cold then reloaded. */
async function loadPage(shop, target) {
  const measured = await untilDrawn(shop, target.path, async ({ page, log }) => {
    await page.goto(shop.stack.edge + target.path, { waitUntil: 'commit' });
    const cold = await visible(page, log);
    await settle(page);
    const coldRequests = networkRequests(log).length;
    const before = log.requests.length;
    await page.reload({ waitUntil: 'commit' });
    const reload = await visible(page, log);
    await settle(page);
    return { cold, coldRequests, reload, reloadRequests: networkRequests(log, before).length };
  });
  const result = shop.pages.get(target.path);
  for (const [key, value] of Object.entries(measured)) result[key].push(value);
}

/** One in-app navigation of `shop`, from a fresh context: the target page's code is not loaded yet. */
async function navigate(shop, navigation) {
  const key = `${navigation.from} → ${navigation.to}`;
  const time = await untilDrawn(shop, key, ({ page, log }) => navigateIn(shop, page, log, navigation));
  shop.navigations.get(key).push(time);
}

async function navigateIn(shop, page, log, navigation) {
  await page.goto(shop.stack.edge + navigation.from, { waitUntil: 'commit' });
  await visible(page, log);
  await settle(page);
  // The pointer rests on the link for a moment, as a hand does before it clicks; then the
  // click, in the page: the time runs from it. What is on the page now is the old page's:
  // the watcher looks past it.
  await page.locator(navigation.link).first().hover();
  await page.waitForTimeout(HOVER_MS);
  const clicked = await page.evaluate(
    ([link, ready, path]) => {
      const element = document.querySelector(link);
      if (!element) return false;
      document.querySelectorAll('main > *').forEach((old) => old.setAttribute('data-bench-old', ''));
      Object.assign(window.__bench, { ready, path, visible: null, since: performance.now() });
      element.click();
      return true;
    },
    [navigation.link, navigation.ready, navigation.to],
  );
  if (!clicked) throw new Error(`${navigation.from}: no ${navigation.link}`);
  return visible(page, log);
}

/** What the home page of `shop` loads, cold: every request, and the JavaScript gzipped (level 9). */
async function homeLoads(shop) {
  return untilDrawn(shop, '/ (what it loads)', async ({ page, log }) => {
    const bodies = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        bodies.push(response.body().then((body) => ({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
    });
    await page.goto(shop.stack.edge + '/', { waitUntil: 'commit' });
    await visible(page, log);
    await settle(page);
    const scripts = await Promise.all(bodies);
    const requests = networkRequests(log);
    const byType = new Map();
    for (const request of requests) byType.set(request.type, (byType.get(request.type) ?? 0) + 1);
    return { scripts, requests, byType, wasm: requests.filter((request) => request.url.endsWith('.wasm')).length };
  });
}

// Pages take turns, run by run, so that a burst of load on the machine does not fall on one
// page; with a baseline, the two builds take turns on each page, in alternating order.
const turns = (run) => (run % 2 === 0 ? shops : [...shops].reverse());
for (let run = 0; run < RUNS; run++) {
  for (const target of PAGES) for (const shop of turns(run)) await loadPage(shop, target);
}
for (let run = 0; run < RUNS; run++) {
  for (const navigation of NAVIGATIONS) for (const shop of turns(run)) await navigate(shop, navigation);
}
for (const shop of shops) shop.home = await homeLoads(shop);
await browser.close();
load.end = loadavg();
for (const shop of shops) await shop.stack.stop();

// The tables.
const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);
const p50 = (values) => percentile(values, 50);
const range = (values) => `${ms(Math.min(...values))}–${ms(Math.max(...values))}`;
const lines = [];
const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
const names = shops.map((shop) => shop.name);
const both = (cell) => shops.map(cell).join(' / ');
lines.push(
  `Run of ${when} UTC (\`web/bench/run pages\`), ${RUNS} loads of each page cold and on reload` +
    (shops.length > 1 ? `, ${names.join(' and ')} taking turns` : '') +
    `, ${load.cpus} vCPUs, load average ${load.start[0].toFixed(2)} at the start and ${load.end[0].toFixed(2)} at the end (1 min)` +
    (shops.length > 1 ? `; each cell reads ${names.join(' / ')}:` : ':'),
  '',
  '| page | cold p50 | cold max | reload p50 | reload max | requests cold | requests on reload |',
  '|---|---:|---:|---:|---:|---:|---:|',
);
for (const target of PAGES) {
  const of = (shop) => shop.pages.get(target.path);
  lines.push(
    `| \`${decodeURI(target.path)}\` | ${both((shop) => ms(p50(of(shop).cold)))} | ${both((shop) => ms(Math.max(...of(shop).cold)))} | ` +
      `${both((shop) => ms(p50(of(shop).reload)))} | ${both((shop) => ms(Math.max(...of(shop).reload)))} | ` +
      `${both((shop) => p50(of(shop).coldRequests))} | ${both((shop) => p50(of(shop).reloadRequests))} |`,
  );
}
const summary = (shop) => ({
  cold: [...shop.pages.values()].map((result) => p50(result.cold)),
  reload: [...shop.pages.values()].map((result) => p50(result.reload)),
  navigation: [...shop.navigations.values()].map((times) => p50(times)),
  js: sum(shop.home.scripts, 'gzip'),
});
const summaries = new Map(shops.map((shop) => [shop, summary(shop)]));
lines.push(
  `| **all ${PAGES.length} pages: range of p50** | **${both((shop) => range(summaries.get(shop).cold))}** | | ` +
    `**${both((shop) => range(summaries.get(shop).reload))}** | | | |`,
  '',
  '| in-app navigation (click → content visible) | p50 | max |',
  '|---|---:|---:|',
);
for (const navigation of NAVIGATIONS) {
  const key = `${navigation.from} → ${navigation.to}`;
  lines.push(
    `| \`${key}\` | ${both((shop) => ms(p50(shop.navigations.get(key))))} | ${both((shop) => ms(Math.max(...shop.navigations.get(key))))} |`,
  );
}
lines.push(
  '',
  'What the home page loads, cold (JavaScript gzipped at level 9):',
  '',
  '| build | requests | of them | JavaScript files | raw | gzip -9 |',
  '|---|---:|---|---:|---:|---:|',
);
for (const shop of shops) {
  const { scripts, requests, byType, wasm } = shop.home;
  const kinds = [...byType].map(([type, count]) => `${count} ${type.toLowerCase()}`).join(', ') + `; ${wasm} WebAssembly`;
  lines.push(
    `| ${shop.name} | ${requests.length} | ${kinds} | ${scripts.length} | ${kb(sum(scripts, 'raw'))} | ${kb(sum(scripts, 'gzip'))} |`,
  );
}
const current = summaries.get(shops.at(-1));
const verdict = (value, target) => (value <= target ? '**met**' : '**not met**');
lines.push(
  '',
  `| target (${shops.at(-1).name}) | result |`,
  '|---|---|',
  `| content visible, cold, p50 ≤ ${TARGET.cold} ms | ${ms(Math.max(...current.cold))} at worst: ${verdict(Math.max(...current.cold), TARGET.cold)} |`,
  `| content visible on a reload, p50 ≤ ${TARGET.reload} ms | ${ms(Math.max(...current.reload))} at worst: ${verdict(Math.max(...current.reload), TARGET.reload)} |`,
  `| in-app navigation, p50 ≤ ${TARGET.navigation} ms | ${ms(Math.max(...current.navigation))} at worst: ${verdict(Math.max(...current.navigation), TARGET.navigation)} |`,
  `| first-load JavaScript ≤ ${kb(TARGET.firstLoadJs)} gzip | ${kb(current.js)}: ${verdict(current.js, TARGET.firstLoadJs)} |`,
);
const stalls = shops.flatMap((shop) => shop.stalls.map((stall) => `${shop.name}: ${stall}`));
lines.push(
  '',
  stalls.length === 0
    ? `No load stalled (none went ${STALL_MS / 1000} s without its content).`
    : `${stalls.length} load(s) showed no content in ${STALL_MS / 1000} s and were taken again in a fresh context ` +
        `(what was still unanswered; docs/edge.md, "A request \`wrangler dev\` never answered"):`,
  ...stalls.map((stall) => `- ${stall}`),
);
const table = lines.join('\n');
console.log(table);
if (process.env.WRITE) {
  // BENCHMARKS.md keeps the latest run between these two lines.
  const begin = '<!-- web/bench/run pages: the latest run -->';
  const end = '<!-- end of the latest run -->';
  const text = readFileSync(process.env.WRITE, 'utf8');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${process.env.WRITE} has no block ${begin} … ${end}`);
  writeFileSync(process.env.WRITE, `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`);
}
