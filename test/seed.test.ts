import { contract, type Tier } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
const sandbox = (name?: string) => createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000, ...(name ? { name } : {}) });

beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

/** Controls of one activated dictionary, read through the frameworks rail. */
async function controlsOf(t: TenantFixture, framework: string): Promise<Set<string>> {
  const controls = await collectPages<{ id: string }>(t, `/v1/frameworks/${framework}/controls`);
  return new Set(controls.map((c) => c.id));
}

describe('seed: tier gate', () => {
  const routes: Array<[string, string]> = [
    ['POST', '/v1/seed/tenants'],
    ['POST', '/v1/seed/frameworks'],
    ['POST', '/v1/seed/evidence'],
    ['POST', '/v1/seed/reset'],
    ['GET', '/v1/seed/demo-tour'],
  ];
  for (const tier of ['starter', 'growth', 'specialist', 'enterprise'] as Tier[]) {
    it(`a ${tier} tenant gets 403 on every route and keeps its data`, async () => {
      const t = await createTenant(ts, { tier, rateLimitPerSecond: 100_000 });
      expect((await t.call('POST', '/v1/frameworks/gdpr/activate', { body: {} })).status).toBe(201);
      for (const [method, path] of routes) {
        const res = await t.call(method, path, {
          ...(method === 'POST' ? { body: {}, headers: { 'idempotency-key': `k-${path}` } } : {}),
        });
        expectEnvelope(res, 403, 'forbidden');
      }
      const fw = await t.call('GET', '/v1/compliance/frameworks?activated=true');
      expect(fw.body.data.map((f: { id: string }) => f.id)).toEqual(['gdpr']);
    });
  }
});

describe('seed: frameworks and evidence', () => {
  it('activates the chosen dictionaries through the frameworks service, with obligations and audit events', async () => {
    const t = await sandbox();
    const res = await t.call('POST', '/v1/seed/frameworks', { body: { frameworks: ['gdpr', 'nis2'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'svc.seed.frameworks', activated: 2, alreadyActive: 0 });
    const obligations = await collectPages<{ framework: string }>(t, '/v1/compliance/obligations');
    expect(res.body.obligations).toBe(obligations.length);
    expect(new Set(obligations.map((o) => o.framework))).toEqual(new Set(['gdpr', 'nis2']));
    const audit = await collectPages<{ action: string }>(t, '/v1/audit-trail/events');
    expect(audit.filter((e) => e.action === 'framework.activated')).toHaveLength(2);
    // Again: nothing new, both already active.
    const again = await t.call('POST', '/v1/seed/frameworks', { body: { frameworks: ['gdpr'] } });
    expect(again.body).toMatchObject({ activated: 0, alreadyActive: 1, obligations: 0 });
    expectEnvelope(await t.call('POST', '/v1/seed/frameworks', { body: { frameworks: ['no-such-law'] } }), 404, 'not_found');
  });

  it('the default set is eu-ai-act and gdpr', async () => {
    const t = await sandbox();
    const res = await t.call('POST', '/v1/seed/frameworks', {});
    expect(res.status).toBe(200);
    expect(res.body.activations.map((a: { framework: string }) => a.framework)).toEqual(['eu-ai-act', 'gdpr']);
  });

  it('evidence cites real controls of the activated frameworks only, for systems, and is audited and sent to webhooks', async () => {
    const t = await sandbox();
    expectEnvelope(await t.call('POST', '/v1/seed/evidence', { body: { count: 3 } }), 409, 'conflict');
    await t.call('POST', '/v1/seed/frameworks', { body: { frameworks: ['gdpr', 'dora'] } });
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/seed', eventTypes: ['evidence.uploaded'] },
    });
    expect(sub.status).toBe(201);
    const res = await t.call('POST', '/v1/seed/evidence', { body: { count: 7, systemIds: ['sys_a', 'sys_b'] } });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(7);
    const gdpr = await controlsOf(t, 'gdpr');
    const dora = await controlsOf(t, 'dora');
    const cited = res.body.evidence.flatMap((e: { controlIds: string[] }) => e.controlIds) as string[];
    for (const c of cited) expect(gdpr.has(c) || dora.has(c)).toBe(true);
    // Spread across both activated frameworks and the given systems.
    expect(cited.some((c) => gdpr.has(c))).toBe(true);
    expect(cited.some((c) => dora.has(c))).toBe(true);
    expect(new Set(res.body.evidence.map((e: { systemId: string }) => e.systemId))).toEqual(new Set(['sys_a', 'sys_b']));
    // Stored as compliance evidence: readable there and filterable by the cited control.
    const stored = await collectPages<{ id: string }>(t, '/v1/compliance/evidence');
    expect(stored.map((e) => e.id).sort()).toEqual(res.body.evidence.map((e: { id: string }) => e.id).sort());
    const one = await t.call('GET', `/v1/compliance/evidence?controlId=${cited[0]}`);
    expect(one.body.data.length).toBeGreaterThanOrEqual(1);
    const audit = await collectPages<{ action: string; resourceId: string }>(t, '/v1/audit-trail/events');
    expect(audit.filter((e) => e.action === 'evidence.uploaded')).toHaveLength(7);
    const deliveries = await collectPages<{ eventType: string }>(t, '/v1/webhook-deliveries');
    expect(deliveries.filter((d) => d.eventType === 'evidence.uploaded')).toHaveLength(7);
    // With only gdpr activated in another tenant, every citation is a gdpr control.
    const g = await sandbox();
    await g.call('POST', '/v1/seed/frameworks', { body: { frameworks: ['gdpr'] } });
    const only = await g.call('POST', '/v1/seed/evidence', { body: { count: 4 } });
    for (const e of only.body.evidence as { controlIds: string[] }[]) for (const c of e.controlIds) expect(gdpr.has(c)).toBe(true);
  });

  it('the count is bounded', async () => {
    const t = await sandbox();
    expectEnvelope(await t.call('POST', '/v1/seed/evidence', { body: { count: 51 } }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/seed/evidence', { body: { count: 0 } }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/seed/evidence', { body: { other: 1 } }), 422, 'validation_failed');
  });

  it('seeds the calling tenant as a whole, and no other tenant', async () => {
    const t = await sandbox();
    const res = await t.call('POST', '/v1/seed/tenants', { body: { frameworks: ['eu-ai-act'], assessments: 2, evidence: 5 } });
    expect(res.status).toBe(200);
    expect(res.body.tenantId).toBe(t.tenantId);
    expect(res.body.frameworks.activated).toBe(1);
    expect(res.body.assessments).toHaveLength(2);
    expect(res.body.evidence.created).toBe(5);
    expect((await collectPages(t, '/v1/compliance/assessments')).length).toBe(2);
    expect((await collectPages(t, '/v1/compliance/evidence')).length).toBe(5);
    const audit = await collectPages<{ action: string }>(t, '/v1/audit-trail/events');
    expect(audit.filter((e) => e.action === 'seed.tenant_seeded')).toHaveLength(1);
    expect(audit.filter((e) => e.action === 'assessment.created')).toHaveLength(2);
  });
});

describe('seed: reset', () => {
  it('deletes exactly what the tenant had, keeps the audit trail verifiable, and a second reset is 0', async () => {
    const t = await sandbox();
    const other = await sandbox();
    await other.call('POST', '/v1/seed/tenants', { body: { frameworks: ['gdpr'], assessments: 1, evidence: 3 } });
    const otherEvidence = await collectPages(other, '/v1/compliance/evidence');
    const otherObligations = await collectPages(other, '/v1/compliance/obligations');

    await t.call('POST', '/v1/seed/frameworks', { body: { frameworks: ['gdpr'] } });
    await t.call('POST', '/v1/seed/evidence', { body: { count: 4 } });
    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_x', jurisdiction: 'eu/de' } });
    expect(asm.status).toBe(201);
    const obligations = await collectPages(t, '/v1/compliance/obligations');
    const events = await collectPages(t, '/v1/events');
    expect(events.length).toBeGreaterThan(0);
    const auditBefore = await collectPages<{ seq: number }>(t, '/v1/audit-trail/events');

    const reset = await t.call('POST', '/v1/seed/reset', { body: {} });
    expect(reset.status).toBe(200);
    expect(reset.body.status).toBe('reset');
    const expected: Record<string, number> = {
      frameworkActivation: 1,
      obligation: obligations.length,
      evidence: 4,
      assessment: 1,
      // The shipped routing rule sends `evidence.*` to the evidence-compiler agent: one queued dispatch per record.
      agentDispatch: 4,
    };
    expect(reset.body.tables).toEqual(expected);
    expect(reset.body.deletedRecords).toBe(Object.values(expected).reduce((a, b) => a + b, 0));

    // The data is gone...
    expect(await collectPages(t, '/v1/compliance/obligations')).toHaveLength(0);
    expect(await collectPages(t, '/v1/compliance/evidence')).toHaveLength(0);
    expect(await collectPages(t, '/v1/compliance/assessments')).toHaveLength(0);
    expect((await t.call('GET', `/v1/compliance/assessments/${asm.body.id}`)).status).toBe(404);
    // ...the audit trail is intact, records the reset with its counts, and verifies.
    const auditAfter = await collectPages<{ seq: number; action: string; id: string; data: Record<string, unknown> }>(
      t,
      '/v1/audit-trail/events',
    );
    expect(auditAfter.length).toBe(auditBefore.length + 1);
    const resetEvent = auditAfter.find((e) => e.action === 'seed.reset');
    expect(resetEvent?.id).toBe(reset.body.auditEventId);
    expect(resetEvent?.data).toMatchObject({ deletedRecords: reset.body.deletedRecords, tables: expected });
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.status).toBe(200);
    expect(replay.body.valid).toBe(true);
    expect(replay.body.checked).toBe(auditAfter.length);
    // The event index is append-only and kept too.
    expect(await collectPages(t, '/v1/events')).toHaveLength(events.length);
    // The key still works (it was kept).
    expect((await t.call('GET', '/v1/seed/demo-tour')).status).toBe(200);

    // A second reset finds nothing.
    const second = await t.call('POST', '/v1/seed/reset', { body: {} });
    expect(second.body).toMatchObject({ status: 'reset', deletedRecords: 0, tables: {} });
    expect((await t.call('POST', '/v1/audit-trail/replay', { body: {} })).body.valid).toBe(true);

    // The other tenant is untouched.
    expect(await collectPages(other, '/v1/compliance/evidence')).toHaveLength(otherEvidence.length);
    expect(await collectPages(other, '/v1/compliance/obligations')).toHaveLength(otherObligations.length);
    expect(otherEvidence.length).toBe(3);
  });

  it('a reader may not reset', async () => {
    const t = await sandbox();
    const viewer = await t.key('viewer');
    const res = await fetch(`${ts.url}/v1/seed/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });
});

describe('seed: demo tour', () => {
  it('walks real routes of the contract and marks what the tenant has done', async () => {
    const t = await sandbox();
    const fresh = await t.call('GET', '/v1/seed/demo-tour');
    expect(fresh.status).toBe(200);
    const steps = fresh.body.steps as { key: string; method: string; path: string; body: unknown; done: boolean; order: number }[];
    expect(steps.map((s) => s.order)).toEqual(steps.map((_, i) => i + 1));
    expect(fresh.body.next).toBe('browse-frameworks');
    // Every step is a route the contract declares.
    const routes = Object.values(contract).flatMap((rail) =>
      Object.values(rail as Record<string, unknown>).flatMap((r) =>
        r && typeof r === 'object' && 'method' in r
          ? [r as { method: string; path: string }]
          : Object.values(r as Record<string, { method: string; path: string }>),
      ),
    );
    for (const s of steps) {
      const path = s.path.split('?')[0] as string;
      const match = routes.some((r) => r.method === s.method && new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(path));
      expect(match, `${s.method} ${s.path}`).toBe(true);
    }

    // Following the first steps for real marks them done.
    const activate = steps.find((s) => s.key === 'activate-framework');
    expect(activate?.path).toBe('/v1/frameworks/eu-ai-act/activate');
    expect((await t.call('POST', activate?.path as string, { body: activate?.body })).status).toBe(201);
    const after = await t.call('GET', '/v1/seed/demo-tour');
    const create = (after.body.steps as typeof steps).find((s) => s.key === 'create-assessment');
    expect((await t.call('POST', create?.path as string, { body: create?.body })).status).toBe(201);
    const evidenceStep = (after.body.steps as typeof steps).find((s) => s.key === 'record-evidence');
    expect((await t.call('POST', evidenceStep?.path as string, { body: evidenceStep?.body })).status).toBe(201);
    const done = await t.call('GET', '/v1/seed/demo-tour');
    const byKey = Object.fromEntries((done.body.steps as typeof steps).map((s) => [s.key, s.done]));
    expect(byKey).toMatchObject({
      'activate-framework': true,
      'list-obligations': true,
      'create-assessment': true,
      'record-evidence': true,
      'start-assessment': false,
      'attest-control': false,
    });
    expect(done.body.completed).toBeGreaterThan(fresh.body.completed);
    expect(done.body.next).toBe('start-assessment');
  });
});
