import type { Role, Tier } from '@svc/contract';
import type { TestServer } from './server.ts';

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string | null;
  headers?: Record<string, string>;
  /** A string is sent as is (malformed JSON tests); anything else as JSON. */
  body?: unknown;
}

/** One HTTP call; the body is parsed as JSON when it is JSON. */
export async function call<T = any>(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export interface TenantFixture {
  tenantId: string;
  /** Owner token. */
  token: string;
  tier: Tier;
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<CallResult<T>>;
  /** A further key of this tenant with another role or scopes. */
  key(role: Role, scopes?: string[]): Promise<string>;
  /** A further key of this tenant that acts for a person of its stakeholders rail (`usr_`). */
  personKey(personId: string, role?: Role): Promise<string>;
  /** Another tenant of the same server on `tier`, made on first use: the other party of a setup step with `tenant: 'peer'`. */
  peer(tier: Tier): Promise<TenantFixture>;
}

export interface TenantOptions {
  tier?: Tier;
  name?: string;
  env?: 'live' | 'test' | 'dev';
  /** A custom limit; 'tier' keeps the tier's own limit (only the rate-limit tests want it). */
  rateLimitPerSecond?: number | 'tier';
  monthlyQuota?: number;
}

/**
 * A fresh tenant per test, created through the operator API. Unless the test says otherwise it
 * is an enterprise tenant; whatever its tier it has a high custom limit, so only the rate-limit
 * tests (which ask for `rateLimitPerSecond: 'tier'` or a number) meet the limiter. A test that
 * walks many routes at a lower tier would otherwise meet it on a fast machine.
 */
export async function createTenant(ts: TestServer, opts: TenantOptions = {}): Promise<TenantFixture> {
  const tier = opts.tier ?? 'enterprise';
  const body = {
    name: opts.name ?? `tenant ${Math.random().toString(36).slice(2, 8)}`,
    tier,
    env: opts.env ?? 'test',
    ...(opts.rateLimitPerSecond === 'tier' ? {} : { rateLimitPerSecond: opts.rateLimitPerSecond ?? 100_000 }),
    ...(opts.monthlyQuota !== undefined ? { monthlyQuota: opts.monthlyQuota } : {}),
  };
  const res = await call(ts.url, 'POST', '/v1/operator/tenants', { token: ts.operatorToken, body });
  if (res.status !== 201) throw new Error(`tenant create failed: ${res.status} ${JSON.stringify(res.body)}`);
  const tenantId: string = res.body.tenant.id;
  const token: string = res.body.apiKey.token;
  const peers = new Map<Tier, Promise<TenantFixture>>();
  return {
    tenantId,
    token,
    tier,
    call: (method, path, o = {}) => call(ts.url, method, path, { token, ...o }),
    key: async (role, scopes) => {
      const k = await call(ts.url, 'POST', '/v1/operator/keys', {
        token: ts.operatorToken,
        body: { tenantId, role, ...(scopes ? { scopes } : {}) },
      });
      if (k.status !== 201) throw new Error(`key create failed: ${k.status} ${JSON.stringify(k.body)}`);
      return k.body.token as string;
    },
    personKey: async (personId, role = 'owner') => {
      const k = await call(ts.url, 'POST', '/v1/operator/keys', { token: ts.operatorToken, body: { tenantId, role, personId } });
      if (k.status !== 201) throw new Error(`key create failed: ${k.status} ${JSON.stringify(k.body)}`);
      return k.body.token as string;
    },
    peer: (peerTier) => {
      const made = peers.get(peerTier) ?? createTenant(ts, { tier: peerTier });
      peers.set(peerTier, made);
      return made;
    },
  };
}

/** Asserts the error envelope's shape and returns it. */
export function expectEnvelope(res: CallResult, status: number, code: string) {
  if (res.status !== status || res.body?.error !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  const b = res.body;
  if (typeof b.message !== 'string' || typeof b.correlation_id !== 'string' || typeof b.documentation_url !== 'string') {
    throw new Error(`malformed envelope: ${JSON.stringify(b)}`);
  }
  if (res.headers.get('x-correlation-id') !== b.correlation_id) throw new Error('correlation id header differs from body');
  return b;
}

/** Every item of a list route, walked page by page with `limit=200` and the cursors it returns. */
export async function collectPages<T>(t: TenantFixture, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: CallResult<{ data: T[]; cursor: string | null }> = await t.call(
      'GET',
      `${path}${sep}limit=200${cursor ? `&cursor=${cursor}` : ''}`,
    );
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...res.body.data);
    cursor = res.body.cursor;
  } while (cursor);
  return items;
}
