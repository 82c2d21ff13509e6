import { HEADER_NAMES } from '@svc/contract/wire';
import { errorFromResponse, retryAfterSeconds, SvcConnectionError } from './errors.ts';

/** Options of {@link createSvcClient}. */
export interface SvcClientOptions {
  /** Origin of the API, e.g. `https://api.svc.example` (a trailing slash is ignored). */
  baseUrl: string;
  /** Bearer token, `svc_<env>_<random>` (or an operator credential for the operator namespace). */
  apiKey: string;
  /** Sent as `X-IOF-Tenant`; the server answers 403 when it is not the key's tenant. */
  tenantId?: string | undefined;
  /** Retries after a 429, a 503 or a network failure. Default 3; 0 disables retries. */
  maxRetries?: number | undefined;
  /** Budget of one attempt, response body included, in milliseconds. Default 30000. */
  timeoutMs?: number | undefined;
  /** Upper bound of any wait between attempts, `Retry-After` included, in milliseconds. Default 30000. */
  maxRetryDelayMs?: number | undefined;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Check every 2xx body against the contract's response schema and throw a
   * `ResponseValidationError` when it does not match: for development and tests, where a wrong
   * mock, proxy or server version should fail loudly rather than surface as `undefined` later.
   * Off by default (it costs a parse per response).
   */
  validateResponses?: boolean | undefined;
}

/** Options of one call, the last argument of every method. */
export interface RequestOptions {
  /** `Idempotency-Key` of a POST; by default `idk_<uuid>`, one per call, reused by its retries. */
  idempotencyKey?: string | undefined;
  /** Headers for this call only; they override the client's. */
  headers?: Record<string, string> | undefined;
  /** Aborts the call, retries and waits included. */
  signal?: AbortSignal | undefined;
}

/** A raw request for {@link SvcClient.request}. */
export interface RawRequestOptions extends RequestOptions {
  /** Query parameters; undefined and null values are left out, arrays repeat the key. */
  query?: Record<string, unknown> | undefined;
  /** JSON body. */
  body?: unknown;
}

/** A successful response: status, headers and the parsed body (JSON, text, or undefined when empty). */
export interface RawResponse<TBody = unknown> {
  status: number;
  headers: Headers;
  body: TBody;
}

/** The resolved options, shared by every call of one client. */
export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  tenantId: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  maxRetryDelayMs: number;
  fetch: typeof fetch;
  headers: Record<string, string>;
}

const INITIAL_RETRY_DELAY_MS = 500;

/** Checks and fills in the client options. */
export function resolveConfig(options: SvcClientOptions): TransportConfig {
  if (!options || typeof options.baseUrl !== 'string' || !/^https?:\/\//i.test(options.baseUrl)) {
    throw new TypeError('createSvcClient: baseUrl must be an http(s) URL');
  }
  if (typeof options.apiKey !== 'string') throw new TypeError('createSvcClient: apiKey must be a string');
  if (options.fetch === undefined && typeof globalThis.fetch !== 'function') {
    throw new TypeError('createSvcClient: no fetch available; pass options.fetch');
  }
  // The global fetch is looked up per call, not captured here: msw and other interceptors patch it
  // after a client may already have been created.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const nonNegative = (value: number | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`createSvcClient: ${name} must be a non-negative number`);
    return value;
  };
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    tenantId: options.tenantId,
    maxRetries: Math.floor(nonNegative(options.maxRetries, 3, 'maxRetries')),
    timeoutMs: nonNegative(options.timeoutMs, 30_000, 'timeoutMs'),
    maxRetryDelayMs: nonNegative(options.maxRetryDelayMs, 30_000, 'maxRetryDelayMs'),
    fetch: fetchImpl,
    headers: { ...(options.headers ?? {}) },
  };
}

/** `?a=1&b=x`; undefined and null are skipped, arrays repeat the key, objects are sent as JSON. */
export function buildQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  const append = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Date) search.append(key, value.toISOString());
    else if (typeof value === 'object') search.append(key, JSON.stringify(value));
    else search.append(key, String(value));
  };
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) append(key, item);
    else append(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Fills `:name` segments with URL-encoded values; a missing required parameter throws. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\/:([A-Za-z0-9_]+)(\?)?/g, (_segment, name: string, optional: string | undefined) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') {
      if (optional) return '';
      throw new TypeError(`Missing path parameter "${name}" for ${path}`);
    }
    return `/${encodeURIComponent(String(value))}`;
  });
}

function newIdempotencyKey(): string {
  return `idk_${globalThis.crypto.randomUUID()}`;
}

function backoffMs(attempt: number, cap: number): number {
  const base = Math.min(cap, INITIAL_RETRY_DELAY_MS * 2 ** attempt);
  // Jitter between half and all of the step, so that clients that failed together spread out.
  return base * (0.5 + Math.random() * 0.5);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A body that is neither JSON nor text (a report's PDF, a pack's zip): handed over as its bytes. */
function isBinary(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return !(type.startsWith('text/') || type === 'application/json' || type.endsWith('+json'));
}

async function readBody(res: Response): Promise<unknown> {
  if (isBinary(res.headers.get('content-type'))) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    return bytes.byteLength ? bytes : undefined;
  }
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const RETRYABLE_STATUSES = new Set([429, 503]);

/**
 * One logical call: auth headers, idempotency key, per-attempt timeout, typed errors and retries.
 * A POST gets one `Idempotency-Key` for all its attempts, so a retried POST runs at most once.
 */
export async function send(config: TransportConfig, method: string, path: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const verb = method.toUpperCase();
  const query = buildQueryString(options.query);
  // A path may carry its own query (`svc call GET '/v1/frameworks?limit=5'`); extra parameters join it.
  const target = path.startsWith('/') ? path : `/${path}`;
  const url = `${config.baseUrl}${target}${query && target.includes('?') ? `&${query.slice(1)}` : query}`;
  const headers = new Headers({ accept: 'application/json' });
  for (const [key, value] of Object.entries(config.headers)) headers.set(key, value);
  if (config.apiKey) headers.set('authorization', `Bearer ${config.apiKey}`);
  if (config.tenantId) headers.set(HEADER_NAMES.tenant, config.tenantId);
  for (const [key, value] of Object.entries(options.headers ?? {})) headers.set(key, value);
  if (verb === 'POST') {
    headers.set(HEADER_NAMES.idempotencyKey, options.idempotencyKey ?? headers.get(HEADER_NAMES.idempotencyKey) ?? newIdempotencyKey());
  } else if (options.idempotencyKey) {
    headers.set(HEADER_NAMES.idempotencyKey, options.idempotencyKey);
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }

  const signal = options.signal;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortReason(signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`No response within ${config.timeoutMs} ms`, 'TimeoutError'));
    }, config.timeoutMs);
    const onAbort = () => controller.abort(abortReason(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });

    let res: Response;
    let parsed: unknown;
    try {
      res = await config.fetch(url, { method: verb, headers, body, signal: controller.signal });
      parsed = await readBody(res);
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      const failure = new SvcConnectionError(
        timedOut
          ? `${verb} ${path}: no response within ${config.timeoutMs} ms`
          : `${verb} ${path}: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err, timedOut },
      );
      if (attempt >= config.maxRetries) throw failure;
      await sleep(backoffMs(attempt, config.maxRetryDelayMs), signal);
      continue;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    if (res.ok) return { status: res.status, headers: res.headers, body: parsed };
    const error = errorFromResponse(res.status, parsed, res.headers);
    if (!RETRYABLE_STATUSES.has(res.status) || attempt >= config.maxRetries) throw error;
    const retryAfter = retryAfterSeconds(res.headers);
    const delay =
      retryAfter !== undefined ? Math.min(retryAfter * 1000, config.maxRetryDelayMs) : backoffMs(attempt, config.maxRetryDelayMs);
    await sleep(delay, signal);
  }
}
