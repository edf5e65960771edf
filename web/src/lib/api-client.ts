// The one API client. Every call to the shop's `/api` goes through it, and it implements the
// error catalogue (product spec §8) once: success codes, login, agreement, validation, other
// refusals, server faults, timeouts, and the cancelling of a superseded request (§9).

/** The envelope every answer comes in. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** What the client tells the buyer; the app wires these to Ant Design and the router. */
export interface Notifier {
  /** 10001 / 401: go to the login page. */
  login(): void;
  /** 459: show the message, then go to /dzht. */
  agreement(message: string): void;
  /** 422: the first validation message, with an error icon. */
  invalid(message: string): void;
  /** Other codes below 500: an alert titled "温馨提示". */
  alert(message: string): void;
  /** 5xx and network failures: a toast "系统繁忙，请稍候再试". */
  busy(): void;
  /** No answer within the timeout: a dialog "请求超时，请刷新页面" with a refresh button. */
  timeout(): void;
}

export const BUSY_MESSAGE = '系统繁忙，请稍候再试';
export const TIMEOUT_MESSAGE = '请求超时，请刷新页面';
export const REQUEST_TIMEOUT_MS = 30_000;
export const SUCCESS_CODES: readonly number[] = [10000, 200, 201];

/** How a failed call failed. */
export type FailureKind = 'login' | 'agreement' | 'invalid' | 'refused' | 'busy' | 'timeout' | 'cancelled';

/** A call that did not succeed; `envelope` is the server's answer when there was one. */
export class ApiError extends Error {
  readonly kind: FailureKind;
  readonly status: number;
  readonly envelope?: Envelope;

  constructor(kind: FailureKind, message: string, status = 0, envelope?: Envelope) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.envelope = envelope;
  }

  /** 422's field errors, `{ field: [messages] }`. */
  get fieldErrors(): Record<string, string[]> {
    const data = this.envelope?.data as { errors?: Record<string, string[]> } | null | undefined;
    return data?.errors ?? {};
  }
}

export type Params = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

export interface RequestOptions {
  /** Query parameters. */
  params?: Params;
  /** Form fields (sent form-encoded). */
  body?: Params;
  /** Extra headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
  /** A multipart body (an upload); the browser writes its content type. */
  formData?: FormData;
  /** Tell the buyer nothing on failure (home data, top ad, search hints, the draw check). */
  silent?: boolean;
}

/**
 * Calls whose earlier pending request is not cancelled by a new one to the same URL (§9):
 * cart, favourite, favourite cancel and activity taps, where every request counts.
 */
export function keepsConcurrentRequests(path: string): boolean {
  return /^\/api\/(cart|favorite|activity)(\/|$|\?)/.test(path);
}

/** Classifies an answer by its envelope code, falling back on the HTTP status. */
export function classify(status: number, envelope: Envelope | null): FailureKind | 'ok' {
  const code = envelope?.code;
  if (code !== undefined && SUCCESS_CODES.includes(code) && status < 400) return 'ok';
  if (code === 10001 || code === 401 || status === 401) return 'login';
  if (code === 459) return 'agreement';
  if (code === 422) return 'invalid';
  if (status >= 500 || (code !== undefined && code >= 500) || (code === undefined && status === 0)) return 'busy';
  if (code !== undefined && code < 500) return 'refused';
  return status >= 400 ? 'refused' : 'busy';
}

export function encode(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    // `name[]` repeats the field per value; other lists go comma-separated (`ids=1,2,3`).
    if (Array.isArray(value) && key.endsWith('[]')) value.forEach((item) => search.append(key, String(item)));
    else if (Array.isArray(value)) search.append(key, value.join(','));
    else if (typeof value === 'boolean') search.append(key, value ? '1' : '0');
    else search.append(key, String(value));
  }
  return search;
}

/** `response`, or a rejection as soon as `signal` aborts (an early call cannot be aborted itself). */
function abortable(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    response.then(resolve, reject);
  });
}

export interface ApiClientOptions {
  notifier: Notifier;
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Takes a GET's answer started before it was asked for (lib/early.ts), if there is one. */
  takeEarly?: (url: string) => Promise<Response> | undefined;
  /** Called before every write and again once it has been answered (or has failed), with its
   * path: early answers may no longer hold after it, nor may one started while it was under way
   * (a pointer resting on a link as a dialog closes), which the server may have answered first. */
  onWrite?: (path: string) => void;
}

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: Params, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: Params, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** POST a multipart form (files). */
  upload<T>(path: string, form: FormData, options?: RequestOptions): Promise<T>;
  /** Tells the buyer about a failure of a call that was made `silent`. */
  tell(error: ApiError): void;
}

export function createApiClient({
  notifier,
  baseUrl = '',
  fetch: fetchImpl = globalThis.fetch.bind(globalThis),
  timeoutMs = REQUEST_TIMEOUT_MS,
  takeEarly = () => undefined,
  onWrite = () => undefined,
}: ApiClientOptions): ApiClient {
  const pending = new Map<string, AbortController>();

  function tell(kind: FailureKind, message: string) {
    switch (kind) {
      case 'login':
        return notifier.login();
      case 'agreement':
        return notifier.agreement(message);
      case 'invalid':
        return notifier.invalid(message);
      case 'refused':
        return notifier.alert(message);
      case 'busy':
        return notifier.busy();
      case 'timeout':
        return notifier.timeout();
      case 'cancelled':
        return undefined;
    }
  }

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const query = options.params ? encode(options.params).toString() : '';
    const url = `${baseUrl}${path}${query ? `?${query}` : ''}`;
    // §9's "same URL" is the whole address, its query included: two parts of a page asking the
    // same path for different things (the footer's help articles and the news page's, both
    // /api/article/category) must both be answered, not cancel each other.
    const key = `${method} ${url}`;
    const plainGet = method === 'GET' && options.headers === undefined;
    if (method !== 'GET') onWrite(path);
    const controller = new AbortController();
    if (!keepsConcurrentRequests(path)) {
      pending.get(key)?.abort('superseded');
      pending.set(key, controller);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort('timeout');
    }, timeoutMs);

    const fail = (error: ApiError): never => {
      if (!options.silent) tell(error.kind, error.message);
      throw error;
    };

    let status: number;
    let envelope: Envelope | null = null;
    try {
      const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
      let body: string | FormData | undefined;
      if (options.formData !== undefined) {
        body = options.formData;
      } else if (options.body !== undefined) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
        body = encode(options.body).toString();
      }
      const early = plainGet ? takeEarly(url) : undefined;
      const response = await (early
        ? abortable(early, controller.signal)
        : fetchImpl(url, { method, headers, body, credentials: 'include', signal: controller.signal }));
      status = response.status;
      const text = await response.text();
      try {
        const parsed = JSON.parse(text) as Envelope;
        if (parsed && typeof parsed === 'object' && typeof parsed.code === 'number') envelope = parsed;
      } catch {
        envelope = null;
      }
    } catch {
      if (timedOut) return fail(new ApiError('timeout', TIMEOUT_MESSAGE));
      if (controller.signal.aborted) throw new ApiError('cancelled', 'superseded');
      return fail(new ApiError('busy', BUSY_MESSAGE));
    } finally {
      clearTimeout(timer);
      if (pending.get(key) === controller) pending.delete(key);
      if (method !== 'GET') onWrite(path);
    }

    const kind = classify(status, envelope);
    if (kind === 'ok') return envelope!.data as T;
    const message = kind === 'busy' ? BUSY_MESSAGE : envelope?.msg || BUSY_MESSAGE;
    return fail(new ApiError(kind, message, status, envelope ?? undefined));
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body: body ?? {} }),
    put: (path, body, options) => request('PUT', path, { ...options, body: body ?? {} }),
    delete: (path, options) => request('DELETE', path, options),
    upload: (path, form, options) => request('POST', path, { ...options, formData: form }),
    tell: (error) => tell(error.kind, error.message),
  };
}
