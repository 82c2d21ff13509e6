import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * Rotating an operator credential: a new one with the same name, the caller's revoked at once, and
 * the rotation on the record of every tenant's chain (both credential ids, never a token).
 */
let ts: TestServer;
beforeAll(async () => {
  // A rotation is appended to every tenant chain of the database.
  ts = await startIsolatedTestServer();
});
afterAll(() => ts?.close());

describe('POST /v1/operator/credentials/rotate', () => {
  it('issues a new credential, revokes the calling one, and appends the rotation to every tenant chain', async () => {
    const tenants = [await createTenant(ts), await createTenant(ts)];
    const old = ts.operatorToken;
    const res = await call(ts.url, 'POST', '/v1/operator/credentials/rotate', { token: old });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'svc.operator.credential', name: 'test suite', id: expect.stringMatching(/^opc_/) });
    expect(res.body.token).toMatch(/^svc_op_/);
    expect(res.body.revokedCredentialId).not.toBe(res.body.id);

    expectEnvelope(await call(ts.url, 'GET', '/v1/operator/tenants', { token: old }), 401, 'unauthorized');
    expect((await call(ts.url, 'GET', '/v1/operator/tenants', { token: res.body.token })).status).toBe(200);
    // The revoked credential cannot rotate again either.
    expectEnvelope(await call(ts.url, 'POST', '/v1/operator/credentials/rotate', { token: old }), 401, 'unauthorized');

    for (const t of tenants) {
      const events = await t.call('POST', '/v1/audit-trail/query', { body: { action: 'operator_credential.rotated' } });
      expect(events.status).toBe(200);
      expect(events.body.data).toHaveLength(1);
      expect(events.body.data[0].data).toEqual({
        credentialId: res.body.id,
        revokedCredentialId: res.body.revokedCredentialId,
        name: 'test suite',
      });
      expect(JSON.stringify(events.body)).not.toContain(res.body.token);
      const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
      expect(replay.body.valid).toBe(true);
    }
    ts.operatorToken = res.body.token;
  });

  it('two rotations at once with one credential: one new credential, the other refused', async () => {
    const old = ts.operatorToken;
    const both = await Promise.all([0, 1].map(() => call(ts.url, 'POST', '/v1/operator/credentials/rotate', { token: old })));
    const made = both.filter((r) => r.status === 201);
    expect(made, JSON.stringify(both.map((r) => r.body))).toHaveLength(1);
    // Refused in the handler (409) when it waited on the first, or at the door (401) when the first had committed.
    const refused = both.find((r) => r.status !== 201) as (typeof both)[number];
    expectEnvelope(refused, refused.status === 401 ? 401 : 409, refused.status === 401 ? 'unauthorized' : 'conflict');
    const active = await ts.server.db.prisma.operatorCredential.count({ where: { name: 'test suite', revokedAt: null } });
    expect(active).toBe(1);
    ts.operatorToken = (made[0] as (typeof both)[number]).body.token;
  });

  it('is refused to tenant keys and to callers without a token', async () => {
    const t = await createTenant(ts);
    expectEnvelope(await call(ts.url, 'POST', '/v1/operator/credentials/rotate', { token: t.token }), 403, 'forbidden');
    expectEnvelope(await call(ts.url, 'POST', '/v1/operator/credentials/rotate'), 401, 'unauthorized');
  });
});

describe('POST /v1/operator/keys/:id/revoke', () => {
  it('two revocations of one key at once: both answer the revoked key, one revocation is recorded', async () => {
    const t = await createTenant(ts);
    const keys = await call(ts.url, 'GET', `/v1/operator/keys?tenantId=${t.tenantId}`, { token: ts.operatorToken });
    const id = keys.body.data[0].id as string;
    const both = await Promise.all([0, 1].map(() => call(ts.url, 'POST', `/v1/operator/keys/${id}/revoke`, { token: ts.operatorToken })));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0]?.body.revokedAt).toBe(both[1]?.body.revokedAt);
    const recorded = await ts.server.db.prisma.auditEvent.count({
      where: { tenantId: t.tenantId, action: 'api_key.revoked', resourceId: id },
    });
    expect(recorded).toBe(1);
  });
});
