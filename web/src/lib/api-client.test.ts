// The API client against the §8 error catalogue, one row at a time, with a scripted fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, BUSY_MESSAGE, TIMEOUT_MESSAGE, classify, createApiClient, keepsConcurrentRequests, type Notifier } from './api-client';

function notifier() {
  return { login: vi.fn(), agreement: vi.fn(), invalid: vi.fn(), alert: vi.fn(), busy: vi.fn(), timeout: vi.fn() } satisfies Notifier;
}

function answer(status: number, body: unknown) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function client(respond: (url: string, init: RequestInit) => Promise<Response>, timeoutMs?: number) {
  const tell = notifier();
  const fetch = vi.fn(respond);
  return { api: createApiClient({ notifier: tell, fetch: fetch as unknown as typeof globalThis.fetch, timeoutMs }), tell, fetch };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('the call should have failed');
}

describe('success codes 10000, 200, 201', () => {
  it.each([10000, 200, 201])('code %i answers data and tells nothing', async (code) => {
    const { api, tell } = client(async () => answer(200, { code, msg: 'ok', data: { total: 3 } }));
    await expect(api.get('/api/cart/total')).resolves.toEqual({ total: 3 });
    expect(Object.values(tell).every((spy) => spy.mock.calls.length === 0)).toBe(true);
  });
});

describe('the catalogue of failures', () => {
  it('10001 and 401 go to the login page', async () => {
    for (const [status, code] of [
      [401, 10001],
      [200, 401],
      [401, undefined],
    ] as const) {
      const { api, tell } = client(async () => answer(status, code === undefined ? 'Unauthorized' : { code, msg: '请先登录', data: null }));
      expect((await failure(api.get('/api/cart/list'))).kind).toBe('login');
      expect(tell.login).toHaveBeenCalledTimes(1);
    }
  });

  it('459 shows the message and goes to /dzht', async () => {
    const { api, tell } = client(async () => answer(200, { code: 459, msg: '请先签署电子合同', data: null }));
    expect((await failure(api.post('/api/cart', { goods_id: 1 }))).kind).toBe('agreement');
    expect(tell.agreement).toHaveBeenCalledWith('请先签署电子合同');
  });

  it('422 shows the first validation message, and keeps the field errors', async () => {
    const body = { code: 422, msg: '请输入手机号码', data: { errors: { phone: ['请输入手机号码'], code: ['请输入验证码'] } } };
    const { api, tell } = client(async () => answer(422, body));
    const error = await failure(api.post('/api/user/register', { step: 1 }));
    expect(error.kind).toBe('invalid');
    expect(tell.invalid).toHaveBeenCalledWith('请输入手机号码');
    expect(tell.invalid).toHaveBeenCalledTimes(1);
    expect(error.fieldErrors).toEqual({ phone: ['请输入手机号码'], code: ['请输入验证码'] });
  });

  it('other codes below 500 alert the server message (温馨提示)', async () => {
    const { api, tell } = client(async () => answer(409, { code: 409, msg: '该商品已下架', data: null }));
    expect((await failure(api.get('/api/goods/detail/9'))).kind).toBe('refused');
    expect(tell.alert).toHaveBeenCalledWith('该商品已下架');
  });

  it('5xx, an unreadable answer and a network failure toast 系统繁忙', async () => {
    const cases: (() => Promise<Response>)[] = [
      async () => answer(500, { code: 500, msg: BUSY_MESSAGE, data: null }),
      async () => answer(502, '<html>Bad gateway</html>'),
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    for (const respond of cases) {
      const { api, tell } = client(respond);
      const error = await failure(api.get('/api/index'));
      expect(error.kind).toBe('busy');
      expect(error.message).toBe(BUSY_MESSAGE);
      expect(tell.busy).toHaveBeenCalledTimes(1);
    }
  });

  it('silent calls (home data, top ad, search hints, draw check) tell nothing but still fail', async () => {
    const { api, tell } = client(async () => answer(500, { code: 500, msg: BUSY_MESSAGE, data: null }));
    expect((await failure(api.get('/api/index', { silent: true }))).kind).toBe('busy');
    expect(tell.busy).not.toHaveBeenCalled();
    api.tell(new ApiError('busy', BUSY_MESSAGE));
    expect(tell.busy).toHaveBeenCalledTimes(1);
  });
});

describe('timeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('after 30 000 ms shows the dialog 请求超时，请刷新页面', async () => {
    const { api, tell } = client(
      (_, init) =>
        new Promise((_, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const call = failure(api.get('/api/goods/list'));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(tell.timeout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(TIMEOUT_MESSAGE);
    expect(tell.timeout).toHaveBeenCalledTimes(1);
  });
});

describe('a new request to the same URL', () => {
  function hanging() {
    return client(
      (url, init) =>
        new Promise((resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          if (url.includes('second') || String(init.body).includes('number=2')) resolve(answer(200, { code: 10000, msg: 'ok', data: url }));
        }),
    );
  }

  it('cancels the pending one, quietly', async () => {
    const { api, tell, fetch } = hanging();
    const first = failure(api.get('/api/goods/search', { params: { keywords: 'same' } }));
    fetch.mockImplementationOnce(async (url) => answer(200, { code: 10000, msg: 'ok', data: `second ${url}` }));
    const second = api.get('/api/goods/search', { params: { keywords: 'same' } });
    expect((await first).kind).toBe('cancelled');
    await expect(second).resolves.toContain('second');
    expect(Object.values(tell).every((spy) => spy.mock.calls.length === 0)).toBe(true);
  });

  it('leaves a pending request to the same path with another query alone', async () => {
    const { api, fetch } = hanging();
    const footer = api.get('/api/article/category', { params: { category_id: 'first' } });
    const page = api.get('/api/article/category', { params: { category_id: 'second' } });
    await expect(page).resolves.toContain('second');
    expect((fetch.mock.calls[0][1] as RequestInit).signal!.aborted).toBe(false);
    void footer.catch(() => undefined);
  });

  it('does not cancel cart, favourite, favourite-cancel and activity requests', async () => {
    for (const path of ['/api/cart', '/api/favorite', '/api/favorite/cancel', '/api/activity/tap']) {
      const { api, fetch } = hanging();
      const first = api.post(path, { number: 1 });
      const second = api.post(path, { number: 2 });
      await expect(second).resolves.toContain(path);
      const signal = (fetch.mock.calls[0][1] as RequestInit).signal!;
      expect(signal.aborted, path).toBe(false);
      void first.catch(() => undefined);
    }
    expect(keepsConcurrentRequests('/api/cart/12/edit')).toBe(true);
    expect(keepsConcurrentRequests('/api/goods/search')).toBe(false);
  });
});

describe('requests', () => {
  it('send form-encoded bodies with credentials; lists comma-separated, name[] repeated', async () => {
    const { api, fetch } = client(async () => answer(200, { code: 10000, msg: 'ok', data: null }));
    await api.post('/api/cart/batch_select', { ids: [3, 5], is_selected: true, 'stores[]': ['甲店', '乙店'], skipped: undefined });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/cart/batch_select');
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)['Content-Type']).toMatch(/application\/x-www-form-urlencoded/);
    expect(init.body).toBe('ids=3%2C5&is_selected=1&stores%5B%5D=%E7%94%B2%E5%BA%97&stores%5B%5D=%E4%B9%99%E5%BA%97');
  });

  it('classify falls back on the HTTP status without an envelope', () => {
    expect(classify(200, { code: 10000, msg: 'ok', data: null })).toBe('ok');
    expect(classify(404, null)).toBe('refused');
    expect(classify(503, null)).toBe('busy');
    expect(classify(0, null)).toBe('busy');
  });
});
