// Calls started before the app runs. A page's first GETs are known from its address alone
// (app/first-calls.ts), so the boot script starts them while the app's code is still
// arriving, and a pointer resting on a link starts those of the page it leads to. The API
// client then takes the answer instead of asking again: each is taken at most once, within a
// few seconds of being started, and a write of any kind drops them all, both when it is sent and
// once it has been answered (one started meanwhile may have been answered before it), so that
// nothing older than what the buyer just did is ever shown.

/** How long an early answer may be taken after its call started. */
export const EARLY_TTL_MS = 10_000;

interface Early {
  at: number;
  response: Promise<Response>;
  /** The answer read from a copy of the response, for `peekEarly`. */
  read?: Promise<EarlyAnswer | null>;
}

/** An early answer as read: its HTTP status, its envelope (`null` for a body that is not JSON), and when its call started. */
export interface EarlyAnswer {
  status: number;
  envelope: unknown;
  at: number;
}

const KEY = '__shopEarlyCalls';

// One store per page, shared by the boot script and the app (two bundles) through the window.
function store(): Map<string, Early> {
  const holder = globalThis as unknown as Record<string, Map<string, Early> | undefined>;
  return (holder[KEY] ??= new Map());
}

/** The headers and credentials the API client sends with a GET (lib/api-client.ts). */
export const GET_INIT: RequestInit = { method: 'GET', headers: { Accept: 'application/json' }, credentials: 'include' };

/** The element in which the edge writes the document's first answers (edge/src/entry.mjs). */
export const ANSWERS_ID = 'shop-first-answers';

type Written = Record<string, [number, unknown]>;

/** The answers in the edge's element, which is taken out of the document; `null` if there are none. */
function readAnswers(element: Element | null): Written | null {
  if (!element) return null;
  element.remove();
  try {
    const written: unknown = JSON.parse(element.textContent ?? '');
    return written !== null && typeof written === 'object' ? (written as Written) : null;
  } catch {
    return null;
  }
}

/** The response a written answer stands for; `undefined` for a call the edge had no answer to. */
function answerOf(written: Written | null, url: string): Response | undefined {
  const answer = written?.[url];
  if (!Array.isArray(answer)) return undefined;
  const [status, envelope] = answer;
  return new Response(JSON.stringify(envelope), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Takes the answers the edge wrote into the document, `{ url: [status, envelope] }`, as early
 * answers started now, for those of `urls` it has (a call the page no longer makes — the
 * lucky-draw check once the popup was closed — is left out); answers which of `urls` the
 * document answered, once it has.
 * The edge sends the document's beginning at once and its answers at the end of the body, with
 * a mark in the head that they are coming: while the document is still being parsed, each of
 * `urls` is taken as an answer that comes with the rest of the document (at DOMContentLoaded,
 * before which the app cannot take it anyway), or, for one the edge had no answer to, from the
 * browser's own call sent then. The document is asked anew on every visit (the edge sends it
 * `no-store`), so they are as fresh as a call started now; one the browser took from its cache
 * all the same (`fromCache`: a history navigation may) brings none, and every call goes out.
 */
export function seedEarly(
  urls: readonly string[],
  root: Document = document,
  now = Date.now(),
  fromCache: boolean = documentFromCache(),
  fetcher: typeof fetch = globalThis.fetch?.bind(globalThis),
): Promise<string[]> {
  const element = root.getElementById(ANSWERS_ID);
  const coming = root.querySelector(`meta[name="${ANSWERS_ID}"]`) !== null;
  if (fromCache) {
    element?.remove();
    return Promise.resolve([]);
  }
  const calls = store();
  if (!element && coming && root.readyState === 'loading') {
    const written = new Promise<Written | null>((resolve) =>
      root.addEventListener('DOMContentLoaded', () => resolve(readAnswers(root.getElementById(ANSWERS_ID))), { once: true }),
    );
    for (const url of urls) {
      calls.set(url, { at: now, response: quiet(written.then((answers) => answerOf(answers, url) ?? fetcher(url, GET_INIT))) });
    }
    return written.then((answers) => urls.filter((url) => Array.isArray(answers?.[url])));
  }
  const written = readAnswers(element);
  const seeded: string[] = [];
  for (const url of urls) {
    const response = answerOf(written, url);
    if (!response) continue;
    calls.set(url, { at: now, response: Promise.resolve(response) });
    seeded.push(url);
  }
  return Promise.resolve(seeded);
}

/** Whether this document came from the browser's cache, not the network (nothing transferred). */
export function documentFromCache(): boolean {
  const entry = globalThis.performance?.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry !== undefined && entry.transferSize === 0 && entry.decodedBodySize > 0;
}

/** `response`, which must not be reported as unhandled if it fails: taken or not, the client sees the failure when it takes it. */
function quiet(response: Promise<Response>): Promise<Response> {
  response.catch(() => undefined);
  return response;
}

/** Starts each GET of `urls` that is not already under way; a failure is the client's to see when it takes it. */
export function startEarly(urls: readonly string[], now = Date.now(), fetcher: typeof fetch = globalThis.fetch.bind(globalThis)): void {
  const calls = store();
  for (const url of urls) {
    const known = calls.get(url);
    if (known && now - known.at < EARLY_TTL_MS) continue;
    calls.set(url, { at: now, response: quiet(fetcher(url, GET_INIT)) });
  }
}

/** The early answer to a GET of `url`, once, if it was started less than EARLY_TTL_MS ago. */
export function takeEarly(url: string, now = Date.now()): Promise<Response> | undefined {
  const calls = store();
  const early = calls.get(url);
  if (!early) return undefined;
  calls.delete(url);
  return now - early.at < EARLY_TTL_MS ? early.response : undefined;
}

const dropped = new Set<() => void>();
/** How many times the early answers were dropped: an answer read across a drop is not given. */
let drops = 0;

/**
 * The answer to the early GET of `url`, read from a copy of its response, without taking it:
 * the page's own query can still take the call. Settles with `null` when the call failed or
 * its answers were dropped (a write) before it came; `undefined` when no such call is under way.
 */
export function peekEarly(url: string, now = Date.now()): Promise<EarlyAnswer | null> | undefined {
  const calls = store();
  const early = calls.get(url);
  if (!early || now - early.at >= EARLY_TTL_MS) return undefined;
  // Copied in the first handler of the response, before whoever takes it can read its body.
  const since = drops;
  early.read ??= (async () => {
    try {
      const copy = (await early.response).clone();
      const text = await copy.text();
      if (drops !== since) return null;
      let envelope: unknown = null;
      try {
        envelope = JSON.parse(text);
      } catch {
        envelope = null;
      }
      return { status: copy.status, envelope, at: early.at };
    } catch {
      return null;
    }
  })();
  return early.read;
}

/** Calls `listener` whenever a write drops the early answers; answers the function that stops it. */
export function onDropEarly(listener: () => void): () => void {
  dropped.add(listener);
  return () => void dropped.delete(listener);
}

/** Writes that change nothing a page reads: the page-view and anomaly reports, and the two reads
 * sent as POSTs, the checkout preview and the cart's next-tier hint. */
const READ_ONLY_WRITES = ['/api/stat/', '/api/cart/checkout', '/api/cart/next_hint'];

/** Forgets every early answer before a write to `path`: after it they may no longer be true. */
export function dropEarly(path: string): void {
  if (READ_ONLY_WRITES.some((prefix) => path.startsWith(prefix))) return;
  store().clear();
  drops++;
  dropped.forEach((listener) => listener());
}

/** The URLs started and not taken (for tests and the benchmark). */
export function pendingEarly(): string[] {
  return [...store().keys()];
}
