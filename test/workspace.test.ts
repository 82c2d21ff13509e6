import { Workspace, WorkspacePrincipal, WorkspaceTeam } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The workspace rail through HTTP: workspaces (create, get, list, update, archive), principals
 * (users and API keys with a role, added and revoked) and teams of principals; an archived
 * workspace refuses every write with 409 and nothing changes; pagination, tenancy, permissions
 * and the starter tier gate.
 */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

type Json = Record<string, any>;

async function auditActions(t: TenantFixture, resourceId: string): Promise<string[]> {
  const res = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 200 } });
  expect(res.status).toBe(200);
  return (res.body.data as Json[]).map((e) => e.action as string).reverse();
}

async function auditCount(t: TenantFixture): Promise<number> {
  const res = await t.call('GET', '/v1/audit-trail/events?limit=1');
  return res.body.data[0]?.seq ?? 0;
}

async function createWorkspace(t: TenantFixture, body: Json = {}): Promise<Json> {
  const res = await t.call('POST', '/v1/workspaces', { body: { name: `ws ${Math.random().toString(36).slice(2, 8)}`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A further key of the tenant with this tenant role: its `key_` id and its token. */
async function keyWithId(t: TenantFixture, role: string, personId?: string): Promise<{ id: string; token: string }> {
  const res = await call(ts.url, 'POST', '/v1/operator/keys', {
    token: ts.operatorToken,
    body: { tenantId: t.tenantId, role, ...(personId ? { personId } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = (res.body.id ?? res.body.key?.id) as string;
  expect(id).toMatch(/^key_/);
  return { id, token: res.body.token as string };
}

/** The `key_` id of an API key of the tenant, read through the operator API. */
async function keyIds(t: TenantFixture): Promise<string[]> {
  const res = await call(ts.url, 'GET', `/v1/operator/keys?tenantId=${t.tenantId}&limit=200`, { token: ts.operatorToken });
  expect(res.status).toBe(200);
  return (res.body.data as Json[]).map((k) => k.id as string);
}

describe('workspace lifecycle', () => {
  let t: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
    await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/svc', eventTypes: ['*'] } });
  });

  it('creates an active workspace with its first principals, readable by id and in the list', async () => {
    const ws = await createWorkspace(t, {
      name: 'Model risk office',
      description: 'Credit models',
      principals: [
        { kind: 'user', subject: 'Dana.Keller@Example.com', role: 'admin', displayName: 'Dana Keller' },
        { kind: 'user', subject: 'sam.ortiz@example.com', role: 'viewer' },
      ],
    });
    expect(Workspace.safeParse(ws).success).toBe(true);
    expect(ws).toMatchObject({
      object: 'svc.workspace.workspace',
      name: 'Model risk office',
      description: 'Credit models',
      status: 'active',
      archivedAt: null,
      counts: { principals: 2, teams: 0 },
    });
    expect(ws.id).toMatch(/^wks_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body).toEqual(ws);
    expect((await collectPages<Json>(t, '/v1/workspaces')).map((w) => w.id)).toContain(ws.id);

    const principals = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals`);
    expect(principals.map((p) => [p.subject, p.role, p.status]).sort()).toEqual([
      ['dana.keller@example.com', 'admin', 'active'],
      ['sam.ortiz@example.com', 'viewer', 'active'],
    ]);
    for (const p of principals) expect(WorkspacePrincipal.safeParse(p).success).toBe(true);
    expect(await auditActions(t, ws.id)).toEqual(['workspace.created']);
  });

  it('updates name and description (null clears it), audited with the changed fields and emitted', async () => {
    const ws = await createWorkspace(t, { description: 'old' });
    const res = await t.call('PATCH', `/v1/workspaces/${ws.id}`, { body: { name: 'Renamed', description: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws.id, name: 'Renamed', description: null, status: 'active', createdAt: ws.createdAt });
    expect(res.body.updatedAt >= ws.updatedAt).toBe(true);
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body).toEqual(res.body);
    const only = await t.call('PATCH', `/v1/workspaces/${ws.id}`, { body: { description: 'new text' } });
    expect(only.body).toMatchObject({ name: 'Renamed', description: 'new text' });
    expect(await auditActions(t, ws.id)).toEqual(['workspace.created', 'workspace.updated', 'workspace.updated']);
    const events = await ts.server.db.prisma.webhookEvent.findMany({
      where: { tenantId: t.tenantId, subject: ws.id, type: 'workspace.updated' },
    });
    expect(events).toHaveLength(2);
  });

  it('archives once: a second archive is 409 naming the state, and nothing changes', async () => {
    const ws = await createWorkspace(t);
    const archived = await t.call('POST', `/v1/workspaces/${ws.id}/archive`, { body: { reason: 'programme closed' } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: ws.id, status: 'archived' });
    expect(archived.body.archivedAt).not.toBeNull();
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: ws.id, limit: 200 } });
    expect(audit.body.data[0]).toMatchObject({
      action: 'workspace.archived',
      data: { from: 'active', to: 'archived', reason: 'programme closed' },
    });
    const emitted = await ts.server.db.prisma.webhookEvent.findMany({
      where: { tenantId: t.tenantId, subject: ws.id, type: 'workspace.archived' },
    });
    expect(emitted).toHaveLength(1);
    expect(emitted[0]?.data).toEqual(archived.body);
    expect(emitted[0]?.source).toBe(`/v1/workspaces/${ws.id}`);

    const before = await auditCount(t);
    const again = await t.call('POST', `/v1/workspaces/${ws.id}/archive`, { body: {} });
    expect(expectEnvelope(again, 409, 'conflict').message).toContain('archived');
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body).toEqual(archived.body);
    expect(await auditCount(t)).toBe(before);
  });

  it('every write to an archived workspace is 409 conflict naming the state and changes nothing; reads still work', async () => {
    const ws = await createWorkspace(t, { principals: [{ kind: 'user', subject: 'ana@example.com', role: 'editor' }] });
    const team = await t.call('POST', `/v1/workspaces/${ws.id}/teams`, { body: { name: 'Validation', members: ['ana@example.com'] } });
    expect(team.status).toBe(201);
    const archived = (await t.call('POST', `/v1/workspaces/${ws.id}/archive`)).body;
    expect(archived.counts).toEqual({ principals: 1, teams: 1 });
    const before = await auditCount(t);
    const principalsBefore = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals`);
    const teamsBefore = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/teams`);

    const writes: [string, string, unknown][] = [
      ['PATCH', `/v1/workspaces/${ws.id}`, { name: 'Nope' }],
      ['POST', `/v1/workspaces/${ws.id}/principals`, { kind: 'user', subject: 'new@example.com', role: 'viewer' }],
      ['POST', `/v1/workspaces/${ws.id}/principals/ana@example.com/revoke`, {}],
      ['POST', `/v1/workspaces/${ws.id}/teams`, { name: 'Another' }],
      ['POST', `/v1/workspaces/${ws.id}/archive`, {}],
    ];
    for (const [method, path, body] of writes) {
      const env = expectEnvelope(await t.call(method, path, { body }), 409, 'conflict');
      expect(env.message, `${method} ${path}`).toContain('archived');
      expect(env.details).toEqual([{ field: 'status', issue: 'invalid_value', message: 'current state: archived' }]);
    }
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body).toEqual(archived);
    expect(await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals`)).toEqual(principalsBefore);
    expect(await collectPages<Json>(t, `/v1/workspaces/${ws.id}/teams`)).toEqual(teamsBefore);
    expect(await auditCount(t)).toBe(before);
  });

  it('two concurrent archives: one succeeds, the other is 409, one audit event', async () => {
    const ws = await createWorkspace(t);
    const results = await Promise.all([1, 2].map(() => t.call('POST', `/v1/workspaces/${ws.id}/archive`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await auditActions(t, ws.id)).toEqual(['workspace.created', 'workspace.archived']);
  });

  it('the status filter selects active or archived workspaces', async () => {
    const active = await createWorkspace(t);
    const gone = await createWorkspace(t);
    await t.call('POST', `/v1/workspaces/${gone.id}/archive`);
    const actives = await collectPages<Json>(t, '/v1/workspaces?status=active');
    const archived = await collectPages<Json>(t, '/v1/workspaces?status=archived');
    expect(actives.map((w) => w.id)).toContain(active.id);
    expect(actives.map((w) => w.id)).not.toContain(gone.id);
    expect(archived.map((w) => w.id)).toContain(gone.id);
    expect(actives.every((w) => w.status === 'active') && archived.every((w) => w.status === 'archived')).toBe(true);
  });

  it('bad input is 422 in the envelope', async () => {
    expectEnvelope(await t.call('POST', '/v1/workspaces', { body: {} }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/workspaces', { body: { name: 'x', extra: 1 } }), 422, 'validation_failed');
    const badUser = await t.call('POST', '/v1/workspaces', {
      body: { name: 'x', principals: [{ kind: 'user', subject: 'not-an-email', role: 'viewer' }] },
    });
    expect(expectEnvelope(badUser, 422, 'validation_failed').details).toContainEqual(
      expect.objectContaining({ field: 'principals.0.subject' }),
    );
    const twice = await t.call('POST', '/v1/workspaces', {
      body: {
        name: 'x',
        principals: [
          { kind: 'user', subject: 'a@example.com', role: 'viewer' },
          { kind: 'user', subject: 'A@example.com', role: 'admin' },
        ],
      },
    });
    expect(expectEnvelope(twice, 422, 'validation_failed').details).toContainEqual(
      expect.objectContaining({ field: 'principals.1.subject' }),
    );
    const ws = await createWorkspace(t);
    expectEnvelope(await t.call('PATCH', `/v1/workspaces/${ws.id}`, { body: {} }), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/workspaces/not-an-id'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/workspaces/wks_01JD3Z8W2M6Q4X9V7K5T1B0N3R'), 404, 'not_found');
  });

  it('an Idempotency-Key replay returns the same workspace and creates nothing', async () => {
    const headers = { 'idempotency-key': `ws-${Date.now()}` };
    const first = await t.call('POST', '/v1/workspaces', { body: { name: 'Once' }, headers });
    const again = await t.call('POST', '/v1/workspaces', { body: { name: 'Once' }, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await collectPages<Json>(t, '/v1/workspaces')).filter((w) => w.name === 'Once')).toHaveLength(1);
  });
});

describe('principals', () => {
  let t: TenantFixture;
  let other: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
    other = await createTenant(ts);
  });

  it('gives users and API keys a role; an API key must be an active key of this tenant', async () => {
    const ws = await createWorkspace(t);
    const before = new Set(await keyIds(t));
    await t.key('editor');
    const key = (await keyIds(t)).find((id) => !before.has(id)) as string;
    const [foreign] = await keyIds(other);
    const user = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, {
      body: { kind: 'user', subject: 'Lee@Example.com', role: 'auditor' },
    });
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({
      object: 'svc.workspace.principal',
      workspaceId: ws.id,
      kind: 'user',
      subject: 'lee@example.com',
      role: 'auditor',
      status: 'active',
      revokedAt: null,
    });
    expect(user.body.id).toMatch(/^wpr_/);
    const apiKey = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, { body: { kind: 'api_key', subject: key, role: 'viewer' } });
    expect(apiKey.status).toBe(201);
    expect(apiKey.body).toMatchObject({ kind: 'api_key', subject: key });

    const foreignKey = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, {
      body: { kind: 'api_key', subject: foreign, role: 'viewer' },
    });
    expect(expectEnvelope(foreignKey, 422, 'validation_failed').details).toContainEqual(expect.objectContaining({ field: 'subject' }));
    const notAKeyId = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, {
      body: { kind: 'api_key', subject: 'lee@example.com', role: 'viewer' },
    });
    expectEnvelope(notAKeyId, 422, 'validation_failed');

    const dup = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, {
      body: { kind: 'user', subject: 'lee@example.com', role: 'admin' },
    });
    expect(expectEnvelope(dup, 409, 'conflict').message).toContain(user.body.id);

    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body.counts.principals).toBe(2);
    expect(await auditActions(t, user.body.id)).toEqual(['workspace_principal.added']);
    const byKind = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals?kind=api_key`);
    expect(byKind.map((p) => p.id)).toEqual([apiKey.body.id]);
    const byRole = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals?role=auditor`);
    expect(byRole.map((p) => p.id)).toEqual([user.body.id]);
  });

  it('a revoked key can no longer be granted', async () => {
    const ws = await createWorkspace(t);
    const before = new Set(await keyIds(t));
    await t.key('viewer');
    const victim = (await keyIds(t)).find((id) => !before.has(id)) as string;
    const revoked = await call(ts.url, 'POST', `/v1/operator/keys/${victim}/revoke`, { token: ts.operatorToken });
    expect(revoked.status).toBe(200);
    const res = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, { body: { kind: 'api_key', subject: victim, role: 'viewer' } });
    expectEnvelope(res, 422, 'validation_failed');
  });

  it('revoke by subject or by id: the grant stays listed as revoked, leaves its teams, and can be granted again', async () => {
    const ws = await createWorkspace(t, {
      principals: [
        { kind: 'user', subject: 'kim@example.com', role: 'editor' },
        { kind: 'user', subject: 'jo@example.com', role: 'viewer' },
      ],
    });
    const team = await t.call('POST', `/v1/workspaces/${ws.id}/teams`, {
      body: { name: 'Reviewers', members: ['kim@example.com', 'jo@example.com'] },
    });
    expect(team.body.members.map((m: Json) => m.subject)).toEqual(['kim@example.com', 'jo@example.com']);

    const res = await t.call('POST', `/v1/workspaces/${ws.id}/principals/kim@example.com/revoke`, { body: { reason: 'left the company' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subject: 'kim@example.com', status: 'revoked' });
    expect(res.body.revokedAt).not.toBeNull();
    const teams = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/teams`);
    expect(teams[0]?.members.map((m: Json) => m.subject)).toEqual(['jo@example.com']);
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body.counts.principals).toBe(1);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: res.body.id, limit: 10 } });
    expect(audit.body.data[0]).toMatchObject({
      action: 'workspace_principal.revoked',
      data: { from: 'active', to: 'revoked', reason: 'left the company', teams: [team.body.id] },
    });

    expectEnvelope(await t.call('POST', `/v1/workspaces/${ws.id}/principals/${res.body.id}/revoke`), 409, 'conflict');
    expectEnvelope(await t.call('POST', `/v1/workspaces/${ws.id}/principals/nobody@example.com/revoke`), 404, 'not_found');

    const otherWs = await createWorkspace(t);
    expectEnvelope(await t.call('POST', `/v1/workspaces/${otherWs.id}/principals/jo@example.com/revoke`), 404, 'not_found');
    const jo = (await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals?status=active`))[0] as Json;
    const byId = await t.call('POST', `/v1/workspaces/${ws.id}/principals/${jo.id}/revoke`);
    expect(byId.body).toMatchObject({ id: jo.id, status: 'revoked' });

    const regrant = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, {
      body: { kind: 'user', subject: 'kim@example.com', role: 'admin' },
    });
    expect(regrant.status).toBe(201);
    const all = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals`);
    expect(all.filter((p) => p.subject === 'kim@example.com').map((p) => p.status)).toEqual(['active', 'revoked']);
  });

  it('pagination: every principal once, newest first', async () => {
    const ws = await createWorkspace(t);
    for (let i = 0; i < 5; i++) {
      const r = await t.call('POST', `/v1/workspaces/${ws.id}/principals`, {
        body: { kind: 'user', subject: `p${i}@example.com`, role: 'viewer' },
      });
      expect(r.status).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Json = await t.call('GET', `/v1/workspaces/${ws.id}/principals?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((p: Json) => p.subject));
      cursor = res.body.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['p4@example.com', 'p3@example.com', 'p2@example.com', 'p1@example.com', 'p0@example.com']);
    expectEnvelope(await t.call('GET', `/v1/workspaces/${ws.id}/principals?cursor=bogus`), 400, 'bad_request');
  });
});

describe('teams', () => {
  let t: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
  });

  it('creates teams of active principals, named by subject or id; members follow the principals', async () => {
    const ws = await createWorkspace(t, {
      principals: [
        { kind: 'user', subject: 'ada@example.com', role: 'admin', displayName: 'Ada' },
        { kind: 'user', subject: 'bo@example.com', role: 'viewer' },
      ],
    });
    const principals = await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals`);
    const bo = principals.find((p) => p.subject === 'bo@example.com') as Json;
    const res = await t.call('POST', `/v1/workspaces/${ws.id}/teams`, {
      body: { name: 'Oversight', description: 'Human oversight', members: ['ADA@example.com', bo.id, 'ada@example.com'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(WorkspaceTeam.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ object: 'svc.workspace.team', workspaceId: ws.id, name: 'Oversight', description: 'Human oversight' });
    expect(res.body.id).toMatch(/^wtm_/);
    expect(res.body.members).toEqual([
      { principalId: expect.stringMatching(/^wpr_/), kind: 'user', subject: 'ada@example.com', displayName: 'Ada', role: 'admin' },
      { principalId: bo.id, kind: 'user', subject: 'bo@example.com', displayName: null, role: 'viewer' },
    ]);
    expect(await collectPages<Json>(t, `/v1/workspaces/${ws.id}/teams`)).toEqual([res.body]);
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body.counts).toEqual({ principals: 2, teams: 1 });
    expect(await auditActions(t, res.body.id)).toEqual(['workspace_team.created']);

    const empty = await t.call('POST', `/v1/workspaces/${ws.id}/teams`, { body: { name: 'Empty' } });
    expect(empty.body.members).toEqual([]);
  });

  it('a member that is not an active principal of the workspace is 422; a taken name is 409', async () => {
    const ws = await createWorkspace(t, { principals: [{ kind: 'user', subject: 'cy@example.com', role: 'editor' }] });
    const elsewhere = await createWorkspace(t, { principals: [{ kind: 'user', subject: 'dee@example.com', role: 'editor' }] });
    const dee = (await collectPages<Json>(t, `/v1/workspaces/${elsewhere.id}/principals`))[0] as Json;
    const bad = await t.call('POST', `/v1/workspaces/${ws.id}/teams`, {
      body: { name: 'T', members: ['cy@example.com', dee.id, 'zed@example.com'] },
    });
    const env = expectEnvelope(bad, 422, 'validation_failed');
    expect(env.details.map((d: Json) => d.field)).toEqual(['members.1', 'members.2']);
    expect(await collectPages<Json>(t, `/v1/workspaces/${ws.id}/teams`)).toEqual([]);

    expect((await t.call('POST', `/v1/workspaces/${ws.id}/teams`, { body: { name: 'T' } })).status).toBe(201);
    expectEnvelope(await t.call('POST', `/v1/workspaces/${ws.id}/teams`, { body: { name: 'T' } }), 409, 'conflict');
    expect((await t.call('POST', `/v1/workspaces/${elsewhere.id}/teams`, { body: { name: 'T' } })).status).toBe(201);
  });
});

describe('pagination of workspaces', () => {
  it('a cursor walk returns every workspace once, newest first', async () => {
    const t = await createTenant(ts);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createWorkspace(t, { name: `w${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Json = await t.call('GET', `/v1/workspaces?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((w: Json) => w.id));
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    expectEnvelope(await t.call('GET', '/v1/workspaces?limit=0'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/workspaces?limit=201'), 422, 'validation_failed');
  });
});

describe('tenancy, permissions and tier', () => {
  it("another tenant's workspace is 404 on every route, and its lists never show it", async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const ws = await createWorkspace(t, { principals: [{ kind: 'user', subject: 'eve@example.com', role: 'viewer' }] });
    const attempts: [string, string, unknown][] = [
      ['GET', `/v1/workspaces/${ws.id}`, undefined],
      ['PATCH', `/v1/workspaces/${ws.id}`, { name: 'mine now' }],
      ['POST', `/v1/workspaces/${ws.id}/archive`, {}],
      ['GET', `/v1/workspaces/${ws.id}/principals`, undefined],
      ['POST', `/v1/workspaces/${ws.id}/principals`, { kind: 'user', subject: 'mallory@example.com', role: 'owner' }],
      ['POST', `/v1/workspaces/${ws.id}/principals/eve@example.com/revoke`, {}],
      ['GET', `/v1/workspaces/${ws.id}/teams`, undefined],
      ['POST', `/v1/workspaces/${ws.id}/teams`, { name: 'Intruders' }],
    ];
    for (const [method, path, body] of attempts) expectEnvelope(await other.call(method, path, { body }), 404, 'not_found');
    expect((await collectPages<Json>(other, '/v1/workspaces')).map((w) => w.id)).not.toContain(ws.id);
    expect((await t.call('GET', `/v1/workspaces/${ws.id}`)).body).toEqual(ws);
    expect(await collectPages<Json>(t, `/v1/workspaces/${ws.id}/principals`)).toHaveLength(1);
  });

  it('a viewer reads but does not write (403 naming workspace:write)', async () => {
    const t = await createTenant(ts);
    const viewerKey = await keyWithId(t, 'viewer');
    const viewer = viewerKey.token;
    const ws = await createWorkspace(t, { principals: [{ kind: 'api_key', subject: viewerKey.id, role: 'viewer' }] });
    expect((await call(ts.url, 'GET', `/v1/workspaces/${ws.id}`, { token: viewer })).status).toBe(200);
    const res = await call(ts.url, 'POST', '/v1/workspaces', { token: viewer, body: { name: 'x' } });
    expect(expectEnvelope(res, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'workspace:write' }]);
    const archive = await call(ts.url, 'POST', `/v1/workspaces/${ws.id}/archive`, { token: viewer });
    expectEnvelope(archive, 403, 'forbidden');
  });

  it('workspace is a starter rail: a sandbox tenant gets 403 on every route, a starter tenant is admitted', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    const ws = await createWorkspace(starter);
    const routes: [string, string, unknown][] = [
      ['GET', '/v1/workspaces', undefined],
      ['POST', '/v1/workspaces', { name: 'x' }],
      ['GET', `/v1/workspaces/${ws.id}`, undefined],
      ['PATCH', `/v1/workspaces/${ws.id}`, { name: 'x' }],
      ['POST', `/v1/workspaces/${ws.id}/archive`, {}],
      ['GET', `/v1/workspaces/${ws.id}/principals`, undefined],
      ['POST', `/v1/workspaces/${ws.id}/principals`, { kind: 'user', subject: 'x@example.com', role: 'viewer' }],
      ['GET', `/v1/workspaces/${ws.id}/teams`, undefined],
      ['POST', `/v1/workspaces/${ws.id}/teams`, { name: 'x' }],
    ];
    for (const [method, path, body] of routes) {
      const env = expectEnvelope(await sandbox.call(method, path, { body }), 403, 'forbidden');
      expect(env.details, `${method} ${path}`).toEqual([{ field: 'tier', issue: 'starter' }]);
    }
    expect((await starter.call('GET', '/v1/workspaces')).body.data.map((w: Json) => w.id)).toEqual([ws.id]);
  });
});

describe("a principal's role in a workspace governs its records", () => {
  let t: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
  });
  const as = (token: string, method: string, path: string, body?: unknown) => call(ts.url, method, path, { token, body });

  /** Everything a reader sees of a workspace, read with the tenant owner's key. */
  async function snapshot(id: string) {
    return {
      ws: (await t.call('GET', `/v1/workspaces/${id}`)).body,
      principals: await collectPages<Json>(t, `/v1/workspaces/${id}/principals`),
      teams: await collectPages<Json>(t, `/v1/workspaces/${id}/teams`),
      audit: await auditCount(t),
    };
  }

  it('a viewer in the workspace reads its records; every write is 403 in the envelope and changes nothing', async () => {
    // The key's own tenant role (editor) grants workspace:write: the workspace role narrows it.
    const key = await keyWithId(t, 'editor');
    const ws = await createWorkspace(t, {
      principals: [
        { kind: 'api_key', subject: key.id, role: 'viewer' },
        { kind: 'user', subject: 'ren@example.com', role: 'editor' },
      ],
    });
    expect((await as(key.token, 'GET', `/v1/workspaces/${ws.id}`)).status).toBe(200);
    expect((await as(key.token, 'GET', `/v1/workspaces/${ws.id}/principals`)).body.data).toHaveLength(2);
    expect((await as(key.token, 'GET', `/v1/workspaces/${ws.id}/teams`)).status).toBe(200);
    expect((await as(key.token, 'GET', '/v1/workspaces')).body.data.map((w: Json) => w.id)).toEqual([ws.id]);

    const before = await snapshot(ws.id);
    const writes: [string, string, unknown, string][] = [
      ['PATCH', `/v1/workspaces/${ws.id}`, { name: 'Taken over' }, 'workspace:write'],
      ['POST', `/v1/workspaces/${ws.id}/teams`, { name: 'Mine' }, 'workspace:write'],
      ['POST', `/v1/workspaces/${ws.id}/principals`, { kind: 'user', subject: 'pal@example.com', role: 'owner' }, 'workspace:manage'],
      ['POST', `/v1/workspaces/${ws.id}/principals/ren@example.com/revoke`, {}, 'workspace:manage'],
      ['POST', `/v1/workspaces/${ws.id}/archive`, {}, 'workspace:manage'],
    ];
    for (const [method, path, body, permission] of writes) {
      const env = expectEnvelope(await as(key.token, method, path, body), 403, 'forbidden');
      expect(env.details, `${method} ${path}`).toEqual([
        { field: 'workspace_role', issue: permission, message: `role viewer in ${ws.id}` },
      ]);
      expect(env.message).toContain('viewer');
    }
    expect(await snapshot(ws.id)).toEqual(before);
  });

  it('an editor changes the workspace and creates teams but gives no roles; an owner gives and revokes roles and archives', async () => {
    const editor = await keyWithId(t, 'editor');
    const owner = await keyWithId(t, 'editor');
    const ws = await createWorkspace(t, {
      principals: [
        { kind: 'api_key', subject: editor.id, role: 'editor' },
        { kind: 'api_key', subject: owner.id, role: 'owner' },
      ],
    });
    const patched = await as(editor.token, 'PATCH', `/v1/workspaces/${ws.id}`, { description: 'edited by its editor' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.description).toBe('edited by its editor');
    expect((await as(editor.token, 'POST', `/v1/workspaces/${ws.id}/teams`, { name: 'Editors', members: [editor.id] })).status).toBe(201);
    const grant = await as(editor.token, 'POST', `/v1/workspaces/${ws.id}/principals`, {
      kind: 'user',
      subject: 'x@example.com',
      role: 'owner',
    });
    expect(expectEnvelope(grant, 403, 'forbidden').details[0]).toMatchObject({ field: 'workspace_role', issue: 'workspace:manage' });
    expectEnvelope(await as(editor.token, 'POST', `/v1/workspaces/${ws.id}/archive`, {}), 403, 'forbidden');

    const added = await as(owner.token, 'POST', `/v1/workspaces/${ws.id}/principals`, {
      kind: 'user',
      subject: 'x@example.com',
      role: 'viewer',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await as(owner.token, 'POST', `/v1/workspaces/${ws.id}/principals/x@example.com/revoke`, {})).status).toBe(200);
    // Revoking the editor's grant puts its key outside the workspace at once.
    expect((await as(owner.token, 'POST', `/v1/workspaces/${ws.id}/principals/${editor.id}/revoke`, {})).status).toBe(200);
    const after = await as(editor.token, 'GET', `/v1/workspaces/${ws.id}`);
    expect(expectEnvelope(after, 403, 'forbidden').details[0]).toMatchObject({ field: 'workspace', issue: 'not_a_principal' });
    const archived = await as(owner.token, 'POST', `/v1/workspaces/${ws.id}/archive`, {});
    expect(archived.status).toBe(200);
    expect(await auditActions(t, ws.id)).toEqual(['workspace.created', 'workspace.updated', 'workspace.archived']);
  });

  it('a key outside the workspace is refused every route of it and does not see it listed', async () => {
    const outsider = await keyWithId(t, 'editor');
    const ws = await createWorkspace(t, { principals: [{ kind: 'user', subject: 'in@example.com', role: 'editor' }] });
    const mine = await createWorkspace(t, { principals: [{ kind: 'api_key', subject: outsider.id, role: 'auditor' }] });
    const before = await snapshot(ws.id);
    const routes: [string, string, unknown][] = [
      ['GET', `/v1/workspaces/${ws.id}`, undefined],
      ['GET', `/v1/workspaces/${ws.id}/principals`, undefined],
      ['GET', `/v1/workspaces/${ws.id}/teams`, undefined],
      ['PATCH', `/v1/workspaces/${ws.id}`, { name: 'x' }],
      ['POST', `/v1/workspaces/${ws.id}/teams`, { name: 'x' }],
      ['POST', `/v1/workspaces/${ws.id}/principals`, { kind: 'api_key', subject: outsider.id, role: 'owner' }],
      ['POST', `/v1/workspaces/${ws.id}/principals/in@example.com/revoke`, {}],
      ['POST', `/v1/workspaces/${ws.id}/archive`, {}],
    ];
    for (const [method, path, body] of routes) {
      const env = expectEnvelope(await as(outsider.token, method, path, body), 403, 'forbidden');
      expect(env.details, `${method} ${path}`).toEqual([
        { field: 'workspace', issue: 'not_a_principal', message: `no active grant in ${ws.id}` },
      ]);
    }
    expect(await snapshot(ws.id)).toEqual(before);
    // An unknown workspace stays 404, not 403.
    expectEnvelope(await as(outsider.token, 'GET', '/v1/workspaces/wks_01JD3Z8W2M6Q4X9V7K5T1B0N3R'), 404, 'not_found');
    const listed = await collectPages<Json>(
      { ...t, call: (m, p, o = {}) => as(outsider.token, m, p, o.body) } as TenantFixture,
      '/v1/workspaces',
    );
    expect(listed.map((w) => w.id)).toEqual([mine.id]);
    // The auditor it is in `mine` reads there and writes nothing.
    expect((await as(outsider.token, 'GET', `/v1/workspaces/${mine.id}`)).status).toBe(200);
    expectEnvelope(await as(outsider.token, 'PATCH', `/v1/workspaces/${mine.id}`, { name: 'x' }), 403, 'forbidden');
  });

  it('a tenant owner or admin without a grant reaches every workspace; listed as viewer in one, it only reads there', async () => {
    const admin = await keyWithId(t, 'admin');
    const ws = await createWorkspace(t);
    expect((await as(admin.token, 'PATCH', `/v1/workspaces/${ws.id}`, { name: 'By the tenant admin' })).status).toBe(200);
    expect((await as(admin.token, 'GET', '/v1/workspaces')).body.data.map((w: Json) => w.id)).toContain(ws.id);
    const narrowed = await createWorkspace(t, { principals: [{ kind: 'api_key', subject: admin.id, role: 'viewer' }] });
    expect((await as(admin.token, 'GET', `/v1/workspaces/${narrowed.id}`)).status).toBe(200);
    expectEnvelope(await as(admin.token, 'PATCH', `/v1/workspaces/${narrowed.id}`, { name: 'x' }), 403, 'forbidden');
  });

  it('a user grant governs the key that acts for that person (by email)', async () => {
    const email = `Quinn.${Math.random().toString(36).slice(2, 8)}@Example.com`;
    const person = await t.call('POST', '/v1/stakeholders/users', { body: { name: 'Quinn', email } });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    const key = await keyWithId(t, 'editor', person.body.id);
    const ws = await createWorkspace(t, { principals: [{ kind: 'user', subject: email, role: 'editor' }] });
    expect((await as(key.token, 'PATCH', `/v1/workspaces/${ws.id}`, { name: 'Quinn was here' })).status).toBe(200);
    const viewerOnly = await createWorkspace(t, { principals: [{ kind: 'user', subject: email, role: 'viewer' }] });
    expect((await as(key.token, 'GET', `/v1/workspaces/${viewerOnly.id}`)).status).toBe(200);
    expectEnvelope(await as(key.token, 'PATCH', `/v1/workspaces/${viewerOnly.id}`, { name: 'x' }), 403, 'forbidden');
    expect((await t.call('POST', `/v1/workspaces/${ws.id}/principals/${email}/revoke`)).status).toBe(200);
    expectEnvelope(await as(key.token, 'GET', `/v1/workspaces/${ws.id}`), 403, 'forbidden');
  });

  it('a key below tenant admin that creates a workspace is made its owner and can manage it', async () => {
    const editor = await keyWithId(t, 'editor');
    const res = await as(editor.token, 'POST', '/v1/workspaces', { name: 'Self-made' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.counts.principals).toBe(1);
    const principals = await collectPages<Json>(t, `/v1/workspaces/${res.body.id}/principals`);
    expect(principals.map((p) => [p.kind, p.subject, p.role])).toEqual([['api_key', editor.id, 'owner']]);
    const added = await as(editor.token, 'POST', `/v1/workspaces/${res.body.id}/principals`, {
      kind: 'user',
      subject: 'y@example.com',
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    // The tenant owner's key is not made a principal: it reaches every workspace anyway.
    expect((await createWorkspace(t)).counts.principals).toBe(0);
  });
});
