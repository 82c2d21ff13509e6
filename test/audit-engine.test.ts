import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiDocument } from '@svc/contract';
import { buildEventData, startJobWorker } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEngineJobs } from '../packages/server/src/rails/audit-engine/jobs.ts';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

/** A key of the tenant bound to a person of the stakeholders rail with the owner's name and email. */
async function ownerKey(f: TenantFixture, owner: { name: string; email: string }): Promise<string> {
  const person = await f.call('POST', '/v1/stakeholders/users', { body: { name: owner.name, email: owner.email, roleIds: [] } });
  expect(person.status, JSON.stringify(person.body)).toBe(201);
  return f.personKey(person.body.id);
}

/**
 * The audit_engine rail end to end, with a worker in the server (SVC_ROLE all): a run is answered
 * 202, evaluated by the `audit.run` job and completed; its findings are checked by hand against
 * the EU AI Act dictionary and the shipped rules (content/audit-engine/rules.json).
 */
let ts: TestServer;
let t: TenantFixture;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

beforeAll(async () => {
  ts = await startIsolatedTestServer({ SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '100' });
  t = await createTenant(ts, { tier: 'enterprise' });
  // A server with a worker takes longer to start on a loaded machine than the default hook timeout.
}, 300_000);
afterAll(() => ts?.close());

type Json = Record<string, any>;

async function waitForRun(f: TenantFixture, runId: string, timeoutMs = 30_000): Promise<Json> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await f.call('GET', `/v1/audit-engine/runs/${runId}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (r.body.status !== 'running') return r.body;
    if (Date.now() > until) throw new Error(`run ${runId} still running after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function findingsOf(f: TenantFixture, runId: string, extra = ''): Promise<Json[]> {
  const r = await f.call('GET', `/v1/audit-engine/findings?runId=${runId}&limit=200${extra}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const summary = (fs: Json[]) => fs.map((f) => `${f.controlId} ${f.check} ${f.severity}`).sort();

async function evidence(f: TenantFixture, controlIds: string[], kind: string, collectedAt: string) {
  const r = await f.call('POST', '/v1/compliance/evidence', {
    body: { title: `${kind} for ${controlIds.join(',')}`, kind, controlIds, collectedAt },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

describe('runs, findings, replay, sign-off and attestation', () => {
  let runId: string;
  let staleId: string;
  const made: Record<string, Json> = {};

  it('refuses a run of a framework the tenant has not activated, an unknown framework and a bad scope: 422', async () => {
    let r = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act', scope: 'all' } });
    expect(expectEnvelope(r, 422, 'validation_failed').details[0].field).toBe('framework');
    expect((await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: { version: '1.0.0' } })).status).toBeLessThan(300);
    r = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'no-such-law', scope: 'all' } });
    expect(expectEnvelope(r, 422, 'validation_failed').details[0].field).toBe('framework');
    r = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act', scope: 'family:NOPE' } });
    expect(expectEnvelope(r, 422, 'validation_failed').details[0].field).toBe('scope');
    r = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act' } });
    expect(JSON.stringify(expectEnvelope(r, 422, 'validation_failed').details)).toContain('scope');
  });

  it('runs in the background and writes the findings worked out by hand', async () => {
    // clause:art-4 selects AIA-HOV-04 (art-26-2, art-4), AIA-LIT-01 and AIA-LIT-02 (art-4).
    await evidence(t, ['AIA-LIT-01'], 'policy', daysAgo(10)); // fresh: policy window 365 days
    staleId = await evidence(t, ['AIA-LIT-02'], 'log', daysAgo(200)); // stale: log window 90 days
    const r = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act', scope: 'clause:art-4' } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toMatchObject({ status: 'running', framework: 'eu-ai-act', dictionaryVersion: 'eu-ai-act@1.0.0', controls: 3 });
    runId = r.body.runId;
    expect(runId).toMatch(/^aer_/);

    const run = await waitForRun(t, runId);
    expect(run.status).toBe('completed');
    // 5 s start-up + 3 controls x 0.2 s.
    expect(Date.parse(run.estimatedCompletion) - Date.parse(run.asOf)).toBe(5600);
    const pin = await t.call('GET', '/v1/taxonomy/bundle-hash');
    expect(run.bundleHash).toBe(pin.body.hash);
    expect(run.ruleSet).toMatchObject({ id: 'audit-engine-rules', version: '1.2.0' });
    expect(run.counts).toEqual({
      controls: 3,
      controlsPassed: 1,
      findings: 5,
      bySeverity: { critical: 0, high: 2, medium: 3, low: 0 },
      byCheck: { evidence_missing: 1, obligation_unmet: 2, attestation_missing: 1, evidence_stale: 1 },
    });

    const fs = await findingsOf(t, runId);
    // AIA-HOV-04 carries AIA-OBL-068 (art-26-2, in force since 2026-08-02, high-risk regime): high;
    // AIA-LIT-02 carries only art-4 obligations (in force, not high-risk): medium; AIA-LIT-01 passes.
    expect(summary(fs)).toEqual([
      'AIA-HOV-04 attestation_missing medium',
      'AIA-HOV-04 evidence_missing high',
      'AIA-HOV-04 obligation_unmet high',
      'AIA-LIT-02 evidence_stale medium',
      'AIA-LIT-02 obligation_unmet medium',
    ]);
    const stale = fs.find((f) => f.check === 'evidence_stale') as Json;
    expect(stale.facts.tier).toBe('in_force');
    expect(stale.facts.evidence).toEqual([
      expect.objectContaining({ id: staleId, kind: 'log', ageDays: 200, windowDays: 90, expired: false, current: false }),
    ]);
    const missing = fs.find((f) => f.check === 'evidence_missing') as Json;
    expect(missing.facts.tier).toBe('high_risk');
    expect(missing.facts.obligations.map((o: Json) => o.id)).toEqual(['AIA-OBL-001', 'AIA-OBL-002', 'AIA-OBL-068']);

    expect(summary(await findingsOf(t, runId, '&severity=high'))).toEqual([
      'AIA-HOV-04 evidence_missing high',
      'AIA-HOV-04 obligation_unmet high',
    ]);
    expect(await findingsOf(t, runId, '&controlId=AIA-LIT-02')).toHaveLength(2);
    const one = await t.call('GET', `/v1/audit-engine/findings/${missing.id}`);
    expect(one.body).toMatchObject({ id: missing.id, runId, status: 'open' });

    // A page of 2 and its cursor.
    const page = await t.call('GET', `/v1/audit-engine/findings?runId=${runId}&limit=2`);
    expect(page.body.data).toHaveLength(2);
    const next = await t.call('GET', `/v1/audit-engine/findings?runId=${runId}&limit=2&cursor=${page.body.cursor}`);
    expect(next.body.data).toHaveLength(2);

    const events = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: runId, limit: 50 } });
    expect(events.body.data.map((e: Json) => e.action).sort()).toEqual(['audit.run_completed', 'audit.run_started']);
  });

  it('replays the stored inputs to the same findings', async () => {
    // Evidence added after the run does not change its replay: the inputs are the stored ones.
    await evidence(t, ['AIA-HOV-04'], 'document', daysAgo(1));
    const r = await t.call('POST', '/v1/audit-engine/replay', { body: { runId } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ runId, matched: true, findings: 5, divergences: [], dictionaryVersion: 'eu-ai-act@1.0.0' });
    expect(r.body.replayedHash).toBe(r.body.storedHash);
  });

  it('gives other findings when the data changes', async () => {
    await evidence(t, ['AIA-LIT-02'], 'log', daysAgo(5));
    const att = await t.call('POST', '/v1/compliance/attestations', {
      body: {
        subject: { type: 'control', id: 'AIA-HOV-04' },
        statement: 'Oversight staff were trained and assessed this quarter.',
        attester: { name: 'Dana Keller', email: 'dana.keller@example.com' },
      },
    });
    expect(att.status, JSON.stringify(att.body)).toBe(201);
    const r = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act', scope: 'clause:art-4' } });
    expect(r.status).toBe(202);
    const run = await waitForRun(t, r.body.runId);
    // AIA-HOV-04 now has a document (fresh) and an attestation; AIA-LIT-02 a fresh log: no finding at all.
    expect(run.counts.findings).toBe(0);
    expect(run.counts.controlsPassed).toBe(3);

    // An old attestation on a high-risk control is expired (validity 365 days).
    const old = await t.call('POST', '/v1/compliance/attestations', {
      body: {
        subject: { type: 'control', id: 'AIA-RMS-01' },
        statement: 'The risk-management system was reviewed last year.',
        attester: { name: 'Dana Keller', email: 'dana.keller@example.com' },
        attestedAt: daysAgo(400),
      },
    });
    expect(old.status).toBe(201);
    const r2 = await t.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act', scope: 'AIA-RMS' } });
    expect(r2.status).toBe(202);
    expect(r2.body.controls).toBe(5);
    await waitForRun(t, r2.body.runId);
    const rms = summary(await findingsOf(t, r2.body.runId, '&controlId=AIA-RMS-01'));
    expect(rms).toEqual(['AIA-RMS-01 attestation_expired low', 'AIA-RMS-01 evidence_missing high', 'AIA-RMS-01 obligation_unmet high']);
  });

  it('signs off, then attests, in that order only', async () => {
    const statement = 'I reviewed the findings of this audit and accept the remediation plan.';
    const owner = { name: 'Dana Keller', email: 'dana.keller@example.com', title: 'Head of AI Governance' };
    let r = await t.call('POST', '/v1/audit-engine/attest', { body: { runId, statement: 'The audit ran as recorded.' } });
    expectEnvelope(r, 409, 'conflict');

    const editor = await t.key('editor');
    r = await t.call('POST', '/v1/audit-engine/sign-off', { token: editor, body: { runId, owner, statement } });
    expect(expectEnvelope(r, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'audit_engine:approve' }]);
    r = await t.call('POST', '/v1/audit-engine/sign-off', { body: { runId, owner: { name: 'Dana' }, statement } });
    expectEnvelope(r, 422, 'validation_failed');

    // The owner who signs is the person the key acts for: the tenant's own key is a service key
    // bound to no one, and Dana's key cannot sign in someone else's name.
    r = await t.call('POST', '/v1/audit-engine/sign-off', { body: { runId, owner, statement } });
    expect(expectEnvelope(r, 403, 'forbidden').details).toEqual([expect.objectContaining({ issue: 'service_key' })]);
    const dana = await ownerKey(t, owner);
    const someoneElse = { name: 'Eve Mallory', email: 'eve@example.com' };
    r = await t.call('POST', '/v1/audit-engine/sign-off', { token: dana, body: { runId, owner: someoneElse, statement } });
    expect(expectEnvelope(r, 403, 'forbidden').details).toEqual([
      expect.objectContaining({ field: 'owner.email', issue: 'not_acting_person' }),
    ]);

    r = await t.call('POST', '/v1/audit-engine/sign-off', { token: dana, body: { runId, owner, statement } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ runId, signerRole: 'owner', owner, statement });
    expect(r.body.id).toMatch(/^aso_/);
    const signOffId = r.body.id;
    made['audit.signed_off'] = r.body;
    expectEnvelope(await t.call('POST', '/v1/audit-engine/sign-off', { token: dana, body: { runId, statement } }), 409, 'conflict');

    // An auditor key may attest (`audit_engine:attest`).
    const auditor = await t.key('auditor');
    r = await t.call('POST', '/v1/audit-engine/attest', {
      token: auditor,
      body: { runId, statement: 'The audit ran as recorded and is complete.' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ runId, signOffId });
    expect(r.body.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    made['audit.attested'] = r.body;
    const run = (await t.call('GET', `/v1/audit-engine/runs/${runId}`)).body;
    expect(run).toMatchObject({ status: 'attested', signOffId, attestationId: r.body.id });
    expectEnvelope(
      await t.call('POST', '/v1/audit-engine/attest', { body: { runId, statement: 'Once more for the record.' } }),
      409,
      'conflict',
    );
    // Still replayable once attested.
    expect((await t.call('POST', '/v1/audit-engine/replay', { body: { runId } })).body.matched).toBe(true);
  });

  it('resolves a finding once', async () => {
    const [f] = await findingsOf(t, runId, '&check=evidence_missing');
    const body = { findingId: f?.id, resolution: 'Oversight staffing plan uploaded as evidence.' };
    const r = await t.call('POST', '/v1/audit-engine/findings/resolve', { body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'resolved', resolution: body.resolution });
    expectEnvelope(await t.call('POST', '/v1/audit-engine/findings/resolve', { body }), 409, 'conflict');
    expect(await findingsOf(t, runId, '&status=resolved')).toHaveLength(1);
    made['audit.finding_resolved'] = r.body;
  });

  it('emits its records as the data of the event types it declares', async () => {
    const run = (await t.call('GET', `/v1/audit-engine/runs/${runId}`)).body;
    const [finding] = await findingsOf(t, runId);
    const replay = (await t.call('POST', '/v1/audit-engine/replay', { body: { runId } })).body;
    const records: Record<string, Json> = {
      ...made,
      'audit.run_started': run,
      'audit.run_completed': run,
      'audit.finding_opened': finding as Json,
      'audit.run_replayed': replay,
    };
    for (const [action, resource] of Object.entries(records)) {
      const built = buildEventData({
        tenantId: t.tenantId,
        action,
        resourceType: String(resource.object),
        resourceId: 'x',
        correlationId: 'c',
        resource,
      });
      expect(built?.type, action).toBe(action);
    }
  });

  it("another tenant's run and finding: 404; a tier below enterprise: 403", async () => {
    const other = await createTenant(ts, { tier: 'enterprise' });
    expectEnvelope(await other.call('GET', `/v1/audit-engine/runs/${runId}`), 404, 'not_found');
    const [f] = await findingsOf(t, runId);
    expectEnvelope(await other.call('GET', `/v1/audit-engine/findings/${f?.id}`), 404, 'not_found');
    expectEnvelope(await other.call('POST', '/v1/audit-engine/replay', { body: { runId } }), 404, 'not_found');
    expect((await other.call('GET', `/v1/audit-engine/findings?runId=${runId}`)).body.data).toEqual([]);
    const growth = await createTenant(ts, { tier: 'growth' });
    const r = await growth.call('GET', '/v1/audit-engine/runs');
    expect(expectEnvelope(r, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'enterprise' }]);
  });
});

describe('the OpenAPI document of the rail', () => {
  it('documents every operation with a description and examples of its body and success response', () => {
    const doc = generateOpenApiDocument() as Json;
    const deref = (node: Json): Json => {
      let n = node;
      while (typeof n.$ref === 'string')
        n = (n.$ref as string)
          .slice(2)
          .split('/')
          .reduce<Json>((acc, k) => acc[k] as Json, doc);
      return n;
    };
    const hasExample = (media: Json | undefined) =>
      !!media && (media.example !== undefined || Object.keys(media.examples ?? {}).length > 0);
    const missing: string[] = [];
    const ops = Object.entries(doc.paths as Record<string, Record<string, Json>>)
      .filter(([path]) => path.startsWith('/v1/audit-engine'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const));
    expect(ops).toHaveLength(15);
    for (const [id, op] of ops) {
      if (typeof op.description !== 'string' || op.description.length < 20) missing.push(`${id} description`);
      if (op.requestBody && !hasExample(op.requestBody.content['application/json'])) missing.push(`${id} request example`);
      for (const [status, raw] of Object.entries(op.responses as Record<string, Json>)) {
        if (Number(status) < 400 && !hasExample(deref(raw).content?.['application/json'])) missing.push(`${id} ${status} example`);
      }
    }
    const schemas = doc.components.schemas as Record<string, Json>;
    for (const name of Object.keys(schemas).filter((n) => /^(Audit(Schedule|Run|Finding|SignOff|Attestation)|.*Audit.*Request)/.test(n))) {
      if (!(Array.isArray(schemas[name]?.examples) && schemas[name].examples.length > 0) && schemas[name]?.example === undefined)
        missing.push(`schema ${name}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('requirements of the latest approved gap analysis', () => {
  const A = '/v1/compliance/assessments';
  const shipped = JSON.parse(readFileSync(join(import.meta.dirname, '../packages/server/content/audit-engine/rules.json'), 'utf8')) as {
    severities: { requirement_not_met: Record<string, string | null> };
    partiallyCompliantSeverities: Record<string, string | null>;
  };
  const as = (token: string, method: string, path: string, body?: unknown) => call(ts.url, method, path, { token, body });
  async function person(f: TenantFixture, name: string): Promise<{ id: string; token: string }> {
    const res = await f.call('POST', '/v1/stakeholders/users', {
      body: { name, email: `${name.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com`, roleIds: [] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id, token: await f.personKey(res.body.id) };
  }
  async function runOver(f: TenantFixture, scope: string): Promise<Json[]> {
    const r = await f.call('POST', '/v1/audit-engine/run', { body: { framework: 'nist-ssdf', scope } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect((await waitForRun(f, r.body.runId)).status).toBe('completed');
    return (await findingsOf(f, r.body.runId, '&check=requirement_not_met')).sort((x, y) => (x.controlId < y.controlId ? -1 : 1));
  }

  it('a control the approved gap analysis found non-compliant or partial is a finding citing it; before approval, none', async () => {
    const g = await createTenant(ts, { tier: 'enterprise' });
    const ana = await person(g, 'Ana');
    const ben = await person(g, 'Ben');
    expect((await g.call('POST', '/v1/frameworks/nist-ssdf/activate', { body: {} })).status).toBeLessThan(300);
    const created = await g.call('POST', A, {
      body: { type: 'gap-analysis', systemId: 'sys_build', jurisdiction: 'us/us', framework: 'nist-ssdf' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const reqs = (await collectPages<Json>(g, `${A}/${id}/questions`)).filter((q) => q.kind === 'requirement');
    const [bad, half, ...rest] = reqs as [Json, Json, ...Json[]];
    const put = (q: Json, body: Json) => as(ana.token, 'PUT', `${A}/${id}/questions/${q.key}/answer`, body);
    expect((await put(bad, { value: 'non_compliant', notes: 'No threat model.' })).status).toBe(200);
    expect((await put(half, { value: 'partially_compliant', notes: 'Half the repositories.' })).status).toBe(200);
    for (const q of rest) expect((await put(q, { value: 'compliant' })).status).toBe(200);
    // Every required question answered (requirements are; anything else still open gets a plain answer).
    const open = await collectPages<Json>(g, `${A}/${id}/questions?required=true&answered=false`);
    for (const q of open) expect((await put(q, { value: q.kind === 'yes_no' ? 'yes' : `Answer to ${q.key}.` })).status).toBe(200);
    const submitted = await as(ana.token, 'POST', `${A}/${id}/submit`, {});
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

    // Submitted, not approved: the run does not read it.
    expect(await runOver(g, 'all')).toEqual([]);

    const approved = await as(ben.token, 'POST', `${A}/${id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const fs = await runOver(g, 'all');
    expect(fs.map((f) => [f.controlId, f.facts.requirement])).toEqual(
      [
        [bad.control, 'non_compliant'],
        [half.control, 'partially_compliant'],
      ].sort((x, y) => (x[0] < y[0] ? -1 : 1)),
    );
    for (const f of fs) {
      const full = f.facts.requirement === 'non_compliant';
      expect(f.severity).toBe((full ? shipped.severities.requirement_not_met : shipped.partiallyCompliantSeverities)[f.facts.tier]);
      expect(f.facts).toMatchObject({
        assessment: { id, approvedAt: approved.body.approvedAt, systemId: 'sys_build' },
        source: `gap-analysis:${id}`,
      });
      expect(f.title).toContain(full ? 'non-compliant' : 'partially compliant');
    }
    // Another AI system's audit does not count this system's gap analysis.
    expect(await runOver(g, 'system:sys_other')).toEqual([]);
    expect((await runOver(g, 'system:sys_build')).map((f) => f.controlId)).toEqual(fs.map((f) => f.controlId));
  }, 180_000);
});

describe('schedules', () => {
  it('creates, ticks once per due time, pauses, resumes and deletes', async () => {
    let r = await t.call('POST', '/v1/audit-engine/schedules', {
      body: { framework: 'eu-ai-act', scope: 'family:AIA-LIT', cron: '61 * * * *' },
    });
    expect(expectEnvelope(r, 422, 'validation_failed').details[0].field).toBe('cron');
    r = await t.call('POST', '/v1/audit-engine/schedules', {
      body: { framework: 'eu-ai-act', scope: 'family:AIA-LIT', cron: '*/5 * * * * *' },
    });
    expect(expectEnvelope(r, 422, 'validation_failed').details[0].field).toBe('cron');

    r = await t.call('POST', '/v1/audit-engine/schedules', {
      body: { framework: 'eu-ai-act', scope: 'family:AIA-LIT', cron: '0 6 * * 1' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const s = r.body;
    expect(
      buildEventData({
        tenantId: t.tenantId,
        action: 'audit.schedule_created',
        resourceType: s.object,
        resourceId: s.id,
        correlationId: 'c',
        resource: s,
      })?.type,
    ).toBe('audit.schedule_created');
    expect(s).toMatchObject({ status: 'active', cron: '0 6 * * 1', lastRunId: null });
    const due = new Date(s.nextRunAt);
    expect(due.getUTCDay()).toBe(1);
    expect(due.getUTCHours()).toBe(6);
    expect(due.getTime()).toBeGreaterThan(Date.now());
    expect(due.getTime() - Date.now()).toBeLessThanOrEqual(7 * DAY);

    // The tick of that due time is queued under `<scheduleId>@<due>`; bring it forward to now.
    const prisma = ts.server.db.prisma;
    const tick = await prisma.job.findFirst({ where: { tenantId: t.tenantId, dedupeKey: `${s.id}@${s.nextRunAt}` } });
    expect(tick?.kind).toBe('audit.schedule_tick');
    await prisma.job.update({ where: { id: tick?.id as string }, data: { runAt: new Date() } });

    const until = Date.now() + 30_000;
    let runs: Json[] = [];
    while (Date.now() < until) {
      runs = (await t.call('GET', `/v1/audit-engine/runs?scheduleId=${s.id}`)).body.data;
      if (runs.length > 0 && runs[0]?.status !== 'running') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', scope: 'family:AIA-LIT', scheduleId: s.id, controls: 2 });
    const after = (await t.call('GET', `/v1/audit-engine/schedules/${s.id}`)).body;
    expect(after.lastRunId).toBe(runs[0]?.id);
    // The next tick is the Monday after.
    expect(Date.parse(after.nextRunAt) - due.getTime()).toBe(7 * DAY);
    const nextTick = await prisma.job.findFirst({ where: { tenantId: t.tenantId, dedupeKey: `${s.id}@${after.nextRunAt}` } });
    expect(nextTick?.status).toBe('queued');

    r = await t.call('POST', `/v1/audit-engine/schedules/${s.id}/pause`);
    expect(r.body).toMatchObject({ status: 'paused', nextRunAt: null });
    expectEnvelope(await t.call('POST', `/v1/audit-engine/schedules/${s.id}/pause`), 409, 'conflict');
    r = await t.call('POST', `/v1/audit-engine/schedules/${s.id}/resume`);
    expect(r.body).toMatchObject({ status: 'active', nextRunAt: after.nextRunAt });
    r = await t.call('DELETE', `/v1/audit-engine/schedules/${s.id}`);
    expect(r.body.status).toBe('deleted');
    expectEnvelope(await t.call('DELETE', `/v1/audit-engine/schedules/${s.id}`), 409, 'conflict');

    const list = await t.call('GET', '/v1/audit-engine/schedules?status=deleted');
    expect(list.body.data.map((x: Json) => x.id)).toContain(s.id);
    const other = await createTenant(ts, { tier: 'enterprise' });
    expectEnvelope(await other.call('GET', `/v1/audit-engine/schedules/${s.id}`), 404, 'not_found');
  });
});

describe('a run whose worker died', () => {
  /**
   * Server A serves the API only (no worker). Its run's job is marked claimed by a process that
   * died, with a 2 s lease; a worker on the same database (server B on PostgreSQL, a worker
   * started on A's database on PGlite, where a data folder cannot be shared between processes)
   * claims it again once the lease runs out and completes the run.
   */
  it('is resumed once the lease runs out', async () => {
    const a = await startIsolatedTestServer({ SVC_ROLE: 'api', SVC_JOB_LEASE_SECONDS: '2' });
    let b: TestServer | undefined;
    let stopWorker: (() => Promise<void>) | undefined;
    try {
      const ta = await createTenant(a, { tier: 'enterprise' });
      await ta.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
      const r = await ta.call('POST', '/v1/audit-engine/run', { body: { framework: 'eu-ai-act', scope: 'family:AIA-LIT' } });
      expect(r.status).toBe(202);
      const runId = r.body.runId;
      const prisma = a.server.db.prisma;
      const job = await prisma.job.findFirst({ where: { tenantId: ta.tenantId, kind: 'audit.run' } });
      expect(job?.payload).toEqual({ runId });
      await prisma.job.update({
        where: { id: job?.id as string },
        data: { status: 'running', attempts: 1, lockedBy: 'dead-process', lockedUntil: new Date(Date.now() + 2000) },
      });

      // Not completed, so neither replayed nor signed off.
      expectEnvelope(await ta.call('POST', '/v1/audit-engine/replay', { body: { runId } }), 409, 'conflict');
      const owner = { name: 'Dana Keller', email: 'dana.keller@example.com' };
      const dana = await ownerKey(ta, owner);
      expectEnvelope(
        await ta.call('POST', '/v1/audit-engine/sign-off', {
          token: dana,
          body: { runId, owner, statement: 'Signing a run that is still running.' },
        }),
        409,
        'conflict',
      );

      const aUrl = (a as { databaseUrl?: string }).databaseUrl;
      if (aUrl) {
        b = await startTestServer({ DATABASE_URL: aUrl, SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '100', SVC_JOB_LEASE_SECONDS: '2' });
      } else {
        const worker = startJobWorker({ prisma, log: a.server.log, handlers: auditEngineJobs, pollMs: 100, leaseSeconds: 2 });
        stopWorker = () => worker.stop();
      }
      const run = await waitForRun(ta, runId, 30_000);
      expect(run.status).toBe('completed');
      expect(run.counts).toMatchObject({ controls: 2, findings: 4 });
      const done = await prisma.job.findFirst({ where: { id: job?.id as string } });
      expect(done).toMatchObject({ status: 'done', attempts: 2 });
    } finally {
      await stopWorker?.();
      await b?.close();
      await a.close();
    }
  }, 240_000);
});
