import { AGENT_SPECS, type AgentSpec } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * The agents rail: the catalogue of 33, typed invocation and the short form, decisions that
 * record input, facts, dictionary version and rule set under one hash and replay to the same hash,
 * tampering seen by the replay and by the audit trail's replay, and events routed by the event
 * engine's rules consumed into decisions (SVC_ROLE=all: the consumer runs beside the dispatcher).
 */
let ts: TestServer;
let t: TenantFixture;

const SPEC_SLUGS = [
  'classifier',
  'framework-mapper',
  'evidence-compiler',
  'fria',
  'incident-reporter',
  'training-curator',
  'conformity-guide',
  'gpai-docs',
  'risk-navigator',
  'governance-advisor',
  'workflow-catalogue',
  'policy-steward',
  'stakeholder-report',
  'analytics-insight',
  'bias-evaluator',
  'red-team-attacker',
  'explainability-narrator',
  'vendor-prefill-bot',
  'risk-officer',
  'data-classifier',
  'data-mapper',
  'dsar-handler',
  'svc-search',
  'alt1-search',
  'alt2-search',
  'svc-reporting',
  'alt1-reporting',
  'alt2-reporting',
  'svc-partner-reporting',
  'svc-consultant-reporting',
  'svc-trainer-reporting',
  'alt1-partner-reporting',
  'alt1-trainer-reporting',
];

beforeAll(async () => {
  ts = await startIsolatedTestServer({ SVC_ROLE: 'all', SVC_WEBHOOK_PORT: '0', SVC_JOBS_POLL_MS: '100' });
  t = await createTenant(ts, { tier: 'growth' });
});
afterAll(() => ts?.close());

const classify = { purpose: 'Screens CVs and ranks job applicants for interview.', affectedPersons: ['job applicants'] };

describe('the catalogue', () => {
  it('lists the 33 slugs of the specification, 14 and 31 per catalogue, each with its rule set', async () => {
    const all = await collectPages<any>(t, '/v1/agents');
    expect(all.map((a) => a.slug).sort()).toEqual([...SPEC_SLUGS].sort());
    expect(all.filter((a) => a.catalogues.includes('core14'))).toHaveLength(14);
    expect(all.filter((a) => a.catalogues.includes('all31'))).toHaveLength(31);
    for (const a of all) {
      expect(a.ruleSet.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(a.invokePath).toBe(`/v1/agents/${a.slug}/invoke`);
      expect(['deterministic', 'advisory']).toContain(a.group);
    }
    expect(new Set(all.map((a) => a.ruleSet.hash)).size).toBe(33);
    const advisory = await collectPages<any>(t, '/v1/agents?group=advisory');
    expect(advisory.length).toBeGreaterThan(0);
    expect(advisory.every((a) => a.group === 'advisory')).toBe(true);
  });

  it('serves every agent with the JSON Schemas of its input and output', async () => {
    for (const spec of Object.values(AGENT_SPECS) as AgentSpec[]) {
      const res = await t.call('GET', `/v1/agents/${spec.slug}`);
      expect(res.status, spec.slug).toBe(200);
      expect(res.body.inputSchema.type).toBe('object');
      expect(res.body.outputSchema.type).toBe('object');
    }
    expectEnvelope(await t.call('GET', '/v1/agents/no-such-agent'), 404, 'not_found');
  });

  it('shows which event kinds the event engine routes to an agent', async () => {
    const res = await t.call('GET', '/v1/agents/evidence-compiler');
    expect(res.body.routedEvents).toEqual(['evidence.*']);
  });

  it('is for growth and above', async () => {
    const starter = await createTenant(ts, { tier: 'starter' });
    expectEnvelope(await starter.call('GET', '/v1/agents'), 403, 'forbidden');
    expectEnvelope(await starter.call('POST', '/v1/agents/classifier/invoke', { body: classify }), 403, 'forbidden');
  });
});

describe('decisions', () => {
  it('records a decision per invocation, the same through the short form', async () => {
    const long = await t.call('POST', '/v1/agents/classifier/invoke', { body: classify });
    expect(long.status, JSON.stringify(long.body)).toBe(200);
    expect(long.body).toMatchObject({ object: 'svc.agents.decision', agent: 'classifier', riskLevel: 'high' });
    expect(long.body.decisionId).toMatch(/^dec_/);
    expect(long.body.dictionaryVersion).toMatch(/^eu-ai-act@\d+\.\d+\.\d+$/);
    const short = await t.call('POST', '/v1/agents/classifier', { body: classify });
    expect(short.status).toBe(200);
    expect(short.body.decisionId).not.toBe(long.body.decisionId);
    const strip = ({ decisionId, createdAt, hash, ...rest }: any) => rest;
    expect(strip(short.body)).toEqual(strip(long.body));
    // The same request, facts, dictionary version and rules: the same hash.
    expect(short.body.hash).toBe(long.body.hash);
  });

  it('a decision holds its four parts and re-executes to the same hash', async () => {
    const inv = await t.call('POST', '/v1/agents/classifier/invoke', { body: classify });
    const res = await t.call('GET', `/v1/agents/decisions/${inv.body.decisionId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: inv.body.decisionId,
      agent: 'classifier',
      input: { request: classify },
      dictionaryVersion: inv.body.dictionaryVersion,
      ruleSet: inv.body.ruleSet,
      hash: inv.body.hash,
      source: 'api',
      eventId: null,
      replay: { reproduced: true, intact: true, hash: inv.body.hash, ruleSetChanged: false, divergences: [], error: null },
    });
    expect(res.body.output.riskLevel).toBe(inv.body.riskLevel);
    expect(res.body.bundleHash).toMatch(/^sha256:/);
    const trail = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: inv.body.decisionId, limit: 10 } });
    expect(trail.body.data.map((e: any) => e.action)).toEqual(['agent.decision_recorded']);
  });

  it('a missing input is a 422 naming it, an unknown slug a 404, and neither records anything', async () => {
    const before = (await collectPages<any>(t, '/v1/agents/decisions?agent=classifier')).length;
    const bad = await t.call('POST', '/v1/agents/risk-officer/invoke', { body: { limit: 'many' } });
    expectEnvelope(bad, 422, 'validation_failed');
    expect(bad.body.details[0].field).toBe('limit');
    const empty = await t.call('POST', '/v1/agents/classifier', { body: {} });
    expectEnvelope(empty, 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/agents/no-such-agent', { body: {} }), 404, 'not_found');
    expect((await collectPages<any>(t, '/v1/agents/decisions?agent=classifier')).length).toBe(before);
  });

  it('another tenant cannot read a decision', async () => {
    const inv = await t.call('POST', '/v1/agents/classifier/invoke', { body: classify });
    const other = await createTenant(ts, { tier: 'growth' });
    expectEnvelope(await other.call('GET', `/v1/agents/decisions/${inv.body.decisionId}`), 404, 'not_found');
  });

  it('a record altered after the fact is seen by its replay and by the audit trail replay', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    const ok = await u.call('POST', '/v1/agents/classifier/invoke', { body: classify });
    const altered = await u.call('POST', '/v1/agents/classifier/invoke', { body: { purpose: 'Filters spam e-mail for a mailbox.' } });
    expect(altered.body.riskLevel).toBe('minimal');
    await ts.server.db.prisma.agentDecision.update({
      where: { id: altered.body.decisionId },
      data: { output: { ...(await u.call('GET', `/v1/agents/decisions/${altered.body.decisionId}`)).body.output, riskLevel: 'high' } },
    });
    const res = await u.call('GET', `/v1/agents/decisions/${altered.body.decisionId}`);
    expect(res.body.replay.intact).toBe(false);
    expect(res.body.replay.divergences).toContainEqual({ path: 'riskLevel', stored: 'high', replayed: 'minimal' });
    expect((await u.call('GET', `/v1/agents/decisions/${ok.body.decisionId}`)).body.replay.intact).toBe(true);
    const replay = await u.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.status).toBe(200);
    expect(replay.body.valid).toBe(true);
    expect(replay.body.decisions).toEqual({ replayed: 2, mismatched: 1 });
    // Rewriting the record together with its hash does not help: the audited hash is the reference.
    await ts.server.db.prisma.agentDecision.update({ where: { id: ok.body.decisionId }, data: { hash: `sha256:${'0'.repeat(64)}` } });
    const rewritten = await u.call('GET', `/v1/agents/decisions/${ok.body.decisionId}`);
    expect(rewritten.body.replay.intact).toBe(false);
    expect((await u.call('POST', '/v1/audit-trail/replay', { body: {} })).body.decisions).toEqual({ replayed: 2, mismatched: 2 });
  });
});

describe('events routed to agents', () => {
  it('an evidence event becomes a decision of evidence-compiler, recorded with the event', async () => {
    const u = await createTenant(ts, { tier: 'growth' });
    expect((await u.call('POST', '/v1/frameworks/eu-ai-act/activate')).status).toBe(201);
    const controls = await u.call('GET', '/v1/frameworks/eu-ai-act/controls?limit=1');
    const ev = await u.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Risk procedure', kind: 'policy', controlIds: [controls.body.data[0].id] },
    });
    expect(ev.status).toBe(201);
    let decisions: any[] = [];
    for (let i = 0; i < 100 && decisions.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      decisions = await collectPages<any>(u, '/v1/agents/decisions?source=event');
    }
    expect(decisions).toHaveLength(1);
    const [d] = decisions;
    expect(d).toMatchObject({ agent: 'evidence-compiler', source: 'event', createdBy: 'system:event-engine' });
    expect(d.eventId).toMatch(/^evi_/);
    const full = await u.call('GET', `/v1/agents/decisions/${d.id}`);
    expect(full.body.replay.reproduced).toBe(true);
    const dispatch = await ts.server.db.prisma.agentDispatch.findFirst({ where: { tenantId: u.tenantId, agent: 'evidence-compiler' } });
    expect(dispatch).toMatchObject({ status: 'done', decisionId: d.id });
  });
});
