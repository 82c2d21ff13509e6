import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { allRoutes, tenantsByTier } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer({ SVC_BODY_LIMIT: '64kb' });
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

const noStack = (res: { body: unknown }) => {
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(text).not.toContain('node_modules');
};

describe('the error envelope for what Express itself rejects', () => {
  it('malformed JSON: 400 bad_request, nothing created', async () => {
    const before = await ts.server.db.prisma.assessment.count({ where: { tenantId: t.tenantId } });
    const res = await t.call('POST', '/v1/compliance/assessments', { body: '{"type": "fria", ' });
    expect(expectEnvelope(res, 400, 'bad_request').details).toEqual([{ field: 'body', issue: 'invalid_format' }]);
    noStack(res);
    expect(await ts.server.db.prisma.assessment.count({ where: { tenantId: t.tenantId } })).toBe(before);
  });

  it('oversized body: 400 with a too_big detail', async () => {
    const res = await t.call('POST', '/v1/compliance/assessments', {
      body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de', title: 'x'.repeat(100_000) },
    });
    expect(expectEnvelope(res, 400, 'bad_request').details).toEqual([{ field: 'body', issue: 'too_big' }]);
  });

  it('unknown route and wrong method: 404 with the envelope', async () => {
    expectEnvelope(await t.call('GET', '/v1/compliance/nothing-here'), 404, 'not_found');
    const wrong = await t.call('DELETE', '/v1/compliance/assessments');
    expect(expectEnvelope(wrong, 404, 'not_found').message).toContain('allowed: GET, POST');
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expectEnvelope(await call(ts.url, 'GET', '/definitely/not/here'), 404, 'not_found');
  });

  it('odd inputs never give a 500 or a stack trace', async () => {
    const cases: [string, string, unknown?, Record<string, string>?][] = [
      ['POST', '/v1/compliance/assessments', 'null'],
      ['POST', '/v1/compliance/assessments', '[1,2,3]'],
      ['POST', '/v1/compliance/assessments', '"just a string"'],
      ['POST', '/v1/compliance/assessments', '{"type":{"$gt":""},"systemId":["a"],"jurisdiction":1e400}'],
      ['POST', '/v1/compliance/assessments', 'type=fria', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['POST', '/v1/compliance/assessments', '{"a":1}', { 'content-type': 'application/json; charset=utf-16' }],
      ['GET', '/v1/compliance/assessments/%E0%A4%A'],
      ['GET', `/v1/compliance/assessments?limit=${'9'.repeat(400)}`],
      ['GET', '/v1/compliance/assessments?limit=1&limit=2'],
      ['GET', `/v1/frameworks/${'a'.repeat(3000)}`],
      ['POST', '/v1/frameworks/eu-ai-act/activate', '{"version":"latest"}'],
      ['POST', '/v1/compliance/evidence', JSON.stringify({ title: 't', kind: 'log', controlIds: Array(500).fill('X') })],
    ];
    for (const [method, path, body, headers] of cases) {
      const res = await t.call(method, path, { body, headers });
      expect(res.status, `${method} ${path} ${String(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path} ${String(body)}`).toBeLessThan(500);
      expect(typeof res.body.correlation_id).toBe('string');
      noStack(res);
    }
  });

  it('a correlation id on every response, echoed when the caller sends a sane one', async () => {
    const ok = await t.call('GET', '/v1/frameworks', { headers: { 'x-correlation-id': 'trace-123' } });
    expect(ok.headers.get('x-correlation-id')).toBe('trace-123');
    const bad = await t.call('GET', '/v1/frameworks', { headers: { 'x-correlation-id': 'no spaces allowed <script>' } });
    expect(bad.headers.get('x-correlation-id')).toMatch(/^cor_/);
    // A credential in the header is never echoed, logged or stored as the correlation id.
    const pasted = await t.call('GET', '/v1/frameworks', { headers: { 'x-correlation-id': t.token } });
    expect(pasted.headers.get('x-correlation-id')).toMatch(/^cor_/);
  });

  it('X-IOF-Tenant: optional, and when present it must be the key’s tenant', async () => {
    expect((await t.call('GET', '/v1/frameworks', { headers: { 'x-iof-tenant': t.tenantId } })).status).toBe(200);
    const res = await t.call('GET', '/v1/frameworks', { headers: { 'x-iof-tenant': 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } });
    expect(expectEnvelope(res, 403, 'forbidden').details).toEqual([{ field: 'X-IOF-Tenant', issue: 'invalid_value' }]);
  });

  it('an expired key is 401', async () => {
    const k = await call(ts.url, 'POST', '/v1/operator/keys', {
      token: ts.operatorToken,
      body: { tenantId: t.tenantId, role: 'viewer', expiresAt: new Date(Date.now() + 1500).toISOString() },
    });
    expect((await call(ts.url, 'GET', '/v1/frameworks', { token: k.body.token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expect(expectEnvelope(await call(ts.url, 'GET', '/v1/frameworks', { token: k.body.token }), 401, 'unauthorized').message).toContain(
      'expired',
    );
  });

  it('tokens have the svc_<env>_<random> form of the tenant environment', async () => {
    const live = await createTenant(ts, { env: 'live' });
    expect(live.token).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(t.token).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    const row = await ts.server.db.prisma.apiKey.findFirst({ where: { tenantId: live.tenantId } });
    expect(row?.hash).not.toContain(live.token.slice(9));
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

/**
 * 400 `bad_request` is a request that cannot be read (a body that is not JSON, a query string that
 * does not decode, a parameter given twice where the route takes one value); 422
 * `validation_failed` is a request that reads well but breaks the schema.
 */
describe('400 bad_request versus 422 validation_failed', () => {
  const field = (res: CallResult) => expectEnvelope(res, res.status, res.body.error).details?.[0]?.field;

  it('decides the same way on routes of different rails', async () => {
    const cases: [string, string, number, string, string?][] = [
      // Malformed: 400.
      ['GET', '/v1/compliance/assessments?limit=1&limit=2', 400, 'bad_request', 'limit'],
      ['GET', '/v1/frameworks?limit=%E0%A4%A', 400, 'bad_request', 'limit'],
      ['GET', '/v1/audit-engine/findings?runId=%FF%FE', 400, 'bad_request', 'runId'],
      ['GET', '/v1/glossary?%ZZ=1', 400, 'bad_request', 'query'],
      ['GET', '/v1/events?type=a&type=b', 400, 'bad_request', 'type'],
      ['POST', '/v1/events/query?x=1&x=2', 400, 'bad_request', 'x'],
      // Well-formed values that break the schema: 422.
      ['GET', '/v1/compliance/assessments?limit=abc', 422, 'validation_failed', 'limit'],
      ['GET', '/v1/compliance/assessments?limit=0', 422, 'validation_failed', 'limit'],
      ['GET', '/v1/frameworks?limit=1000000', 422, 'validation_failed', 'limit'],
      ['GET', '/v1/glossary?limit=%00', 422, 'validation_failed', 'limit'],
    ];
    for (const [method, path, status, code, at] of cases) {
      const res = await t.call(method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
      expectEnvelope(res, status, code);
      if (at) expect(field(res), `${method} ${path}`).toBe(at);
    }
    // A body: not JSON, or a bare JSON string, number or null, is 400; an array or an object that
    // breaks the schema is 422.
    expectEnvelope(await t.call('POST', '/v1/audit-trail/query', { body: '{"limit": ' }), 400, 'bad_request');
    expectEnvelope(await t.call('POST', '/v1/audit-trail/query', { body: '"text"' }), 400, 'bad_request');
    expectEnvelope(await t.call('POST', '/v1/audit-trail/query', { body: '[1]' }), 422, 'validation_failed');
    const schema = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', jurisdiction: 'eu/de' } });
    expect(expectEnvelope(schema, 422, 'validation_failed').details).toContainEqual(
      expect.objectContaining({ field: 'systemId', issue: 'missing' }),
    );
    // A malformed query is refused before any handler, also on a POST that would create something.
    const before = await ts.server.db.prisma.assessment.count({ where: { tenantId: t.tenantId } });
    const refused = await t.call('POST', '/v1/compliance/assessments?a=%G0', {
      body: { type: 'fria', systemId: 'sys_q', jurisdiction: 'eu/de' },
    });
    expectEnvelope(refused, 400, 'bad_request');
    expect(await ts.server.db.prisma.assessment.count({ where: { tenantId: t.tenantId } })).toBe(before);
  });

  it('every GET route answers a query string that cannot be read with 400 bad_request', async () => {
    const tenants = tenantsByTier(ts, { rateLimitPerSecond: 100_000, monthlyQuota: 100_000_000 });
    const wrong: string[] = [];
    let walked = 0;
    for (const r of allRoutes) {
      if (r.route.method !== 'GET') continue;
      const token = r.meta.auth === 'public' ? null : r.meta.auth === 'operator' ? ts.operatorToken : (await tenants.forRoute(r)).token;
      // Path parameters need not name records: the query is refused before any handler looks.
      const path = r.route.path.replace(/:[A-Za-z0-9_]+/g, 'x');
      const keys = Object.keys((r.route as { query?: { shape?: Record<string, unknown> } }).query?.shape ?? {});
      const name = keys[0] ?? 'probe';
      for (const query of [`${name}=1&${name}=2`, `${name}=%E0%A4%A`]) {
        walked++;
        const res = await call(ts.url, 'GET', `${path}?${query}`, { token });
        if (res.status !== 400 || res.body?.error !== 'bad_request' || res.body?.details?.[0]?.field !== name) {
          wrong.push(`GET ${path}?${query}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
        }
      }
    }
    expect(walked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });
});

describe('rate limits', () => {
  async function burst(tenant: TenantFixture, n: number) {
    // Start at the beginning of a second so the burst falls in one window.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    return Promise.all(Array.from({ length: n }, () => tenant.call('GET', '/v1/frameworks?limit=1')));
  }

  it('sandbox: 5 per second, then 429 rate_limited with Retry-After and the X-RateLimit headers', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 'tier' });
    const results = await burst(sandbox, 12);
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(5);
    expect(limited).toHaveLength(7);
    for (const r of limited) {
      expectEnvelope(r, 429, 'rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    for (const r of results) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 2);
    }
    await new Promise((r) => setTimeout(r, 1100));
    expect((await sandbox.call('GET', '/v1/frameworks?limit=1')).status).toBe(200);
  });

  it('the per-second limit follows the tier (starter: 20) and a custom enterprise limit', async () => {
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 'tier' });
    const res = await starter.call('GET', '/v1/frameworks?limit=1');
    expect(res.headers.get('x-ratelimit-limit')).toBe('20');
    const custom = await createTenant(ts, { tier: 'enterprise', rateLimitPerSecond: 3 });
    const results = await burst(custom, 6);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
  });

  it('headers are on every response, errors included', async () => {
    for (const res of [
      await t.call('GET', '/v1/frameworks'),
      await t.call('GET', '/v1/nothing'),
      await t.call('POST', '/v1/compliance/assessments', { body: {} }),
      await call(ts.url, 'GET', '/v1/frameworks'),
    ]) {
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
  });

  it('the monthly quota: 429 with a quota detail once used up', async () => {
    const q = await createTenant(ts, { tier: 'enterprise', rateLimitPerSecond: 1000, monthlyQuota: 3 });
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await q.call('GET', '/v1/frameworks?limit=1')).status);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const res = await q.call('GET', '/v1/frameworks?limit=1');
    expect(expectEnvelope(res, 429, 'rate_limited').details).toEqual([{ field: 'quota', issue: 'monthly_quota_exhausted' }]);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
