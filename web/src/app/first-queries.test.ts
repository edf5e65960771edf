// The answers put in the query cache while the pointer rests on a link: each goes under the key
// the page reads, from the call the page would make; a page's own call is left for it to take;
// a refusal puts nothing; and a write forgets what no page has shown.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { dropEarly, pendingEarly, startEarly, takeEarly } from '@/lib/early';
import { firstCalls } from './first-calls';
import { firstQueries, prefillFirstQueries } from './first-queries';

const asked = vi.hoisted(() => [] as string[]);
vi.mock('@/lib/api', async () => {
  const { createApiClient } = await import('@/lib/api-client');
  const fetcher = async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify({ code: 10000, msg: 'ok', data: { from: url } }), { status: 200 });
  };
  const quiet = () => undefined;
  const notifier = { login: quiet, agreement: quiet, invalid: quiet, alert: quiet, busy: quiet, timeout: quiet };
  return { api: createApiClient({ notifier, fetch: fetcher as typeof fetch }) };
});

const envelope = (code: number, data: unknown) => new Response(JSON.stringify({ code, msg: 'm', data }), { status: 200 });
const fetcherOf = (code = 10000) =>
  vi.fn(async (url: string) => envelope(code, { from: url })) as unknown as typeof fetch & ReturnType<typeof vi.fn>;
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const PATHS = ['/', '/cart', '/list/info/5', '/zyyp', '/qxzq', '/jxqzc', '/mrtj', '/yx', '/order'];

afterEach(() => dropEarly('/api/any-write'));

describe('the first queries of the pages moved to most', () => {
  it.each(PATHS)('%s: each is answered by one of its first calls, whose data its own query answers as it is', async (path) => {
    const queries = firstQueries(path);
    expect(queries.length).toBeGreaterThan(0);
    const calls = firstCalls(path, '', { opening: false });
    for (const { url, options } of queries) {
      expect(calls).toContain(url);
      asked.length = 0;
      const data = await (options.queryFn as (context: unknown) => Promise<unknown>)({
        queryKey: options.queryKey,
        signal: new AbortController().signal,
        meta: undefined,
      });
      expect(asked).toEqual([url]);
      expect(data).toEqual({ from: url });
    }
  });

  it('none for an address with a query of its own, or one no page shows', () => {
    expect(firstQueries('/order', '?status=1')).toEqual([]);
    expect(firstQueries('/list/info/5', '?seckill_id=2')).toEqual([]);
    expect(firstQueries('/no-such-page')).toEqual([]);
  });
});

describe('putting them in the cache', () => {
  it('puts each answer under its key as it comes, and takes the call', async () => {
    const client = new QueryClient();
    const fetcher = fetcherOf();
    startEarly(firstCalls('/cart', '', { opening: false }), Date.now(), fetcher);
    prefillFirstQueries(client, '/cart');
    await settled();
    const [{ options }] = firstQueries('/cart');
    expect(client.getQueryData(options.queryKey)).toEqual({ from: '/api/cart/list' });
    expect(pendingEarly()).not.toContain('/api/cart/list');
    expect(fetcher).toHaveBeenCalledTimes(firstCalls('/cart', '', { opening: false }).length);
  });

  it('puts nothing for a refusal (a member signed out), nor over what the cache holds', async () => {
    const client = new QueryClient();
    startEarly(firstCalls('/order', '', { opening: false }), Date.now(), fetcherOf(10001));
    prefillFirstQueries(client, '/order');
    await settled();
    const [{ options }] = firstQueries('/order');
    expect(client.getQueryData(options.queryKey)).toBeUndefined();
    // The page takes the refusal and tells the buyer once it is open.
    const refused = await takeEarly('/api/order?page=1')!;
    expect(await refused.json()).toMatchObject({ code: 10001 });

    dropEarly('/api/any-write');
    const [cart] = firstQueries('/cart');
    client.setQueryData(cart.options.queryKey, { shown: true });
    startEarly(['/api/cart/list'], Date.now(), fetcherOf());
    prefillFirstQueries(client, '/cart');
    await settled();
    expect(client.getQueryData(cart.options.queryKey)).toEqual({ shown: true });
  });

  it('a write forgets what no page has read, and keeps what a page shows', async () => {
    const client = new QueryClient();
    startEarly(firstCalls('/list/info/5', '', { opening: false }), Date.now(), fetcherOf());
    prefillFirstQueries(client, '/list/info/5');
    await settled();
    const [detail, activities] = firstQueries('/list/info/5');
    expect(client.getQueryData(detail.options.queryKey)).toEqual({ from: '/api/goods/detail/5' });
    const observer = new QueryObserver(client, { queryKey: activities.options.queryKey, queryFn: async () => 'asked', staleTime: 60_000 });
    const stop = observer.subscribe(() => undefined);
    dropEarly('/api/cart');
    expect(client.getQueryData(detail.options.queryKey)).toBeUndefined();
    expect(client.getQueryData(activities.options.queryKey)).toEqual({ from: '/api/goods/activities?goods_id=5' });
    stop();
  });

  it('an answer that comes after a write is not put', async () => {
    const client = new QueryClient();
    let answer!: (response: Response) => void;
    const fetcher = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))) as unknown as typeof fetch;
    startEarly(['/api/cart/list'], Date.now(), fetcher);
    prefillFirstQueries(client, '/cart');
    dropEarly('/api/cart');
    answer(envelope(10000, { from: 'before the write' }));
    await settled();
    expect(client.getQueryData(firstQueries('/cart')[0].options.queryKey)).toBeUndefined();
  });
});
