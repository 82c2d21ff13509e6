import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { allRoutes, exampleBody, fillPath, railsOfRoute, tierFor } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

const body = { type: 'fria', systemId: 'sys_idem', jurisdiction: 'eu/de' };
const count = () => ts.server.db.prisma.assessment.count({ where: { tenantId: t.tenantId } });

describe('Idempotency-Key', () => {
  it('replays the first response without running again', async () => {
    const key = randomUUID();
    const before = await count();
    const first = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    const second = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await count()).toBe(before + 1);
  });

  it('is scoped to the tenant: another tenant with the same key runs its own request', async () => {
    const key = randomUUID();
    const other = await createTenant(ts);
    const a = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    const b = await other.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('a changed body with the same key is 409 conflict naming the difference', async () => {
    const key = randomUUID();
    await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    const res = await t.call('POST', '/v1/compliance/assessments', {
      body: { ...body, systemId: 'sys_other' },
      headers: { 'idempotency-key': key },
    });
    expect(expectEnvelope(res, 409, 'conflict').details).toEqual([{ field: 'Idempotency-Key', issue: 'different_body' }]);
    const path = await t.call('POST', '/v1/frameworks/gdpr/activate', { headers: { 'idempotency-key': key } });
    expect(expectEnvelope(path, 409, 'conflict').details[0].issue).toBe('different_path');
  });

  it('a repeat while the first is in flight is 409 conflict', async () => {
    const key = randomUUID();
    // Hold the key as a first request still running would.
    await ts.server.db.prisma.idempotencyRecord.create({
      data: {
        tenantId: t.tenantId,
        key,
        fingerprint: 'x',
        method: 'POST',
        path: '/v1/compliance/assessments',
        state: 'in_flight',
        lockedUntil: new Date(Date.now() + 60_000),
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    const { createHash } = await import('node:crypto');
    const fingerprint = createHash('sha256')
      .update(`POST\n/v1/compliance/assessments\n${JSON.stringify(body)}`)
      .digest('hex');
    await ts.server.db.prisma.idempotencyRecord.update({ where: { tenantId_key: { tenantId: t.tenantId, key } }, data: { fingerprint } });
    const res = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    expect(expectEnvelope(res, 409, 'conflict').details).toEqual([{ field: 'Idempotency-Key', issue: 'in_flight' }]);
  });

  it('concurrent POSTs with one key execute once', async () => {
    const key = randomUUID();
    const before = await count();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } })),
    );
    expect(await count()).toBe(before + 1);
    const ok = results.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of results.filter((x) => x.status !== 201)) expectEnvelope(r, 409, 'conflict');
  });

  it('does not store requests refused before the handler: a 422 can be corrected under the same key', async () => {
    const key = randomUUID();
    const bad = await t.call('POST', '/v1/compliance/assessments', {
      body: { type: 'fria', jurisdiction: 'eu/de' },
      headers: { 'idempotency-key': key },
    });
    expect(bad.status).toBe(422);
    const good = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    expect(good.status).toBe(201);
    const viewer = await t.key('viewer');
    const key2 = randomUUID();
    const denied = await t.call('POST', '/v1/compliance/assessments', { token: viewer, body, headers: { 'idempotency-key': key2 } });
    expect(denied.status).toBe(403);
    expect(await ts.server.db.prisma.idempotencyRecord.count({ where: { tenantId: t.tenantId, key: key2 } })).toBe(0);
  });

  it('stores a handler error and replays it', async () => {
    const key = randomUUID();
    const attester = { name: 'A', email: 'a@example.com' };
    const payload = {
      subject: { type: 'assessment', id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
      statement: 'Reviewed and approved.',
      attester,
    };
    const first = await t.call('POST', '/v1/compliance/attestations', { body: payload, headers: { 'idempotency-key': key } });
    const second = await t.call('POST', '/v1/compliance/attestations', { body: payload, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(404);
    expect(second.status).toBe(404);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('rejects a key longer than 255 characters with 400', async () => {
    const res = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(expectEnvelope(res, 400, 'bad_request').details[0].field).toBe('Idempotency-Key');
  });

  it('an expired record no longer replays', async () => {
    const key = randomUUID();
    const first = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    await ts.server.db.prisma.idempotencyRecord.update({
      where: { tenantId_key: { tenantId: t.tenantId, key } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const second = await t.call('POST', '/v1/compliance/assessments', { body, headers: { 'idempotency-key': key } });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });
});

describe('PUT is idempotent, also at once', () => {
  // A PUT replaces: sent three times at once (a client's retries racing) by a new tenant, the
  // three answer alike (a refusal such as a slug another tenant holds refuses all three), never
  // a 409 for the row one of the others created meanwhile, nor a 500.
  const puts = allRoutes.filter((r) => r.route.method === 'PUT');
  it.each(puts.map((r) => [r.name, r] as const))('%s', async (_name, r) => {
    const owner = await createTenant(ts, { tier: tierFor(railsOfRoute(r)) });
    const { path } = await fillPath(ts, owner, r);
    const sent = exampleBody(r.route);
    const answers = await Promise.all([1, 2, 3].map(() => owner.call('PUT', path, { body: sent })));
    const statuses = answers.map((a) => a.status);
    expect(new Set(statuses).size, `${path}: ${statuses.join(', ')} ${JSON.stringify(answers.find((a) => a.status >= 300)?.body)}`).toBe(1);
    expect(statuses[0]).toBeLessThan(500);
  });
});

describe('hand-written writes sent at once', () => {
  /**
   * Routes whose calls one after the other answer differently (the first makes a change or a run,
   * the next find it made): sent three times at once they must answer the same, in some order.
   */
  const IN_TURN: Readonly<Record<string, { statuses: readonly number[] | readonly (readonly number[])[]; why: string }>> = {
    'frameworks.activate': { statuses: [200, 200, 201], why: '201 for the activation, 200 for "already active"' },
    'reconciliation.run': {
      // A run that began before the others (or ended before they came) lets them run in turn.
      statuses: [
        [200, 409, 409],
        [200, 200, 409],
        [200, 200, 200],
      ],
      why: 'one run at a time: 409 "in progress; retry shortly" while one runs',
    },
    'onboarding.kickoff': { statuses: [201, 409, 409], why: 'one onboarding in progress at a time' },
    'trust.ndaRequests.accept': { statuses: [200, 409, 409], why: 'accepted once, then 409 naming the state' },
    'metadata.label.remove': { statuses: [200, 404, 404], why: 'removed once, then 404' },
    'webhooks.deleteSubscription': { statuses: [200, 404, 404], why: 'deleted once, then 404' },
    'workspace.principals.revoke': { statuses: [200, 409, 409], why: 'revoked once, then 409 naming the state' },
    'red_team.executeRun': { statuses: [200, 409, 409], why: 'executed once, then 409 naming the state' },
  };
  // Every write declared by hand and called with a tenant's key, three times at once for a new
  // tenant: never a 500; the same answer three times, or for the routes above the answers calls
  // one after the other give (never three successes of a change that can be made once).
  const writes = allRoutes.filter((r) => r.route.method !== 'GET' && !r.meta.resource && r.meta.auth === 'tenant');
  it.each(writes.map((r) => [r.name, r] as const))('%s', async (name, r) => {
    const owner = await createTenant(ts, { tier: tierFor(railsOfRoute(r)) });
    const { path } = await fillPath(ts, owner, r);
    const sent = exampleBody(r.route);
    const answers = await Promise.all([1, 2, 3].map(() => owner.call(r.route.method, path, { body: sent })));
    const statuses = answers.map((a) => a.status);
    const why = `${path}: ${statuses.join(', ')} ${JSON.stringify(answers.find((a) => a.status >= 300)?.body)}`;
    expect(Math.max(...statuses), why).toBeLessThan(500);
    const inTurn = IN_TURN[name];
    if (inTurn) {
      const allowed = (Array.isArray(inTurn.statuses[0]) ? inTurn.statuses : [inTurn.statuses]) as readonly (readonly number[])[];
      expect(allowed, `${why} (${inTurn.why})`).toContainEqual([...statuses].sort());
    } else expect(new Set(statuses).size, why).toBe(1);
  });

  it('lists only hand-written writes that exist', () => {
    const names = new Set(writes.map((r) => r.name));
    expect(Object.keys(IN_TURN).filter((n) => !names.has(n))).toEqual([]);
  });
});
