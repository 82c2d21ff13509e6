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

  it('is refused to tenant keys and to callers without a token', async () => {
    const t = await createTenant(ts);
    expectEnvelope(await call(ts.url, 'POST', '/v1/operator/credentials/rotate', { token: t.token }), 403, 'forbidden');
    expectEnvelope(await call(ts.url, 'POST', '/v1/operator/credentials/rotate'), 401, 'unauthorized');
  });
});
