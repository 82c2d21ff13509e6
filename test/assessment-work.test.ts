import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweepDeadlines } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

// The assessment workflow over HTTP: questions drawn from the law (the recipe of the type and the
// pinned dictionary, or a framework's controls), answers of each kind with evidence, versions,
// assignments announced by the deadline sweep, four-eyes review, the frozen approval, results,
// remediation and revisions.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

type Json = Record<string, any>;
const tag = () => Math.random().toString(36).slice(2, 8);
const recipes = JSON.parse(readFileSync(join(import.meta.dirname, '../packages/server/content/assessments/recipes.json'), 'utf8')) as {
  recipes: { type: string; stages: { key: string; questions: { key: string }[] }[] }[];
};

async function person(t: TenantFixture, name: string): Promise<{ id: string; token: string }> {
  const res = await t.call('POST', '/v1/stakeholders/users', { body: { name, email: `${name.toLowerCase()}.${tag()}@example.com` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, token: await t.personKey(res.body.id) };
}
const as = (token: string, method: string, path: string, body?: unknown): Promise<CallResult> =>
  call(ts.url, method, path, { token, body });
const A = '/v1/compliance/assessments';

async function questions(t: TenantFixture, id: string, query = ''): Promise<Json[]> {
  return collectPages<Json>(t, `${A}/${id}/questions${query ? `?${query.slice(1)}` : ''}`);
}

/** A valid answer for a question of each kind. */
function answerFor(q: Json, evidenceId: string): Json {
  switch (q.kind) {
    case 'yes_no':
      return { value: 'yes' };
    case 'scale':
      return { value: 4 };
    case 'choice':
      return { value: q.options[0].value };
    case 'evidence':
      return { evidenceIds: [evidenceId], value: 'Attached.' };
    case 'requirement':
      return { value: 'compliant' };
    default:
      return { value: `Answer to ${q.key}.` };
  }
}

async function evidence(t: TenantFixture, extra: Json = {}): Promise<Json> {
  await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
  const res = await t.call('POST', '/v1/compliance/evidence', {
    body: { title: `Record ${tag()}`, kind: 'document', controlIds: ['AIA-RMS-01'], sha256: 'a'.repeat(64), ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Answers every required question (following `requiredWhen` as answers unlock questions) as `token`. */
async function answerAll(t: TenantFixture, id: string, token: string, evidenceId: string): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const open = (await questions(t, id, '&required=true&answered=false')) as Json[];
    if (open.length === 0) return;
    for (const q of open) {
      const res = await as(token, 'PUT', `${A}/${id}/questions/${q.key}/answer`, answerFor(q, evidenceId));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }
  throw new Error('required questions kept opening');
}

describe('question sets', () => {
  it('are stored in each database a process serves, though the process has stored the same set in another', async () => {
    const other = await startIsolatedTestServer();
    try {
      const body = { type: 'dpia', systemId: `sys_${tag()}`, jurisdiction: 'eu/de' };
      const here = await (await createTenant(ts)).call('POST', A, { body });
      const there = await (await createTenant(other)).call('POST', A, { body });
      expect([here.status, there.status]).toEqual([201, 201]);
      const sets = async (s: TestServer, id: string) => {
        const row = await s.server.db.prisma.assessment.findFirstOrThrow({ where: { id }, select: { questionSet: true } });
        return s.server.db.prisma.assessmentQuestionSet.count({ where: { id: row.questionSet ?? '' } });
      };
      expect(await sets(ts, here.body.id)).toBe(1);
      expect(await sets(other, there.body.id)).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('assessment workflow', () => {
  it('draws a FRIA’s stages and questions from its recipe and the pinned AI Act version', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
    const created = await t.call('POST', A, { body: { type: 'fria', systemId: 'sys_hr', jurisdiction: 'eu/de' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const a = created.body;
    const recipe = recipes.recipes.find((r) => r.type === 'fria');
    expect(a.stages.map((s: Json) => s.key)).toEqual(recipe?.stages.map((s) => s.key));
    expect(a).toMatchObject({ status: 'draft', completion: 0, revision: 1, framework: 'eu-ai-act', previousId: null });
    expect(a.dictionaryVersion).toMatch(/^eu-ai-act@\d+\.\d+\.\d+$/);
    expect(a.recipeVersion).toMatch(/^assessments\/recipes@/);
    const qs = await questions(t, a.id);
    // Every recipe question, and the dictionary's Art. 27 questions pulled into their stage.
    for (const s of recipe?.stages ?? []) for (const q of s.questions) expect(qs.find((x) => x.key === q.key)?.stage).toBe(s.key);
    expect(qs.some((q) => q.key === 'AIA-Q-063' && q.source.clause === 'art-27')).toBe(true);
    expect(qs.every((q) => q.answer === null && typeof q.source.citation === 'string')).toBe(true);
    expect(a.stages.reduce((n: number, s: Json) => n + s.questions, 0)).toBe(qs.length);
    // Paginated in order by the cursor.
    const page1 = await t.call('GET', `${A}/${a.id}/questions?limit=5`);
    const page2 = await t.call('GET', `${A}/${a.id}/questions?limit=5&cursor=${page1.body.cursor}`);
    expect([...page1.body.data, ...page2.body.data].map((q: Json) => q.key)).toEqual(qs.slice(0, 10).map((q) => q.key));
    // The set is stored once: a second FRIA drawn alike names the same immutable row.
    const second = (await t.call('POST', A, { body: { type: 'fria', systemId: 'sys_other', jurisdiction: 'eu/fr' } })).body;
    const rows = await ts.server.db.prisma.assessment.findMany({ where: { id: { in: [a.id, second.id] } }, select: { questionSet: true } });
    expect(rows.map((r) => r.questionSet)).toEqual([rows[0]?.questionSet, rows[0]?.questionSet]);
    expect(rows[0]?.questionSet).toMatch(/^[0-9a-f]{64}$/);
    // A framework is only for a gap analysis; a gap analysis needs an activated one.
    const stray = await t.call('POST', A, { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de', framework: 'gdpr' } });
    expect(expectEnvelope(stray, 422, 'validation_failed').details[0].field).toBe('framework');
    const noFramework = await t.call('POST', A, { body: { type: 'gap-analysis', systemId: 's', jurisdiction: 'eu/de' } });
    expect(expectEnvelope(noFramework, 422, 'validation_failed').details[0]).toMatchObject({ field: 'framework', issue: 'missing' });
    const inactive = await t.call('POST', A, { body: { type: 'gap-analysis', systemId: 's', jurisdiction: 'eu/de', framework: 'gdpr' } });
    expect(expectEnvelope(inactive, 422, 'validation_failed').details[0].field).toBe('framework');
  });

  it('checks answers by kind and evidence by tenant and expiry; versions every change; completion follows', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const a = (await t.call('POST', A, { body: { type: 'dpia', systemId: 'sys_crm', jurisdiction: 'eu/fr' } })).body;
    const qs = await questions(t, a.id);
    const yesNo = qs.find((q) => q.kind === 'yes_no');
    const text = qs.find((q) => q.kind === 'text' && q.required);
    const ev = qs.find((q) => q.kind === 'evidence');
    expect(yesNo && text && ev).toBeTruthy();
    const put = (q: Json, body: Json, token = ana.token) => as(token, 'PUT', `${A}/${a.id}/questions/${q.key}/answer`, body);

    // Wrong kinds: 422 naming the field, nothing stored.
    expect(expectEnvelope(await put(yesNo as Json, { value: 'maybe' }), 422, 'validation_failed').details[0].field).toBe('value');
    expect(expectEnvelope(await put(text as Json, { value: 3 }), 422, 'validation_failed').details[0].field).toBe('value');
    expect(expectEnvelope(await put(ev as Json, { value: 'no file' }), 422, 'validation_failed').details[0].field).toBe('evidenceIds');
    // Evidence of another tenant, and expired evidence: 422 on the id's position.
    const other = await createTenant(ts);
    const foreign = await evidence(other);
    const expired = await evidence(t, { collectedAt: '2020-01-01T00:00:00.000Z', expiresAt: '2021-01-01T00:00:00.000Z' });
    const current = await evidence(t);
    const bad = await put(ev as Json, { evidenceIds: [current.id, foreign.id] });
    expect(expectEnvelope(bad, 422, 'validation_failed').details[0].field).toBe('evidenceIds.1');
    expect(expectEnvelope(await put(ev as Json, { evidenceIds: [expired.id] }), 422, 'validation_failed').details[0].field).toBe(
      'evidenceIds.0',
    );
    expect((await t.call('GET', `${A}/${a.id}`)).body).toMatchObject({ status: 'draft', completion: 0 });
    expect(expectEnvelope(await put({ key: 'no-such-question' }, { value: 'x' }), 404, 'not_found')).toBeTruthy();

    // The first answer moves the draft in progress; the answerer is the person the key acts for.
    const first = await put(text as Json, { value: 'Customer support tickets.', notes: 'From the RoPA.' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.answer).toMatchObject({ value: 'Customer support tickets.', answeredBy: ana.id, version: 1, evidenceIds: [] });
    const after1 = (await t.call('GET', `${A}/${a.id}`)).body;
    expect(after1.status).toBe('in_progress');
    expect(after1.completion).toBeGreaterThan(0);
    expect(after1.completion).toBeLessThan(1);
    const stage = after1.stages.find((s: Json) => s.key === (text as Json).stage);
    expect(stage.answered).toBe(1);
    expect(['in_progress', 'completed']).toContain(stage.status);

    // Change, attach evidence, clear: versions 2, 3, then cleared; the history keeps every one.
    expect((await put(text as Json, { value: 'Support tickets and chat logs.' })).body.answer.version).toBe(2);
    expect((await put(ev as Json, { evidenceIds: [current.id, current.id] })).body.answer.evidenceIds).toEqual([current.id]);
    const cleared = await as(t.token, 'DELETE', `${A}/${a.id}/questions/${(text as Json).key}/answer`);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.answer).toBeNull();
    const again = await as(t.token, 'DELETE', `${A}/${a.id}/questions/${(text as Json).key}/answer`);
    expectEnvelope(again, 409, 'conflict');
    const history = await t.call('GET', `${A}/${a.id}/questions/${(text as Json).key}/answers`);
    expect(history.body.data.map((v: Json) => [v.version, v.action])).toEqual([
      [3, 'cleared'],
      [2, 'changed'],
      [1, 'answered'],
    ]);
    expect(history.body.data[2]).toMatchObject({ by: ana.id, value: 'Customer support tickets.', notes: 'From the RoPA.' });
    // Audited: each answer is an event on the assessment.
    const trail = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: a.id, limit: 50 } });
    const actions = trail.body.data.map((e: Json) => e.action);
    expect(actions.filter((x: string) => x === 'assessment.answered')).toHaveLength(3);
    expect(actions).toContain('assessment.answer_cleared');
    // Another tenant sees none of it.
    expectEnvelope(await other.call('GET', `${A}/${a.id}/questions`), 404, 'not_found');
    expectEnvelope(
      await other.call('PUT', `${A}/${a.id}/questions/${(text as Json).key}/answer`, { body: { value: 'x' } }),
      404,
      'not_found',
    );
  });

  it('conditional questions: the conformity route decides which annex’s questions are required', async () => {
    const t = await createTenant(ts);
    const a = (await t.call('POST', A, { body: { type: 'conformity', systemId: 'sys_x', jurisdiction: 'eu/de' } })).body;
    const qs = await questions(t, a.id);
    const route = qs.find((q) => q.kind === 'choice');
    expect(route?.options.map((o: Json) => o.value).sort()).toEqual(['annex-vi', 'annex-vii']);
    const requiredBefore = new Set((await questions(t, a.id, '&required=true')).map((q) => q.key));
    await t.call('PUT', `${A}/${a.id}/questions/${route?.key}/answer`, { body: { value: 'annex-vii' } });
    const requiredAfter = new Set((await questions(t, a.id, '&required=true')).map((q) => q.key));
    const added = [...requiredAfter].filter((k) => !requiredBefore.has(k));
    expect(added.length).toBeGreaterThan(0);
    expect(qs.filter((q) => added.includes(q.key)).every((q) => q.stage === qs.find((x) => x.key === added[0])?.stage)).toBe(true);
  });

  it('four eyes: submit needs every required answer; the approver is a person who answered nothing; approval freezes', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const ben = await person(t, 'Ben');
    const ev = await evidence(t);
    const a = (await t.call('POST', A, { body: { type: 'dpia', systemId: 'sys_crm', jurisdiction: 'eu/fr' } })).body;
    const first = (await questions(t, a.id, '&required=true'))[0] as Json;
    await as(ana.token, 'PUT', `${A}/${a.id}/questions/${first.key}/answer`, answerFor(first, ev.id));

    const early = await as(ana.token, 'POST', `${A}/${a.id}/submit`, {});
    const env = expectEnvelope(early, 422, 'validation_failed');
    expect(env.details.length).toBeGreaterThan(0);
    expect(env.details[0].field).toMatch(/^questions\./);

    await answerAll(t, a.id, ana.token, ev.id);
    const submitted = await as(ana.token, 'POST', `${A}/${a.id}/submit`, { reason: 'Ready.' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'in_review', completion: 1, submittedBy: ana.id });
    // In review, answers are closed.
    expectEnvelope(await as(ana.token, 'PUT', `${A}/${a.id}/questions/${first.key}/answer`, answerFor(first, ev.id)), 409, 'conflict');

    // The answerer cannot approve; a service key cannot approve.
    const self = expectEnvelope(await as(ana.token, 'POST', `${A}/${a.id}/approve`, {}), 403, 'forbidden');
    expect(self.details[0].issue).toBe('four_eyes');
    expect(expectEnvelope(await t.call('POST', `${A}/${a.id}/approve`, { body: {} }), 403, 'forbidden').details[0].issue).toBe(
      'service_key',
    );

    // Returned with comments; a comment on an unknown question is 422; the next answer clears the comment.
    const unknownComment = await as(ben.token, 'POST', `${A}/${a.id}/return`, { comments: [{ question: 'nope', comment: 'x' }] });
    expect(expectEnvelope(unknownComment, 422, 'validation_failed').details[0].field).toBe('comments.0.question');
    const returned = await as(ben.token, 'POST', `${A}/${a.id}/return`, {
      comments: [{ question: first.key, comment: 'Be more specific.' }],
    });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    expect(returned.body.status).toBe('in_progress');
    const commented = await t.call('GET', `${A}/${a.id}/questions/${first.key}`);
    expect(commented.body.review).toMatchObject({ comment: 'Be more specific.', by: ben.id });
    const fixed = await as(ana.token, 'PUT', `${A}/${a.id}/questions/${first.key}/answer`, answerFor(first, ev.id));
    expect(fixed.body.review).toBeNull();
    expect((await as(ana.token, 'POST', `${A}/${a.id}/submit`, {})).status).toBe(200);

    const approved = await as(ben.token, 'POST', `${A}/${a.id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', approvedBy: ben.id });
    expect(approved.body.answersHash).toMatch(/^[0-9a-f]{64}$/);
    // Frozen: no answer, clear or assignment changes it.
    expectEnvelope(await as(ana.token, 'PUT', `${A}/${a.id}/questions/${first.key}/answer`, answerFor(first, ev.id)), 409, 'conflict');
    expectEnvelope(await as(ana.token, 'DELETE', `${A}/${a.id}/questions/${first.key}/answer`), 409, 'conflict');
    expectEnvelope(await t.call('PUT', `${A}/${a.id}/questions/${first.key}/assignment`, { body: { personId: ana.id } }), 409, 'conflict');
    const trail = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: a.id, limit: 100 } });
    const actions = trail.body.data.map((e: Json) => e.action);
    for (const x of ['assessment.submitted', 'assessment.returned', 'assessment.approved']) expect(actions).toContain(x);

    // A new revision starts from it with the answers carried; the approved one stays as it was.
    const revision = await t.call('POST', `${A}/${a.id}/revisions`, { body: {} });
    expect(revision.status, JSON.stringify(revision.body)).toBe(201);
    expect(revision.body).toMatchObject({ status: 'in_progress', revision: 2, previousId: a.id, completion: 1, answersHash: null });
    const carried = await t.call('GET', `${A}/${revision.body.id}/questions/${first.key}/answers`);
    expect(carried.body.data[0]).toMatchObject({ version: 1, action: 'carried' });
    expectEnvelope(await t.call('POST', `${A}/${a.id}/revisions`, { body: {} }), 409, 'conflict');
    expect((await t.call('GET', `${A}/${a.id}`)).body).toMatchObject({ status: 'approved', answersHash: approved.body.answersHash });
  });

  it('gap analysis: a requirement per control, scores per control, clause and framework, gaps turned into findings once', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const ben = await person(t, 'Ben');
    await t.call('POST', '/v1/frameworks/nist-ssdf/activate', { body: {} });
    const created = await t.call('POST', A, {
      body: { type: 'gap-analysis', systemId: 'sys_build', jurisdiction: 'us/us', framework: 'nist-ssdf' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const a = created.body;
    const qs = await questions(t, a.id);
    const reqs = qs.filter((q) => q.kind === 'requirement');
    const controls = await collectPages<Json>(t, '/v1/frameworks/nist-ssdf/controls');
    expect(reqs.map((q) => q.control)).toEqual(controls.map((c: Json) => c.id));
    expect(qs.some((q) => q.kind !== 'requirement' && q.required === false)).toBe(true);
    // A requirement other than compliant needs a justification.
    const [r0, r1, r2, ...rest] = reqs as [Json, Json, Json, ...Json[]];
    const noJustification = await as(ana.token, 'PUT', `${A}/${a.id}/questions/${r0.key}/answer`, { value: 'non_compliant' });
    expect(expectEnvelope(noJustification, 422, 'validation_failed').details[0].field).toBe('notes');
    await as(ana.token, 'PUT', `${A}/${a.id}/questions/${r0.key}/answer`, { value: 'non_compliant', notes: 'No threat model.' });
    await as(ana.token, 'PUT', `${A}/${a.id}/questions/${r1.key}/answer`, { value: 'partially_compliant', notes: 'Half the repos.' });
    await as(ana.token, 'PUT', `${A}/${a.id}/questions/${r2.key}/answer`, { value: 'not_applicable', notes: 'No hardware.' });
    for (const q of rest) await as(ana.token, 'PUT', `${A}/${a.id}/questions/${q.key}/answer`, { value: 'compliant' });
    const supporting = qs.find((q) => q.control === r1.control && q.kind === 'yes_no');

    const res = (await t.call('GET', `${A}/${a.id}/results`)).body;
    const n = rest.length;
    // compliant 1 each, partial 0.5, non-compliant 0, not applicable left out.
    expect(res.score).toBeCloseTo((n + 0.5) / (n + 2), 3);
    expect(res.frameworks[0]).toMatchObject({
      framework: 'nist-ssdf',
      controls: reqs.length,
      assessed: reqs.length,
      nonCompliant: 1,
      partiallyCompliant: 1,
      notApplicable: 1,
    });
    expect(res.controls.find((c: Json) => c.control === r2.control)).toMatchObject({ status: 'not_applicable', score: null });
    expect(res.gaps.map((g: Json) => g.control)).toEqual([r0.control, r1.control]);
    expect(res.gaps[0].missing).toContain('evidence');
    if (supporting) expect(res.gaps[1].missing).toContain(`${supporting.key}: not answered`);
    expect(res.clauses.length).toBeGreaterThan(0);
    expect(res.open).toEqual([]);

    // Not approved yet: no remediation.
    expectEnvelope(await t.call('POST', `${A}/${a.id}/remediation`, { body: {} }), 409, 'conflict');
    await as(ana.token, 'POST', `${A}/${a.id}/submit`, {});
    expect((await as(ben.token, 'POST', `${A}/${a.id}/approve`, {})).status).toBe(200);
    const remediated = await t.call('POST', `${A}/${a.id}/remediation`, { body: { dueDate: '2027-03-31', ownerId: ben.id } });
    expect(remediated.status, JSON.stringify(remediated.body)).toBe(201);
    expect(remediated.body.created.map((c: Json) => [c.control, c.severity])).toEqual([
      [r0.control, 'high'],
      [r1.control, 'medium'],
    ]);
    const finding = await t.call('GET', `/v1/self-audit/findings/${remediated.body.created[0].findingId}`);
    expect(finding.body).toMatchObject({ controlId: r0.control, severity: 'high', status: 'open', systemId: 'sys_build' });
    // Made by the self-audit rail's own creates: its records, with their audit events.
    const rem = await t.call('GET', `/v1/self-audit/remediations/${remediated.body.created[0].remediationId}`);
    expect(rem.body).toMatchObject({ findingId: finding.body.id, ownerId: ben.id, status: 'open' });
    expect(rem.body.dueDate).toMatch(/^2027-03-31/);
    for (const [resourceId, action] of [
      [finding.body.id, 'finding.created'],
      [rem.body.id, 'remediation.created'],
    ]) {
      const trail = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 5 } })).body.data;
      expect(trail.map((e: Json) => e.action)).toEqual([action]);
    }
    const again = await t.call('POST', `${A}/${a.id}/remediation`, { body: {} });
    expect(again.body.created).toEqual([]);
    expect(again.body.skipped.map((s: Json) => s.control)).toEqual([r0.control, r1.control]);
    const unknown = await t.call('POST', `${A}/${a.id}/remediation`, { body: { controls: [rest[0]?.control] } });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('controls.0');
  });

  it('assignments go to active people of the tenant, and the deadline sweep announces an unanswered due question once', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const a = (await t.call('POST', A, { body: { type: 'fria', systemId: 'sys_hr', jurisdiction: 'eu/de' } })).body;
    const [q1, q2] = (await questions(t, a.id)) as [Json, Json];
    const other = await createTenant(ts);
    const stranger = await person(other, 'Sam');
    const foreign = await t.call('PUT', `${A}/${a.id}/questions/${q1.key}/assignment`, { body: { personId: stranger.id } });
    expect(expectEnvelope(foreign, 422, 'validation_failed').details[0].field).toBe('personId');
    const today = new Date().toISOString().slice(0, 10);
    const assigned = await t.call('PUT', `${A}/${a.id}/questions/${q1.key}/assignment`, { body: { personId: ana.id, dueDate: today } });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body.assignment).toMatchObject({ personId: ana.id, dueDate: today });
    await t.call('PUT', `${A}/${a.id}/questions/${q2.key}/assignment`, { body: { personId: ana.id, dueDate: today } });
    await as(ana.token, 'PUT', `${A}/${a.id}/questions/${q2.key}/answer`, answerFor(q2, (await evidence(t)).id));
    const mine = await questions(t, a.id, `&personId=${ana.id}`);
    expect(mine.map((q) => q.key)).toEqual([q1.key, q2.key]);

    // A row at a time (the other tenants' assigned questions of this database make many pages), then
    // a page at a time: announced by the first pass, once.
    const trailOf = async () =>
      (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: `${a.id}:${q1.key}`, limit: 10 } })).body.data;
    await sweepDeadlines(ts.server.db.prisma, new Date(), undefined, 1);
    expect((await trailOf()).map((e: Json) => e.action)).toEqual(['assessment.question_due']);
    await sweepDeadlines(ts.server.db.prisma);
    expect((await trailOf()).map((e: Json) => e.action)).toEqual(['assessment.question_due']);
    const answeredTrail = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: `${a.id}:${q2.key}`, limit: 10 } });
    expect(answeredTrail.body.data).toEqual([]);
  });
});
