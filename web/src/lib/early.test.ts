// Early calls: started once, taken once and only while fresh, dropped by a write; and the API
// client takes them for a plain GET and never for anything else.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANSWERS_ID, EARLY_TTL_MS, dropEarly, pendingEarly, seedEarly, startEarly, takeEarly } from './early';
import { createApiClient, type Notifier } from './api-client';

const answer = (data: unknown) => new Response(JSON.stringify({ code: 10000, msg: 'ok', data }), { status: 200 });
const notifier = (): Notifier => ({
  login: vi.fn(),
  agreement: vi.fn(),
  invalid: vi.fn(),
  alert: vi.fn(),
  busy: vi.fn(),
  timeout: vi.fn(),
});

afterEach(() => dropEarly('/api/any-write'));

describe('the early store', () => {
  it('starts each URL once while it is fresh, with the client’s headers and credentials', () => {
    const fetcher = vi.fn(async () => answer(1));
    startEarly(['/api/index', '/api/cart/total'], 1_000, fetcher as unknown as typeof fetch);
    startEarly(['/api/index'], 2_000, fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(fetcher).toHaveBeenCalledWith('/api/index', expect.objectContaining({ method: 'GET', credentials: 'include' }));
    startEarly(['/api/index'], 1_000 + EARLY_TTL_MS, fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledTimes(3);
  });

  it('gives an answer once, and none once it is older than the TTL', () => {
    const fetcher = vi.fn(async () => answer(1));
    startEarly(['/api/a', '/api/b'], 0, fetcher as unknown as typeof fetch);
    expect(takeEarly('/api/a', 10)).toBeDefined();
    expect(takeEarly('/api/a', 20)).toBeUndefined();
    expect(takeEarly('/api/b', EARLY_TTL_MS)).toBeUndefined();
    expect(pendingEarly()).toEqual([]);
  });

  it('a write drops them all, a report, a checkout preview or a next-tier hint does not', () => {
    startEarly(['/api/a'], Date.now(), vi.fn(async () => answer(1)) as unknown as typeof fetch);
    dropEarly('/api/stat/page_view');
    dropEarly('/api/cart/checkout');
    dropEarly('/api/cart/next_hint');
    expect(pendingEarly()).toEqual(['/api/a']);
    dropEarly('/api/cart');
    expect(pendingEarly()).toEqual([]);
  });
});

describe('the API client with early answers', () => {
  function client(early: Map<string, Promise<Response>>) {
    const fetch = vi.fn(async () => answer('asked'));
    const writes: string[] = [];
    const api = createApiClient({
      notifier: notifier(),
      fetch: fetch as unknown as typeof globalThis.fetch,
      takeEarly: (url) => {
        const response = early.get(url);
        early.delete(url);
        return response;
      },
      onWrite: (path) => writes.push(path),
    });
    return { api, fetch, writes };
  }

  it('takes the early answer of a plain GET with the same URL, then asks', async () => {
    const { api, fetch } = client(new Map([['/api/order?page=1', Promise.resolve(answer('early'))]]));
    await expect(api.get('/api/order', { params: { page: 1 } })).resolves.toBe('early');
    expect(fetch).not.toHaveBeenCalled();
    await expect(api.get('/api/order', { params: { page: 1 } })).resolves.toBe('asked');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never for a GET with headers of its own, another URL or a write; a write is told before it is sent and once answered', async () => {
    const early = new Map([['/api/order', Promise.resolve(answer('early'))]]);
    const { api, fetch, writes } = client(early);
    await expect(api.get('/api/order', { headers: { 'X-Test': '1' } })).resolves.toBe('asked');
    await expect(api.get('/api/order', { params: { page: 2 } })).resolves.toBe('asked');
    await expect(api.post('/api/order', { a: 1 })).resolves.toBe('asked');
    expect(writes).toEqual(['/api/order', '/api/order']);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('an early call started while a write is under way is not taken once the write is answered', async () => {
    // A page's GET started by a pointer resting on a link while a write (确认收货) was being sent:
    // the server may answer it before the write, with the order as it was.
    let answerWrite: (response: Response) => void = () => undefined;
    const fetch = vi.fn((_url: string, init?: RequestInit) =>
      init?.method === 'POST' ? new Promise<Response>((done) => (answerWrite = done)) : Promise.resolve(answer('asked')),
    );
    const api = createApiClient({
      notifier: notifier(),
      fetch: fetch as unknown as typeof globalThis.fetch,
      takeEarly: (url) => takeEarly(url),
      onWrite: dropEarly,
    });
    const write = api.post('/api/order/7/receive');
    await Promise.resolve();
    startEarly(['/api/order/7'], Date.now(), vi.fn(async () => answer('before the write')) as unknown as typeof globalThis.fetch);
    expect(pendingEarly()).toEqual(['/api/order/7']);
    answerWrite(answer('received'));
    await expect(write).resolves.toBe('received');
    expect(pendingEarly()).toEqual([]);
    await expect(api.get('/api/order/7')).resolves.toBe('asked');
  });

  it('a superseded call that was answered early is cancelled like any other', async () => {
    let resolve: (response: Response) => void = () => undefined;
    const { api } = client(new Map([['/api/goods/list', new Promise<Response>((done) => (resolve = done))]]));
    const first = api.get('/api/goods/list');
    const second = api.get('/api/goods/list');
    await expect(first).rejects.toMatchObject({ kind: 'cancelled' });
    resolve(answer('late'));
    await expect(second).resolves.toBe('asked');
  });
});

describe('the answers the edge wrote into the document', () => {
  function documentWith(text: string): Document {
    const page = document.implementation.createHTMLDocument('');
    const element = page.createElement('script');
    element.type = 'application/json';
    element.id = ANSWERS_ID;
    element.textContent = text;
    page.head.append(element);
    return page;
  }

  it('are taken for the calls the page makes, as their answers, and the others still go out', async () => {
    const written = {
      '/api/index': [200, { code: 10000, msg: 'ok', data: { nav: [] } }],
      '/api/user/base': [401, { code: 10001, msg: '请先登录', data: null }],
      '/api/draw/simple': [200, { code: 10000, msg: 'ok', data: null }],
    };
    const page = documentWith(JSON.stringify(written));
    const seeded = await seedEarly(['/api/index', '/api/user/base', '/api/cart/total'], page, 1_000, false);
    expect(seeded).toEqual(['/api/index', '/api/user/base']);
    expect(page.getElementById(ANSWERS_ID)).toBeNull();
    const fetcher = vi.fn(async () => answer(3));
    startEarly(['/api/index', '/api/user/base', '/api/cart/total'], 1_000, fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('/api/cart/total', expect.anything());
    // The lucky-draw check the page no longer makes was not kept.
    expect(pendingEarly().sort()).toEqual(['/api/cart/total', '/api/index', '/api/user/base']);
    const index = await takeEarly('/api/index', 1_000)!;
    expect([index.status, await index.json()]).toEqual(written['/api/index']);
    const login = await takeEarly('/api/user/base', 1_000)!;
    expect([login.status, await login.json()]).toEqual(written['/api/user/base']);
  });

  it('are nothing in a document the browser took from its cache: every call goes out', async () => {
    const page = documentWith(JSON.stringify({ '/api/index': [200, { code: 10000, msg: 'ok', data: { nav: [] } }] }));
    expect(await seedEarly(['/api/index'], page, 1_000, true)).toEqual([]);
    expect(page.getElementById(ANSWERS_ID)).toBeNull();
    expect(pendingEarly()).toEqual([]);
    const fetcher = vi.fn(async () => answer(1));
    startEarly(['/api/index'], 1_000, fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledWith('/api/index', expect.anything());
  });

  it('are nothing when the document has none, or they cannot be read', async () => {
    expect(await seedEarly(['/api/index'], document.implementation.createHTMLDocument(''))).toEqual([]);
    expect(await seedEarly(['/api/index'], documentWith('{"/api/index": [200'))).toEqual([]);
    expect(pendingEarly()).toEqual([]);
  });

  /** A document still being parsed, whose head says its answers are coming. */
  function documentComing(): Document {
    const page = document.implementation.createHTMLDocument('');
    const mark = page.createElement('meta');
    mark.name = ANSWERS_ID;
    mark.content = 'coming';
    page.head.append(mark);
    Object.defineProperty(page, 'readyState', { value: 'loading', configurable: true });
    return page;
  }

  /** The rest of the document arrives: its answers at the end of the body, then DOMContentLoaded. */
  function finish(page: Document, text: string | null) {
    if (text !== null) {
      const element = page.createElement('script');
      element.type = 'application/json';
      element.id = ANSWERS_ID;
      element.textContent = text;
      page.body.append(element);
    }
    Object.defineProperty(page, 'readyState', { value: 'interactive', configurable: true });
    page.dispatchEvent(new Event('DOMContentLoaded'));
  }

  it('coming at the end of the document are waited for, and a call they lack goes out then', async () => {
    const page = documentComing();
    const fetcher = vi.fn(async () => answer('asked'));
    const seeded = seedEarly(['/api/index', '/api/cart/total'], page, 1_000, false, fetcher as unknown as typeof fetch);
    // The boot script starts nothing of its own for them, and neither is answered yet.
    startEarly(['/api/index', '/api/cart/total'], 1_000, fetcher as unknown as typeof fetch);
    expect(fetcher).not.toHaveBeenCalled();
    const index = takeEarly('/api/index', 1_100)!;
    let settled = false;
    void index.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finish(page, JSON.stringify({ '/api/index': [200, { code: 10000, msg: 'ok', data: { nav: [] } }] }));
    const taken = await index;
    expect([taken.status, await taken.json()]).toEqual([200, { code: 10000, msg: 'ok', data: { nav: [] } }]);
    expect(page.getElementById(ANSWERS_ID)).toBeNull();
    // The cart's count had no answer in the document: the browser asked for it at DOMContentLoaded.
    const count = await takeEarly('/api/cart/total', 1_100)!;
    expect(await count.json()).toEqual({ code: 10000, msg: 'ok', data: 'asked' });
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('/api/cart/total', expect.objectContaining({ method: 'GET' }));
    // Which the document answered, once it has.
    expect(await seeded).toEqual(['/api/index']);
  });

  it('that never came (a document cut short, or unreadable) leave every call to the browser', async () => {
    for (const text of [null, '{"/api/index": [200']) {
      const page = documentComing();
      const fetcher = vi.fn(async () => answer('asked'));
      seedEarly(['/api/index'], page, 1_000, false, fetcher as unknown as typeof fetch);
      finish(page, text);
      const index = await takeEarly('/api/index', 1_000)!;
      expect(await index.json()).toEqual({ code: 10000, msg: 'ok', data: 'asked' });
      expect(fetcher).toHaveBeenCalledTimes(1);
    }
  });

  it('are not waited for once the document is parsed: its mark alone brings nothing', async () => {
    const page = documentComing();
    Object.defineProperty(page, 'readyState', { value: 'interactive', configurable: true });
    expect(await seedEarly(['/api/index'], page, 1_000, false)).toEqual([]);
    expect(pendingEarly()).toEqual([]);
  });
});
