import { getWebhookEventType } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

type Json = Record<string, any>;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

async function role(t: TenantFixture, name: string): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/roles', { body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function person(t: TenantFixture, name: string, roleIds: string[] = []): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await t.call('POST', '/v1/stakeholders/users', { body: { name, email, roleIds } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function trainingModule(t: TenantFixture, title: string, requiredForRoleIds: string[], extra: Json = {}): Promise<Json> {
  const res = await t.call('POST', '/v1/training-records/modules', { body: { title, requiredForRoleIds, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function complete(t: TenantFixture, moduleId: string, userId: string, extra: Json = {}): Promise<Json> {
  const res = await t.call('POST', '/v1/training-records/records', { body: { moduleId, userId, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('training_records: tiers and modules', () => {
  it('is open to a sandbox tenant', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    expect((await sandbox.call('GET', '/v1/training-records/modules')).status).toBe(200);
    expect((await sandbox.call('GET', '/v1/training-records/coverage')).status).toBe(200);
    const m = await sandbox.call('POST', '/v1/training-records/modules', { body: { title: 'AI literacy', requiredForRoleIds: [] } });
    expect(m.status).toBe(201);
  });

  it('defines modules for known roles and frameworks only (422 naming the field), listed newest first', async () => {
    const t = await createTenant(ts);
    const eng = await role(t, 'ML engineer');
    const m = await trainingModule(t, 'AI literacy basics', [eng], {
      validityDays: 365,
      frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
    });
    expect(m).toMatchObject({
      object: 'svc.training_records.module',
      requiredForRoleIds: [eng],
      validityDays: 365,
      frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
      description: null,
    });
    expect(m.id).toMatch(/^tmd_/);
    const optional = await trainingModule(t, 'Prompt writing', []);
    expect((await collectPages<Json>(t, '/v1/training-records/modules')).map((x) => x.id)).toEqual([optional.id, m.id]);

    const badRole = expectEnvelope(
      await t.call('POST', '/v1/training-records/modules', {
        body: { title: 'x', requiredForRoleIds: [eng, 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] },
      }),
      422,
      'validation_failed',
    );
    expect(badRole.details[0].field).toBe('requiredForRoleIds[1]');
    const badFramework = expectEnvelope(
      await t.call('POST', '/v1/training-records/modules', {
        body: { title: 'x', requiredForRoleIds: [], frameworkRefs: [{ framework: 'no-such-law', reference: 'Art. 1' }] },
      }),
      422,
      'validation_failed',
    );
    expect(badFramework.details[0].field).toBe('frameworkRefs[0].framework');
    expectEnvelope(
      await t.call('POST', '/v1/training-records/modules', { body: { title: 'x', requiredForRoleIds: [], validityDays: 0 } }),
      422,
      'validation_failed',
    );
  });
});

describe('training_records: completion records', () => {
  it('records completions with their expiry, refusing unknown people and modules (422 naming the field)', async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const u = await person(t, 'Ines Duarte');
    const m = await trainingModule(t, 'AI literacy basics', [], { validityDays: 30 });
    const forever = await trainingModule(t, 'Code of conduct', []);

    const r = await complete(t, m.id, u, { completedAt: '2026-01-10T09:00:00.000Z', score: 88 });
    expect(r).toMatchObject({
      object: 'svc.training_records.record',
      moduleId: m.id,
      userId: u,
      completedAt: '2026-01-10T09:00:00.000Z',
      expiresAt: '2026-02-09T09:00:00.000Z',
      expired: true,
      score: 88,
    });
    expect(r.id).toMatch(/^trc_/);
    expect(r.certificateId).toMatch(/^tcf_/);
    const now = await complete(t, forever.id, u);
    expect(now).toMatchObject({ expiresAt: null, expired: false, score: null });
    expect(Math.abs(Date.parse(now.completedAt) - Date.now())).toBeLessThan(60_000);

    const unknownModule = expectEnvelope(
      await t.call('POST', '/v1/training-records/records', { body: { moduleId: 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R', userId: u } }),
      422,
      'validation_failed',
    );
    expect(unknownModule.details[0].field).toBe('moduleId');
    const unknownPerson = expectEnvelope(
      await t.call('POST', '/v1/training-records/records', { body: { moduleId: m.id, userId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } }),
      422,
      'validation_failed',
    );
    expect(unknownPerson.details[0].field).toBe('userId');
    // Another tenant's module and person are unknown here.
    const theirs = expectEnvelope(
      await other.call('POST', '/v1/training-records/records', { body: { moduleId: m.id, userId: u } }),
      422,
      'validation_failed',
    );
    expect(theirs.details[0].field).toBe('moduleId');
    const future = expectEnvelope(
      await t.call('POST', '/v1/training-records/records', {
        body: { moduleId: m.id, userId: u, completedAt: '2099-01-01T00:00:00.000Z' },
      }),
      422,
      'validation_failed',
    );
    expect(future.details[0].field).toBe('completedAt');
    expectEnvelope(
      await t.call('POST', '/v1/training-records/records', { body: { moduleId: m.id, userId: u, score: 101 } }),
      422,
      'validation_failed',
    );

    expect((await collectPages<Json>(t, `/v1/training-records/records?moduleId=${m.id}`)).map((x) => x.id)).toEqual([r.id]);
    expect((await collectPages<Json>(t, `/v1/training-records/records?userId=${u}`)).map((x) => x.id)).toEqual([now.id, r.id]);
    expect(await collectPages<Json>(other, '/v1/training-records/records')).toEqual([]);

    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 10 } });
    expect(audit.body.data.map((e: Json) => e.action)).toEqual(['training.completed']);
  });
});

describe('training_records: coverage', () => {
  it('computes the share of each role trained and the overdue list, and follows the data', async () => {
    const t = await createTenant(ts);
    const eng = await role(t, 'ML engineer');
    const legal = await role(t, 'Legal counsel');
    await role(t, 'Facilities');
    const ana = await person(t, 'Ana Engineer', [eng]);
    const ben = await person(t, 'Ben Engineer', [eng, legal]);
    const cleo = await person(t, 'Cleo Counsel', [legal]);
    await person(t, 'Dan Nobody');
    const literacy = await trainingModule(t, 'AI literacy basics', [eng, legal], {
      validityDays: 365,
      frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
    });
    const mlops = await trainingModule(t, 'Secure ML operations', [eng]);

    const c0 = (await t.call('GET', '/v1/training-records/coverage')).body;
    expect(c0).toMatchObject({ object: 'svc.training_records.coverage', people: 3, trained: 0, share: 0, framework: null });
    expect(c0.roles.map((r: Json) => [r.name, r.people, r.trained, r.share])).toEqual([
      ['Legal counsel', 2, 0, 0],
      ['ML engineer', 2, 0, 0],
    ]);
    expect(c0.roles.find((r: Json) => r.roleId === eng).requiredModuleIds.sort()).toEqual([literacy.id, mlops.id].sort());
    expect(c0.overdue.length).toBe(5);
    expect(c0.overdue.find((o: Json) => o.userId === ben && o.moduleId === literacy.id)).toMatchObject({
      reason: 'never_completed',
      expiredAt: null,
      roleIds: [eng, legal],
    });

    // Completions move the answer.
    await complete(t, literacy.id, ana);
    await complete(t, mlops.id, ana);
    await complete(t, literacy.id, cleo);
    const c1 = (await t.call('GET', '/v1/training-records/coverage')).body;
    expect(c1).toMatchObject({ people: 3, trained: 2, share: 0.6667 });
    expect(c1.roles.map((r: Json) => [r.name, r.trained, r.share])).toEqual([
      ['Legal counsel', 1, 0.5],
      ['ML engineer', 1, 0.5],
    ]);
    expect(c1.overdue.map((o: Json) => [o.userId, o.moduleTitle])).toEqual([
      [ben, 'AI literacy basics'],
      [ben, 'Secure ML operations'],
    ]);

    // An expired completion is overdue as `expired`; `at` before its expiry counts it.
    const old = await complete(t, literacy.id, ben, { completedAt: daysAgo(400) });
    await complete(t, mlops.id, ben);
    const c2 = (await t.call('GET', '/v1/training-records/coverage')).body;
    expect(c2.overdue).toEqual([
      {
        userId: ben,
        name: 'Ben Engineer',
        moduleId: literacy.id,
        moduleTitle: 'AI literacy basics',
        roleIds: [eng, legal],
        reason: 'expired',
        expiredAt: old.expiresAt,
      },
    ]);
    const then = (await t.call('GET', `/v1/training-records/coverage?at=${encodeURIComponent(daysAgo(100))}`)).body;
    // 100 days ago Ben's old completion was valid, Ana's and Cleo's (today) did not exist yet, Ben's ML ops neither.
    expect(then.overdue.map((o: Json) => [o.userId, o.moduleId])).toEqual([
      [ana, literacy.id],
      [ana, mlops.id],
      [ben, mlops.id],
      [cleo, literacy.id],
    ]);

    // Filters: one role; modules of one framework; an inactive person drops out.
    const onlyLegal = (await t.call('GET', `/v1/training-records/coverage?roleId=${legal}`)).body;
    expect(onlyLegal).toMatchObject({ people: 2, trained: 1 });
    expect(onlyLegal.roles.map((r: Json) => r.roleId)).toEqual([legal]);
    const aiAct = (await t.call('GET', '/v1/training-records/coverage?framework=eu-ai-act')).body;
    expect(aiAct.roles.find((r: Json) => r.roleId === eng).requiredModuleIds).toEqual([literacy.id]);
    expect(aiAct).toMatchObject({ framework: 'eu-ai-act', people: 3, trained: 2 });
    await t.call('POST', `/v1/stakeholders/users/${ben}/deactivate`, { body: {} });
    const c3 = (await t.call('GET', '/v1/training-records/coverage')).body;
    expect(c3).toMatchObject({ people: 2, trained: 2, share: 1, overdue: [] });

    expectEnvelope(await t.call('GET', '/v1/training-records/coverage?roleId=rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/training-records/coverage?at=yesterday'), 422, 'validation_failed');
  });
});

describe('training_records: certificates', () => {
  it('issues one signed certificate per completion, verifiable without a token; tampering fails', async () => {
    const t = await createTenant(ts);
    const u = await person(t, 'Ines Duarte');
    const m = await trainingModule(t, 'AI literacy basics', [], { validityDays: 365 });
    const r1 = await complete(t, m.id, u, { score: 92 });
    const r2 = await complete(t, m.id, u, { completedAt: daysAgo(10) });

    const certs = await collectPages<Json>(t, '/v1/training-records/certificates');
    expect(certs.map((c) => c.recordId)).toEqual([r2.id, r1.id]);
    const cert = (await collectPages<Json>(t, `/v1/training-records/certificates?recordId=${r1.id}`))[0] as Json;
    expect(cert).toMatchObject({
      object: 'svc.training_records.certificate',
      id: r1.certificateId,
      moduleTitle: 'AI literacy basics',
      userName: 'Ines Duarte',
      score: 92,
      expiresAt: r1.expiresAt,
    });
    expect(cert.verificationCode).toMatch(/^[0-9a-f]{64}$/);
    expect((certs[0] as Json).verificationCode).not.toBe(cert.verificationCode);
    const keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data.map((k: Json) => k.keyId);
    expect(keys).toContain(cert.keyId);

    // Anyone may verify, without a token.
    const ok = await call(ts.url, 'GET', cert.verifyPath);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, reason: 'intact', certificate: { id: cert.id, userName: 'Ines Duarte', expired: false } });

    // A tampered code is unknown.
    const flipped = `${cert.verificationCode.slice(0, -1)}${cert.verificationCode.endsWith('0') ? '1' : '0'}`;
    const bad = await call(ts.url, 'GET', `/v1/training-records/certificates/verify?code=${flipped}`);
    expect(bad.body).toMatchObject({ valid: false, reason: 'unknown_code', certificate: null });
    expectEnvelope(await call(ts.url, 'GET', '/v1/training-records/certificates/verify?code=xyz'), 422, 'validation_failed');

    // A record altered in the database no longer matches its code; a forged signature fails.
    const { prisma } = ts.server.db;
    await prisma.trainingRecord.update({ where: { id: r1.id }, data: { score: 100 } });
    expect((await call(ts.url, 'GET', cert.verifyPath)).body).toMatchObject({ valid: false, reason: 'record_altered' });
    await prisma.trainingRecord.update({ where: { id: r1.id }, data: { score: 92 } });
    expect((await call(ts.url, 'GET', cert.verifyPath)).body).toMatchObject({ valid: true });
    const other = certs[0] as Json;
    await prisma.trainingRecord.update({ where: { id: r2.id }, data: { certificateSignature: cert.signature } });
    expect((await call(ts.url, 'GET', other.verifyPath)).body).toMatchObject({ valid: false, reason: 'bad_signature' });
  });
});

describe('training_records: webhook events and idempotency', () => {
  it('emits the completion and the certificate as registered events; a replayed completion records nothing new', async () => {
    const t = await createTenant(ts);
    expect(
      (await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/svc', eventTypes: ['training.*'] } }))
        .status,
    ).toBe(201);
    const u = await person(t, 'Ines Duarte');
    const m = await trainingModule(t, 'AI literacy basics', []);
    const body = { moduleId: m.id, userId: u };
    const first = await t.call('POST', '/v1/training-records/records', { body, headers: { 'idempotency-key': 'done-once' } });
    const again = await t.call('POST', '/v1/training-records/records', { body, headers: { 'idempotency-key': 'done-once' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await collectPages<Json>(t, '/v1/training-records/records')).length).toBe(1);
    const rows = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.type)).toEqual(['training.module_created', 'training.completed', 'training.certificate_issued']);
    for (const row of rows) {
      expect(getWebhookEventType(row.type)?.data.safeParse(row.data).success, row.type).toBe(true);
    }
    expect(rows[2]?.data).toMatchObject({ certificateId: first.body.certificateId, principal: u, moduleId: m.id });
  });
});
