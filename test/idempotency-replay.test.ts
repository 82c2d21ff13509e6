import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { FlatRoute } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, expectEnvelope, type TenantFixture } from './support/api.ts';
import { allRoutes, exampleBody, fillPath, tenantsByTier } from './support/fixtures.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * Every POST honours `Idempotency-Key`, also those that change nothing (queries, exports, plans)
 * and the public ones called without a credential. The walk takes the POST routes from the
 * contract: a route added tomorrow is walked the day it exists.
 *
 * "Did not run again" is observed from outside the idempotency layer: between the first call and
 * its repeat, every table a handler could read (all but the key store and the credentials) is
 * moved out of the schema the server queries. A handler that ran again would fail (a control call
 * with a fresh key shows it does); the repeat still answers, with the first status and body.
 */
let ts: TestServer;
let tenants: ReturnType<typeof tenantsByTier>;
const callers = new Map<string, TenantFixture>();

beforeAll(async () => {
  ts = await startIsolatedTestServer();
  tenants = tenantsByTier(ts, { rateLimitPerSecond: 100_000, monthlyQuota: 100_000_000 });
  for (const r of allRoutes) if (r.route.method === 'POST' && r.meta.auth === 'tenant') callers.set(r.name, await tenants.forRoute(r));
});
afterAll(() => ts?.close());

const posts = allRoutes.filter((r) => r.route.method === 'POST');
const readOnly = posts.filter((r) => !r.meta.mutating && r.meta.auth !== 'operator');
const anonymous = posts.filter((r) => r.meta.auth === 'public');

/** Tables the idempotency layer and authentication read: everything else is hidden during the repeats. */
const KEPT = new Set(['idempotency_records', 'tenants', 'api_keys', 'operator_credentials', '_prisma_migrations']);

async function withTablesHidden<T>(fn: () => Promise<T>): Promise<T> {
  const db = ts.server.db;
  const tables = (
    await db.sql.query<{ name: string }>(`SELECT tablename AS "name" FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
  )
    .map((t) => t.name)
    .filter((n) => !KEPT.has(n));
  expect(tables.length).toBeGreaterThan(50);
  const hidden = `hidden_${randomBytes(4).toString('hex')}`;
  await db.transaction(async (sql) => {
    await sql.query(`CREATE SCHEMA "${hidden}"`);
    for (const t of tables) await sql.query(`ALTER TABLE "${t}" SET SCHEMA "${hidden}"`);
  });
  try {
    return await fn();
  } finally {
    const back = (await db.sql.query<{ s: string }>(`SELECT current_schema() AS "s"`))[0]?.s ?? 'public';
    await db.transaction(async (sql) => {
      for (const t of tables) await sql.query(`ALTER TABLE "${hidden}"."${t}" SET SCHEMA "${back}"`);
      await sql.query(`DROP SCHEMA "${hidden}"`);
    });
  }
}

interface Prepared {
  route: FlatRoute;
  path: string;
  body: unknown;
  token: string | null;
}

function send(p: Prepared, key: string): Promise<CallResult> {
  return call(ts.url, 'POST', p.path, { token: p.token, body: p.body ?? {}, headers: { 'idempotency-key': key } });
}

/**
 * A POST from a given loopback address (127.0.0.1, 127.0.0.2, ...): two anonymous callers on one
 * machine, each with its own client address.
 */
function postFrom(localAddress: string, path: string, body: unknown, key: string): Promise<CallResult> {
  const url = new URL(path, ts.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'idempotency-key': key },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, body: raw ? JSON.parse(raw) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('every POST replays on a repeated Idempotency-Key', () => {
  it('finds the read-only and the anonymous POSTs of the contract', () => {
    const names = (rs: FlatRoute[]) => rs.map((r) => `${r.route.method} ${r.route.path}`);
    console.log(`read-only POSTs:\n  ${names(readOnly).join('\n  ')}\nanonymous POSTs:\n  ${names(anonymous).join('\n  ')}`);
    expect(readOnly.length).toBeGreaterThanOrEqual(12);
    expect(names(readOnly)).toContain('POST /v1/audit-trail/export');
    expect(names(readOnly)).toContain('POST /v1/events/query');
    expect(anonymous.length).toBeGreaterThanOrEqual(3);
  });

  it('a repeat of each read-only and each anonymous POST answers the first response and does not run again', async () => {
    const walked = [...new Set([...readOnly, ...anonymous])];
    const prepared: Prepared[] = [];
    for (const route of walked) {
      const caller = callers.get(route.name);
      const owner = caller ?? (await tenants.of('enterprise'));
      const filled = await fillPath(ts, owner, route);
      prepared.push({
        route,
        path: filled.path,
        body: exampleBody(route.route),
        token: caller ? caller.token : null,
      });
    }
    const keys = prepared.map(() => randomUUID());
    const firsts: CallResult[] = [];
    for (const [i, p] of prepared.entries()) {
      const first = await send(p, keys[i] as string);
      const label = `${p.route.route.path}: first ${first.status} ${JSON.stringify(first.body).slice(0, 200)}`;
      // The handler ran (2xx, or its own 4xx such as 404 for an unknown access code): stored.
      expect(first.status, label).toBeLessThan(500);
      expect([401, 403, 422, 429], label).not.toContain(first.status);
      expect(first.headers.get('idempotent-replayed'), label).toBeNull();
      firsts.push(first);
    }
    const failures: string[] = [];
    await withTablesHidden(async () => {
      for (const [i, p] of prepared.entries()) {
        const first = firsts[i] as CallResult;
        const label = p.route.route.path;
        // Control: the same request with a fresh key runs, and cannot succeed without the tables.
        const control = await send(p, randomUUID());
        if (control.status < 500) failures.push(`${label}: ran without its tables (${control.status}); the walk proves nothing there`);
        const again = await send(p, keys[i] as string);
        if (again.headers.get('idempotent-replayed') !== 'true') failures.push(`${label}: no Idempotent-Replayed (${again.status})`);
        if (again.status !== first.status) failures.push(`${label}: status ${again.status}, first was ${first.status}`);
        // The same JSON value (the store may order an object's keys differently).
        if (!isDeepStrictEqual(again.body, first.body)) failures.push(`${label}: body differs from the first`);
      }
    });
    expect(failures).toEqual([]);
    // A key is bound to its request: another body under it is refused, as on mutating routes.
    for (const [i, p] of prepared.entries()) {
      if (!p.body || typeof p.body !== 'object') continue;
      const res = await send({ ...p, body: { ...(p.body as object), extra: 'changed' } }, keys[i] as string);
      expect(expectEnvelope(res, 409, 'conflict').details, p.route.route.path).toEqual([
        { field: 'Idempotency-Key', issue: 'different_body' },
      ]);
    }
  });

  it('a repeat after the 24 h expiry runs again', async () => {
    const route = readOnly.find((r) => r.route.path === '/v1/events/query');
    if (!route) throw new Error('no /v1/events/query');
    const caller = callers.get(route.name) as TenantFixture;
    const key = randomUUID();
    const body = exampleBody(route.route);
    const first = await caller.call('POST', route.route.path, { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    await ts.server.db.prisma.idempotencyRecord.update({
      where: { tenantId_key: { tenantId: caller.tenantId, key } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const again = await caller.call('POST', route.route.path, { body, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('answers too large to keep', () => {
  it('a read-only answer over the cap is not stored: the key is released and a repeat runs again', async () => {
    const route = readOnly.find((r) => r.route.path === '/v1/context/clause-extract');
    if (!route) throw new Error('no /v1/context/clause-extract');
    const caller = callers.get(route.name) as TenantFixture;
    // Each sentence gives an obligation and a resolved reference: the answer is several times the text.
    const text = 'A shall meet Article 9. '.repeat(8_000);
    const key = randomUUID();
    const first = await caller.call('POST', route.route.path, { body: { text }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(first.body))).toBeGreaterThan(1024 * 1024);
    const row = () => ts.server.db.prisma.idempotencyRecord.count({ where: { tenantId: caller.tenantId, key } });
    expect(await row()).toBe(0);
    const again = await caller.call('POST', route.route.path, { body: { text }, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    // A small answer under the same rule is kept and replayed.
    const small = randomUUID();
    const a = await caller.call('POST', route.route.path, { body: { text: text.slice(0, 200) }, headers: { 'idempotency-key': small } });
    const b = await caller.call('POST', route.route.path, { body: { text: text.slice(0, 200) }, headers: { 'idempotency-key': small } });
    expect(a.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
  });
});

describe('anonymous POSTs: the key is the caller’s, at its address', () => {
  it('the intake replays the receipt to its caller only, and stores neither the code, the key nor the address', async () => {
    const owner = await tenants.of('enterprise');
    const wb = await createTenantWithIntake(owner);
    const body = { category: 'privacy_data_protection', description: `Replay check ${randomUUID()}` };
    const key = randomUUID();
    const from = (address: string, b: unknown = body) => postFrom(address, `/v1/whistleblower/intake/${wb.slug}`, b, key);
    const reports = () => ts.server.db.prisma.whistleblowerReport.count({ where: { tenantId: wb.tenantId } });
    const before = await reports();

    const first = await from('127.0.0.7');
    expect(first.status).toBe(201);
    const again = await from('127.0.0.7');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await reports()).toBe(before + 1);

    // Another address with the same key and body is another caller: its own report, its own code.
    const other = await from('127.0.0.8');
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.accessCode).not.toBe(first.body.accessCode);
    expect(await reports()).toBe(before + 2);

    // The same caller with another body under the key: 409, nothing run.
    const changed = await from('127.0.0.7', { ...body, description: `${body.description} (edited)` });
    expect(expectEnvelope(changed, 409, 'conflict').details).toEqual([{ field: 'Idempotency-Key', issue: 'different_body' }]);
    expect(await reports()).toBe(before + 2);

    const rows = await ts.server.db.sql.query<{ row: unknown }>(
      `SELECT to_jsonb(r) AS "row" FROM "idempotency_records" r WHERE "tenant_id" = 'anonymous'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(first.body.accessCode);
    expect(text).not.toContain(other.body.accessCode);
    expect(text).not.toContain(key);
    expect(text).not.toContain('127.0.0.7');
    expect(text).not.toContain(body.description);

    // The follow-up with the code replays too, and a message sent under one key is written once.
    const msgKey = randomUUID();
    const message = { accessCode: first.body.accessCode, body: `Also ${randomUUID()}` };
    const sendMessage = () => postFrom('127.0.0.7', '/v1/whistleblower/follow-up/messages', message, msgKey);
    const m1 = await sendMessage();
    const m2 = await sendMessage();
    expect(m1.status).toBe(200);
    expect(m2.headers.get('idempotent-replayed')).toBe('true');
    expect(m2.body).toEqual(m1.body);
    expect(await ts.server.db.prisma.whistleblowerMessage.count({ where: { body: message.body } })).toBe(1);
  });
});

async function createTenantWithIntake(t: TenantFixture): Promise<{ tenantId: string; slug: string }> {
  const slug = `replay-${randomBytes(4).toString('hex')}`;
  const res = await t.call('PUT', '/v1/whistleblower/intake', { body: { slug, enabled: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { tenantId: t.tenantId, slug };
}
