// The Worker's entry: the Rust Worker (src/worker.rs, built by worker-build into build/), and
// one thing it hands to JavaScript, because the table it reads is the web app's own: a page's
// document comes with the answers to the page's first GETs written into it (docs/edge.md, "A
// page and its first answers"). Those GETs are known from the address alone
// (web/src/app/first-calls.ts, the same module the boot script runs), so the edge asks them
// while it serves the document, through the Rust Worker exactly as the browser would have (its
// proof, its cache of public GETs), and the browser's boot script takes them from the document
// (web/src/lib/early.ts) instead of sending a dozen requests of its own, which on a cold load
// wait behind the app's scripts for the browser's six connections. The document goes out at
// once and its answers follow at the end of its body, so the app's files load meanwhile.
import RustWorker from '../build/worker/shim.mjs';
import { firstCalls } from '../../web/src/app/first-calls.ts';

/** The element of the document that carries the answers (read by web/src/lib/early.ts). */
const ANSWERS_ID = 'shop-first-answers';

/** How long the document waits for one answer; one that takes longer is left to the browser. */
const ANSWER_BUDGET_MS = 1_000;

/** Headers of a page's request that would make the document's answer a 304, with nothing written into it. */
const CONDITIONAL = ['if-none-match', 'if-modified-since'];

/** A GET for a document (a navigation), not for a file or a call. */
function isNavigation(request, url) {
  if (request.method !== 'GET' || url.pathname.startsWith('/api/') || url.pathname.startsWith('/assets/')) return false;
  const destination = request.headers.get('sec-fetch-dest');
  return destination ? destination === 'document' : (request.headers.get('accept') ?? '').includes('text/html');
}

/** `text` as it can stand inside a `<script>` element: no `</script>`, no `<!--`. */
function scriptSafe(text) {
  return text
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** `promise`, or `undefined` once `ms` have passed. */
function within(promise, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export default class Edge extends RustWorker {
  async fetch(request) {
    const url = new URL(request.url);
    if (!isNavigation(request, url)) return super.fetch(request);
    const calls = firstCalls(url.pathname, url.search);
    if (calls.length === 0) return super.fetch(request);
    // The document is written anew each time: its answers are the member's, as of now.
    const headers = new Headers(request.headers);
    CONDITIONAL.forEach((name) => headers.delete(name));
    const asked = calls.map((call) => within(this.ask(request, call), ANSWER_BUDGET_MS));
    const page = await super.fetch(new Request(request, { headers }));
    if (page.status !== 200 || !(page.headers.get('content-type') ?? '').startsWith('text/html')) return page;
    const html = await page.text();
    const end = html.lastIndexOf('</body>');
    if (end < 0) return new Response(html, page);
    // The document goes out at once, with a mark in its head that its answers are coming: the
    // browser asks for the app's files while the edge waits for the answers, which follow at the
    // end of the body, before the parser is done and so before the app's module scripts run.
    const opening = html.slice(0, end).replace('<head>', `<head><meta name="${ANSWERS_ID}" content="coming">`);
    const { readable, writable } = new TransformStream();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    const send = async () => {
      try {
        await writer.write(encoder.encode(opening));
        const answers = await Promise.all(asked);
        const written = {};
        calls.forEach((call, index) => {
          // A call whose answer sets a cookie is left to the browser: the headers have gone.
          const answer = answers[index];
          if (answer && answer.cookies.length === 0) written[call] = [answer.status, answer.envelope];
        });
        const block = `<script type="application/json" id="${ANSWERS_ID}">${scriptSafe(JSON.stringify(written))}</script>`;
        await writer.write(encoder.encode(block + html.slice(end)));
        await writer.close();
      } catch (error) {
        await writer.abort(error).catch(() => undefined);
      }
    };
    this.ctx.waitUntil(send());
    // The member's own data as of now: kept by no cache, not even for the browser's back button,
    // which shows a cached document without asking (its answers would be older than what the
    // buyer did since).
    const out = new Headers(page.headers);
    out.set('cache-control', 'no-store');
    out.delete('etag');
    out.delete('last-modified');
    out.delete('content-length');
    return new Response(readable, { status: 200, headers: out });
  }

  /** The answer to the page's GET `call`, as the browser would have had it; `undefined` if it is not a JSON envelope. */
  async ask(request, call) {
    try {
      const headers = new Headers(request.headers);
      CONDITIONAL.forEach((name) => headers.delete(name));
      headers.set('accept', 'application/json');
      headers.set('sec-fetch-dest', 'empty');
      headers.set('sec-fetch-mode', 'cors');
      const answer = await super.fetch(new Request(new URL(call, request.url), { method: 'GET', headers }));
      if (!(answer.headers.get('content-type') ?? '').includes('json')) return undefined;
      const envelope = await answer.json();
      return { status: answer.status, envelope, cookies: answer.headers.getSetCookie?.() ?? [] };
    } catch {
      return undefined;
    }
  }
}
