import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../packages/server/src/agents/defs/data-risk-search.ts';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The data, risk and search agents: hand-worked answers, answers that follow the tenant's data,
 * 422 for an input the agent cannot work with, 404 for another tenant's record, and replays that
 * reproduce the decision from its stored facts.
 */
let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;

type Json = Record<string, any>;

beforeAll(async () => {
  ts = await startTestServer();
  [t, other] = await Promise.all([createTenant(ts, { tier: 'growth' }), createTenant(ts, { tier: 'growth' })]);
});
afterAll(() => ts?.close());

async function invoke(slug: string, body: Json, who = t): Promise<Json> {
  const res = await who.call('POST', `/v1/agents/${slug}/invoke`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ object: 'svc.agents.decision', agent: slug });
  return res.body;
}

async function created(who: TenantFixture, path: string, body: Json): Promise<Json> {
  const res = await who.call('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function expectReplayed(decisionId: string) {
  const res = await t.call('GET', `/v1/agents/decisions/${decisionId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.replay).toMatchObject({ reproduced: true, intact: true });
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe('risk-officer', () => {
  it('recomputes 4x5 with an implemented treatment to 2x5 = 10 and drafts the catalogue plan; ranks a new risk first', async () => {
    const empty = await invoke('risk-officer', { limit: 5 });
    expect(empty.summary).toMatchObject({ risks: 0, aboveAppetite: 0 });
    expect(empty.topRisks).toEqual([]);

    const risk = await created(t, '/v1/risk-register/risks', {
      title: 'Biased scoring',
      domain: 'ai',
      inherentLikelihood: 4,
      inherentImpact: 5,
    });
    const tr = await created(t, '/v1/risk-register/treatments', {
      riskId: risk.id,
      type: 'mitigate',
      description: 'Bias test',
      likelihoodReduction: 2,
    });
    const done = await t.call('POST', `/v1/risk-register/treatments/${tr.id}/implement`, { body: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    const one = await invoke('risk-officer', {});
    expect(one.summary).toMatchObject({ risks: 1, open: 1, aboveAppetite: 1 });
    expect(one.summary.inherent).toEqual({ low: 0, medium: 0, high: 0, critical: 1 });
    expect(one.summary.residual).toEqual({ low: 0, medium: 0, high: 1, critical: 0 });
    const top = one.topRisks[0];
    expect(top).toMatchObject({
      rank: 1,
      riskId: risk.id,
      inherent: { likelihood: 4, impact: 5, score: 20, band: 'critical' },
      residual: { likelihood: 2, impact: 5, score: 10, band: 'high' },
      controlEffectiveness: 0.5,
      priority: 12,
    });
    // The ai catalogue: likelihood -2 gives 1x5 = 5, impact -1 gives 2x4 = 8: the first wins.
    expect(top.plan).toMatchObject({
      option: 'mitigate',
      source: 'catalogue',
      projected: { score: 5, band: 'medium' },
      withinAppetite: true,
    });
    expect(top.plan.targetDate).toBe(new Date(Date.parse(one.createdAt) + 60 * 86_400_000).toISOString().slice(0, 10));

    const worse = await created(t, '/v1/risk-register/risks', {
      title: 'Key leak',
      domain: 'security',
      inherentLikelihood: 5,
      inherentImpact: 5,
    });
    const two = await invoke('risk-officer', { limit: 1 });
    expect(two.summary.risks).toBe(2);
    expect(two.topRisks.map((r: Json) => r.riskId)).toEqual([worse.id]);
    expect(two.topRisks[0].priority).toBe(27.5);
    await expectReplayed(two.decisionId);

    const bad = expectEnvelope(await t.call('POST', '/v1/agents/risk-officer/invoke', { body: { limit: 0 } }), 422, 'validation_failed');
    expect(bad.details[0].field).toBe('limit');
  });
});

describe('data-classifier', () => {
  it('classifies fields by the dictionary and flags special-category data', async () => {
    const res = await invoke('data-classifier', {
      fields: [
        { name: 'email', sample: 'ana@example.com' },
        { name: 'diagnosis_code', description: 'ICD-10 diagnosis of the patient' },
        { name: 'favourite_colour' },
      ],
    });
    expect(res.jurisdiction).toBe('eu');
    expect(res.fields.map((f: Json) => [f.name, f.level, f.specialCategory])).toEqual([
      ['email', 'confidential', false],
      ['diagnosis_code', 'regulated', true],
      ['favourite_colour', 'internal', false],
    ]);
    expect(res.fields[1]).toMatchObject({
      categories: ['health'],
      retentionFloorDays: 3650,
      specialCategoryBasis: 'GDPR Art. 9(1) data concerning health',
    });
    expect(res.fields[1].lawfulBasis).toContain('Art. 9(2)(h)');
    expect(res.overall).toMatchObject({ level: 'regulated', specialCategory: true, retentionFloorDays: 3650 });
    expect(res.overall.counts).toEqual({ public: 0, internal: 1, confidential: 1, restricted: 0, regulated: 1 });

    const payroll = await invoke('data-classifier', {
      datasetDescription: 'Payroll with salary and trade union membership',
      jurisdiction: 'br',
    });
    expect(payroll.fields[0]).toMatchObject({ level: 'regulated', specialCategory: true, categories: ['trade-union', 'financial'] });
    expect(payroll.overall.lawfulBasis).toMatch(/^LGPD Art. 11/);

    const none = expectEnvelope(
      await t.call('POST', '/v1/agents/data-classifier/invoke', { body: { jurisdiction: 'eu' } }),
      422,
      'validation_failed',
    );
    expect(none.details[0].field).toBe('fields');
    const where = expectEnvelope(
      await t.call('POST', '/v1/agents/data-classifier/invoke', { body: { fields: [{ name: 'x' }], jurisdiction: 'mars' } }),
      422,
      'validation_failed',
    );
    expect(where.details[0].field).toBe('jurisdiction');
  });
});

describe('data-mapper and dsar-handler', () => {
  let crm: Json;

  it('maps stores into weighted hot spots, inferred and declared edges, and cross-border transfers', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    expect((await invoke('data-mapper', {}, u)).stores).toBe(0);
    crm = await created(u, '/v1/dsar/stores', {
      name: 'Customer CRM',
      system: 'Salesforce',
      kind: 'crm',
      categories: ['contact', 'purchase-history'],
      subjectTypes: ['customer', 'prospect'],
    });
    const backup = await created(u, '/v1/dsar/stores', {
      name: 'Nightly backup',
      system: 'S3',
      kind: 'backup',
      categories: ['contact', 'health'],
    });
    const sub = await created(u, '/v1/trust/sub-processors', { name: 'Support desk', purpose: 'Support tickets', region: 'in' });
    const map = await invoke('data-mapper', { flows: [{ from: crm.id, to: sub.id, categories: ['contact'] }] }, u);
    expect(map.stores).toBe(2);
    // backup: regulated (health) 5 x high 3 x customer 1 = 15; CRM: confidential 3 x medium 2 x (customer + prospect) 2 = 12.
    expect(map.hotspots.map((h: Json) => [h.storeId, h.level, h.risk])).toEqual([
      [backup.id, 'regulated', 15],
      [crm.id, 'confidential', 12],
    ]);
    expect(map.edges).toContainEqual(
      expect.objectContaining({ from: crm.id, to: backup.id, origin: 'inferred', categories: ['contact'], crossBorder: false }),
    );
    expect(map.crossBorder).toEqual([
      { from: crm.id, to: sub.id, fromRegion: 'eu', toRegion: 'in', mechanism: expect.stringContaining('Standard contractual clauses') },
    ]);
    expect(map.concentration[0]).toEqual({ category: 'contact', stores: 2, storeIds: [crm.id, backup.id].sort() });

    const foreign = await created(other, '/v1/dsar/stores', { name: 'Other', system: 'X', kind: 'database', categories: ['contact'] });
    expectEnvelope(
      await u.call('POST', '/v1/agents/data-mapper/invoke', { body: { flows: [{ from: crm.id, to: foreign.id }] } }),
      404,
      'not_found',
    );
  });

  it('computes the GDPR due date of 31 January as 28 February and enumerates the stores', async () => {
    const hypo = await invoke('dsar-handler', { jurisdiction: 'gdpr', receivedAt: '2025-01-31T09:00:00.000Z', kind: 'access' });
    expect(hypo.sla).toMatchObject({ dueDate: '2025-02-28', source: 'GDPR Art. 12(3)', state: 'overdue', extensionAvailable: '2 months' });
    expect(hypo).toMatchObject({ requestId: null, priority: 'urgent', signOff: { required: true, role: 'data protection officer' } });
    const ccpa = await invoke('dsar-handler', { jurisdiction: 'ccpa', receivedAt: '2025-01-31T09:00:00.000Z', kind: 'access' });
    expect(ccpa.sla.dueDate).toBe('2025-03-17');

    const before = await invoke('dsar-handler', { jurisdiction: 'gdpr', receivedAt: daysAgo(1), kind: 'erasure' });
    expect(before.sla.state).toBe('on_track');
    const store = await created(t, '/v1/dsar/stores', {
      name: 'Orders',
      system: 'Postgres',
      kind: 'database',
      categories: ['contact', 'orders'],
    });
    const req = await created(t, '/v1/dsar/requests', {
      regime: 'gdpr',
      kind: 'erasure',
      subject: { name: 'Jana Novak' },
      receivedAt: daysAgo(1),
    });
    const after = await invoke('dsar-handler', { requestId: req.id });
    expect(after.requestId).toBe(req.id);
    expect(after.stores.map((s: Json) => s.storeId)).toEqual([store.id]);
    expect(after.stores[0].action).toMatch(/^Delete or anonymise/);
    expect(after.packet.sections.length).toBeGreaterThan(1);
    await expectReplayed(after.decisionId);

    const missing = expectEnvelope(
      await t.call('POST', '/v1/agents/dsar-handler/invoke', { body: { jurisdiction: 'gdpr', kind: 'access' } }),
      422,
      'validation_failed',
    );
    expect(missing.details[0].field).toBe('receivedAt');
    const wrongKind = expectEnvelope(
      await t.call('POST', '/v1/agents/dsar-handler/invoke', { body: { jurisdiction: 'gdpr', kind: 'opt-out', receivedAt: daysAgo(1) } }),
      422,
      'validation_failed',
    );
    expect(wrongKind.details[0].field).toBe('kind');
    const theirs = await created(other, '/v1/dsar/requests', { regime: 'gdpr', kind: 'access', subject: { name: 'X' } });
    expectEnvelope(await t.call('POST', '/v1/agents/dsar-handler/invoke', { body: { requestId: theirs.id } }), 404, 'not_found');
  });
});

describe('analytics-insight', () => {
  it('finds a one-day spike with z = sqrt(29) over 30 days', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    const quiet = await invoke('analytics-insight', { days: 30 }, u);
    expect(quiet.window.days).toBe(30);
    expect(quiet.anomalies.filter((a: Json) => a.kind === 'model.spiked')).toEqual([]);
    for (let i = 0; i < 6; i++) {
      await created(u, '/v1/events', {
        source: 'ci.pipeline',
        kind: 'model.spiked',
        phase: 'completed',
        severity: 'info',
        actor: 'bot',
        entity: 'sys_a',
        action: 'spike',
        outcome: 'success',
        correlationId: `c-${i}`,
      });
    }
    const loud = await invoke('analytics-insight', { days: 30 }, u);
    const spike = loud.anomalies.find((a: Json) => a.kind === 'model.spiked');
    // One day of 6 in 30: mean 0.2, population sd 6 x sqrt(29) / 30, z = 29 / sqrt(29) = sqrt(29).
    expect(spike).toMatchObject({ count: 6, mean: 0.2, z: 5.3852 });
    expect(loud.kinds.find((k: Json) => k.kind === 'model.spiked')).toMatchObject({ total: 6, perDay: 0.2 });
    expect(loud.insights.length).toBeGreaterThan(0);
    expectEnvelope(await u.call('POST', '/v1/agents/analytics-insight/invoke', { body: { days: 91 } }), 422, 'validation_failed');
  });
});

describe('bias-evaluator and explainability-narrator', () => {
  it('flags a disparate impact of 0.6 / 0.8 = 0.75 under the four-fifths rule, not 0.7 / 0.8', async () => {
    const res = await invoke('bias-evaluator', {
      protectedAttribute: 'sex',
      groups: [
        { name: 'male', selected: 80, total: 100, truePositives: 45, positives: 50 },
        { name: 'female', selected: 60, total: 100, truePositives: 35, positives: 50 },
      ],
    });
    expect(res.metrics).toEqual({ demographicParityDifference: 0.2, disparateImpactRatio: 0.75, equalOpportunityDifference: 0.2 });
    expect(res.verdict).toBe('flagged');
    expect(res.groups[1]).toMatchObject({ name: 'female', impactRatio: 0.75, flags: ['four_fifths', 'parity'] });
    expect(res.citations.map((c: Json) => c.ref)).toEqual(['art-10-2', 'art-15']);
    expect(res.summary).toContain('75% of the rate of male');

    const fair = await invoke('bias-evaluator', {
      protectedAttribute: 'sex',
      groups: [
        { name: 'male', selected: 80, total: 100 },
        { name: 'female', selected: 70, total: 100 },
      ],
    });
    expect(fair.metrics).toMatchObject({ disparateImpactRatio: 0.875, demographicParityDifference: 0.1, equalOpportunityDifference: null });
    expect(fair.verdict).toBe('pass');

    const over = expectEnvelope(
      await t.call('POST', '/v1/agents/bias-evaluator/invoke', {
        body: {
          protectedAttribute: 'sex',
          groups: [
            { name: 'a', selected: 5, total: 10 },
            { name: 'b', selected: 11, total: 10 },
          ],
        },
      }),
      422,
      'validation_failed',
    );
    expect(over.details[0].field).toBe('groups.1.selected');
    const noAttr = expectEnvelope(
      await t.call('POST', '/v1/agents/bias-evaluator/invoke', { body: { groups: [{ name: 'a', selected: 1, total: 2 }] } }),
      422,
      'validation_failed',
    );
    expect(noAttr.details.map((d: Json) => d.field)).toContain('protectedAttribute');
  });

  it('ranks attributions by magnitude with shares and cites Art. 13 and 86', async () => {
    const res = await invoke('explainability-narrator', {
      method: 'shap',
      prediction: 0.82,
      baseline: 0.4,
      attributions: [
        { feature: 'tenure_months', value: 0.1 },
        { feature: 'income', value: 0.3 },
        { feature: 'debt_ratio', value: -0.1 },
      ],
    });
    expect(res.features.map((f: Json) => [f.feature, f.share, f.direction])).toEqual([
      ['income', 0.6, 'raises'],
      ['debt_ratio', 0.2, 'lowers'],
      ['tenure_months', 0.2, 'raises'],
    ]);
    expect(res.explainedDelta).toBe(0.3);
    // 0.3 explained against 0.42 between prediction and baseline: the gap is reported.
    expect(res.narrative).toContain('differs from the prediction minus the baseline');
    expect(res.citations.map((c: Json) => c.ref)).toEqual(['art-13', 'art-86']);
    const bad = expectEnvelope(
      await t.call('POST', '/v1/agents/explainability-narrator/invoke', {
        body: { prediction: 1, attributions: [{ feature: 'x', value: 1 }] },
      }),
      422,
      'validation_failed',
    );
    expect(bad.details.map((d: Json) => d.field)).toContain('method');
  });
});

describe('red-team-attacker', () => {
  it('scores a run per category as the rail does and plans the retest of failed probes by severity', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    expect(await invoke('red-team-attacker', {}, u)).toMatchObject({ runId: null, categories: [] });
    const db = ts.server.db.prisma;
    const runId = `rtn_agentsdata${Date.now()}`;
    await db.redTeamRun.create({
      data: {
        id: runId,
        tenantId: u.tenantId,
        targetId: 'rtt_x',
        categories: ['prompt_injection', 'privacy_leakage'],
        status: 'completed',
        probes: 6,
        passed: 3,
        failed: 3,
        errored: 0,
        createdBy: 'test',
      },
    });
    const outcomes: [string, string, string, string][] = [
      ['pi-001', 'prompt_injection', 'critical', 'failed'],
      ['pi-002', 'prompt_injection', 'high', 'passed'],
      ['pi-003', 'prompt_injection', 'medium', 'failed'],
      ['pl-001', 'privacy_leakage', 'critical', 'passed'],
      ['pl-002', 'privacy_leakage', 'high', 'failed'],
      ['pl-003', 'privacy_leakage', 'medium', 'passed'],
    ];
    for (const [i, [probeId, category, severity, outcome]] of outcomes.entries()) {
      await db.redTeamResult.create({
        data: {
          id: `rtx_agentsdata${i}${Date.now()}`,
          tenantId: u.tenantId,
          runId,
          targetId: 'rtt_x',
          probeId,
          category,
          severity,
          outcome,
          reason: 'test',
          latencyMs: 5,
        },
      });
    }
    const res = await invoke('red-team-attacker', { runId }, u);
    // Weights low 1, medium 2, high 3, critical 4: injection passed 3 of 9, leakage 6 of 9, overall 9 of 18.
    expect(res.overall).toBe(50);
    expect(res.categories.map((c: Json) => [c.category, c.score, c.rank, c.grade])).toEqual([
      ['prompt_injection', 33.3, 1, 'weak'],
      ['privacy_leakage', 66.7, 2, 'weak'],
    ]);
    expect(res.retestPlan.map((p: Json) => p.probeId)).toEqual(['pi-001', 'pl-002', 'pi-003']);
    expect((await invoke('red-team-attacker', {}, u)).runId).toBe(runId);
    expectEnvelope(await t.call('POST', '/v1/agents/red-team-attacker/invoke', { body: { runId } }), 404, 'not_found');
  });
});

describe('vendor-prefill-bot', () => {
  it('answers from evidence by control and keywords and lists the gaps', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    const questionnaire = [
      { id: 'q1', question: 'Do you encrypt customer data at rest?' },
      { id: 'q2', question: 'Do you have a risk management system for AI?', control: 'AIA-RMS-01' },
    ];
    const before = await invoke('vendor-prefill-bot', { questionnaire }, u);
    expect(before).toMatchObject({ answered: 0, unanswered: 2, coverage: 0 });
    expect(before.gaps.map((g: Json) => g.questionId)).toEqual(['q1', 'q2']);

    expect((await u.call('POST', '/v1/frameworks/eu-ai-act/activate')).status).toBeLessThan(300);
    const rms = await created(u, '/v1/compliance/evidence', { title: 'AI risk procedure', kind: 'policy', controlIds: ['AIA-RMS-01'] });
    const enc = await created(u, '/v1/compliance/evidence', {
      title: 'Encryption standard',
      kind: 'policy',
      description: 'Customer records are encrypted at rest with AES-256.',
      controlIds: ['AIA-RMS-01'],
    });
    const after = await invoke('vendor-prefill-bot', { questionnaire }, u);
    expect(after).toMatchObject({ answered: 2, unanswered: 0, coverage: 1 });
    const [q1, q2] = after.answers;
    expect(q1).toMatchObject({ status: 'answered', confidence: 'medium', evidence: [{ evidenceId: enc.id, match: 'keyword' }] });
    expect(q2.status).toBe('answered');
    expect(q2.confidence).toBe('high');
    expect(q2.evidence.map((e: Json) => e.evidenceId).sort()).toEqual([enc.id, rms.id].sort());
    expect(after.gaps.map((g: Json) => g.questionId)).toEqual(['q1']);

    const theirs = await created(other, '/v1/vendor-risk/vendors', { name: `Vendor ${Date.now()}`, criticality: 'high' });
    expectEnvelope(
      await u.call('POST', '/v1/agents/vendor-prefill-bot/invoke', { body: { vendorId: theirs.id, template: 'baseline' } }),
      404,
      'not_found',
    );
    expectEnvelope(await u.call('POST', '/v1/agents/vendor-prefill-bot/invoke', { body: {} }), 422, 'validation_failed');
  });
});

describe('search facades', () => {
  it('translate the query into kinds and facets and rank the engine’s hits', async () => {
    const res = await invoke('svc-search', { query: 'risk management controls of the ai act' });
    expect(res.parsed).toMatchObject({ kinds: ['control'], filters: { framework: ['eu-ai-act'] }, dateFilter: null });
    expect(res.parsed.terms).toBe('risk management');
    expect(res.hits.length).toBeGreaterThan(0);
    expect(res.hits.every((h: Json) => h.kind === 'control' && h.fields.framework.includes('eu-ai-act'))).toBe(true);
    // The svc preset boosts controls by 1.2.
    expect(res.hits[0].score).toBeCloseTo(res.hits[0].engineScore * 1.2, 3);
    await expectReplayed(res.decisionId);

    const dict = await invoke('alt2-search', { query: 'human oversight', limit: 3 });
    expect(dict.hits.length).toBeGreaterThan(0);
    expect(dict.hits.length).toBeLessThanOrEqual(3);
    expect(dict.parsed.kinds).toEqual(['clause', 'control', 'crosswalk', 'framework', 'glossary_term', 'question', 'requirement']);
  }, 180_000); // the first search of a process builds the index of the reference content

  it('applies a date condition to evidence, and follows the records', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    expect((await invoke('alt1-search', { query: 'evidence older than 90 days' }, u)).hits).toEqual([]);
    expect((await u.call('POST', '/v1/frameworks/eu-ai-act/activate')).status).toBeLessThan(300);
    const old = await created(u, '/v1/compliance/evidence', {
      title: 'Penetration test report',
      kind: 'report',
      controlIds: ['AIA-RMS-01'],
      collectedAt: daysAgo(200),
    });
    await created(u, '/v1/compliance/evidence', { title: 'Fresh penetration test', kind: 'report', controlIds: ['AIA-RMS-01'] });
    const res = await invoke('alt1-search', { query: 'evidence older than 90 days' }, u);
    expect(res.parsed).toMatchObject({ kinds: ['evidence'], terms: '' });
    expect(res.parsed.dateFilter.before).toBe(daysAgo(90).slice(0, 10));
    expect(res.hits.map((h: Json) => h.id)).toEqual([old.id]);
    const pen = await invoke('alt1-search', { query: 'penetration evidence' }, u);
    expect(pen.total).toBe(2);
    expectEnvelope(
      await u.call('POST', '/v1/agents/alt1-search/invoke', { body: { query: 'x', kinds: ['spaceship'] } }),
      422,
      'validation_failed',
    );
    expectEnvelope(await u.call('POST', '/v1/agents/svc-search/invoke', { body: {} }), 422, 'validation_failed');
  });
});

describe('event routing', () => {
  const bySlug = (slug: string) => agents.find((a) => a.spec.slug === slug);
  const event = (kind: string, entity: string | null) => ({ id: 'evi_1', kind, entity, action: null, attributes: {} });

  it('maps the routed events to inputs, and ignores the ones that give nothing to decide', () => {
    expect(bySlug('dsar-handler')?.fromEvent?.(event('dsar.request_received', 'dsr_1'))).toEqual({ requestId: 'dsr_1' });
    expect(bySlug('dsar-handler')?.fromEvent?.(event('dsar.store_declared', 'dst_1'))).toBeNull();
    expect(bySlug('vendor-prefill-bot')?.fromEvent?.(event('vendor.created', 'vnd_1'))).toEqual({
      vendorId: 'vnd_1',
      template: 'baseline',
    });
    expect(bySlug('risk-officer')?.fromEvent?.(event('risk.created', 'rsk_1'))).toEqual({});
    expect(bySlug('analytics-insight')?.fromEvent?.(event('drift.detected', null))).toEqual({});
    expect(bySlug('analytics-insight')?.fromEvent?.(event('risk.created', 'rsk_1'))).toBeNull();
  });

  it('gives every agent its own rule set', () => {
    expect(agents.map((a) => a.spec.slug).sort()).toEqual([
      'alt1-search',
      'alt2-search',
      'analytics-insight',
      'bias-evaluator',
      'data-classifier',
      'data-mapper',
      'dsar-handler',
      'explainability-narrator',
      'red-team-attacker',
      'risk-officer',
      'svc-search',
      'vendor-prefill-bot',
    ]);
    expect(new Set(agents.map((a) => JSON.stringify(a.ruleSet.rules))).size).toBe(12);
  });
});
