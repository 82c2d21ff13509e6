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

async function activate(t: TenantFixture, framework: string): Promise<string[]> {
  const act = await t.call('POST', `/v1/frameworks/${framework}/activate`, { body: {} });
  expect([200, 201]).toContain(act.status);
  const controls = await collectPages<{ id: string }>(t, `/v1/frameworks/${framework}/controls`);
  expect(controls.length).toBeGreaterThan(2);
  return controls.map((c) => c.id);
}

async function addEvidence(
  t: TenantFixture,
  controlIds: string[],
  opts: { expiresAt?: string; collectedAt?: string } = {},
): Promise<string> {
  const res = await t.call('POST', '/v1/compliance/evidence', { body: { title: 'Evidence', kind: 'policy', controlIds, ...opts } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function raise(t: TenantFixture, body: Json): Promise<Json> {
  const res = await t.call('POST', '/v1/self-audit/findings', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function remediate(t: TenantFixture, findingId: string, extra: Json = {}): Promise<Json> {
  const res = await t.call('POST', '/v1/self-audit/remediations', { body: { findingId, plan: 'Fix it and record the fix.', ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function link(t: TenantFixture, body: Json): Promise<Json> {
  const res = await t.call('POST', '/v1/self-audit/evidence', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const move = (t: TenantFixture, id: string, verb: string, body: Json = {}) =>
  t.call('POST', `/v1/self-audit/remediations/${id}/${verb}`, { body });

async function auditActions(t: TenantFixture, resourceId: string): Promise<string[]> {
  const res = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 200 } });
  expect(res.status).toBe(200);
  return res.body.data.map((e: Json) => e.action);
}

describe('self-audit: findings', () => {
  it('raises an open finding (fnd_), lists it with filters, gets it; another tenant sees nothing', async () => {
    const t = await createTenant(ts);
    const controls = await activate(t, 'eu-ai-act');
    const a = await raise(t, { title: 'Risk register stale', severity: 'high', controlId: controls[0], systemId: 'sys_a' });
    expect(a).toMatchObject({
      object: 'svc.self_audit.finding',
      status: 'open',
      severity: 'high',
      controlId: controls[0],
      systemId: 'sys_a',
      description: null,
      closedAt: null,
    });
    expect(a.id).toMatch(/^fnd_[0-9A-HJKMNP-TV-Z]{26}$/);
    const b = await raise(t, { title: 'No owner for logs', severity: 'low' });
    expect(b.controlId).toBeNull();

    const all = await collectPages<Json>(t, '/v1/self-audit/findings');
    expect(all.map((f) => f.id)).toEqual([b.id, a.id]);
    expect((await collectPages<Json>(t, '/v1/self-audit/findings?severity=high')).map((f) => f.id)).toEqual([a.id]);
    expect((await collectPages<Json>(t, `/v1/self-audit/findings?controlId=${controls[0]}`)).map((f) => f.id)).toEqual([a.id]);
    expect((await collectPages<Json>(t, '/v1/self-audit/findings?status=open')).length).toBe(2);
    expect(await collectPages<Json>(t, '/v1/self-audit/findings?status=closed')).toEqual([]);
    expect((await t.call('GET', `/v1/self-audit/findings/${a.id}`)).body).toEqual(a);
    expect(await auditActions(t, a.id)).toEqual(['finding.created']);

    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/self-audit/findings/${a.id}`), 404, 'not_found');
    expect(await collectPages<Json>(other, '/v1/self-audit/findings')).toEqual([]);
  });

  it('refuses a control outside the activated frameworks and bad fields with 422 naming the field', async () => {
    const t = await createTenant(ts);
    const before = await t.call('POST', '/v1/self-audit/findings', { body: { title: 'X', severity: 'high', controlId: 'AIA-RMS-01' } });
    expect(expectEnvelope(before, 422, 'validation_failed').details[0]).toMatchObject({ field: 'controlId' });
    await activate(t, 'eu-ai-act');
    const unknown = await t.call('POST', '/v1/self-audit/findings', { body: { title: 'X', severity: 'high', controlId: 'NOPE-01' } });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0]).toMatchObject({ field: 'controlId' });
    const sev = await t.call('POST', '/v1/self-audit/findings', { body: { title: 'X', severity: 'urgent' } });
    expect(expectEnvelope(sev, 422, 'validation_failed').details[0].field).toBe('severity');
    const missing = await t.call('POST', '/v1/self-audit/findings', { body: { severity: 'low' } });
    expect(expectEnvelope(missing, 422, 'validation_failed').details[0].field).toBe('title');
    const status = await t.call('POST', '/v1/self-audit/findings', { body: { title: 'X', severity: 'low', status: 'closed' } });
    expect(expectEnvelope(status, 422, 'validation_failed').details[0]).toMatchObject({ field: 'status', issue: 'unknown_field' });
    expect(await collectPages(t, '/v1/self-audit/findings')).toEqual([]);
  });

  it('a viewer key reads but cannot raise a finding (403 naming self_audit:write)', async () => {
    const t = await createTenant(ts);
    const viewer = await t.key('viewer');
    const as = (method: string, path: string, body?: unknown) => call(ts.url, method, path, { token: viewer, body });
    const denied = await as('POST', '/v1/self-audit/findings', { title: 'X', severity: 'low' });
    expect(denied.status).toBe(403);
    expect(denied.body.details).toEqual([{ field: 'permission', issue: 'self_audit:write' }]);
    expect((await as('GET', '/v1/self-audit/findings')).status).toBe(200);
    expect((await as('GET', '/v1/self-audit/posture')).status).toBe(200);
    // The rail is open to the sandbox tier.
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    expect((await sandbox.call('POST', '/v1/self-audit/findings', { body: { title: 'X', severity: 'low' } })).status).toBe(201);
  });
});

describe('self-audit: remediations', () => {
  it('walks open -> in_progress -> resolved -> verified, closing the finding; reopen opens both again', async () => {
    const t = await createTenant(ts);
    const sub = await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/svc', eventTypes: ['*'] } });
    expect(sub.status).toBe(201);
    const controls = await activate(t, 'eu-ai-act');
    const f = await raise(t, { title: 'Logs not retained', severity: 'critical', controlId: controls[1] });
    const r = await remediate(t, f.id, { dueDate: '2026-12-15T00:00:00.000Z' });
    expect(r).toMatchObject({
      object: 'svc.self_audit.remediation',
      findingId: f.id,
      status: 'open',
      dueDate: '2026-12-15T00:00:00.000Z',
      resolvedAt: null,
      verifiedAt: null,
      ownerId: null,
    });
    expect(r.id).toMatch(/^rem_/);

    // Illegal from open: resolve, verify, reopen are 409 naming the state, nothing changes.
    for (const verb of ['resolve', 'verify', 'reopen']) {
      const res = await move(t, r.id, verb);
      expect(expectEnvelope(res, 409, 'conflict').message).toContain('open');
    }
    expect((await t.call('GET', `/v1/self-audit/remediations/${r.id}`)).body).toEqual(r);

    expect((await move(t, r.id, 'start')).body.status).toBe('in_progress');
    expectEnvelope(await move(t, r.id, 'start'), 409, 'conflict');
    const resolved = (await move(t, r.id, 'resolve')).body;
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolvedAt).not.toBeNull();

    // Verification needs a link to unexpired evidence on the remediation.
    const noProof = await move(t, r.id, 'verify');
    expect(expectEnvelope(noProof, 409, 'conflict').details[0].field).toBe('evidence');
    const expired = await addEvidence(t, [controls[1] as string], { collectedAt: daysAgo(40), expiresAt: daysAgo(1) });
    await link(t, { evidenceId: expired, remediationId: r.id });
    expectEnvelope(await move(t, r.id, 'verify'), 409, 'conflict');
    // A link to the finding is not proof of the fix.
    const onFinding = await addEvidence(t, [controls[1] as string]);
    await link(t, { evidenceId: onFinding, findingId: f.id });
    expectEnvelope(await move(t, r.id, 'verify'), 409, 'conflict');
    expect((await t.call('GET', `/v1/self-audit/remediations/${r.id}`)).body.status).toBe('resolved');
    expect((await t.call('GET', `/v1/self-audit/findings/${f.id}`)).body.status).toBe('open');

    const proof = await addEvidence(t, [controls[1] as string]);
    await link(t, { evidenceId: proof, remediationId: r.id, note: 'Retention job output' });
    const verified = await move(t, r.id, 'verify', { reason: 'Checked the retention job.' });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified' });
    expect(verified.body.verifiedAt).not.toBeNull();
    const closed = (await t.call('GET', `/v1/self-audit/findings/${f.id}`)).body;
    expect(closed).toMatchObject({ status: 'closed' });
    expect(closed.closedAt).not.toBeNull();
    expect((await collectPages<Json>(t, '/v1/self-audit/findings?status=closed')).map((x) => x.id)).toEqual([f.id]);
    expectEnvelope(await move(t, r.id, 'verify'), 409, 'conflict');
    expectEnvelope(await move(t, r.id, 'start'), 409, 'conflict');

    const reopened = (await move(t, r.id, 'reopen', { reason: 'The job failed again.' })).body;
    expect(reopened).toMatchObject({ status: 'open', resolvedAt: null, verifiedAt: null });
    expect((await t.call('GET', `/v1/self-audit/findings/${f.id}`)).body).toMatchObject({ status: 'open', closedAt: null });

    expect(await auditActions(t, r.id)).toEqual([
      'remediation.reopened',
      'remediation.verified',
      'remediation.resolved',
      'remediation.started',
      'remediation.created',
    ]);
    expect(await auditActions(t, f.id)).toEqual(['finding.reopened', 'finding.closed', 'finding.created']);
    const events = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, subject: f.id } });
    expect(events.map((e) => e.type).sort()).toEqual(['finding.closed', 'finding.created', 'finding.reopened']);
    for (const e of events) expect(getWebhookEventType(e.type)?.data.safeParse(e.data).success, e.type).toBe(true);
    const closedEvent = events.find((e) => e.type === 'finding.closed');
    expect(closedEvent?.data).toMatchObject({ id: f.id, status: 'closed' });

    // Reopen from resolved too.
    await move(t, r.id, 'start');
    await move(t, r.id, 'resolve');
    expect((await move(t, r.id, 'reopen')).body.status).toBe('open');
  });

  it('one remediation per finding; unknown finding or owner is 422; tenancy and permissions hold', async () => {
    const t = await createTenant(ts);
    const f = await raise(t, { title: 'No DPIA', severity: 'medium' });
    const r = await remediate(t, f.id);
    const twice = await t.call('POST', '/v1/self-audit/remediations', { body: { findingId: f.id, plan: 'Again' } });
    expect(expectEnvelope(twice, 409, 'conflict').message).toContain(r.id);
    const unknown = await t.call('POST', '/v1/self-audit/remediations', {
      body: { findingId: 'fnd_01JD3Z8W2M6Q4X9V7K5T1B0N3R', plan: 'Fix' },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('findingId');
    const g = await raise(t, { title: 'Second', severity: 'low' });
    const noOwner = await t.call('POST', '/v1/self-audit/remediations', {
      body: { findingId: g.id, plan: 'Fix', ownerId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
    });
    expect(expectEnvelope(noOwner, 422, 'validation_failed').details[0].field).toBe('ownerId');
    const person = await t.call('POST', '/v1/stakeholders/users', { body: { name: 'Ada Owner', email: `ada.${Date.now()}@example.com` } });
    expect(person.status).toBe(201);
    expect((await remediate(t, g.id, { ownerId: person.body.id })).ownerId).toBe(person.body.id);
    expectEnvelope(await t.call('POST', '/v1/self-audit/remediations', { body: { plan: 'Fix' } }), 422, 'validation_failed');

    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/self-audit/remediations/${r.id}`), 404, 'not_found');
    expectEnvelope(await move(other, r.id, 'start'), 404, 'not_found');
    const theirs = await other.call('POST', '/v1/self-audit/remediations', { body: { findingId: f.id, plan: 'Steal' } });
    expect(expectEnvelope(theirs, 422, 'validation_failed').details[0].field).toBe('findingId');

    // Editors fix, but verifying needs the attest permission: an editor gets 403, an auditor may.
    await move(t, r.id, 'start');
    await move(t, r.id, 'resolve');
    const controls = await activate(t, 'eu-ai-act');
    await link(t, { evidenceId: await addEvidence(t, [controls[0] as string]), remediationId: r.id });
    const editor = await t.key('editor');
    const auditor = await t.key('auditor');
    const as = (token: string, verb: string) => call(ts.url, 'POST', `/v1/self-audit/remediations/${r.id}/${verb}`, { token, body: {} });
    const byEditor = await as(editor, 'verify');
    expect([byEditor.status, byEditor.body.details]).toEqual([403, [{ field: 'permission', issue: 'self_audit:attest' }]]);
    const byAuditor = await as(auditor, 'verify');
    expect([byAuditor.status, byAuditor.body.status]).toEqual([200, 'verified']);
  });

  it('an Idempotency-Key replay of a verify returns the same response and closes once', async () => {
    const t = await createTenant(ts);
    const controls = await activate(t, 'eu-ai-act');
    const f = await raise(t, { title: 'Replay', severity: 'high' });
    const r = await remediate(t, f.id);
    await move(t, r.id, 'start');
    await move(t, r.id, 'resolve');
    await link(t, { evidenceId: await addEvidence(t, [controls[0] as string]), remediationId: r.id });
    const headers = { 'idempotency-key': `verify-${r.id}` };
    const first = await t.call('POST', `/v1/self-audit/remediations/${r.id}/verify`, { body: {}, headers });
    const again = await t.call('POST', `/v1/self-audit/remediations/${r.id}/verify`, { body: {}, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await auditActions(t, f.id)).toEqual(['finding.closed', 'finding.created']);
  });
});

describe('self-audit: evidence links', () => {
  it('links evidence to a finding or a remediation, lists with filters; bad links are 422 or 409', async () => {
    const t = await createTenant(ts);
    const controls = await activate(t, 'eu-ai-act');
    const f = await raise(t, { title: 'Linked', severity: 'medium', controlId: controls[0] });
    const r = await remediate(t, f.id);
    const e1 = await addEvidence(t, [controls[0] as string]);
    const e2 = await addEvidence(t, [controls[0] as string]);
    const onFinding = await link(t, { evidenceId: e1, findingId: f.id, note: 'Screenshot of the gap' });
    expect(onFinding).toMatchObject({
      object: 'svc.self_audit.evidence_link',
      evidenceId: e1,
      targetType: 'finding',
      targetId: f.id,
      findingId: f.id,
      note: 'Screenshot of the gap',
    });
    expect(onFinding.id).toMatch(/^sev_/);
    const onRemediation = await link(t, { evidenceId: e2, remediationId: r.id });
    expect(onRemediation).toMatchObject({ targetType: 'remediation', targetId: r.id, findingId: f.id, note: null });

    expect((await collectPages<Json>(t, '/v1/self-audit/evidence')).map((l) => l.id)).toEqual([onRemediation.id, onFinding.id]);
    expect((await collectPages<Json>(t, `/v1/self-audit/evidence?findingId=${f.id}`)).length).toBe(2);
    expect((await collectPages<Json>(t, `/v1/self-audit/evidence?targetId=${r.id}`)).map((l) => l.id)).toEqual([onRemediation.id]);
    expect((await collectPages<Json>(t, `/v1/self-audit/evidence?evidenceId=${e1}`)).map((l) => l.id)).toEqual([onFinding.id]);
    expect((await t.call('GET', `/v1/self-audit/evidence/${onFinding.id}`)).body).toEqual(onFinding);

    const dup = await t.call('POST', '/v1/self-audit/evidence', { body: { evidenceId: e1, findingId: f.id } });
    expectEnvelope(dup, 409, 'conflict');
    const both = await t.call('POST', '/v1/self-audit/evidence', { body: { evidenceId: e1, findingId: f.id, remediationId: r.id } });
    expectEnvelope(both, 422, 'validation_failed');
    const neither = await t.call('POST', '/v1/self-audit/evidence', { body: { evidenceId: e1 } });
    expect(expectEnvelope(neither, 422, 'validation_failed').details[0].field).toBe('findingId');
    const noEvidence = await t.call('POST', '/v1/self-audit/evidence', {
      body: { evidenceId: 'evd_01JD3Z8W2M6Q4X9V7K5T1B0N3R', findingId: f.id },
    });
    expect(expectEnvelope(noEvidence, 422, 'validation_failed').details[0].field).toBe('evidenceId');
    const noRemediation = await t.call('POST', '/v1/self-audit/evidence', {
      body: { evidenceId: e1, remediationId: 'rem_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
    });
    expect(expectEnvelope(noRemediation, 422, 'validation_failed').details[0].field).toBe('remediationId');

    // Another tenant can neither see the links nor link its evidence to this tenant's finding.
    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/self-audit/evidence/${onFinding.id}`), 404, 'not_found');
    expect(await collectPages(other, '/v1/self-audit/evidence')).toEqual([]);
    const otherControls = await activate(other, 'eu-ai-act');
    const theirs = await addEvidence(other, [otherControls[0] as string]);
    const cross = await other.call('POST', '/v1/self-audit/evidence', { body: { evidenceId: theirs, findingId: f.id } });
    expect(expectEnvelope(cross, 422, 'validation_failed').details[0].field).toBe('findingId');
    expect(await auditActions(t, onFinding.id)).toEqual(['evidence_link.created']);
  });
});

describe('self-audit: the same write at once', () => {
  it('one remediation per finding and one link per evidence and target, also when sent at once', async () => {
    const t = await createTenant(ts);
    const [control] = await activate(t, 'eu-ai-act');
    const finding = await raise(t, { title: 'No risk register', severity: 'high', controlId: control });
    const plan = { findingId: finding.id, plan: 'Keep a risk register.' };
    const remediations = await Promise.all([0, 1, 2].map(() => t.call('POST', '/v1/self-audit/remediations', { body: plan })));
    expect(remediations.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const evidenceId = await addEvidence(t, [control as string]);
    const links = await Promise.all(
      [0, 1, 2].map(() => t.call('POST', '/v1/self-audit/evidence', { body: { evidenceId, findingId: finding.id } })),
    );
    expect(links.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('self-audit: posture', () => {
  it('is computed from coverage, freshness and open findings, and follows the data', async () => {
    const t = await createTenant(ts);
    const empty = (await t.call('GET', '/v1/self-audit/posture')).body;
    expect(empty).toMatchObject({ object: 'svc.self_audit.posture', score: 0 });
    expect(empty.parts.coverage).toMatchObject({ weight: 70, controls: 0, evidencedControls: 0, ratio: 0, points: 0 });
    expect(empty.parts.freshness).toMatchObject({ weight: 30, windowDays: 365, evidence: 0, fresh: 0 });
    expect(empty.parts.findings).toMatchObject({
      weights: { low: 2, medium: 5, high: 10, critical: 25 },
      open: { low: 0, medium: 0, high: 0, critical: 0 },
      penalty: 0,
    });

    const controls = await activate(t, 'eu-ai-act');
    const n = controls.length;
    const p0 = (await t.call('GET', '/v1/self-audit/posture')).body;
    expect(p0.parts.coverage).toMatchObject({ controls: n, evidencedControls: 0 });
    expect(p0.score).toBe(0);

    // Evidence raises coverage; fresh evidence gives the whole freshness part.
    await addEvidence(t, controls.slice(0, 2));
    const p1 = (await t.call('GET', '/v1/self-audit/posture')).body;
    expect(p1.parts.coverage.evidencedControls).toBe(2);
    expect(p1.parts.coverage.ratio).toBeCloseTo(2 / n, 3);
    expect(p1.parts.freshness).toMatchObject({ evidence: 1, fresh: 1, expired: 0, stale: 0, ratio: 1, points: 30 });
    expect(p1.score).toBe(Math.round(70 * (2 / n) + 30));

    // Expired and old evidence counts for coverage but lowers freshness.
    await addEvidence(t, [controls[2] as string], { collectedAt: daysAgo(30), expiresAt: daysAgo(1) });
    await addEvidence(t, [controls[3] as string], { collectedAt: daysAgo(400) });
    const p2 = (await t.call('GET', '/v1/self-audit/posture')).body;
    expect(p2.parts.coverage.evidencedControls).toBe(4);
    expect(p2.parts.freshness).toMatchObject({ evidence: 3, fresh: 1, expired: 1, stale: 1 });
    expect(p2.parts.freshness.ratio).toBeCloseTo(1 / 3, 3);
    expect(p2.parts.freshness.points).toBeLessThan(p1.parts.freshness.points);
    const base = p2.parts.coverage.points + p2.parts.freshness.points;
    expect(p2.score).toBe(Math.round(base));

    // An open critical finding is a 25-point penalty; verifying its remediation lifts it.
    const f = await raise(t, { title: 'Critical gap', severity: 'critical', controlId: controls[0] });
    const p3 = (await t.call('GET', '/v1/self-audit/posture')).body;
    expect(p3.parts.findings).toMatchObject({ open: { critical: 1 }, penalty: 25 });
    expect(p3.score).toBe(Math.max(0, Math.round(base - 25)));
    await raise(t, { title: 'Minor', severity: 'low' });
    expect((await t.call('GET', '/v1/self-audit/posture')).body.parts.findings.penalty).toBe(27);

    const r = await remediate(t, f.id);
    await move(t, r.id, 'start');
    await move(t, r.id, 'resolve');
    await link(t, { evidenceId: await addEvidence(t, [controls[0] as string]), remediationId: r.id });
    expect((await move(t, r.id, 'verify')).status).toBe(200);
    const p4 = (await t.call('GET', '/v1/self-audit/posture')).body;
    expect(p4.parts.findings).toMatchObject({ open: { critical: 0, low: 1 }, penalty: 2 });
    expect(p4.score).toBeGreaterThan(p3.score);
  });
});

describe('self-audit: drift', () => {
  it('lists the baseline controls the tenant lacks, and changes as it activates and evidences', async () => {
    const t = await createTenant(ts);
    const d0 = await t.call('GET', '/v1/self-audit/drift?profile=education');
    expect(d0.status, JSON.stringify(d0.body)).toBe(200);
    expect(d0.body).toMatchObject({ object: 'svc.self_audit.drift', profile: 'education', profileSource: 'query', inLine: 0 });
    const baseline = d0.body.baselineControls as number;
    expect(baseline).toBeGreaterThan(2);
    expect(d0.body.data).toHaveLength(baseline);
    for (const item of d0.body.data) {
      expect(item).toMatchObject({ type: 'baseline-divergence', reason: 'framework_not_activated' });
      expect(typeof item.expected).toBe('string');
      expect(item.actual).toContain('not activated');
    }
    const aiControls = d0.body.data.filter((i: Json) => i.framework === 'eu-ai-act').map((i: Json) => i.control as string);
    expect(aiControls.length).toBeGreaterThan(0);
    const [first, second] = aiControls as [string, string | undefined];

    // Activating the framework turns its controls into "no evidence".
    await activate(t, 'eu-ai-act');
    const d1 = (await t.call('GET', '/v1/self-audit/drift?profile=education')).body;
    const item = (d: Json, control: string) => d.data.filter((i: Json) => i.control === control);
    expect(item(d1, first)).toEqual([
      expect.objectContaining({ type: 'baseline-divergence', reason: 'no_evidence', framework: 'eu-ai-act' }),
    ]);

    // Fresh evidence brings the control in line; only expired evidence makes it stale.
    await addEvidence(t, [first]);
    const d2 = (await t.call('GET', '/v1/self-audit/drift?profile=education')).body;
    expect(item(d2, first)).toEqual([]);
    expect(d2.inLine).toBe(1);
    expect(d2.data).toHaveLength(baseline - 1);
    if (second) {
      const old = await addEvidence(t, [second], { collectedAt: daysAgo(30), expiresAt: daysAgo(2) });
      const d3 = (await t.call('GET', '/v1/self-audit/drift?profile=education')).body;
      expect(item(d3, second)).toEqual([expect.objectContaining({ type: 'stale-evidence', evidenceIds: [old] })]);
    }

    // An open finding against a baseline control is a divergence of its own.
    const f = await raise(t, { title: 'Classification not reviewed', severity: 'medium', controlId: first });
    const d4 = (await t.call('GET', '/v1/self-audit/drift?profile=education')).body;
    expect(item(d4, first)).toEqual([expect.objectContaining({ type: 'open-finding', findingIds: [f.id] })]);
  });

  it('reads the profile of the onboarding kickoff when none is given; a new tenant gets an empty baseline; 422 for an unknown profile', async () => {
    const t = await createTenant(ts);
    // A brand-new tenant: no profile to compare against, said so, with an empty baseline and no items.
    const none = await t.call('GET', '/v1/self-audit/drift');
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body).toMatchObject({
      object: 'svc.self_audit.drift',
      profile: null,
      profileSource: 'none',
      baselineControls: 0,
      inLine: 0,
      data: [],
    });
    expect(none.body.note).toMatch(/No profile to compare against/);
    expect(none.body.computedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const bad = await t.call('GET', '/v1/self-audit/drift?profile=bakery');
    expect(expectEnvelope(bad, 422, 'validation_failed').details[0].field).toBe('profile');
    const kick = await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'saas' } });
    expect(kick.status, JSON.stringify(kick.body)).toBe(201);
    const fromOnboarding = (await t.call('GET', '/v1/self-audit/drift')).body;
    expect(fromOnboarding).toMatchObject({ profile: 'saas', profileSource: 'onboarding', note: null });
    expect(fromOnboarding.data.length).toBe(fromOnboarding.baselineControls);
    // A query profile wins over the onboarding one.
    expect((await t.call('GET', '/v1/self-audit/drift?profile=banking')).body).toMatchObject({
      profile: 'banking',
      profileSource: 'query',
    });
  });
});
