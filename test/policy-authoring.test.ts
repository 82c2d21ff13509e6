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

const TEXT_V1 = 'Purpose\nEvery high-risk AI system has a risk management system.\nRisks are reviewed every quarter.\nOwner: CISO';

async function person(t: TenantFixture, name: string, roleIds: string[] = []): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await t.call('POST', '/v1/stakeholders/users', { body: { name, email, roleIds } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function role(t: TenantFixture, name: string): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/roles', { body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function chain(t: TenantFixture, approverIds: string[]): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Policy approval', approverIds } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function draft(t: TenantFixture, controlIds: string[] = ['AIA-RMS-01'], text = TEXT_V1): Promise<Json> {
  const res = await t.call('POST', '/v1/policies/draft', { body: { title: 'AI risk management policy', controlIds, text } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Drafts a policy and walks a one-step chain to publish it. */
async function published(t: TenantFixture, approver: string, controlIds: string[] = ['AIA-RMS-01']): Promise<Json> {
  const p = await draft(t, controlIds);
  const c = await chain(t, [approver]);
  expect((await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: c } })).status).toBe(201);
  const ok = await decideAs(t, approver, 'approve', { policyId: p.id, approverId: approver });
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  return (await t.call('GET', `/v1/policies/draft/${p.id}`)).body;
}

/** The API key each person acts with: a policy step is decided as the person the key is bound to. */
const personKeys = new Map<string, Promise<string>>();
function keyOf(t: TenantFixture, personId: string): Promise<string> {
  if (!personKeys.has(personId)) personKeys.set(personId, t.personKey(personId));
  return personKeys.get(personId) as Promise<string>;
}

/** A decision on the current step, made with the key of `personId`. */
async function decideAs(t: TenantFixture, personId: string, verb: 'approve' | 'reject', body: Json) {
  return call(ts.url, 'POST', `/v1/policies/publish/${verb}`, { token: await keyOf(t, personId), body });
}

/** An attestation made with the key of `personId`: a person attests only for themselves. */
async function attestAs(t: TenantFixture, personId: string, body: Json) {
  return call(ts.url, 'POST', '/v1/policies/attest', { token: await keyOf(t, personId), body });
}

async function auditActions(t: TenantFixture, resourceId: string): Promise<string[]> {
  const res = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 200 } });
  expect(res.status).toBe(200);
  return res.body.data.map((e: Json) => e.action).reverse();
}

describe('policy_authoring: tier gate and tenancy', () => {
  it('is closed to a starter tenant (403 naming the tier) and open from growth', async () => {
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    const refused = expectEnvelope(await starter.call('GET', '/v1/policies/draft'), 403, 'forbidden');
    expect(refused.details).toEqual([{ field: 'tier', issue: 'growth' }]);
    expectEnvelope(
      await starter.call('POST', '/v1/policies/draft', { body: { title: 'x', controlIds: ['AIA-RMS-01'], text: 'x' } }),
      403,
      'forbidden',
    );
    expectEnvelope(await starter.call('GET', '/v1/policies/gap-fill'), 403, 'forbidden');
    const growth = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
    expect((await growth.call('GET', '/v1/policies/draft')).status).toBe(200);
    expect((await growth.call('POST', '/v1/policies/draft', { body: { title: 'x', controlIds: ['AIA-RMS-01'], text: 'x' } })).status).toBe(
      201,
    );
  });

  it("another tenant's policy is 404 on every route that names it", async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const p = await draft(t);
    expectEnvelope(await other.call('GET', `/v1/policies/draft/${p.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/policies/version/${p.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/policies/version/${p.id}/1`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/policies/version/${p.id}/diff`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/policies/attest/${p.id}/coverage`), 404, 'not_found');
    expectEnvelope(await other.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: 'new' } }), 404, 'not_found');
    expectEnvelope(await other.call('POST', '/v1/policies/retire', { body: { policyId: p.id } }), 404, 'not_found');
    expect((await collectPages<Json>(other, '/v1/policies/draft')).map((x) => x.id)).not.toContain(p.id);
  });
});

describe('policy_authoring: drafts', () => {
  it('drafts a policy with version 1, lists and filters it, and audits the creation', async () => {
    const t = await createTenant(ts);
    const owner = await person(t, 'Ines Duarte');
    const res = await t.call('POST', '/v1/policies/draft', {
      body: { title: 'Data governance policy', controlIds: ['AIA-DAT-01', 'AIA-DAT-02'], text: 'Line one\nLine two', ownerId: owner },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'svc.policy_authoring.policy',
      status: 'draft',
      currentVersion: 1,
      publishedVersion: null,
      controlIds: ['AIA-DAT-01', 'AIA-DAT-02'],
      ownerId: owner,
    });
    expect(res.body.id).toMatch(/^pol_[0-9A-HJKMNP-TV-Z]{26}$/);
    const other = await draft(t, ['AIA-RMS-01']);
    expect((await t.call('GET', `/v1/policies/draft/${res.body.id}`)).body).toEqual(res.body);

    const byControl = await collectPages<Json>(t, '/v1/policies/draft?controlId=AIA-DAT-02');
    expect(byControl.map((p) => p.id)).toEqual([res.body.id]);
    const all = await collectPages<Json>(t, '/v1/policies/draft');
    expect(all.map((p) => p.id)).toEqual([other.id, res.body.id]);
    expect(await collectPages<Json>(t, '/v1/policies/draft?status=published')).toEqual([]);

    const v1 = await t.call('GET', `/v1/policies/version/${res.body.id}/1`);
    expect(v1.body).toMatchObject({ number: 1, text: 'Line one\nLine two', lines: 2, note: null });
    expect(v1.body.id).toMatch(/^pvr_/);
    expect(await auditActions(t, res.body.id)).toEqual(['policy.drafted']);
  });

  it('writes version 1 with the policy, at its clock, once even when the create is replayed', async () => {
    const t = await createTenant(ts);
    const body = { title: 'Model change policy', controlIds: ['AIA-RMS-01'], text: 'Line one' };
    const headers = { 'Idempotency-Key': `draft-${Date.now()}` };
    const first = await t.call('POST', '/v1/policies/draft', { body, headers });
    expect(first.status).toBe(201);
    const again = await t.call('POST', '/v1/policies/draft', { body, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await collectPages<Json>(t, '/v1/policies/draft')).map((p) => p.id)).toEqual([first.body.id]);
    const versions = await collectPages<Json>(t, `/v1/policies/version/${first.body.id}`);
    expect(versions.map((v) => [v.number, v.createdAt])).toEqual([[1, first.body.createdAt]]);
    expect(await auditActions(t, first.body.id)).toEqual(['policy.drafted']);
  });

  it('refuses unknown or repeated controls and an unknown owner with a 422 naming the field', async () => {
    const t = await createTenant(ts);
    const unknown = expectEnvelope(
      await t.call('POST', '/v1/policies/draft', { body: { title: 'x', controlIds: ['AIA-RMS-01', 'NOPE-01'], text: 'x' } }),
      422,
      'validation_failed',
    );
    expect(unknown.details[0].field).toBe('controlIds[1]');
    expect(unknown.message).toContain('NOPE-01');
    const twice = expectEnvelope(
      await t.call('POST', '/v1/policies/draft', { body: { title: 'x', controlIds: ['AIA-RMS-01', 'AIA-RMS-01'], text: 'x' } }),
      422,
      'validation_failed',
    );
    expect(twice.details[0].field).toBe('controlIds[1]');
    const owner = expectEnvelope(
      await t.call('POST', '/v1/policies/draft', {
        body: { title: 'x', controlIds: ['AIA-RMS-01'], text: 'x', ownerId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
      }),
      422,
      'validation_failed',
    );
    expect(owner.details[0].field).toBe('ownerId');
    const missing = expectEnvelope(
      await t.call('POST', '/v1/policies/draft', { body: { title: 'x', text: 'x' } }),
      422,
      'validation_failed',
    );
    expect(JSON.stringify(missing.details)).toContain('controlIds');
    expect(await collectPages<Json>(t, '/v1/policies/draft')).toEqual([]);
  });
});

describe('policy_authoring: versions and diffs', () => {
  it('adds immutable versions and diffs any two of them line by line', async () => {
    const t = await createTenant(ts);
    const p = await draft(t);
    const v2 = await t.call('POST', '/v1/policies/version', {
      body: { policyId: p.id, text: TEXT_V1.replace('every quarter', 'every month'), note: 'Monthly reviews' },
    });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ object: 'svc.policy_authoring.policy_version', number: 2, note: 'Monthly reviews', lines: 4 });
    expect((await t.call('GET', `/v1/policies/draft/${p.id}`)).body).toMatchObject({ currentVersion: 2, status: 'draft' });

    const d12 = await t.call('GET', `/v1/policies/version/${p.id}/diff`);
    expect(d12.status).toBe(200);
    expect(d12.body).toMatchObject({ from: 1, to: 2, stats: { added: 1, removed: 1, unchanged: 3 } });
    expect(d12.body.changes).toEqual([
      { op: 'remove', fromLine: 3, toLine: null, text: 'Risks are reviewed every quarter.' },
      { op: 'add', fromLine: null, toLine: 3, text: 'Risks are reviewed every month.' },
    ]);

    // A third version that inserts two lines and drops one: the diff follows the data.
    const v3text =
      'Purpose\nScope: every AI system\nEvery high-risk AI system has a risk management system.\nRisks are reviewed every month.\nExceptions need CISO approval';
    expect((await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: v3text } })).status).toBe(201);
    const d13 = (await t.call('GET', `/v1/policies/version/${p.id}/diff?from=1&to=3`)).body;
    expect(d13.stats).toEqual({ added: 3, removed: 2, unchanged: 2 });
    expect(d13.changes.filter((c: Json) => c.op === 'add').map((c: Json) => c.text)).toEqual([
      'Scope: every AI system',
      'Risks are reviewed every month.',
      'Exceptions need CISO approval',
    ]);
    const d23 = (await t.call('GET', `/v1/policies/version/${p.id}/diff?from=2&to=3`)).body;
    expect(d23.stats).toEqual({ added: 2, removed: 1, unchanged: 3 });
    const back = (await t.call('GET', `/v1/policies/version/${p.id}/diff?from=3&to=1`)).body;
    expect(back.stats).toEqual({ added: 2, removed: 3, unchanged: 2 });
    const same = (await t.call('GET', `/v1/policies/version/${p.id}/diff?from=2&to=2`)).body;
    expect(same).toMatchObject({ stats: { added: 0, removed: 0, unchanged: 4 }, changes: [] });

    const versions = await collectPages<Json>(t, `/v1/policies/version/${p.id}`);
    expect(versions.map((v) => v.number)).toEqual([3, 2, 1]);
    // Immutable: version 1 still reads as written.
    expect((await t.call('GET', `/v1/policies/version/${p.id}/1`)).body.text).toBe(TEXT_V1);
    expectEnvelope(await t.call('GET', `/v1/policies/version/${p.id}/4`), 404, 'not_found');
    expectEnvelope(await t.call('GET', `/v1/policies/version/${p.id}/diff?from=1&to=9`), 404, 'not_found');
    expectEnvelope(await t.call('GET', `/v1/policies/version/${p.id}/diff?from=0`), 422, 'validation_failed');
  });

  it('refuses a version that changes nothing, and one while in approval or retired (409 naming the state)', async () => {
    const t = await createTenant(ts);
    const approver = await person(t, 'Ana Approver');
    const p = await draft(t);
    const same = expectEnvelope(
      await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: TEXT_V1 } }),
      422,
      'validation_failed',
    );
    expect(same.details[0].field).toBe('text');
    await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: await chain(t, [approver]) } });
    const busy = expectEnvelope(
      await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: 'changed' } }),
      409,
      'conflict',
    );
    expect(busy.message).toContain('in_approval');
    expect((await collectPages<Json>(t, `/v1/policies/version/${p.id}`)).length).toBe(1);
  });
});

describe('policy_authoring: publishing through the approval chain', () => {
  it('walks the chain in order: wrong approver 409, rejection returns to draft, last approval publishes', async () => {
    const t = await createTenant(ts);
    const [a, b] = [await person(t, 'Ana Approver'), await person(t, 'Ben Approver')];
    const c = await chain(t, [a as string, b as string]);
    const p = await draft(t);

    const start = await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: c } });
    expect(start.status).toBe(201);
    expect(start.body).toMatchObject({
      object: 'svc.policy_authoring.publication',
      status: 'pending',
      version: 1,
      currentStep: 1,
      awaitingApproverId: a,
      approverIds: [a, b],
      decisions: [],
    });
    expect(start.body.id).toMatch(/^ppa_/);
    expect((await t.call('GET', `/v1/policies/draft/${p.id}`)).body.status).toBe('in_approval');
    expect(
      expectEnvelope(await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: c } }), 409, 'conflict').message,
    ).toContain('in_approval');

    // Out of order: the second approver may not decide step 1.
    const early = expectEnvelope(await decideAs(t, b, 'approve', { policyId: p.id, approverId: b }), 409, 'conflict');
    expect(early.message).toContain(a);
    // The person deciding comes from the key, never from the body: the tenant's own key is a
    // service key bound to no one, and b's key cannot decide in a's name.
    const unbound = expectEnvelope(
      await t.call('POST', '/v1/policies/publish/approve', { body: { policyId: p.id, approverId: a } }),
      403,
      'forbidden',
    );
    expect(unbound.details).toEqual([expect.objectContaining({ field: 'authorization', issue: 'service_key' })]);
    const impersonated = expectEnvelope(await decideAs(t, b, 'approve', { policyId: p.id, approverId: a }), 403, 'forbidden');
    expect(impersonated.details).toEqual([expect.objectContaining({ field: 'approverId', issue: 'not_acting_person' })]);
    const s1 = await decideAs(t, a, 'approve', { policyId: p.id, approverId: a, comment: 'Fine by me' });
    expect(s1.status).toBe(200);
    expect(s1.body).toMatchObject({ status: 'pending', currentStep: 2, awaitingApproverId: b });
    expect(s1.body.decisions).toEqual([{ step: 1, approverId: a, decision: 'approve', comment: 'Fine by me', at: expect.any(String) }]);
    const trail = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: start.body.id, limit: 10 } });
    const approval = trail.body.data.find((e: Json) => e.action === 'policy.approved');
    expect(approval.actor).toBe(a);
    expect(approval.data.credentialId).toMatch(/^key_/);
    expect((await t.call('GET', `/v1/policies/draft/${p.id}`)).body.status).toBe('in_approval');

    const rejected = await decideAs(t, b, 'reject', { policyId: p.id, approverId: b, comment: 'Needs an owner' });
    expect(rejected.body).toMatchObject({ status: 'rejected', currentStep: null, awaitingApproverId: null });
    expect((await t.call('GET', `/v1/policies/draft/${p.id}`)).body).toMatchObject({ status: 'draft', publishedVersion: null });
    expect(expectEnvelope(await decideAs(t, b, 'approve', { policyId: p.id, approverId: b }), 409, 'conflict').message).toContain('draft');

    // Revise, resubmit, approve both steps: the version under approval is published.
    await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: `${TEXT_V1}\nOwner: Ana Approver` } });
    const again = await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: c } });
    expect(again.body.version).toBe(2);
    await decideAs(t, a, 'approve', { policyId: p.id });
    const last = await decideAs(t, b, 'approve', { policyId: p.id, approverId: b });
    expect(last.body).toMatchObject({ status: 'approved', currentStep: null });
    const after = (await t.call('GET', `/v1/policies/draft/${p.id}`)).body;
    expect(after).toMatchObject({ status: 'published', publishedVersion: 2, currentVersion: 2 });
    expect(after.publishedAt).toEqual(expect.any(String));

    const walks = await collectPages<Json>(t, `/v1/policies/publish?policyId=${p.id}`);
    expect(walks.map((w) => w.status)).toEqual(['approved', 'rejected']);
    expect((await collectPages<Json>(t, '/v1/policies/publish?status=rejected')).map((w) => w.id)).toEqual([start.body.id]);
    expect(await auditActions(t, p.id)).toEqual(['policy.drafted', 'policy.published']);
    expect(await auditActions(t, again.body.id)).toEqual(['policy.submitted', 'policy.approved', 'policy.approved']);
    expect(await auditActions(t, start.body.id)).toEqual(['policy.submitted', 'policy.approved', 'policy.rejected']);
  });

  it('refuses an unknown chain (422), and an approval by a key without the approve permission (403)', async () => {
    const t = await createTenant(ts);
    const a = await person(t, 'Ana Approver');
    const p = await draft(t);
    const bad = expectEnvelope(
      await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: 'apc_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } }),
      422,
      'validation_failed',
    );
    expect(bad.details[0].field).toBe('chainId');
    expect((await t.call('GET', `/v1/policies/draft/${p.id}`)).body.status).toBe('draft');
    await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: await chain(t, [a]) } });
    const editor = await t.key('editor');
    const denied = expectEnvelope(
      await call(ts.url, 'POST', '/v1/policies/publish/approve', { token: editor, body: { policyId: p.id, approverId: a } }),
      403,
      'forbidden',
    );
    expect(denied.details).toEqual([{ field: 'permission', issue: 'policy_authoring:approve' }]);
  });
});

describe('policy_authoring: attestations', () => {
  it('records one attestation per person per published version, with coverage that follows the data', async () => {
    const t = await createTenant(ts);
    const engineers = await role(t, 'ML engineer');
    const a = await person(t, 'Ana Approver');
    const b = await person(t, 'Ben Engineer', [engineers]);
    const c = await person(t, 'Cleo Engineer', [engineers]);

    const d = await draft(t);
    const notYet = expectEnvelope(await attestAs(t, b, { policyId: d.id, userId: b }), 409, 'conflict');
    expect(notYet.message).toContain('draft');
    const never = (await t.call('GET', `/v1/policies/attest/${d.id}/coverage`)).body;
    expect(never).toMatchObject({ version: null, people: 3, attested: 0, pending: 3, share: 0 });

    const p = await published(t, a);
    const before = (await t.call('GET', `/v1/policies/attest/${p.id}/coverage`)).body;
    expect(before).toMatchObject({ object: 'svc.policy_authoring.attestation_coverage', version: 1, people: 3, attested: 0, pending: 3 });

    const first = await attestAs(t, b, { policyId: p.id, userId: b });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'svc.policy_authoring.attestation', version: 1, userId: b });
    expect(first.body.id).toMatch(/^pat_/);
    expectEnvelope(await attestAs(t, b, { policyId: p.id, userId: b }), 409, 'conflict');
    // Nobody attests in someone else's name: not the tenant's service key, not another person's key.
    const unbound = expectEnvelope(await t.call('POST', '/v1/policies/attest', { body: { policyId: p.id, userId: c } }), 403, 'forbidden');
    expect(unbound.details).toEqual([expect.objectContaining({ issue: 'service_key' })]);
    const forged = expectEnvelope(await attestAs(t, b, { policyId: p.id, userId: c }), 403, 'forbidden');
    expect(forged.details).toEqual([expect.objectContaining({ field: 'userId', issue: 'not_acting_person' })]);

    const one = (await t.call('GET', `/v1/policies/attest/${p.id}/coverage`)).body;
    expect(one).toMatchObject({ people: 3, attested: 1, pending: 2, share: 0.3333 });
    expect(one.attestedPeople.map((x: Json) => x.userId)).toEqual([b]);
    expect(one.pendingPeople.map((x: Json) => x.userId)).toEqual([a, c]);
    const ofRole = (await t.call('GET', `/v1/policies/attest/${p.id}/coverage?roleIds=${engineers}`)).body;
    expect(ofRole).toMatchObject({ roleIds: [engineers], people: 2, attested: 1, pending: 1, share: 0.5 });

    // An inactive person leaves coverage and may not attest.
    await keyOf(t, c); // bound while c is active
    await t.call('POST', `/v1/stakeholders/users/${c}/deactivate`, { body: {} });
    const inactive = expectEnvelope(await attestAs(t, c, { policyId: p.id, userId: c }), 422, 'validation_failed');
    expect(inactive.details[0].field).toBe('userId');
    expect((await t.call('GET', `/v1/policies/attest/${p.id}/coverage?roleIds=${engineers}`)).body).toMatchObject({
      people: 1,
      attested: 1,
      share: 1,
    });

    // A new version opens a draft revision (no attestations), and its publication starts coverage afresh.
    await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: 'Revised text' } });
    expect((await t.call('GET', `/v1/policies/draft/${p.id}`)).body).toMatchObject({
      status: 'draft',
      currentVersion: 2,
      publishedVersion: 1,
    });
    expectEnvelope(await attestAs(t, a, { policyId: p.id, userId: a }), 409, 'conflict');
    const cid = await chain(t, [a]);
    await t.call('POST', '/v1/policies/publish', { body: { policyId: p.id, chainId: cid } });
    await decideAs(t, a, 'approve', { policyId: p.id, approverId: a });
    const reset = (await t.call('GET', `/v1/policies/attest/${p.id}/coverage`)).body;
    expect(reset).toMatchObject({ version: 2, people: 2, attested: 0, pending: 2 });
    expect((await attestAs(t, b, { policyId: p.id, userId: b })).body.version).toBe(2);
    const listed = await collectPages<Json>(t, `/v1/policies/attest?policyId=${p.id}&userId=${b}`);
    expect(listed.map((x) => x.version)).toEqual([2, 1]);
  });
});

describe('policy_authoring: retire', () => {
  it('retires only a published policy (409 naming the state otherwise)', async () => {
    const t = await createTenant(ts);
    const a = await person(t, 'Ana Approver');
    const d = await draft(t);
    const refused = expectEnvelope(await t.call('POST', '/v1/policies/retire', { body: { policyId: d.id } }), 409, 'conflict');
    expect(refused.message).toContain('draft');
    expect((await t.call('GET', `/v1/policies/draft/${d.id}`)).body.status).toBe('draft');

    const p = await published(t, a);
    const retired = await t.call('POST', '/v1/policies/retire', { body: { policyId: p.id, reason: 'Superseded' } });
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ status: 'retired', retiredAt: expect.any(String) });
    expect(expectEnvelope(await t.call('POST', '/v1/policies/retire', { body: { policyId: p.id } }), 409, 'conflict').message).toContain(
      'retired',
    );
    expectEnvelope(await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: 'Again' } }), 409, 'conflict');
    expectEnvelope(await attestAs(t, a, { policyId: p.id, userId: a }), 409, 'conflict');
    expect((await auditActions(t, p.id)).at(-1)).toBe('policy.retired');
  });
});

describe('policy_authoring: gap-fill', () => {
  it('lists the controls of activated frameworks no published policy covers, with outlines drawn from the dictionary', async () => {
    const t = await createTenant(ts);
    const none = (await t.call('GET', '/v1/policies/gap-fill')).body;
    expect(none).toMatchObject({ object: 'svc.policy_authoring.gap_fill', frameworks: [], data: [], cursor: null });

    expect([200, 201]).toContain((await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} })).status);
    const controls = await collectPages<Json>(t, '/v1/frameworks/eu-ai-act/controls');
    const all = (await t.call('GET', '/v1/policies/gap-fill?limit=200')).body;
    expect(all.frameworks).toEqual([
      expect.objectContaining({ framework: 'eu-ai-act', controls: controls.length, covered: 0, gaps: controls.length }),
    ]);
    expect(all.data.map((g: Json) => g.controlId)).toEqual(controls.map((c) => c.id));

    const rms = all.data.find((g: Json) => g.controlId === 'AIA-RMS-01');
    const rmsControl = controls.find((c) => c.id === 'AIA-RMS-01') as Json;
    expect(rms.outline.title).toBe(`${rmsControl.title} policy`);
    expect(rms.outline.purpose).toBe(rmsControl.description);
    expect(rms.outline.clauses.map((c: Json) => c.ref)).toEqual(rmsControl.clauseRefs);
    expect(rms.outline.clauses[0].summary.length).toBeGreaterThan(20);
    expect(rms.outline.sections.map((s: Json) => s.heading)).toEqual(
      expect.arrayContaining(['Purpose', 'Scope', 'Roles and responsibilities', 'Evidence', 'Review']),
    );
    const other = all.data.find((g: Json) => g.controlId === 'AIA-CLS-01');
    expect(other.outline.purpose).not.toBe(rms.outline.purpose);
    expect(other.outline.sections).not.toEqual(rms.outline.sections);

    // A draft does not cover; a published policy does; a retired one no longer does.
    const a = await person(t, 'Ana Approver');
    await draft(t, ['AIA-RMS-01']);
    expect((await t.call('GET', '/v1/policies/gap-fill?limit=1')).body.frameworks[0].covered).toBe(0);
    const p = await published(t, a, ['AIA-RMS-01', 'AIA-RMS-02']);
    const covered = await collectPages<Json>(t, '/v1/policies/gap-fill');
    expect(covered.length).toBe(controls.length - 2);
    expect(covered.map((g) => g.controlId)).not.toContain('AIA-RMS-01');
    expect((await t.call('GET', '/v1/policies/gap-fill?limit=1')).body.frameworks[0]).toMatchObject({
      covered: 2,
      gaps: controls.length - 2,
    });

    // The cursor walk returns every gap once.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = (await t.call('GET', `/v1/policies/gap-fill?limit=7${cursor ? `&cursor=${cursor}` : ''}`)).body;
      walked.push(...page.data.map((g: Json) => g.controlId));
      cursor = page.cursor;
    } while (cursor);
    expect(walked).toEqual(covered.map((g) => g.controlId));

    await t.call('POST', '/v1/policies/retire', { body: { policyId: p.id } });
    expect((await collectPages<Json>(t, '/v1/policies/gap-fill')).length).toBe(controls.length);
    expect((await t.call('GET', '/v1/policies/gap-fill?framework=gdpr')).body.frameworks).toEqual([]);
    expectEnvelope(await t.call('GET', '/v1/policies/gap-fill?cursor=bogus'), 400, 'bad_request');
  });
});

describe('policy_authoring: idempotency and webhook events', () => {
  it('replays a draft under the same Idempotency-Key without creating a second policy', async () => {
    const t = await createTenant(ts);
    const body = { title: 'AI risk management policy', controlIds: ['AIA-RMS-01'], text: TEXT_V1 };
    const first = await t.call('POST', '/v1/policies/draft', { body, headers: { 'idempotency-key': 'draft-once' } });
    const again = await t.call('POST', '/v1/policies/draft', { body, headers: { 'idempotency-key': 'draft-once' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await collectPages<Json>(t, '/v1/policies/draft')).length).toBe(1);
  });

  it('emits each change as a registered webhook event whose data validates', async () => {
    const t = await createTenant(ts);
    expect(
      (await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/svc', eventTypes: ['policy.*'] } }))
        .status,
    ).toBe(201);
    const a = await person(t, 'Ana Approver');
    const p = await published(t, a);
    await attestAs(t, a, { policyId: p.id, userId: a });
    await t.call('POST', '/v1/policies/version', { body: { policyId: p.id, text: 'Second text' } });
    const rows = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.type)).toEqual([
      'policy.drafted',
      'policy.submitted',
      'policy.approved',
      'policy.published',
      'policy.attested',
      'policy.version_added',
    ]);
    for (const row of rows) {
      expect(getWebhookEventType(row.type)?.data.safeParse(row.data).success, row.type).toBe(true);
    }
    expect(rows.find((r) => r.type === 'policy.attested')?.data).toMatchObject({ id: p.id, principal: a, version: '1' });
  });
});
