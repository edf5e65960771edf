// What one request costs at each hop of the local stack, with nothing else running: a small
// hashed file of the web app through the edge (wrangler dev's proxy, then workerd's asset
// service), a public API call through the edge (the Worker, then the origin), and the same call
// at the origin itself. Each is asked ROUNDS × 20 times one after another (the time per request)
// and 20 at once (the time until the last answer) — as a cold page's burst of scripts and calls
// arrives. A cold page makes 40–60 requests; on a 2-vCPU machine that Chromium shares, what
// each costs the edge is time the page waits.
//
//   ORIGIN_BIN  the origin (release build: web/bench/run builds it)
//   ROUNDS      rounds of each (default 5)
import { readdirSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { startStack, edgeProof } from '../../scripts/lib/stack.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const BURST = 20;

const stack = await startStack({ originBin: process.env.ORIGIN_BIN });
const load = { start: loadavg()[0] };
// The origin answers only the edge: a request to it carries the edge's proof, as the edge's do.
const get = async (url) => {
  const { origin, pathname, search } = new URL(url);
  const headers = origin === stack.origin ? { 'x-edge-proof': edgeProof(stack.secret, 'GET', pathname + search) } : {};
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
};
// Small files the pages load beside the frame (the shared-library files, most under 10 KB).
const small = readdirSync(new URL('../dist/assets/', import.meta.url))
  .filter((file) => file.startsWith('ui~') && file.endsWith('.js'))
  .slice(0, BURST);
const hops = [
  ['a small script file through the edge', small.map((file) => `${stack.edge}/assets/${file}`)],
  ['`GET /api/global/links` through the edge', Array(BURST).fill(`${stack.edge}/api/global/links`)],
  ['`GET /api/global/links` at the origin', Array(BURST).fill(`${stack.origin}/api/global/links`)],
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
try {
  for (const [, urls] of hops) for (const url of urls.slice(0, 3)) await get(url); // warm
  for (const [what, urls] of hops) {
    const one = [];
    const burst = [];
    for (let round = 0; round < ROUNDS; round++) {
      let start = performance.now();
      for (const url of urls) await get(url);
      one.push((performance.now() - start) / urls.length);
      start = performance.now();
      await Promise.all(urls.map(get));
      burst.push(performance.now() - start);
    }
    rows.push(`| ${what} | ${median(one).toFixed(1)} ms | ${Math.round(median(burst))} ms |`);
  }
} finally {
  await stack.stop();
}
console.log(
  [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (\`web/bench/run requests\`), ${cpus().length} vCPUs, ` +
      `load average ${load.start.toFixed(2)} at the start (1 min), median of ${ROUNDS} rounds:`,
    '',
    `| request | one after another, per request | ${BURST} at once, until the last answer |`,
    '|---|---:|---:|',
    ...rows,
  ].join('\n'),
);
