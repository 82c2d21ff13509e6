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

async function growth(): Promise<TenantFixture> {
  return createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
}

async function addRisk(t: TenantFixture, body: Json = {}): Promise<Json> {
  const res = await t.call('POST', '/v1/risk-register/risks', {
    body: { title: 'Biased scoring', domain: 'ai', inherentLikelihood: 4, inherentImpact: 5, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function addPerson(t: TenantFixture, name = 'Ines Duarte'): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/users', {
    body: { name, email: `${name.replace(/\W/g, '.').toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function plan(t: TenantFixture, riskId: string, body: Json): Promise<Json> {
  const res = await t.call('POST', '/v1/risk-register/treatments', { body: { riskId, description: 'Do something', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function implement(t: TenantFixture, id: string): Promise<Json> {
  const res = await t.call('POST', `/v1/risk-register/treatments/${id}/implement`, { body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A sign-off made with the signer's own key (one per person): the signer is whom the key acts for. */
const personKeys = new Map<string, Promise<string>>();
async function signOff(t: TenantFixture, body: Json, as: string = body.signerId) {
  const k = `${t.tenantId}:${as}`;
  if (!personKeys.has(k)) personKeys.set(k, t.personKey(as));
  return call(ts.url, 'POST', '/v1/risk-register/sign-off', { token: await personKeys.get(k), body });
}

const getRisk = async (t: TenantFixture, id: string) => (await t.call('GET', `/v1/risk-register/risks/${id}`)).body;

describe('risk_register: risks', () => {
  it('computes the inherent score, rating bands and a residual equal to the inherent; due date from reviewEveryDays', async () => {
    const t = await growth();
    const r = await addRisk(t, { area: 'Lending', controlIds: ['AIA-RMS-01'], reviewEveryDays: 30 });
    expect(r).toMatchObject({
      object: 'svc.risk_register.risk',
      inherentLikelihood: 4,
      inherentImpact: 5,
      inherentScore: 20,
      inherentRating: 'critical',
      residualLikelihood: 4,
      residualImpact: 5,
      residualScore: 20,
      residualRating: 'critical',
      status: 'open',
      area: 'Lending',
      ownerId: null,
      controlIds: ['AIA-RMS-01'],
      reviewEveryDays: 30,
      lastReviewedAt: null,
    });
    expect(r.id).toMatch(/^rsk_/);
    expect(Date.parse(r.nextReviewAt) - Date.parse(r.createdAt)).toBe(30 * DAY);
    expect((await addRisk(t)).reviewEveryDays).toBe(90);

    // Band thresholds: low 1-4, medium 5-9, high 10-16, critical 17-25.
    const bands: [number, number, string][] = [
      [1, 1, 'low'],
      [2, 2, 'low'],
      [1, 5, 'medium'],
      [3, 3, 'medium'],
      [2, 5, 'high'],
      [4, 4, 'high'],
      [4, 5, 'critical'],
      [5, 5, 'critical'],
    ];
    for (const [l, i, rating] of bands) {
      const x = await addRisk(t, { inherentLikelihood: l, inherentImpact: i });
      expect([x.inherentScore, x.inherentRating, x.residualRating]).toEqual([l * i, rating, rating]);
    }
    expect(await getRisk(t, r.id)).toEqual(r);
  });

  it('validates the body (422 naming the field), the owner (a person of the tenant) and hides other tenants', async () => {
    const t = await growth();
    const bad = async (body: Json, field: string) => {
      const res = await t.call('POST', '/v1/risk-register/risks', {
        body: { title: 'X', domain: 'ai', inherentLikelihood: 3, inherentImpact: 3, ...body },
      });
      const env = expectEnvelope(res, 422, 'validation_failed');
      expect(env.details.map((d: Json) => d.field)).toContain(field);
    };
    await bad({ domain: 'weather' }, 'domain');
    await bad({ inherentLikelihood: 6 }, 'inherentLikelihood');
    await bad({ inherentImpact: 0 }, 'inherentImpact');
    await bad({ reviewEveryDays: 0 }, 'reviewEveryDays');
    await bad({ ownerId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }, 'ownerId');
    await bad({ residualScore: 1 }, 'residualScore');
    await bad({ treatments: [{ type: 'mitigate', description: 'x' }] }, 'treatments.0.likelihoodReduction');

    const person = await addPerson(t);
    expect((await addRisk(t, { ownerId: person })).ownerId).toBe(person);
    expect((await t.call('POST', `/v1/stakeholders/users/${person}/deactivate`, { body: {} })).status).toBe(200);
    await bad({ ownerId: person }, 'ownerId');

    // A person of another tenant is unknown here.
    const other = await growth();
    await bad({ ownerId: await addPerson(other) }, 'ownerId');
    const mine = await addRisk(t);
    expectEnvelope(await other.call('GET', `/v1/risk-register/risks/${mine.id}`), 404, 'not_found');
    expect((await collectPages<Json>(other, '/v1/risk-register/risks')).map((x) => x.id)).not.toContain(mine.id);
  });

  it('records inline treatments as planned, in one audited create; an Idempotency-Key replay creates nothing', async () => {
    const t = await growth();
    const body = {
      title: 'Vendor outage',
      domain: 'third-party',
      inherentLikelihood: 3,
      inherentImpact: 4,
      treatments: [
        { type: 'mitigate', description: 'Second provider', likelihoodReduction: 1 },
        { type: 'transfer', description: 'Outage insurance' },
      ],
    };
    const first = await t.call('POST', '/v1/risk-register/risks', { body, headers: { 'idempotency-key': 'risk-inline-1' } });
    expect(first.status).toBe(201);
    expect(first.body.residualScore).toBe(12);
    const again = await t.call('POST', '/v1/risk-register/risks', { body, headers: { 'idempotency-key': 'risk-inline-1' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await collectPages(t, '/v1/risk-register/risks')).toHaveLength(1);
    const treatments = await collectPages<Json>(t, `/v1/risk-register/treatments?riskId=${first.body.id}`);
    expect(treatments.map((x) => [x.type, x.status, x.likelihoodReduction, x.impactReduction]).sort()).toEqual([
      ['mitigate', 'planned', 1, 0],
      ['transfer', 'planned', 0, 1],
    ]);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: first.body.id, limit: 50 } });
    expect(audit.body.data.map((e: Json) => e.action)).toEqual(['risk.created']);
    expect(audit.body.data[0].data.treatmentIds.sort()).toEqual(treatments.map((x) => x.id).sort());
  });

  it('closes through a declared transition; an illegal one is 409 naming the state and changes nothing', async () => {
    const t = await growth();
    const r = await addRisk(t);
    const kept = await addRisk(t, { domain: 'privacy' });
    const closed = await t.call('POST', `/v1/risk-register/risks/${r.id}/close`, { body: { reason: 'System retired' } });
    expect(closed.body.status).toBe('closed');
    const again = expectEnvelope(await t.call('POST', `/v1/risk-register/risks/${r.id}/close`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('closed');
    expect(await getRisk(t, r.id)).toEqual(closed.body);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } });
    expect(audit.body.data.map((e: Json) => e.action).sort()).toEqual(['risk.closed', 'risk.created']);
    expect((await collectPages<Json>(t, '/v1/risk-register/risks?status=closed')).map((x) => x.id)).toEqual([r.id]);
    expect((await collectPages<Json>(t, '/v1/risk-register/risks?status=open&domain=privacy')).map((x) => x.id)).toEqual([kept.id]);
  });
});

describe('risk_register: treatments move the residual', () => {
  it('only implemented treatments count: mitigate, transfer, avoid by their steps with a floor of 1', async () => {
    const t = await growth();
    const r = await addRisk(t, { inherentLikelihood: 4, inherentImpact: 5 });
    const mit = await plan(t, r.id, { type: 'mitigate', likelihoodReduction: 1, impactReduction: 2 });
    expect(mit).toMatchObject({ status: 'planned', implementedAt: null, riskId: r.id });
    // Planned: nothing moves.
    expect((await getRisk(t, r.id)).residualScore).toBe(20);

    const done = await implement(t, mit.id);
    expect(done.status).toBe('implemented');
    expect(done.implementedAt).not.toBeNull();
    let risk = await getRisk(t, r.id);
    expect([risk.residualLikelihood, risk.residualImpact, risk.residualScore, risk.residualRating, risk.status]).toEqual([
      3,
      3,
      9,
      'medium',
      'treated',
    ]);
    expect([risk.inherentScore, risk.inherentRating]).toEqual([20, 'critical']);

    // Implementing twice: 409 naming the state, nothing changes.
    const twice = expectEnvelope(await t.call('POST', `/v1/risk-register/treatments/${mit.id}/implement`, { body: {} }), 409, 'conflict');
    expect(twice.message).toContain('implemented');
    expect((await getRisk(t, r.id)).residualScore).toBe(9);

    // transfer: impact only, 1 step when not stated.
    const tr = await plan(t, r.id, { type: 'transfer' });
    expect(tr.impactReduction).toBe(1);
    await implement(t, tr.id);
    risk = await getRisk(t, r.id);
    expect([risk.residualLikelihood, risk.residualImpact, risk.residualScore]).toEqual([3, 2, 6]);

    // mitigate past the floor stops at 1.
    await implement(t, (await plan(t, r.id, { type: 'mitigate', impactReduction: 4 })).id);
    risk = await getRisk(t, r.id);
    expect([risk.residualLikelihood, risk.residualImpact]).toEqual([3, 1]);

    // avoid: likelihood to 1.
    await implement(t, (await plan(t, r.id, { type: 'avoid' })).id);
    risk = await getRisk(t, r.id);
    expect([risk.residualLikelihood, risk.residualImpact, risk.residualScore, risk.residualRating]).toEqual([1, 1, 1, 'low']);

    // The audit event of an implementation carries the residual before and after.
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: mit.id, limit: 50 } });
    expect(audit.body.data[0]).toMatchObject({
      action: 'treatment.implemented',
      data: { from: 'planned', to: 'implemented', riskId: r.id, residualScoreBefore: 20, residualScoreAfter: 9 },
    });
  });

  it('checks the reductions each type admits, the risk (404 for another tenant) and closed risks (409)', async () => {
    const t = await growth();
    const r = await addRisk(t);
    const bad = async (body: Json, field: string) => {
      const res = await t.call('POST', '/v1/risk-register/treatments', { body: { riskId: r.id, description: 'x', ...body } });
      const env = expectEnvelope(res, 422, 'validation_failed');
      expect(env.details.map((d: Json) => d.field)).toContain(field);
    };
    await bad({ type: 'mitigate' }, 'likelihoodReduction');
    await bad({ type: 'transfer', likelihoodReduction: 1 }, 'likelihoodReduction');
    await bad({ type: 'avoid', impactReduction: 1 }, 'impactReduction');
    await bad({ type: 'accept', likelihoodReduction: 2 }, 'likelihoodReduction');
    await bad({ type: 'delegate' }, 'type');
    await bad({ type: 'mitigate', likelihoodReduction: 5 }, 'likelihoodReduction');

    const other = await growth();
    expectEnvelope(
      await other.call('POST', '/v1/risk-register/treatments', { body: { riskId: r.id, type: 'avoid', description: 'x' } }),
      404,
      'not_found',
    );
    const mine = await plan(t, r.id, { type: 'avoid' });
    expectEnvelope(await other.call('POST', `/v1/risk-register/treatments/${mine.id}/implement`, { body: {} }), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/risk-register/treatments/${mine.id}`), 404, 'not_found');

    // An accept treatment is implemented by the sign-off, not directly.
    const acc = await plan(t, r.id, { type: 'accept' });
    const refused = expectEnvelope(await t.call('POST', `/v1/risk-register/treatments/${acc.id}/implement`, { body: {} }), 409, 'conflict');
    expect(refused.message).toContain('sign-off');

    await t.call('POST', `/v1/risk-register/risks/${r.id}/close`, { body: {} });
    expectEnvelope(
      await t.call('POST', '/v1/risk-register/treatments', { body: { riskId: r.id, type: 'avoid', description: 'x' } }),
      409,
      'conflict',
    );
    const closedImpl = expectEnvelope(
      await t.call('POST', `/v1/risk-register/treatments/${mine.id}/implement`, { body: {} }),
      409,
      'conflict',
    );
    expect(closedImpl.message).toContain('closed');
    expect((await t.call('GET', `/v1/risk-register/treatments/${mine.id}`)).body.status).toBe('planned');
  });
});

describe('risk_register: scores and heatmap', () => {
  it('score history lists the assessment and each implemented treatment; the list shows the reduction', async () => {
    const t = await growth();
    const r = await addRisk(t, { inherentLikelihood: 5, inherentImpact: 4 });
    const h0 = (await t.call('GET', `/v1/risk-register/scores/${r.id}`)).body;
    expect(h0.steps).toEqual([expect.objectContaining({ cause: 'assessed', score: 20, moved: false })]);
    expect(h0.acceptedResidual).toBeNull();

    const a = await plan(t, r.id, { type: 'mitigate', likelihoodReduction: 2 });
    const b = await plan(t, r.id, { type: 'avoid' });
    await implement(t, a.id);
    await implement(t, b.id);
    const h = (await t.call('GET', `/v1/risk-register/scores/${r.id}`)).body;
    expect(h.steps.map((s: Json) => [s.cause, s.treatmentId, s.likelihood, s.impact, s.score, s.moved])).toEqual([
      ['assessed', null, 5, 4, 20, false],
      ['treatment', a.id, 3, 4, 12, true],
      ['treatment', b.id, 1, 4, 4, true],
    ]);
    expect(h.residual).toEqual({ likelihood: 1, impact: 4, score: 4, rating: 'low' });

    const list = await collectPages<Json>(t, '/v1/risk-register/scores');
    expect(list).toEqual([
      expect.objectContaining({ riskId: r.id, reduction: 16, implementedTreatmentIds: [a.id, b.id], residual: h.residual }),
    ]);
    expectEnvelope(await (await growth()).call('GET', `/v1/risk-register/scores/${r.id}`), 404, 'not_found');
  });

  it('counts risks per cell by residual (default) or inherent, leaves closed risks out, and follows the data', async () => {
    const t = await growth();
    const r1 = await addRisk(t, { inherentLikelihood: 4, inherentImpact: 5 });
    const r2 = await addRisk(t, { inherentLikelihood: 4, inherentImpact: 5, domain: 'privacy' });
    const r3 = await addRisk(t, { inherentLikelihood: 2, inherentImpact: 2 });
    const cell = (map: Json, l: number, i: number) => map.cells.find((c: Json) => c.likelihood === l && c.impact === i);

    let map = (await t.call('GET', '/v1/risk-register/heatmap')).body;
    expect(map.cells).toHaveLength(25);
    expect(map.basis).toBe('residual');
    expect(map.total).toBe(3);
    expect(cell(map, 4, 5)).toMatchObject({ count: 2, score: 20, rating: 'critical', riskIds: [r2.id, r1.id] });
    expect(cell(map, 2, 2)).toMatchObject({ count: 1, riskIds: [r3.id] });
    expect(map.cells.reduce((n: number, c: Json) => n + c.count, 0)).toBe(3);

    // A treatment moves r1 to another residual cell; the inherent map keeps it.
    await implement(t, (await plan(t, r1.id, { type: 'mitigate', likelihoodReduction: 2, impactReduction: 2 })).id);
    map = (await t.call('GET', '/v1/risk-register/heatmap')).body;
    expect(cell(map, 4, 5).riskIds).toEqual([r2.id]);
    expect(cell(map, 2, 3).riskIds).toEqual([r1.id]);
    const inherent = (await t.call('GET', '/v1/risk-register/heatmap?basis=inherent')).body;
    expect(cell(inherent, 4, 5).count).toBe(2);

    await t.call('POST', `/v1/risk-register/risks/${r3.id}/close`, { body: {} });
    map = (await t.call('GET', '/v1/risk-register/heatmap')).body;
    expect([map.total, cell(map, 2, 2).count]).toEqual([2, 0]);
    const all = (await t.call('GET', '/v1/risk-register/heatmap?includeClosed=true')).body;
    expect([all.total, cell(all, 2, 2).count]).toEqual([3, 1]);
    expect((await t.call('GET', '/v1/risk-register/heatmap?domain=privacy')).body.total).toBe(1);
    expectEnvelope(await t.call('GET', '/v1/risk-register/heatmap?basis=both'), 422, 'validation_failed');
  });
});

describe('risk_register: periodic reviews', () => {
  it('lists overdue risks; recording a review moves the next due date from the latest review', async () => {
    const t = await growth();
    const reviewer = await addPerson(t, 'Rita Review');
    const late = await addRisk(t, { title: 'Late', reviewEveryDays: 7 });
    const fresh = await addRisk(t, { title: 'Fresh', reviewEveryDays: 30 });
    // Nothing is overdue yet: both are due after their creation.
    expect(await collectPages(t, '/v1/risk-register/reviews/due?overdue=true')).toEqual([]);

    // A review ten days ago makes the 7-day risk overdue by three days.
    const tenDaysAgo = new Date(Date.now() - 10 * DAY).toISOString();
    const rev = await t.call('POST', '/v1/risk-register/reviews', {
      body: { riskId: late.id, reviewerId: reviewer, notes: 'Looked at it', reviewedAt: tenDaysAgo },
    });
    expect(rev.status).toBe(201);
    expect(rev.body).toMatchObject({ object: 'svc.risk_register.review', riskId: late.id, reviewerId: reviewer, reviewedAt: tenDaysAgo });
    expect(Date.parse(rev.body.nextReviewAt)).toBe(Date.parse(tenDaysAgo) + 7 * DAY);
    let overdue = await collectPages<Json>(t, '/v1/risk-register/reviews/due?overdue=true');
    expect(overdue.map((x) => [x.riskId, x.overdue, x.daysOverdue])).toEqual([[late.id, true, 3]]);
    expect((await collectPages<Json>(t, '/v1/risk-register/reviews/due?overdue=false')).map((x) => x.riskId)).toEqual([fresh.id]);
    expect((await getRisk(t, late.id)).lastReviewedAt).toBe(tenDaysAgo);

    // An older review does not move the date back; a review now clears the overdue state.
    await t.call('POST', '/v1/risk-register/reviews', {
      body: { riskId: late.id, reviewedAt: new Date(Date.now() - 20 * DAY).toISOString() },
    });
    expect((await getRisk(t, late.id)).lastReviewedAt).toBe(tenDaysAgo);
    const now = await t.call('POST', '/v1/risk-register/reviews', { body: { riskId: late.id } });
    expect(now.status).toBe(201);
    overdue = await collectPages<Json>(t, '/v1/risk-register/reviews/due?overdue=true');
    expect(overdue).toEqual([]);
    const r = await getRisk(t, late.id);
    expect(Date.parse(r.nextReviewAt) - Date.parse(r.lastReviewedAt)).toBe(7 * DAY);

    const reviews = await collectPages<Json>(t, `/v1/risk-register/reviews?riskId=${late.id}`);
    expect(reviews).toHaveLength(3);
    expect(await collectPages(t, `/v1/risk-register/reviews?riskId=${fresh.id}`)).toEqual([]);
  });

  it("audits the review with the risk's due date it replaced; reviews recorded at once each move it from the other's", async () => {
    const t = await growth();
    const r = await addRisk(t, { reviewEveryDays: 10 });
    const before = (await getRisk(t, r.id)).nextReviewAt;
    const first = await t.call('POST', '/v1/risk-register/reviews', {
      body: { riskId: r.id, reviewedAt: new Date(Date.now() - 2 * DAY).toISOString() },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: first.body.id, limit: 50 } });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      action: 'risk_review.created',
      data: { riskId: r.id, reviewedAt: first.body.reviewedAt, previousNextReviewAt: before, nextReviewAt: first.body.nextReviewAt },
    });

    // Five reviews at once, each of another day: the risk ends on the latest, whatever the order of the commits.
    const days = [9, 7, 1, 5, 3];
    const all = await Promise.all(
      days.map((d) =>
        t.call('POST', '/v1/risk-register/reviews', { body: { riskId: r.id, reviewedAt: new Date(Date.now() - d * DAY).toISOString() } }),
      ),
    );
    expect(all.map((x) => x.status)).toEqual([201, 201, 201, 201, 201]);
    const latest = all[days.indexOf(1)]?.body.reviewedAt;
    const risk = await getRisk(t, r.id);
    expect(risk.lastReviewedAt).toBe(latest);
    expect(Date.parse(risk.nextReviewAt)).toBe(Date.parse(latest) + 10 * DAY);
    // Each event names the date the review before it (in the chain's order) left: with the risk locked,
    // no two reviews read the same date, so the dates form one chain from the first to the last.
    const events = await t.call('POST', '/v1/audit-trail/query', { body: { action: 'risk_review.created', limit: 50 } });
    const chain = (events.body.data as Json[]).filter((e) => e.data.riskId === r.id).sort((a, b) => a.seq - b.seq);
    expect(chain).toHaveLength(6);
    expect(chain[0]?.data.previousNextReviewAt).toBe(before);
    for (let i = 1; i < chain.length; i++) expect(chain[i]?.data.previousNextReviewAt).toBe(chain[i - 1]?.data.nextReviewAt);
    expect(chain[5]?.data.nextReviewAt).toBe(risk.nextReviewAt);
  });

  it("rejects a future date and an unknown reviewer (422), a closed risk (409), another tenant's risk (404)", async () => {
    const t = await growth();
    const r = await addRisk(t);
    const future = await t.call('POST', '/v1/risk-register/reviews', {
      body: { riskId: r.id, reviewedAt: new Date(Date.now() + 5 * DAY).toISOString() },
    });
    expect(expectEnvelope(future, 422, 'validation_failed').details[0].field).toBe('reviewedAt');
    const unknown = await t.call('POST', '/v1/risk-register/reviews', {
      body: { riskId: r.id, reviewerId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('reviewerId');
    expectEnvelope(await (await growth()).call('POST', '/v1/risk-register/reviews', { body: { riskId: r.id } }), 404, 'not_found');
    await t.call('POST', `/v1/risk-register/risks/${r.id}/close`, { body: {} });
    expectEnvelope(await t.call('POST', '/v1/risk-register/reviews', { body: { riskId: r.id } }), 409, 'conflict');
    // A closed risk leaves the schedule.
    expect(await collectPages(t, '/v1/risk-register/reviews/due')).toEqual([]);
  });
});

describe('risk_register: sign-off by the accountable owner', () => {
  it('records who accepted which residual; the risk becomes accepted and its accept treatments implemented', async () => {
    const t = await growth();
    const owner = await addPerson(t, 'Olga Owner');
    const someone = await addPerson(t, 'Sam Else');
    const r = await addRisk(t, { ownerId: owner, inherentLikelihood: 4, inherentImpact: 4 });
    await implement(t, (await plan(t, r.id, { type: 'mitigate', likelihoodReduction: 1 })).id);
    const acc = await plan(t, r.id, { type: 'accept', description: 'Accept the rest' });

    const wrong = await signOff(t, { riskId: r.id, signerId: someone });
    const env = expectEnvelope(wrong, 403, 'forbidden');
    expect(env.message).toContain(owner);
    expect(env.details).toEqual([expect.objectContaining({ field: 'signerId', issue: 'not_accountable_owner' })]);
    expect((await getRisk(t, r.id)).status).toBe('treated');

    const signed = await signOff(t, { riskId: r.id, signerId: owner, statement: 'Accepted' });
    expect(signed.status).toBe(201);
    expect(signed.body).toMatchObject({
      object: 'svc.risk_register.sign_off',
      riskId: r.id,
      signerId: owner,
      statement: 'Accepted',
      residualLikelihood: 3,
      residualImpact: 4,
      residualScore: 12,
      residualRating: 'high',
    });
    expect(signed.body.treatmentIds).toHaveLength(2);
    expect(signed.body.treatmentIds).toContain(acc.id);
    expect((await getRisk(t, r.id)).status).toBe('accepted');
    expect((await t.call('GET', `/v1/risk-register/treatments/${acc.id}`)).body.status).toBe('implemented');
    expect((await t.call('GET', `/v1/risk-register/scores/${r.id}`)).body.acceptedResidual).toMatchObject({
      signOffId: signed.body.id,
      signerId: owner,
      score: 12,
      current: true,
    });
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: signed.body.id, limit: 50 } });
    expect(audit.body.data.map((e: Json) => e.action)).toEqual(['risk.signed_off']);

    // Signed off already: 409.
    expectEnvelope(await signOff(t, { riskId: r.id, signerId: owner }), 409, 'conflict');

    // A later treatment that moves the residual reopens the question: treated, sign-off no longer current.
    await implement(t, (await plan(t, r.id, { type: 'transfer', impactReduction: 2 })).id);
    expect((await getRisk(t, r.id)).status).toBe('treated');
    expect((await t.call('GET', `/v1/risk-register/scores/${r.id}`)).body.acceptedResidual.current).toBe(false);
    const second = await signOff(t, { riskId: r.id, signerId: owner });
    expect(second.body.residualScore).toBe(6);
    expect((await collectPages(t, `/v1/risk-register/sign-off?riskId=${r.id}`)).length).toBe(2);
  });

  it('two sign-offs at once make one; the other finds the risk accepted', async () => {
    const t = await growth();
    const person = await addPerson(t);
    const r = await addRisk(t, { ownerId: person });
    const both = await Promise.all([1, 2].map(() => signOff(t, { riskId: r.id, signerId: person })));
    expect(both.map((x) => x.status).sort()).toEqual([201, 409]);
    expect(expectEnvelope(both.find((x) => x.status === 409) as (typeof both)[number], 409, 'conflict').message).toContain('accepted');
    expect((await t.call('GET', `/v1/risk-register/sign-off?riskId=${r.id}`)).body.data).toHaveLength(1);
  });

  it('needs an owner, an active one, the approve permission, and a risk that is not closed', async () => {
    const t = await growth();
    const person = await addPerson(t);
    const ownerless = await addRisk(t);
    const none = expectEnvelope(await signOff(t, { riskId: ownerless.id, signerId: person }), 409, 'conflict');
    expect(none.message).toContain('no accountable owner');

    const r = await addRisk(t, { ownerId: person });
    const editor = await t.key('editor');
    const denied = await t.call('POST', '/v1/risk-register/sign-off', {
      token: editor,
      body: { riskId: r.id, signerId: person },
    });
    expect(expectEnvelope(denied, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'risk_register:approve' }]);

    const unknown = await signOff(t, { riskId: r.id, signerId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }, person);
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('signerId');

    await t.call('POST', `/v1/stakeholders/users/${person}/deactivate`, { body: {} });
    expect(expectEnvelope(await signOff(t, { riskId: r.id, signerId: person }), 409, 'conflict').message).toContain('inactive');

    const closed = await addRisk(t);
    await t.call('POST', `/v1/risk-register/risks/${closed.id}/close`, { body: {} });
    expectEnvelope(await signOff(t, { riskId: closed.id, signerId: person }), 409, 'conflict');
    expectEnvelope(
      await (await growth()).call('POST', '/v1/risk-register/sign-off', { body: { riskId: r.id, signerId: person } }),
      404,
      'not_found',
    );
  });
});

describe('risk_register: tier', () => {
  it('is growth: a starter tenant gets 403 on every sub-resource, a growth tenant is admitted', async () => {
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    const create = await starter.call('POST', '/v1/risk-register/risks', {
      body: { title: 'X', domain: 'ai', inherentLikelihood: 3, inherentImpact: 3 },
    });
    expect(expectEnvelope(create, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'growth' }]);
    for (const path of ['risks', 'treatments', 'scores', 'heatmap', 'reviews', 'reviews/due', 'sign-off']) {
      expectEnvelope(await starter.call('GET', `/v1/risk-register/${path}`), 403, 'forbidden');
    }
    const g = await growth();
    for (const path of ['risks', 'treatments', 'scores', 'heatmap', 'reviews', 'reviews/due', 'sign-off']) {
      expect((await g.call('GET', `/v1/risk-register/${path}`)).status).toBe(200);
    }
  });
});
