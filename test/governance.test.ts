import { createHash } from 'node:crypto';
import { canonicalJson } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const tag = () => Math.random().toString(36).slice(2, 8);
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

async function person(t: TenantFixture, name: string, roleIds: string[] = []): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/users', {
    body: { name, email: `${name.toLowerCase()}.${tag()}@example.com`, roleIds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function role(t: TenantFixture, name: string): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/roles', { body: { name: `${name} ${tag()}` } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function chain(t: TenantFixture, approverIds: string[]): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Contracts', approverIds } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function open(t: TenantFixture, chainId: string, subject = 'Vendor contract: Acme') {
  const res = await t.call('POST', '/v1/governance/approvals', { body: { subject, chainId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Each person's own key (one per person): a step is taken with the credential of who acts. */
const personKeys = new Map<string, Promise<string>>();
const keyOf = (t: TenantFixture, personId: string): Promise<string> => {
  const k = `${t.tenantId}:${personId}`;
  if (!personKeys.has(k)) personKeys.set(k, t.personKey(personId));
  return personKeys.get(k) as Promise<string>;
};

const decide = async (t: TenantFixture, id: string, verb: 'approve' | 'reject', approverId: string, comment?: string) =>
  call(ts.url, 'POST', `/v1/governance/approvals/${id}/${verb}`, {
    token: await keyOf(t, approverId),
    body: { approverId, ...(comment ? { comment } : {}) },
  });

async function delegate(
  t: TenantFixture,
  fromPersonId: string,
  toPersonId: string,
  validFrom: string,
  validUntil: string,
  scope = 'approvals',
) {
  const res = await t.call('POST', '/v1/governance/delegations', { body: { fromPersonId, toPersonId, scope, validFrom, validUntil } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('governance: tier', () => {
  it('two decisions at once on one step: one is taken, the other finds the approval decided', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const a = await open(t, await chain(t, [ana]));
    const both = await Promise.all([decide(t, a.id, 'approve', ana), decide(t, a.id, 'reject', ana)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = expectEnvelope(both.find((r) => r.status === 409) as (typeof both)[number], 409, 'conflict');
    const taken = both.find((r) => r.status === 200) as (typeof both)[number];
    expect(refused.message).toContain(taken.body.status);
  });

  it('is closed to starter tenants (403) and open from growth', async () => {
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    const denied = await starter.call('GET', '/v1/governance/raci');
    expect(expectEnvelope(denied, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'growth' }]);
    expectEnvelope(await starter.call('POST', '/v1/governance/snapshot', { body: {} }), 403, 'forbidden');
    const growth = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
    expect((await growth.call('GET', '/v1/governance/raci')).status).toBe(200);
  });
});

describe('governance: approvals', () => {
  it('walks the chain step by step: only the current approver acts, the last step approves', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const bob = await person(t, 'Bob');
    const apc = await chain(t, [ana, bob]);
    const a = await open(t, apc);
    expect(a).toMatchObject({
      object: 'svc.governance.approval',
      status: 'pending',
      currentStep: 1,
      currentApproverId: ana,
      approverIds: [ana, bob],
      steps: [],
    });
    expect(a.id).toMatch(/^gap_/);

    // Bob is not step 1's approver.
    const early = await decide(t, a.id, 'approve', bob);
    expect(expectEnvelope(early, 403, 'forbidden').message).toContain(ana);
    const s1 = await decide(t, a.id, 'approve', ana, 'Terms reviewed.');
    expect(s1.status).toBe(200);
    expect(s1.body).toMatchObject({ status: 'pending', currentStep: 2, currentApproverId: bob });
    expect(s1.body.steps).toEqual([
      expect.objectContaining({
        step: 1,
        approverId: ana,
        actedBy: ana,
        decision: 'approved',
        comment: 'Terms reviewed.',
        delegationId: null,
      }),
    ]);
    // Ana cannot take Bob's step.
    expectEnvelope(await decide(t, a.id, 'approve', ana), 403, 'forbidden');
    const s2 = await decide(t, a.id, 'approve', bob);
    expect(s2.body).toMatchObject({ status: 'approved', currentStep: null, currentApproverId: null });
    expect(s2.body.steps).toHaveLength(2);
    // Closed: 409 naming the state, nothing changes.
    expect(expectEnvelope(await decide(t, a.id, 'approve', bob), 409, 'conflict').message).toContain('approved');
    expect(expectEnvelope(await decide(t, a.id, 'reject', bob), 409, 'conflict').message).toContain('approved');
    expect((await t.call('GET', `/v1/governance/approvals/${a.id}`)).body).toEqual(s2.body);

    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: a.id, limit: 50 } });
    expect(audit.body.data.map((e: { action: string }) => e.action).sort()).toEqual([
      'approval.approved',
      'approval.created',
      'approval.step_approved',
    ]);

    // A rejection at any step ends it.
    const b = await open(t, apc);
    const rejected = await decide(t, b.id, 'reject', ana, 'Too expensive.');
    expect(rejected.body).toMatchObject({ status: 'rejected', currentStep: null });
    expect(rejected.body.steps[0]).toMatchObject({ decision: 'rejected', comment: 'Too expensive.' });
    expect(expectEnvelope(await decide(t, b.id, 'approve', bob), 409, 'conflict').message).toContain('rejected');

    // Lists filter by status and chain.
    expect((await collectPages<{ id: string }>(t, '/v1/governance/approvals?status=rejected')).map((x) => x.id)).toEqual([b.id]);
    expect((await collectPages<{ id: string }>(t, `/v1/governance/approvals?chainId=${apc}`)).length).toBe(2);

    // Validation and tenancy.
    expect(
      expectEnvelope(
        await t.call('POST', '/v1/governance/approvals', { body: { subject: 'x', chainId: 'apc_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } }),
        422,
        'validation_failed',
      ).details[0].field,
    ).toBe('chainId');
    expectEnvelope(await t.call('POST', '/v1/governance/approvals', { body: { chainId: apc } }), 422, 'validation_failed');
    const unknown = await call(ts.url, 'POST', `/v1/governance/approvals/${(await open(t, apc)).id}/approve`, {
      token: await keyOf(t, ana),
      body: { approverId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('approverId');
    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/governance/approvals/${a.id}`), 404, 'not_found');
    const otherAna = await other.personKey(await person(other, 'Ana'));
    expectEnvelope(await call(ts.url, 'POST', `/v1/governance/approvals/${b.id}/approve`, { token: otherAna, body: {} }), 404, 'not_found');

    // A chain with an approver who has left cannot be walked.
    await t.call('POST', `/v1/stakeholders/users/${bob}/deactivate`, { body: {} });
    const stale = await t.call('POST', '/v1/governance/approvals', { body: { subject: 'x', chainId: apc } });
    expect(expectEnvelope(stale, 422, 'validation_failed').message).toContain(bob);
  });

  it('needs governance:approve to decide, and replays a decision sent with an Idempotency-Key', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const a = await open(t, await chain(t, [ana]));
    const editor = await t.key('editor');
    const denied = await t.call('POST', `/v1/governance/approvals/${a.id}/approve`, { token: editor, body: { approverId: ana } });
    expect(expectEnvelope(denied, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'governance:approve' }]);
    const headers = { 'idempotency-key': `gov-${tag()}` };
    const token = await keyOf(t, ana);
    const first = await call(ts.url, 'POST', `/v1/governance/approvals/${a.id}/approve`, { token, body: { approverId: ana }, headers });
    expect(first.body.status).toBe('approved');
    const again = await call(ts.url, 'POST', `/v1/governance/approvals/${a.id}/approve`, { token, body: { approverId: ana }, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

describe('governance: delegations', () => {
  it('lets a delegate in force act; an expired, revoked, future or out-of-scope delegation grants nothing', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const bob = await person(t, 'Bob');
    const cem = await person(t, 'Cem');
    const a = await open(t, await chain(t, [ana, bob]));
    await decide(t, a.id, 'approve', ana);

    const expired = await delegate(t, bob, cem, at(-48 * HOUR), at(-24 * HOUR));
    expect(expired).toMatchObject({ object: 'svc.governance.delegation', status: 'active', inForce: false });
    const future = await delegate(t, bob, cem, at(24 * HOUR), at(48 * HOUR));
    expect(future.inForce).toBe(false);
    const wrongScope = await delegate(t, bob, cem, at(-HOUR), at(HOUR), 'decisions');
    expect(wrongScope.inForce).toBe(true);
    const refused = await decide(t, a.id, 'approve', cem);
    expect(expectEnvelope(refused, 403, 'forbidden').message).toContain('delegation');

    const live = await delegate(t, bob, cem, at(-HOUR), at(HOUR));
    expect(live.inForce).toBe(true);
    const revoked = await t.call('POST', `/v1/governance/delegations/${live.id}/revoke`, { body: {} });
    expect(revoked.body).toMatchObject({ status: 'revoked', inForce: false });
    expectEnvelope(await decide(t, a.id, 'approve', cem), 403, 'forbidden');
    expect(
      expectEnvelope(await t.call('POST', `/v1/governance/delegations/${live.id}/revoke`, { body: {} }), 409, 'conflict').message,
    ).toContain('revoked');

    const all = await delegate(t, bob, cem, at(-HOUR), at(HOUR), 'all');
    const done = await decide(t, a.id, 'approve', cem, 'For Bob, on leave.');
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('approved');
    expect(done.body.steps[1]).toMatchObject({ step: 2, approverId: bob, actedBy: cem, delegationId: all.id });

    // Validation.
    const self = await t.call('POST', '/v1/governance/delegations', {
      body: { fromPersonId: bob, toPersonId: bob, scope: 'all', validFrom: at(0), validUntil: at(HOUR) },
    });
    expect(expectEnvelope(self, 422, 'validation_failed').details[0].field).toBe('toPersonId');
    const backwards = await t.call('POST', '/v1/governance/delegations', {
      body: { fromPersonId: bob, toPersonId: cem, scope: 'all', validFrom: at(HOUR), validUntil: at(0) },
    });
    expect(expectEnvelope(backwards, 422, 'validation_failed').details[0].field).toBe('validUntil');
    const unknown = await t.call('POST', '/v1/governance/delegations', {
      body: { fromPersonId: bob, toPersonId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R', scope: 'all', validFrom: at(0), validUntil: at(HOUR) },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('toPersonId');
    expect((await collectPages(t, `/v1/governance/delegations?fromPersonId=${bob}&status=active`)).length).toBe(4);
  });
});

describe('governance: conflicts of interest', () => {
  it('an open conflict of the approver on the subject refuses the approval until it is managed', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const a = await open(t, await chain(t, [ana]), 'Vendor contract: Acme');
    const coi = await t.call('POST', '/v1/governance/conflicts', {
      body: { personId: ana, subject: 'VENDOR CONTRACT: ACME', description: 'Spouse is a director.' },
    });
    expect(coi.status).toBe(201);
    expect(coi.body).toMatchObject({ object: 'svc.governance.conflict', status: 'open' });
    // A conflict on another subject does not matter.
    await t.call('POST', '/v1/governance/conflicts', { body: { personId: ana, subject: 'Something else' } });

    const refused = await decide(t, a.id, 'approve', ana);
    expect(expectEnvelope(refused, 409, 'conflict').message).toContain(coi.body.id);
    expect((await t.call('GET', `/v1/governance/approvals/${a.id}`)).body.status).toBe('pending');

    const managed = await t.call('POST', `/v1/governance/conflicts/${coi.body.id}/manage`, { body: {} });
    expect(managed.body.status).toBe('managed');
    expect(
      expectEnvelope(await t.call('POST', `/v1/governance/conflicts/${coi.body.id}/manage`, { body: {} }), 409, 'conflict').message,
    ).toContain('managed');
    expect((await decide(t, a.id, 'approve', ana)).body.status).toBe('approved');
    expect((await t.call('POST', `/v1/governance/conflicts/${coi.body.id}/close`, { body: {} })).body.status).toBe('closed');
    expectEnvelope(await t.call('POST', `/v1/governance/conflicts/${coi.body.id}/close`, { body: {} }), 409, 'conflict');
    expect(
      expectEnvelope(
        await t.call('POST', '/v1/governance/conflicts', { body: { personId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R', subject: 'x' } }),
        422,
        'validation_failed',
      ).details[0].field,
    ).toBe('personId');
    expect((await collectPages(t, `/v1/governance/conflicts?personId=${ana}&status=open`)).length).toBe(1);
  });
});

describe('governance: board meetings and decision rights', () => {
  it('scheduled -> held -> minutes approved, decisions only while held', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const m = await t.call('POST', '/v1/governance/board-meetings', {
      body: { title: 'Q4 board', scheduledFor: '2026-12-10T14:00:00.000Z', attendeeIds: [ana] },
    });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ object: 'svc.governance.board_meeting', status: 'scheduled', minutes: null, attendeeIds: [ana] });
    const id = m.body.id as string;
    const decision = {
      title: 'Approve the Acme contract',
      outcome: 'approved',
      decisionType: 'vendor_contract',
      votesFor: 5,
      votesAgainst: 1,
    };

    expect(
      expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/decisions`, { body: decision }), 409, 'conflict').message,
    ).toContain('scheduled');
    expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/minutes`, { body: { text: 'x' } }), 409, 'conflict');
    expect(
      expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/approve-minutes`, { body: {} }), 409, 'conflict').message,
    ).toContain('scheduled');

    expect((await t.call('POST', `/v1/governance/board-meetings/${id}/hold`, { body: {} })).body.status).toBe('held');
    expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/cancel`, { body: {} }), 409, 'conflict');
    // No minutes yet: approving them is refused.
    expect(
      expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/approve-minutes`, { body: {} }), 409, 'conflict').message,
    ).toContain('minutes');

    const minutes = await t.call('POST', `/v1/governance/board-meetings/${id}/minutes`, { body: { text: 'Present: the board.' } });
    expect(minutes.body).toMatchObject({ status: 'held', minutes: 'Present: the board.' });
    expect(minutes.body.minutesRecordedAt).not.toBeNull();
    const d1 = await t.call('POST', `/v1/governance/board-meetings/${id}/decisions`, { body: decision });
    expect(d1.status).toBe(201);
    expect(d1.body).toMatchObject({
      object: 'svc.governance.board_decision',
      meetingId: id,
      outcome: 'approved',
      votesFor: 5,
      abstentions: null,
    });
    expect(d1.body.id).toMatch(/^gdc_/);
    const d2 = await t.call('POST', `/v1/governance/board-meetings/${id}/decisions`, {
      body: { title: 'Revisit the policy', outcome: 'deferred' },
    });
    expectEnvelope(
      await t.call('POST', `/v1/governance/board-meetings/${id}/decisions`, { body: { title: 'x', outcome: 'maybe' } }),
      422,
      'validation_failed',
    );
    const listed = await collectPages<{ id: string }>(t, `/v1/governance/board-meetings/${id}/decisions`);
    expect(listed.map((x) => x.id)).toEqual([d2.body.id, d1.body.id]);

    const approved = await t.call('POST', `/v1/governance/board-meetings/${id}/approve-minutes`, { body: {} });
    expect(approved.body.status).toBe('minutes_approved');
    expect(
      expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/decisions`, { body: decision }), 409, 'conflict').message,
    ).toContain('minutes_approved');
    expectEnvelope(await t.call('POST', `/v1/governance/board-meetings/${id}/minutes`, { body: { text: 'changed' } }), 409, 'conflict');

    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/governance/board-meetings/${id}/decisions`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `/v1/governance/board-meetings/${id}/decisions`, { body: decision }), 404, 'not_found');

    const bad = await t.call('POST', '/v1/governance/board-meetings', {
      body: { title: 'x', scheduledFor: '2026-12-10T14:00:00.000Z', attendeeIds: ['usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] },
    });
    expect(expectEnvelope(bad, 422, 'validation_failed').details[0].field).toBe('attendeeIds[0]');
  });

  it('decision rights name exactly one role or person that exists', async () => {
    const t = await createTenant(ts);
    const cfo = await role(t, 'CFO');
    const ana = await person(t, 'Ana');
    const byRole = await t.call('POST', '/v1/governance/decision-rights', {
      body: { decisionType: 'vendor_contract', roleId: cfo, maxAmountEur: 50000 },
    });
    expect(byRole.status).toBe(201);
    expect(byRole.body).toMatchObject({
      object: 'svc.governance.decision_right',
      roleId: cfo,
      personId: null,
      maxAmountEur: 50000,
      status: 'active',
    });
    expect(
      (await t.call('POST', '/v1/governance/decision-rights', { body: { decisionType: 'model_release', personId: ana } })).status,
    ).toBe(201);
    expectEnvelope(
      await t.call('POST', '/v1/governance/decision-rights', { body: { decisionType: 'x', roleId: cfo, personId: ana } }),
      422,
      'validation_failed',
    );
    expectEnvelope(await t.call('POST', '/v1/governance/decision-rights', { body: { decisionType: 'x' } }), 422, 'validation_failed');
    const unknown = await t.call('POST', '/v1/governance/decision-rights', {
      body: { decisionType: 'x', roleId: 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('roleId');
    const retired = await t.call('POST', `/v1/governance/decision-rights/${byRole.body.id}/retire`, { body: {} });
    expect(retired.body.status).toBe('retired');
    expectEnvelope(await t.call('POST', `/v1/governance/decision-rights/${byRole.body.id}/retire`, { body: {} }), 409, 'conflict');
    expect((await collectPages(t, '/v1/governance/decision-rights?decisionType=vendor_contract')).length).toBe(1);
  });
});

describe('governance: organisation-wide RACI', () => {
  it('charts every system of the assignments and assessments, with the gaps, and follows the data', async () => {
    const t = await createTenant(ts);
    const act = await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
    expect([200, 201]).toContain(act.status);
    const controls = (await collectPages<{ id: string }>(t, '/v1/frameworks/eu-ai-act/controls')).map((c) => c.id);
    const r = await role(t, 'Owner');
    const ana = await person(t, 'Ana');
    await t.call('POST', '/v1/stakeholders/assignments', { body: { personId: ana, roleId: r, raci: 'accountable', systemId: 'sys_b' } });
    await t.call('POST', '/v1/stakeholders/assignments', {
      body: { personId: ana, roleId: r, raci: 'accountable', systemId: 'sys_a', control: controls[0] },
    });

    const chart = (await t.call('GET', '/v1/governance/raci')).body;
    expect(chart.object).toBe('svc.governance.raci');
    expect(chart.systems.map((s: { systemId: string }) => s.systemId)).toEqual(['sys_a', 'sys_b']);
    const [sysA, sysB] = chart.systems;
    expect(sysB.gaps).toEqual([]);
    expect(sysA.gaps).toHaveLength(controls.length - 1);
    expect(chart.gaps).toHaveLength(controls.length - 1);
    expect(chart.gaps.every((g: { systemId: string }) => g.systemId === 'sys_a')).toBe(true);
    expect(chart.totals).toEqual({ systems: 2, rows: 2 * controls.length, gaps: controls.length - 1 });

    // A system-wide accountable for sys_a closes its gaps; deactivating Ana opens them everywhere.
    const bob = await person(t, 'Bob');
    await t.call('POST', '/v1/stakeholders/assignments', { body: { personId: bob, roleId: r, raci: 'accountable', systemId: 'sys_a' } });
    expect((await t.call('GET', '/v1/governance/raci')).body.gaps).toEqual([]);
    await t.call('POST', `/v1/stakeholders/users/${ana}/deactivate`, { body: {} });
    const after = (await t.call('GET', '/v1/governance/raci')).body;
    expect(after.gaps.map((g: { systemId: string }) => g.systemId)).toEqual(Array(controls.length).fill('sys_b'));
  });
});

describe('governance: snapshots', () => {
  const hashOf = (state: unknown) => createHash('sha256').update(canonicalJson(state)).digest('hex');

  it('stores versioned, hashed exports of the governance state that verify', async () => {
    const t = await createTenant(ts);
    const cfo = await role(t, 'CFO');
    const ana = await person(t, 'Ana', [cfo]);
    const bob = await person(t, 'Bob');
    await chain(t, [ana, bob]);
    await delegate(t, ana, bob, at(-48 * HOUR), at(-24 * HOUR));
    const live = await delegate(t, ana, bob, at(-HOUR), at(HOUR));

    const s1 = await t.call('POST', '/v1/governance/snapshot', { body: { note: 'Before the board' } });
    expect(s1.status).toBe(201);
    expect(s1.body).toMatchObject({
      object: 'svc.governance.snapshot',
      version: 1,
      previousHash: null,
      changed: true,
      note: 'Before the board',
    });
    expect(s1.body.hash).toBe(hashOf(s1.body.state));
    expect(s1.body.state.people.map((p: { id: string }) => p.id)).toEqual([ana, bob].sort());
    // Only the delegation in force.
    expect(s1.body.state.delegations.map((d: { id: string }) => d.id)).toEqual([live.id]);

    const s2 = (await t.call('POST', '/v1/governance/snapshot', { body: {} })).body;
    expect(s2).toMatchObject({ version: 2, hash: s1.body.hash, previousHash: s1.body.hash, changed: false });

    const coi = await t.call('POST', '/v1/governance/conflicts', { body: { personId: bob, subject: 'Vendor contract' } });
    const s3 = (await t.call('POST', '/v1/governance/snapshot', { body: {} })).body;
    expect(s3).toMatchObject({ version: 3, previousHash: s1.body.hash, changed: true });
    expect(s3.hash).not.toBe(s1.body.hash);
    expect(s3.state.openConflicts).toEqual([{ id: coi.body.id, personId: bob, subject: 'Vendor contract' }]);

    // GET returns it as stored; the hash verifies on the read too.
    const got = await t.call('GET', `/v1/governance/snapshot/${s3.id}`);
    expect(got.body).toEqual(s3);
    expect(hashOf(got.body.state)).toBe(got.body.hash);
    const list = await collectPages<{ version: number }>(t, '/v1/governance/snapshot');
    expect(list.map((s) => s.version)).toEqual([3, 2, 1]);

    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/governance/snapshot/${s3.id}`), 404, 'not_found');
    expect((await other.call('POST', '/v1/governance/snapshot', { body: {} })).body.version).toBe(1);
  });
});
