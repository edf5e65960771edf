// Where a page's load goes on Chromium's main thread: loads one page through the edge, signed
// in as the demo member, cold (a fresh context) and then on a reload, with Chromium's trace on,
// and prints for each load the main thread's time, until its content has shown and its load
// event has passed, by what it was doing (self time: script compiling and running, style,
// layout, paint, parsing), beside the time its content showed (a simpler watcher than
// bench/pages.mjs's: text in <main>, nothing in it loading). It answers where to look, not how
// fast the shop is: the trace itself slows the page (a tenth or so).
//
//   web/bench/run profile              the home page (the cart holds the bench's five lines)
//   PROFILE_PATH=/cart web/bench/run profile
//   RUNS                               loads of each kind (default 3), the figures their medians
//   ORIGIN_BIN                         the origin executable (default: the release build)
//   PROFILE_NAMES=1                    name the trace events that fall under "other"
import { chromium } from '@playwright/test';
import { startStack } from '../../scripts/lib/stack.mjs';
import { LAUNCH, signedInWithCart } from './chromium.mjs';

const PATH = process.env.PROFILE_PATH ?? '/';
const RUNS = Number(process.env.RUNS ?? 3);
const CATEGORIES = [
  'devtools.timeline',
  'v8',
  'v8.execute',
  'blink',
  'loading',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.compile',
  'blink.user_timing',
];

// What each trace event is, in the breakdown; events not named here count under their parent.
const KINDS = {
  'v8.compile': 'script: compile',
  'v8.compileModule': 'script: compile',
  V8Compile: 'script: compile',
  'v8.parseOnBackground': 'script: compile',
  'V8.CompileCode': 'script: compile',
  'V8.CompileLazy': 'script: compile',
  'v8.produceModuleCache': 'script: compile',
  EvaluateScript: 'script: run',
  'v8.evaluateModule': 'script: run',
  FunctionCall: 'script: run',
  RunMicrotasks: 'script: run',
  TimerFire: 'script: run',
  EventDispatch: 'script: run',
  FireAnimationFrame: 'script: run',
  'V8.GCScavenger': 'script: garbage collection',
  MajorGC: 'script: garbage collection',
  MinorGC: 'script: garbage collection',
  'V8.GC_MC_BACKGROUND_MARKING': 'script: garbage collection',
  ParseHTML: 'parse HTML',
  ParseAuthorStyleSheet: 'parse CSS',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  Layout: 'layout',
  UpdateLayerTree: 'paint',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  CompositeLayers: 'paint',
  'Decode Image': 'images',
  ImageDecodeTask: 'images',
};

const stack = await startStack({ originBin: process.env.ORIGIN_BIN ?? `${process.env.HOME}/.cache/pharma-shop/target/release/origin` });
// The bench's shop (bench/pages.mjs): the demo member, five lines in the cart.
const cookies = await signedInWithCart(stack);
const browser = await chromium.launch(LAUNCH);

/** The main thread's self time (ms) by kind, from `start` (µs, trace clock) on. */
function breakdown(events, main, start, end) {
  const ofMain = events
    .filter((event) => main && event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.ts >= start && event.ts <= end)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const totals = new Map();
  const open = [];
  const add = (kind, value) => totals.set(kind, (totals.get(kind) ?? 0) + value);
  for (const event of ofMain) {
    while (open.length && open.at(-1).end <= event.ts) open.pop();
    const parent = open.at(-1);
    const kind = KINDS[event.name] ?? parent?.kind ?? (process.env.PROFILE_NAMES ? `other: ${event.name}` : 'other');
    const dur = event.dur ?? 0;
    if (parent) add(parent.kind, -dur);
    add(kind, dur);
    open.push({ end: event.ts + dur, kind });
  }
  return new Map([...totals].map(([kind, value]) => [kind, value / 1000]));
}

async function measure(page, reload) {
  await browser.startTracing(page, { categories: CATEGORIES });
  const since = Date.now();
  if (reload) await page.reload({ waitUntil: 'load' });
  else await page.goto(`${stack.edge}${PATH}`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__shown != null, null, { timeout: 20_000, polling: 20 });
  const timing = await page.evaluate(() => ({ shown: window.__shown, load: performance.getEntriesByType('navigation')[0].loadEventEnd }));
  await page.waitForTimeout(200);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  // The document's navigation: its start, and the renderer's main thread that ran the page.
  const navigation = events.findLast(
    (event) =>
      event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame && event.args.data.documentLoaderURL?.startsWith(stack.edge),
  );
  if (!navigation)
    throw new Error(
      `the trace has no navigationStart of the main frame: ${JSON.stringify(events.filter((event) => /navigation/i.test(event.name)).slice(0, 5))}`,
    );
  const end = navigation.ts + Math.max(timing.shown, timing.load) * 1000;
  // A cold load commits in a new renderer: of the renderers' main threads, the busiest ran the page.
  const busy = new Map();
  const mains = new Set(
    events
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  for (const event of events)
    if (event.ph === 'X' && event.ts >= navigation.ts && event.ts <= end && mains.has(`${event.pid}:${event.tid}`))
      busy.set(`${event.pid}:${event.tid}`, (busy.get(`${event.pid}:${event.tid}`) ?? 0) + (event.dur ?? 0));
  const [pid, tid] = ([...busy].sort((a, b) => b[1] - a[1])[0]?.[0] ?? `${navigation.pid}:${navigation.tid}`).split(':').map(Number);
  const main = { pid, tid };

  return { wall: Date.now() - since, ...timing, kinds: breakdown(events, main, navigation.ts, end) };
}

// The time the page's own content first showed in <main>, with nothing in it still loading.
function watch() {
  const check = () => {
    const main = document.querySelector('main');
    if (main && main.innerText.trim().length > 0 && !main.querySelector('.ant-spin-spinning, .ant-skeleton')) {
      window.__shown = performance.now();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

const loads = { cold: [], reload: [] };
for (let run = 0; run < RUNS; run++) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  await context.addCookies(cookies);
  await context.addInitScript(watch);
  const page = await context.newPage();
  loads.cold.push(await measure(page, false));
  loads.reload.push(await measure(page, true));
  await context.close();
}
await browser.close();
await stack.stop();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [kind, runs] of Object.entries(loads)) {
  console.log(
    `\n${PATH}, ${kind} (median of ${RUNS}): content shown ${Math.round(median(runs.map((run) => run.shown)))} ms, load ${Math.round(median(runs.map((run) => run.load)))} ms`,
  );
  const names = [...new Set(runs.flatMap((run) => [...run.kinds.keys()]))];
  const rows = names.map((name) => [name, median(runs.map((run) => run.kinds.get(name) ?? 0))]).sort((a, b) => b[1] - a[1]);
  for (const [name, value] of rows) if (value >= 1) console.log(`  ${name.padEnd(28)} ${Math.round(value).toString().padStart(5)} ms`);
  console.log(
    `  ${'main thread busy'.padEnd(28)} ${Math.round(rows.reduce((sum, [, value]) => sum + value, 0))
      .toString()
      .padStart(5)} ms`,
  );
}
