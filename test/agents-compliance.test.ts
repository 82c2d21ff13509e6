import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../packages/server/src/agents/defs/compliance-authoring.ts';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The compliance-authoring agents over HTTP: each with tenant records set up through the API and
 * a hand-worked answer, answers that move when the records move, 422 for a missing input and 404
 * for another tenant's record.
 */
let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;
/** The public_disclosure rail (AI-system profiles) is for enterprise tenants. */
let ent: TenantFixture;

type Json = any;
const invoke = async (who: TenantFixture, slug: string, body: Json) => who.call('POST', `/v1/agents/${slug}/invoke`, { body });
async function ok(who: TenantFixture, slug: string, body: Json): Promise<Json> {
  const res = await invoke(who, slug, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ object: 'svc.agents.decision', agent: slug });
  return res.body;
}
async function post(who: TenantFixture, path: string, body: Json, method = 'POST'): Promise<Json> {
  const res = await who.call(method, path, { body });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}
const person = (who: TenantFixture, name: string) =>
  post(who, '/v1/stakeholders/users', { name, email: `${name.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com` });
const role = (who: TenantFixture, name: string) =>
  post(who, '/v1/stakeholders/roles', { name: `${name} ${Math.random().toString(36).slice(2, 6)}` });
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

beforeAll(async () => {
  ts = await startTestServer();
  [t, other, ent] = await Promise.all([
    createTenant(ts, { tier: 'growth' }),
    createTenant(ts, { tier: 'growth' }),
    createTenant(ts, { tier: 'enterprise' }),
  ]);
  await post(ent, '/v1/frameworks/eu-ai-act/activate', {});
  for (const f of ['eu-ai-act', 'iso-iec-27001', 'nis2']) await post(t, `/v1/frameworks/${f}/activate`, {});
});
afterAll(() => ts?.close());

describe('framework-mapper', () => {
  it('maps iso-27001:A.5.1 through the crosswalks, direct edges and two-step ones', async () => {
    const out = await ok(t, 'framework-mapper', { control: 'iso-27001:A.5.1' });
    expect(out.control).toMatchObject({ framework: 'iso-iec-27001', kind: 'control', ref: 'ISO27001-A.5.1', clauseRefs: ['A.5.1'] });
    // nis2 art-21-2-a is a superset of A.5.1 (strength 7): read from A.5.1, a subset, partial coverage.
    const nis2 = out.frameworks.find((f: Json) => f.framework === 'nis2');
    expect(nis2.requirements.find((r: Json) => r.ref === 'art-21-2-a')).toMatchObject({
      kind: 'clause',
      relationship: 'subset',
      strength: 7,
      coverage: 'partial',
      hops: 1,
      via: null,
      crosswalks: ['nis2--iso-iec-27001'],
    });
    // PCI DSS 12.1.1 intersects A.5.1 at strength 8, the strongest PCI edge: first of its group.
    const pci = out.frameworks.find((f: Json) => f.framework === 'pci-dss-4');
    expect(pci.requirements[0]).toMatchObject({ ref: 'PCIDSS-12.1.1', relationship: 'intersect', strength: 8, hops: 1 });
    // Two-step mappings exist (through nis2 into dora, say) and never exceed two hops.
    expect(out.frameworks.flatMap((f: Json) => f.requirements).some((r: Json) => r.hops === 2 && r.via !== null)).toBe(true);
    expect(out.frameworks.every((f: Json) => f.framework !== 'iso-iec-27001')).toBe(true);
    expect(out.totals.requirements).toBe(out.frameworks.reduce((n: number, f: Json) => n + f.requirements.length, 0));
    expect(out.dictionaryVersion).toMatch(/^iso-iec-27001@/);
  });

  it('takes a bare control id, refuses a missing control (422) and an unknown one (404)', async () => {
    const out = await ok(t, 'framework-mapper', { control: 'AIA-FRIA-01' });
    const iso = out.frameworks.find((f: Json) => f.framework === 'iso-iec-42001');
    expect(iso.requirements[0]).toMatchObject({ ref: 'ISO42001-A.5.2', relationship: 'intersect', strength: 7, coverage: 'partial' });
    expect(expectEnvelope(await invoke(t, 'framework-mapper', {}), 422, 'validation_failed').details[0].field).toBe('control');
    expectEnvelope(await invoke(t, 'framework-mapper', { control: 'NOPE-01' }), 404, 'not_found');
  });
});

describe('evidence-compiler', () => {
  it('packs direct, crosswalked and stale evidence, and the pack moves with the evidence', async () => {
    const t2 = await createTenant(ts, { tier: 'growth' });
    for (const f of ['eu-ai-act', 'iso-iec-27001']) await post(t2, `/v1/frameworks/${f}/activate`, {});
    const fresh = await post(t2, '/v1/compliance/evidence', {
      title: 'Risk procedure',
      kind: 'policy',
      controlIds: ['AIA-RMS-01'],
      sha256: 'a'.repeat(64),
    });
    // A log is fresh for 90 days: collected 200 days ago it is stale.
    const old = await post(t2, '/v1/compliance/evidence', {
      title: 'FRIA log',
      kind: 'log',
      controlIds: ['AIA-FRIA-01'],
      collectedAt: daysAgo(200),
    });
    const first = await ok(t2, 'evidence-compiler', { framework: 'eu-ai-act' });
    const byId = (out: Json, id: string) => out.controls.find((c: Json) => c.controlId === id);
    expect(byId(first, 'AIA-RMS-01')).toMatchObject({
      status: 'covered',
      evidence: [{ id: fresh.id, sha256: 'a'.repeat(64), freshness: 'fresh', match: 'direct', via: null }],
    });
    expect(byId(first, 'AIA-FRIA-01')).toMatchObject({ status: 'stale', evidence: [{ id: old.id, freshness: 'stale' }] });
    expect(first.counts).toEqual({ controls: 72, covered: 1, stale: 1, uncovered: 70, evidence: 2 });
    expect(first.coveragePercent).toBe(1.4);

    // ISO A.5.1 evidence reaches NIS2-RSK-01 and -02 (they cite art-21-2-a, a superset of A.5.1).
    const iso = await post(t2, '/v1/compliance/evidence', { title: 'Security policy', kind: 'policy', controlIds: ['ISO27001-A.5.1'] });
    const nis2 = await ok(t2, 'evidence-compiler', { framework: 'nis2' });
    for (const id of ['NIS2-RSK-01', 'NIS2-RSK-02'])
      expect(byId(nis2, id)).toMatchObject({ status: 'covered', evidence: [{ id: iso.id, match: 'crosswalk', via: 'ISO27001-A.5.1' }] });

    const again = await ok(t2, 'evidence-compiler', { framework: 'eu-ai-act' });
    expect(again.packSha256).toBe(first.packSha256);
    await post(t2, '/v1/compliance/evidence', { title: 'Oversight design', kind: 'document', controlIds: ['AIA-HOV-01'] });
    const moved = await ok(t2, 'evidence-compiler', { framework: 'eu-ai-act' });
    expect(moved.counts.covered).toBe(2);
    expect(moved.packSha256).not.toBe(first.packSha256);

    const replay = await t2.call('GET', `/v1/agents/decisions/${first.decisionId}`);
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body.replay.reproduced).toBe(true);
    expect(expectEnvelope(await invoke(t2, 'evidence-compiler', {}), 422, 'validation_failed').details[0].field).toBe('framework');
    expectEnvelope(await invoke(t2, 'evidence-compiler', { framework: 'no-such-law' }), 404, 'not_found');
  });
});

describe('fria', () => {
  it('drafts Art. 27 sections from the profile, the risk register and RACI, and lists what is missing', async () => {
    const risk = await post(ent, '/v1/risk-register/risks', {
      title: 'Indirect discrimination of applicants',
      domain: 'ai',
      inherentLikelihood: 3,
      inherentImpact: 4,
    });
    const systemId = 'sys_fria_credit';
    await post(
      ent,
      `/v1/public-disclosure/systems/${systemId}`,
      {
        name: 'Credit scoring',
        purpose: 'Scores consumer credit applications.',
        provider: 'Acme Bank AG',
        role: 'deployer',
        deployerContext: 'Retail lending back office',
        interactsWithPeople: true,
        generatesSyntheticContent: false,
        riskIds: [risk.id],
      },
      'PUT',
    );
    const first = await ok(ent, 'fria', { systemId });
    const sec = (out: Json, id: string) => out.sections.find((s: Json) => s.id === id);
    expect(first.required).toBe(true);
    expect(sec(first, 'a-processes')).toMatchObject({
      status: 'filled',
      content: ['Credit scoring: Scores consumer credit applications.', 'Used in: Retail lending back office'],
    });
    expect(sec(first, 'c-affected-persons')).toMatchObject({ status: 'filled', content: ['People interacting with the system directly.'] });
    // Residual 3 × 4 = 12 (no treatment implemented yet).
    expect(sec(first, 'd-risks-of-harm').content).toEqual([
      'Indirect discrimination of applicants (ai; residual likelihood 3 × impact 4 = 12).',
    ]);
    expect(first.missing).toEqual(['b-period-frequency', 'e-human-oversight', 'f-measures']);
    expect(first.completenessPercent).toBe(50);

    // An accountable person and oversight evidence fill (e); a mitigation fills (f).
    const ines = await person(ent, 'Ines');
    const owner = await role(ent, 'AI owner');
    await post(ent, '/v1/stakeholders/assignments', { personId: ines.id, roleId: owner.id, raci: 'accountable', systemId });
    await post(ent, '/v1/compliance/evidence', {
      title: 'Human oversight procedure',
      kind: 'document',
      controlIds: ['AIA-HOV-01'],
      systemId,
    });
    await post(ent, '/v1/risk-register/treatments', {
      riskId: risk.id,
      type: 'mitigate',
      description: 'Quarterly fairness review',
      impactReduction: 1,
    });
    const second = await ok(ent, 'fria', { systemId });
    expect(sec(second, 'e-human-oversight')).toMatchObject({
      status: 'filled',
      content: ['Ines is accountable.', expect.stringContaining('Human oversight procedure')],
    });
    expect(sec(second, 'f-measures').content).toEqual(['mitigate (planned): Quarterly fairness review']);
    expect(second.missing).toEqual(['b-period-frequency']);
    expect(second.completenessPercent).toBe(83.3);

    expectEnvelope(await invoke(other, 'fria', { systemId }), 404, 'not_found');
    expect(expectEnvelope(await invoke(ent, 'fria', {}), 422, 'validation_failed').details[0].field).toBe('systemId');
  });
});

describe('incident-reporter', () => {
  it('drafts a GDPR notification due 72 hours after awareness, with the fields still missing', async () => {
    const out = await ok(t, 'incident-reporter', {
      regime: 'gdpr',
      knownAt: '2026-01-10T08:00:00.000Z',
      facts: { nature: 'Unauthorised access to customer accounts', approximateDataSubjects: 1200 },
    });
    expect(out.notifications).toHaveLength(1);
    expect(out.notifications[0]).toMatchObject({
      regime: 'gdpr',
      stage: 'authority-notification',
      dueAt: '2026-01-13T08:00:00.000Z',
      state: 'late',
      source: 'GDPR Art. 33(1)',
      missing: ['categoriesOfDataSubjects', 'approximateRecords', 'contactPoint', 'likelyConsequences', 'measures'],
    });
    expect(out.notifications[0].body).toContain('Approximate number of data subjects concerned: 1200');
    // Overdue but not yet sent: still the next notification to make.
    expect(out.next).toEqual({ regime: 'gdpr', stage: 'authority-notification', dueAt: '2026-01-13T08:00:00.000Z' });
    expect(expectEnvelope(await invoke(t, 'incident-reporter', {}), 422, 'validation_failed').details[0].field).toBe('incidentId');
  });

  it('drafts every NIS2 stage of a recorded incident and follows its facts', async () => {
    const knownAt = new Date(Date.now() - 3_600_000).toISOString();
    const inc = await post(t, '/v1/incident-disclosures/disclosures', {
      title: 'Ransomware on the payment gateway',
      regimes: ['nis2'],
      knownAt,
      facts: { suspectedMalicious: true },
    });
    const first = await ok(t, 'incident-reporter', { incidentId: inc.id });
    const early = first.notifications.find((n: Json) => n.stage === 'early-warning');
    expect(early).toMatchObject({
      dueAt: new Date(Date.parse(knownAt) + 24 * 3_600_000).toISOString(),
      state: 'pending',
      missing: ['crossBorderImpact'],
    });
    expect(first.next).toEqual({ regime: 'nis2', stage: 'early-warning', dueAt: early.dueAt });
    expect(first.notifications.find((n: Json) => n.stage === 'incident-notification').dueAt).toBe(
      new Date(Date.parse(knownAt) + 72 * 3_600_000).toISOString(),
    );

    const upd = await t.call('PATCH', `/v1/incident-disclosures/disclosures/${inc.id}`, {
      body: { facts: { suspectedMalicious: true, crossBorderImpact: false } },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const second = await ok(t, 'incident-reporter', { incidentId: inc.id });
    expect(second.notifications.find((n: Json) => n.stage === 'early-warning').missing).toEqual([]);

    expectEnvelope(await invoke(other, 'incident-reporter', { incidentId: inc.id }), 404, 'not_found');
    expect(
      expectEnvelope(await invoke(t, 'incident-reporter', { incidentId: inc.id, regime: 'gdpr' }), 422, 'validation_failed').details[0]
        .field,
    ).toBe('regime');
  });
});

describe('training-curator', () => {
  it('plans the role’s modules by priority, minus what the person’s records cover', async () => {
    const plan = await ok(t, 'training-curator', { role: 'developer' });
    // developer: literacy 100, engineering 85, bias 70, personal data 70, GPAI 65 (ties by id).
    expect(plan.plan.map((p: Json) => [p.moduleId, p.priority])).toEqual([
      ['ai-literacy-foundations', 100],
      ['responsible-ai-engineering', 85],
      ['bias-and-data-quality', 70],
      ['gdpr-for-ai', 70],
      ['gpai-provider-duties', 65],
    ]);
    expect(plan.totalHours).toBe(13);

    const dev = await person(t, 'Dev');
    const module = await post(t, '/v1/training-records/modules', {
      title: 'AI literacy basics',
      requiredForRoleIds: [],
      validityDays: 365,
      frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
    });
    const record = await post(t, '/v1/training-records/records', { moduleId: module.id, userId: dev.id });
    const mine = await ok(t, 'training-curator', { role: 'developer', personId: dev.id });
    expect(mine.covered).toEqual([{ moduleId: 'ai-literacy-foundations', recordId: record.id, expiresAt: record.expiresAt }]);
    expect(mine.plan.map((p: Json) => p.moduleId)).not.toContain('ai-literacy-foundations');
    expect(mine.totalHours).toBe(11);

    expect(expectEnvelope(await invoke(t, 'training-curator', { role: 'astronaut' }), 422, 'validation_failed').details[0].field).toBe(
      'role',
    );
    expect(expectEnvelope(await invoke(t, 'training-curator', {}), 422, 'validation_failed').details[0].field).toBe('role');
    expectEnvelope(await invoke(other, 'training-curator', { role: 'developer', personId: dev.id }), 404, 'not_found');
  });
});

describe('conformity-guide', () => {
  it('routes an emotion-recognition system to a notified body until harmonised standards are recorded', async () => {
    const systemId = 'sys_mood_cam';
    await post(
      ent,
      `/v1/public-disclosure/systems/${systemId}`,
      {
        name: 'Mood camera',
        purpose: 'Estimates shopper mood from video.',
        provider: 'Vision GmbH',
        role: 'provider',
        interactsWithPeople: false,
        generatesSyntheticContent: false,
        emotionRecognition: true,
      },
      'PUT',
    );
    const first = await ok(ent, 'conformity-guide', { systemId });
    expect(first.route.annex).toBe('VII');
    expect(first.sections[0]).toMatchObject({ id: 'annex-iv-1', status: 'filled', sources: [{ type: 'profile', id: systemId }] });
    expect(first.missing).toEqual([
      'annex-iv-2',
      'annex-iv-3',
      'annex-iv-4',
      'annex-iv-5',
      'annex-iv-6',
      'annex-iv-7',
      'annex-iv-8',
      'annex-iv-9',
    ]);
    expect(first.readinessPercent).toBe(11.1);

    await post(ent, '/v1/compliance/evidence', {
      title: 'EN ISO/IEC standards applied',
      kind: 'document',
      controlIds: ['AIA-CON-04'],
      systemId,
    });
    const second = await ok(ent, 'conformity-guide', { systemId });
    expect(second.route.annex).toBe('VI');
    expect(second.missing).not.toContain('annex-iv-7');
    expect(second.readinessPercent).toBe(22.2);
    expectEnvelope(await invoke(other, 'conformity-guide', { systemId }), 404, 'not_found');
  });
});

describe('gpai-docs', () => {
  it('builds the pack of a model summary with the items missing', async () => {
    const empty = await ok(other, 'gpai-docs', {});
    expect(empty).toMatchObject({ models: [], missing: ['summary'] });
    const s = await post(t, '/v1/gpai-summary/summaries', {
      modelName: 'Aurora',
      modelVersion: '2.1',
      provider: { name: 'Acme AI SAS', contact: 'ai-office@acme.example' },
      modalities: ['text'],
    });
    await post(t, '/v1/gpai-summary/energy-disclosure', {
      summaryId: s.id,
      energyMwh: 1250.5,
      energyBasis: 'estimated',
      method: 'GPU-hours times board power times a PUE of 1.2',
      computeFlops: 3.8e24,
      trainingTimeHours: 2160,
    });
    const out = await ok(t, 'gpai-docs', { summaryId: s.id });
    expect(out.models).toHaveLength(1);
    const m = out.models[0];
    // 3.8e24 FLOPs is under the 1e25 presumption of Art. 51(2).
    expect(m.systemicRiskPresumed).toBe(false);
    const present = Object.fromEntries(m.items.map((i: Json) => [i.id, i.present]));
    expect(present).toEqual({
      'intended-tasks': false,
      'model-identity': true,
      'release-date': false,
      modalities: false,
      'training-data': false,
      'compute-energy': true,
      'downstream-information': false,
      'copyright-policy': false,
      'training-content-summary': false,
    });
    expect(m.completenessPercent).toBe(22.2);
    expectEnvelope(await invoke(other, 'gpai-docs', { summaryId: s.id }), 404, 'not_found');
  });
});

describe('risk-navigator', () => {
  it('ranks an owner-less untreated AI risk above the control gaps, and re-ranks when it is treated', async () => {
    const t3 = await createTenant(ts, { tier: 'growth' });
    await post(t3, '/v1/frameworks/eu-ai-act/activate', {});
    const risk = await post(t3, '/v1/risk-register/risks', {
      title: 'Biased scoring',
      domain: 'ai',
      inherentLikelihood: 4,
      inherentImpact: 5,
      controlIds: ['AIA-RMS-01'],
    });
    const first = await ok(t3, 'risk-navigator', { limit: 3 });
    // 4 × 5 = 20, no owner × 1.2, no implemented treatment × 1.2, AI Act weight 1.5: 43.2.
    expect(first.items[0]).toMatchObject({
      rank: 1,
      kind: 'risk',
      id: risk.id,
      score: 43.2,
      factors: { severity: 20, exposure: 1.44, regulatoryWeight: 1.5 },
    });
    // A prohibited-practice control without evidence: 20 × 1 × 1.5 = 30.
    expect(first.items[1]).toMatchObject({ rank: 2, kind: 'control_gap', id: 'AIA-PRO-01', score: 30 });
    expect(first.considered).toEqual({ risks: 1, controlGaps: 72 });

    const tr = await post(t3, '/v1/risk-register/treatments', {
      riskId: risk.id,
      type: 'mitigate',
      description: 'Fairness testing',
      likelihoodReduction: 2,
    });
    await post(t3, `/v1/risk-register/treatments/${tr.id}/implement`, {});
    const second = await ok(t3, 'risk-navigator', { limit: 3 });
    // Residual 2 × 5 = 10 with the treatment implemented, status treated (× 0.8), no owner × 1.2: 14.4.
    const moved = second.items.find((i: Json) => i.id === risk.id) ?? null;
    expect(moved).toBeNull();
    const all = await ok(t3, 'risk-navigator', { limit: 100 });
    expect(all.items.find((i: Json) => i.id === risk.id).score).toBe(14.4);
    expect(expectEnvelope(await invoke(t3, 'risk-navigator', { limit: 0 }), 422, 'validation_failed').details[0].field).toBe('limit');
  });
});

describe('governance-advisor', () => {
  it('flags a high-risk system without an accountable owner until one is assigned', async () => {
    const t4 = await createTenant(ts, { tier: 'growth' });
    await post(t4, '/v1/compliance/assessments', { type: 'fria', systemId: 'sys_gov', jurisdiction: 'eu/de' });
    const first = await ok(t4, 'governance-advisor', {});
    // Both score 10: the high-severity accountable-owner finding ranks first.
    expect(first.recommendations.slice(0, 2)).toMatchObject([
      { rank: 1, rule: 'accountable-owner', severity: 'high', score: 10, subjects: ['sys_gov'] },
      { rank: 2, rule: 'missing-decision-right', severity: 'medium', score: 10, subjects: ['model_release', 'policy_exception'] },
    ]);
    const ana = await person(t4, 'Ana');
    const owner = await role(t4, 'Owner');
    await post(t4, '/v1/stakeholders/assignments', { personId: ana.id, roleId: owner.id, raci: 'accountable', systemId: 'sys_gov' });
    const second = await ok(t4, 'governance-advisor', { scope: 'systems' });
    expect(second).toMatchObject({ recommendations: [], checked: ['accountable-owner'], passed: ['accountable-owner'] });
    expect(expectEnvelope(await invoke(t4, 'governance-advisor', { scope: 'everything' }), 422, 'validation_failed').details[0].field).toBe(
      'scope',
    );
  });
});

describe('workflow-catalogue', () => {
  it('ranks the FRIA workflow first for a fundamental-rights goal and composes a sequence', async () => {
    const out = await ok(t, 'workflow-catalogue', { framework: 'eu-ai-act', goal: 'fundamental rights impact assessment' });
    // fria: cites the activated eu-ai-act (+2) and the framework asked for (+4), every goal word (+10)
    // and four eu-ai-act controls without evidence (+2): 18.
    expect(out.recommendations[0]).toMatchObject({
      rank: 1,
      workflowId: 'fria',
      score: 18,
      gapControls: ['AIA-DEP-05', 'AIA-FRIA-01', 'AIA-FRIA-02', 'AIA-HOV-04'],
    });
    expect(out.recommendations[0].reasons).toEqual(expect.arrayContaining([expect.stringContaining('Matches the goal')]));
    expect(out.sequence.map((s: Json) => s.workflowId).sort()).toEqual(out.recommendations.map((r: Json) => r.workflowId).sort());
    // A tenant without activated frameworks gets the two starting points, classification first.
    const fresh = await ok(other, 'workflow-catalogue', {});
    expect(fresh.recommendations.map((r: Json) => [r.workflowId, r.score])).toEqual([
      ['ai-act-risk-classification', 1],
      ['evidence-collection', 1],
    ]);
    expect(fresh.sequence.map((s: Json) => [s.workflowId, s.phase])).toEqual([
      ['ai-act-risk-classification', 'scope'],
      ['evidence-collection', 'assure'],
    ]);
    // Only the stakeholder counts otherwise: a workflow the dpo takes part in scores 3.
    const dpo = await ok(other, 'workflow-catalogue', { stakeholder: 'dpo', limit: 20 });
    expect(dpo.recommendations.find((r: Json) => r.workflowId === 'dsar-handling').score).toBe(3);
    expectEnvelope(await invoke(t, 'workflow-catalogue', { framework: 'no-such-law' }), 404, 'not_found');
  });
});

describe('policy-steward', () => {
  it('drafts a skeleton for the activated frameworks, routes it, and updates an existing policy', async () => {
    const draft = await ok(t, 'policy-steward', { topic: 'ai-governance' });
    expect(draft).toMatchObject({ topic: 'ai-governance', policyId: null, nextVersion: 1, title: 'AI governance policy' });
    expect(draft.sections.map((s: Json) => s.heading)).toEqual([
      'Purpose and scope',
      'Roles and accountability',
      'AI system inventory and classification',
      'Prohibited practices',
      'Risk management',
      'Human oversight',
      'AI literacy',
      'Review of this policy',
    ]);
    expect(draft.route).toEqual({ chainId: null, approvers: [], blocked: true });

    const cleo = await person(t, 'Cleo');
    const chain = await post(t, '/v1/stakeholders/approval-chains', { name: 'Policy approvals', approverIds: [cleo.id] });
    const routed = await ok(t, 'policy-steward', { topic: 'ai-governance' });
    expect(routed.route).toEqual({
      chainId: chain.id,
      approvers: [{ step: 1, personId: cleo.id, name: 'Cleo', issues: [] }],
      blocked: false,
    });

    const p = await post(t, '/v1/policies/draft', {
      title: 'AI governance policy',
      controlIds: ['AIA-RMS-01'],
      text: '# AI governance policy\n\n## Purpose and scope\n\nWhat this covers.\n\n## Risk management\n\nRisks are reviewed.',
    });
    const upd = await ok(t, 'policy-steward', { policyId: p.id });
    expect(upd).toMatchObject({ topic: 'ai-governance', policyId: p.id, nextVersion: 2 });
    expect(upd.sections.filter((s: Json) => s.status === 'present').map((s: Json) => s.heading)).toEqual([
      'Purpose and scope',
      'Risk management',
    ]);
    expect(upd.draft.startsWith('# AI governance policy\n\n## Purpose and scope')).toBe(true);
    expect(upd.draft).toContain('## Human oversight');

    expectEnvelope(await invoke(other, 'policy-steward', { policyId: p.id }), 404, 'not_found');
    expect(expectEnvelope(await invoke(t, 'policy-steward', {}), 422, 'validation_failed').details[0].field).toBe('topic');
  });
});

describe('routed events and purity', () => {
  const def = (slug: string) => agents.find((a) => a.spec.slug === slug) as (typeof agents)[number];
  const event = (kind: string, entity: string | null, attributes: Record<string, unknown> = {}) => ({
    id: 'evi_1',
    kind,
    entity,
    action: kind.split('.').at(-1) ?? null,
    attributes,
  });

  it('maps the routed event kinds to inputs, and ignores the others', () => {
    expect(def('evidence-compiler').fromEvent?.(event('evidence.created', 'evd_1'))).toEqual({ framework: 'eu-ai-act' });
    expect(def('evidence-compiler').fromEvent?.(event('evidence.created', 'evd_1', { framework: 'nis2', systemId: 's1' }))).toEqual({
      framework: 'nis2',
      systemId: 's1',
    });
    expect(def('incident-reporter').fromEvent?.(event('incident.disclosed', 'idc_1'))).toEqual({ incidentId: 'idc_1' });
    expect(def('fria').fromEvent?.(event('fria.requested', 'asm_1', { systemId: 'sys_a' }))).toEqual({ systemId: 'sys_a' });
    expect(def('policy-steward').fromEvent?.(event('policy.published', 'pol_1'))).toEqual({ policyId: 'pol_1' });
    expect(def('policy-steward').fromEvent?.(event('risk.created', 'rsk_1'))).toBeNull();
    expect(
      agents
        .filter((a) => a.fromEvent)
        .map((a) => a.spec.slug)
        .sort(),
    ).toEqual(['evidence-compiler', 'fria', 'incident-reporter', 'policy-steward']);
  });

  it('decides the same bytes from the same input, facts and rules', () => {
    const d = def('risk-navigator');
    const facts = {
      asOf: '2026-06-01T00:00:00.000Z',
      framework: null,
      risks: [
        {
          id: 'rsk_a',
          title: 'A',
          domain: 'privacy',
          status: 'open',
          ownerId: 'usr_1',
          controlIds: [],
          residualLikelihood: 3,
          residualImpact: 3,
          nextReviewAt: '2026-05-01T00:00:00.000Z',
          implementedTreatments: 1,
        },
      ],
      gaps: [{ id: 'GDPR-LAW-01', title: 'Lawful basis', category: 'lawfulness', framework: 'gdpr' }],
      controlFrameworks: {},
    };
    const a = JSON.stringify(d.decide({}, facts, d.ruleSet.rules));
    expect(JSON.stringify(d.decide({}, structuredClone(facts), d.ruleSet.rules))).toBe(a);
    // 3 × 3 = 9, review overdue × 1.3, privacy 1.4: 16.38; the gap 6 × 1 × 1.4 = 8.4.
    expect(JSON.parse(a).items.map((i: Json) => [i.id, i.score])).toEqual([
      ['rsk_a', 16.38],
      ['GDPR-LAW-01', 8.4],
    ]);
  });
});
