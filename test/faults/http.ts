/** HTTP as the suite's clients see it: bounded calls, the error envelope, and a webhook receiver. */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_HEADERS } from '@svc/contract';
import { webhooks } from '@svc/sdk';

export interface Reply {
  /** 0: no HTTP response (connection refused or reset, or the time limit passed). */
  status: number;
  headers: Headers | undefined;
  body: any;
  ms: number;
  startedAt: number;
  error?: string;
}

/** One request with a time limit: a service that hangs shows up as an error here, not as a stuck suite. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const startedAt = Date.now();
  try {
    const res = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed, ms: Date.now() - startedAt, startedAt };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      status: 0,
      headers: undefined,
      body: undefined,
      ms: Date.now() - startedAt,
      startedAt,
      error: e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message),
    };
  }
}

/** A 503 as promised: the error envelope with `service_unavailable`, and a Retry-After header. */
export function isProperUnavailable(r: Reply): boolean {
  return r.status === 503 && r.body?.error === 'service_unavailable' && isEnvelope(r) && /^\d+$/.test(r.headers?.get('retry-after') ?? '');
}

export function isEnvelope(r: Reply): boolean {
  const b = r.body;
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.error === 'string' &&
    typeof b.message === 'string' &&
    typeof b.correlation_id === 'string' &&
    typeof b.documentation_url === 'string'
  );
}

export const ASSESSMENT = { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' };

/** A create with its own Idempotency-Key, as a well-behaved client sends it (`key`: a retry of an earlier one). */
export const createAssessment = (base: string, token: string, timeoutMs?: number, key: string = randomUUID()) =>
  call(base, 'POST', '/v1/compliance/assessments', {
    token,
    body: ASSESSMENT,
    headers: { 'idempotency-key': key },
    ...(timeoutMs ? { timeoutMs } : {}),
  });

export interface Tenant {
  tenantId: string;
  token: string;
}

export async function createTenant(base: string, operatorToken: string, name: string, rateLimitPerSecond = 100_000): Promise<Tenant> {
  const r = await call(base, 'POST', '/v1/operator/tenants', {
    token: operatorToken,
    body: { name, tier: 'enterprise', env: 'test', rateLimitPerSecond },
  });
  if (r.status !== 201) throw new Error(`tenant create failed: ${r.status} ${JSON.stringify(r.body ?? r.error)}`);
  return { tenantId: r.body.tenant.id, token: r.body.apiKey.token };
}

export async function subscribe(base: string, t: Tenant, url: string): Promise<string> {
  const r = await call(base, 'POST', '/v1/webhook-subscriptions', {
    token: t.token,
    body: { url, eventTypes: ['assessment.*'], description: 'fault suite receiver' },
  });
  if (r.status !== 201) throw new Error(`subscription failed: ${r.status} ${JSON.stringify(r.body ?? r.error)}`);
  return r.body.secret as string;
}

export interface Delivery {
  id: string;
  tenantId: string;
  attempt: string | undefined;
  raw: Buffer;
  headers: IncomingHttpHeaders;
}

/**
 * A receiver on 127.0.0.1 as the documentation tells one to write it: it checks every signature
 * against the tenant's subscription secret and refuses what does not verify, and records each
 * verified delivery. `delayMs` per tenant keeps deliveries in flight long enough to be interrupted.
 */
export async function startReceiver() {
  const secrets = new Map<string, string>();
  const delays = new Map<string, number>();
  const received: Delivery[] = [];
  let badSignatures = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const tenantId = String(req.headers[WEBHOOK_HEADERS.tenant] ?? '');
      const secret = secrets.get(tenantId);
      let id: string;
      try {
        if (!secret) throw new Error('unknown tenant');
        id = webhooks.verify(raw, req.headers[WEBHOOK_HEADERS.signature] as string | undefined, secret).id;
      } catch {
        badSignatures++;
        res.writeHead(401).end();
        return;
      }
      received.push({ id, tenantId, attempt: req.headers[WEBHOOK_HEADERS.attempt] as string | undefined, raw, headers: req.headers });
      const delay = delays.get(tenantId) ?? 0;
      const answer = () => {
        if (!res.destroyed) res.writeHead(204).end();
      };
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    badSignatures: () => badSignatures,
    accept(tenantId: string, secret: string, delayMs = 0) {
      secrets.set(tenantId, secret);
      delays.set(tenantId, delayMs);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
