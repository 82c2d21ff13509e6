import { readFileSync } from 'node:fs';
import { DEFAULT_ONBOARDING_PROFILE } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILES_FILE, ProfileCatalogueSchema } from '../packages/server/src/rails/profiles/service.ts';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Task {
  id: string;
  kind: string;
  framework: string;
  controlId: string | null;
  assessmentType: string | null;
  priority: number;
}
interface Phase {
  week: number;
  name: string;
  tasks: Task[];
}
interface Plan {
  profile: string;
  phases: Phase[];
  totals: { tasks: number; alreadyDone: number; weeks: number };
}

const catalogue = ProfileCatalogueSchema.parse(JSON.parse(readFileSync(PROFILES_FILE, 'utf8')));
const profile = (id: string) => {
  const p = catalogue.profiles.find((x) => x.id === id);
  if (!p) throw new Error(id);
  return p;
};
/** Assessment types the profile's frameworks call for, from the data file. */
const assessmentTypes = (id: string) => [
  ...new Set(catalogue.frameworkAssessments.filter((a) => profile(id).frameworks.some((f) => f.id === a.framework)).map((a) => a.type)),
];
const taskIds = (plan: Plan) => plan.phases.flatMap((p) => p.tasks.map((t) => t.id));

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const sandbox = () => createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
const planOf = async (t: TenantFixture, p: string) => {
  const res = await t.call<Plan>('POST', '/v1/onboarding/plan', { body: { profile: p } });
  expect(res.status).toBe(200);
  return res.body;
};

describe('onboarding: plan', () => {
  it('derives the tasks from the profile: each framework, each baseline control, each assessment its frameworks call for', async () => {
    const t = await sandbox();
    const plan = await planOf(t, 'banking');
    const bank = profile('banking');
    expect(plan.phases[0]).toMatchObject({ week: 1, name: 'Activate frameworks' });
    // Activation by priority, then evidence by priority, then assessments last.
    expect(plan.phases[0]?.tasks.map((t) => t.framework).sort()).toEqual(bank.frameworks.map((f) => f.id).sort());
    const prios = plan.phases[0]?.tasks.map((t) => t.priority) ?? [];
    expect(prios).toEqual([...prios].sort((a, b) => a - b));
    const evidence = plan.phases.flatMap((p) => p.tasks).filter((t) => t.kind === 'collect_evidence');
    expect(evidence.map((t) => t.controlId).sort()).toEqual(bank.controlBaseline.map((b) => b.controlId).sort());
    const last = plan.phases.at(-1);
    expect(last?.name).toBe('Run assessments');
    expect(last?.tasks.map((t) => t.assessmentType).sort()).toEqual(assessmentTypes('banking').sort());
    expect(assessmentTypes('banking')).toEqual(expect.arrayContaining(['dpia', 'fria', 'risk-classification']));
    expect(plan.phases.map((p) => p.week)).toEqual(plan.phases.map((_, i) => i + 1));
    expect(plan.totals).toEqual({
      tasks: bank.frameworks.length + bank.controlBaseline.length + assessmentTypes('banking').length,
      alreadyDone: 0,
      weeks: plan.phases.length,
    });
  });

  it('two industries give different plans, sized by their content', async () => {
    const t = await sandbox();
    const bank = await planOf(t, 'banking');
    const health = await planOf(t, 'healthcare');
    expect(taskIds(bank)).toContain('activate_framework:dora');
    expect(taskIds(bank)).not.toContain('activate_framework:hipaa');
    expect(taskIds(health)).toContain('activate_framework:hipaa');
    expect(taskIds(health)).toContain('collect_evidence:HIPAA-ADM-01');
    const hp = profile('healthcare');
    expect(health.totals.tasks).toBe(hp.frameworks.length + hp.controlBaseline.length + assessmentTypes('healthcare').length);
    expect(taskIds(health)).not.toEqual(taskIds(bank));
  });

  it('leaves out what the tenant already has: an activated framework, evidence of a baseline control, an assessment', async () => {
    const t = await sandbox();
    const before = await planOf(t, 'banking');
    expect((await t.call('POST', '/v1/frameworks/dora/activate')).status).toBe(201);
    const afterActivation = await planOf(t, 'banking');
    expect(taskIds(afterActivation)).not.toContain('activate_framework:dora');
    expect(afterActivation.totals).toMatchObject({ tasks: before.totals.tasks - 1, alreadyDone: 1 });

    // Expired evidence does not count; valid evidence does.
    const expired = await t.call('POST', '/v1/compliance/evidence', {
      body: {
        title: 'Old ICT risk framework',
        kind: 'policy',
        controlIds: ['DORA-RMF-01'],
        collectedAt: '2020-01-01T00:00:00.000Z',
        expiresAt: '2021-01-01T00:00:00.000Z',
      },
    });
    expect(expired.status).toBe(201);
    expect(taskIds(await planOf(t, 'banking'))).toContain('collect_evidence:DORA-RMF-01');
    expect(
      (
        await t.call('POST', '/v1/compliance/evidence', {
          body: { title: 'ICT risk framework', kind: 'policy', controlIds: ['DORA-RMF-01'] },
        })
      ).status,
    ).toBe(201);
    const afterEvidence = await planOf(t, 'banking');
    expect(taskIds(afterEvidence)).not.toContain('collect_evidence:DORA-RMF-01');
    expect(afterEvidence.totals.tasks).toBe(before.totals.tasks - 2);

    expect(
      (await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_core_banking', jurisdiction: 'eu/de' } }))
        .status,
    ).toBe(201);
    const afterDpia = await planOf(t, 'banking');
    expect(taskIds(afterDpia)).not.toContain('run_assessment:dpia');
    expect(afterDpia.totals).toMatchObject({ tasks: before.totals.tasks - 3, alreadyDone: 3 });
    // The healthcare plan of the same tenant loses DPIA too (shared GDPR), but not its own frameworks.
    const health = await planOf(t, 'healthcare');
    expect(taskIds(health)).not.toContain('run_assessment:dpia');
    expect(taskIds(health)).toContain('activate_framework:hipaa');
  });

  it('an unknown profile is a 422, as is a body with other fields', async () => {
    const t = await sandbox();
    expectEnvelope(await t.call('POST', '/v1/onboarding/plan', { body: { profile: 'mining' } }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/onboarding/plan', { body: {} }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/onboarding/plan', { body: { profile: 'banking', extra: 1 } }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'mining' } }), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/onboarding/checklist?profile=mining'), 422, 'validation_failed');
  });
});

describe('onboarding: checklist, kickoff, milestones, export', () => {
  it('a brand-new tenant gets the default profile’s checklist, milestones and export with nothing done, never a 404', async () => {
    const t = await sandbox();
    const full = await planOf(t, DEFAULT_ONBOARDING_PROFILE);
    expect(full.totals.alreadyDone).toBe(0);

    const checklist = await t.call('GET', '/v1/onboarding/checklist');
    expect(checklist.status, JSON.stringify(checklist.body)).toBe(200);
    expect(checklist.body).toMatchObject({
      object: 'svc.onboarding.checklist',
      profile: DEFAULT_ONBOARDING_PROFILE,
      profileSource: 'default',
      onboardingId: null,
      done: 0,
      total: full.totals.tasks,
    });
    expect(checklist.body.items.map((i: Task) => i.id)).toEqual(taskIds(full));
    expect(checklist.body.items.every((i: { done: boolean; doneAt: string | null }) => !i.done && i.doneAt === null)).toBe(true);

    const m = await t.call('GET', '/v1/onboarding/milestones');
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body).toMatchObject({
      object: 'svc.onboarding.milestones',
      onboardingId: null,
      startedAt: null,
      projected: true,
      profile: DEFAULT_ONBOARDING_PROFILE,
      profileSource: 'default',
      overall: { total: full.totals.tasks, done: 0, percent: 0 },
    });
    expect(m.body.phases.map((p: { week: number; total: number }) => [p.week, p.total])).toEqual(
      full.phases.map((p) => [p.week, p.tasks.length]),
    );
    expect(m.body.phases.every((p: { status: string; done: number }) => p.status === 'not_started' && p.done === 0)).toBe(true);
    // Projected from today: week 1 is due a week from now (the date may turn over during the call).
    const week1 = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    expect([week1(7), week1(7 - 1 / 24)]).toContain(m.body.phases[0].dueDate);
    // Another profile can be projected too; the query names it.
    const health = await t.call('GET', '/v1/onboarding/milestones?profile=healthcare');
    expect(health.body).toMatchObject({ profile: 'healthcare', profileSource: 'query', projected: true });

    const ex = await t.call('GET', '/v1/onboarding/export');
    expect(ex.status, JSON.stringify(ex.body)).toBe(200);
    expect(ex.body).toMatchObject({
      object: 'svc.onboarding.export',
      profile: DEFAULT_ONBOARDING_PROFILE,
      profileSource: 'default',
      onboarding: null,
      plan: { profile: DEFAULT_ONBOARDING_PROFILE, totals: full.totals },
      checklist: { done: 0, total: full.totals.tasks, profileSource: 'default' },
      milestones: { projected: true, onboardingId: null, overall: { done: 0, total: full.totals.tasks } },
    });

    // What the tenant does shows at once, and a kickoff makes the onboarding's profile the one answered.
    await t.call('POST', `/v1/frameworks/${full.phases[0]?.tasks[0]?.framework}/activate`);
    expect((await t.call('GET', '/v1/onboarding/checklist')).body.done).toBe(1);
    expect((await t.call('GET', '/v1/onboarding/milestones')).body.overall.done).toBe(1);
    const k = await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'education' } });
    expect(k.status).toBe(201);
    expect((await t.call('GET', '/v1/onboarding/checklist')).body).toMatchObject({ profile: 'education', profileSource: 'onboarding' });
    expect((await t.call('GET', '/v1/onboarding/milestones?profile=banking')).body).toMatchObject({
      onboardingId: k.body.id,
      profile: 'education',
      projected: false,
    });
  });

  it('checklist marks every task of the profile done or not from the tenant’s data', async () => {
    const t = await sandbox();
    const plan = await planOf(t, 'retail');
    await t.call('POST', '/v1/frameworks/pci-dss-4/activate');
    const res = await t.call('GET', '/v1/onboarding/checklist?profile=retail');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(plan.totals.tasks);
    expect(res.body.done).toBe(1);
    const items = res.body.items as (Task & { done: boolean; doneAt: string | null })[];
    expect(items.map((i) => i.id)).toEqual(taskIds(plan));
    expect(items.find((i) => i.id === 'activate_framework:pci-dss-4')).toMatchObject({ done: true });
    expect(items.find((i) => i.id === 'activate_framework:pci-dss-4')?.doneAt).toMatch(/^\d{4}-/);
    expect(items.filter((i) => i.done).length).toBe(1);
  });

  it('kickoff starts a tracked, audited onboarding; a second one while it is open is 409', async () => {
    const t = await sandbox();
    expect((await t.call('GET', '/v1/onboarding/milestones')).body).toMatchObject({ projected: true, onboardingId: null });
    await t.call('POST', '/v1/frameworks/gdpr/activate');
    const res = await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'healthcare' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'svc.onboarding.onboarding',
      profile: 'healthcare',
      status: 'in_progress',
      completedAt: null,
    });
    expect(res.body.id).toMatch(/^onb_/);
    const tracked = res.body.phases.flatMap((p: Phase) => p.tasks.map((x) => x.id));
    expect(tracked).not.toContain('activate_framework:gdpr');
    expect(tracked).toContain('activate_framework:hipaa');

    const audit = (await t.call('GET', '/v1/audit-trail/events?limit=50')).body.data as { action: string; resourceId: string }[];
    expect(audit.find((e) => e.action === 'onboarding.started')).toMatchObject({ resourceId: res.body.id });

    expectEnvelope(await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'banking' } }), 409, 'conflict');
    // Checklist and export default to the open onboarding's profile.
    const checklist = await t.call('GET', '/v1/onboarding/checklist');
    expect(checklist.body).toMatchObject({ profile: 'healthcare', onboardingId: res.body.id });

    // Another tenant sees none of it.
    const other = await sandbox();
    expect((await other.call('GET', '/v1/onboarding/milestones')).body).toMatchObject({ projected: true, onboardingId: null });
    expect((await other.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'healthcare' } })).status).toBe(201);
  });

  it('milestones report per-phase progress computed from what the tenant has done since kickoff', async () => {
    const t = await sandbox();
    const k = await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'healthcare' } });
    expect(k.status).toBe(201);
    const phases = k.body.phases as Phase[];
    const m0 = (await t.call('GET', '/v1/onboarding/milestones')).body;
    expect(m0).toMatchObject({ onboardingId: k.body.id, profile: 'healthcare', profileSource: 'onboarding', projected: false });
    expect(m0.overall.done).toBe(0);
    expect(m0.phases.map((p: { total: number }) => p.total)).toEqual(phases.map((p) => p.tasks.length));
    expect(m0.phases[0].status).toBe('not_started');
    expect(m0.phases[0].dueDate).toBe(new Date(Date.parse(k.body.createdAt) + 7 * 86_400_000).toISOString().slice(0, 10));

    const week1 = phases[0]?.tasks ?? [];
    await t.call('POST', '/v1/frameworks/hipaa/activate');
    await t.call('POST', '/v1/frameworks/gdpr/activate');
    const m1 = (await t.call('GET', '/v1/onboarding/milestones')).body;
    expect(m1.phases[0]).toMatchObject({ done: 2, percent: Math.round((2 / week1.length) * 1000) / 10, status: 'in_progress' });
    expect(m1.overall.done).toBe(2);

    // Evidence for a priority-1 baseline control moves the evidence phase.
    await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'ePHI risk analysis 2026', kind: 'report', controlIds: ['HIPAA-ADM-01'] },
    });
    const m2 = (await t.call('GET', '/v1/onboarding/milestones')).body;
    const evidencePhase = m2.phases.find((p: { name: string }) => p.name === 'Evidence for priority 1 baseline controls');
    expect(evidencePhase.done).toBe(1);
    expect(m2.overall.done).toBe(3);
    expect(m2.overall.percent).toBe(Math.round((3 / m2.overall.total) * 1000) / 10);

    // Export: the plan, the checklist and the milestones as one document.
    const ex = await t.call('GET', '/v1/onboarding/export');
    expect(ex.status).toBe(200);
    expect(ex.body).toMatchObject({ object: 'svc.onboarding.export', profile: 'healthcare', onboarding: { id: k.body.id } });
    expect(ex.body.milestones.overall).toEqual(m2.overall);
    expect(ex.body.checklist.done).toBe(3);
    expect(ex.body.plan.totals.alreadyDone).toBe(3);
    expect(taskIds(ex.body.plan)).not.toContain('activate_framework:hipaa');
    const other = await t.call('GET', '/v1/onboarding/export?profile=banking');
    expect(other.body.plan.profile).toBe('banking');
    expect(other.body.checklist.profile).toBe('banking');
  });

  it('once every task of the plan is done, the next kickoff closes it as completed and starts anew', async () => {
    const t = await sandbox();
    const k = await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'education' } });
    expect(k.status).toBe(201);
    const tasks = (k.body.phases as Phase[]).flatMap((p) => p.tasks);
    for (const task of tasks.filter((x) => x.kind === 'activate_framework')) {
      expect((await t.call('POST', `/v1/frameworks/${task.framework}/activate`)).status).toBe(201);
    }
    expectEnvelope(await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'education' } }), 409, 'conflict');
    const controls = tasks.flatMap((x) => (x.controlId ? [x.controlId] : []));
    expect(
      (await t.call('POST', '/v1/compliance/evidence', { body: { title: 'Baseline pack', kind: 'document', controlIds: controls } }))
        .status,
    ).toBe(201);
    for (const task of tasks.filter((x) => x.kind === 'run_assessment')) {
      const r = await t.call('POST', '/v1/compliance/assessments', {
        // A gap analysis names the framework its task is about.
        body: {
          type: task.assessmentType,
          systemId: 'sys_proctoring',
          jurisdiction: 'eu/fr',
          ...(task.assessmentType === 'gap-analysis' ? { framework: task.framework } : {}),
        },
      });
      expect(r.status).toBe(201);
    }
    const m = (await t.call('GET', '/v1/onboarding/milestones')).body;
    expect(m.overall).toMatchObject({ done: tasks.length, total: tasks.length, percent: 100 });
    expect(m.phases.every((p: { status: string }) => p.status === 'done')).toBe(true);
    expect((await planOf(t, 'education')).totals.tasks).toBe(0);

    const again = await t.call('POST', '/v1/onboarding/kickoff', { body: { profile: 'healthcare' } });
    expect(again.status).toBe(201);
    const audit = (await t.call('GET', '/v1/audit-trail/events?limit=100')).body.data as { action: string; resourceId: string }[];
    expect(audit.find((e) => e.action === 'onboarding.completed')).toMatchObject({ resourceId: k.body.id });
    expect((await t.call('GET', '/v1/onboarding/milestones')).body.onboardingId).toBe(again.body.id);
  });

  it('kickoff emits its webhook event and replays under the same Idempotency-Key', async () => {
    const t = await sandbox();
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/onboarding', eventTypes: ['onboarding.*'] },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const headers = { 'idempotency-key': `kick-${Date.now()}` };
    const first = await t.call('POST', '/v1/onboarding/kickoff', { headers, body: { profile: 'telecom' } });
    expect(first.status).toBe(201);
    const replay = await t.call('POST', '/v1/onboarding/kickoff', { headers, body: { profile: 'telecom' } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    const deliveries = (await t.call('GET', '/v1/webhook-deliveries?limit=50')).body.data as { eventType: string }[];
    expect(deliveries.filter((d) => d.eventType === 'onboarding.started')).toHaveLength(1);
  });

  it('is open to sandbox tenants; kickoff needs onboarding:write', async () => {
    const t = await sandbox();
    const viewer = await t.key('viewer');
    expect((await t.call('POST', '/v1/onboarding/plan', { token: viewer, body: { profile: 'saas' } })).status).toBe(200);
    expectEnvelope(await t.call('POST', '/v1/onboarding/kickoff', { token: viewer, body: { profile: 'saas' } }), 403, 'forbidden');
    const scoped = await t.key('editor', ['compliance:read']);
    expectEnvelope(await t.call('POST', '/v1/onboarding/plan', { token: scoped, body: { profile: 'saas' } }), 403, 'forbidden');
  });
});
