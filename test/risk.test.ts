import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

type Json = Record<string, any>;

async function growth(): Promise<TenantFixture> {
  return createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
}

async function addRisk(t: TenantFixture, body: Json = {}): Promise<Json> {
  const res = await t.call('POST', '/v1/risk-register/risks', {
    body: { title: 'A risk', domain: 'ai', inherentLikelihood: 3, inherentImpact: 3, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function treat(t: TenantFixture, riskId: string, body: Json): Promise<string> {
  const res = await t.call('POST', '/v1/risk-register/treatments', { body: { riskId, description: 'Treatment', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const done = await t.call('POST', `/v1/risk-register/treatments/${res.body.id}/implement`, { body: {} });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return res.body.id;
}

async function addPerson(t: TenantFixture, name: string): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/users', {
    body: { name, email: `${name.toLowerCase().replace(/\W/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('risk: tiers', () => {
  it('is starter: sandbox gets 403; a starter tenant reads the views but cannot record risks (risk_register is growth)', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    for (const path of ['navigate', 'policy-gaps', 'watchlist', 'top-risks', 'by-domain']) {
      expect(expectEnvelope(await sandbox.call('GET', `/v1/risk/${path}`), 403, 'forbidden').details).toEqual([
        { field: 'tier', issue: 'starter' },
      ]);
    }
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    for (const path of ['navigate', 'policy-gaps', 'watchlist', 'top-risks', 'by-domain']) {
      expect((await starter.call('GET', `/v1/risk/${path}`)).status).toBe(200);
    }
    expect((await starter.call('GET', '/v1/risk/navigate')).body).toMatchObject({ object: 'svc.risk.navigation', total: 0, areas: [] });
    const create = await starter.call('POST', '/v1/risk-register/risks', {
      body: { title: 'X', domain: 'ai', inherentLikelihood: 3, inherentImpact: 3 },
    });
    expect(expectEnvelope(create, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'growth' }]);
    // A viewer key reads the views but cannot change the watchlist.
    const g = await growth();
    const r = await addRisk(g);
    const viewer = await g.key('viewer');
    expect((await g.call('GET', '/v1/risk/top-risks', { token: viewer })).status).toBe(200);
    expect(
      expectEnvelope(await g.call('POST', '/v1/risk/watchlist', { token: viewer, body: { riskId: r.id } }), 403, 'forbidden').details,
    ).toEqual([{ field: 'permission', issue: 'risk:write' }]);
  });
});

describe('risk: navigate', () => {
  it('groups risks by area with counts and the worst residual, and follows the data', async () => {
    const t = await growth();
    const a1 = await addRisk(t, { area: 'Lending', inherentLikelihood: 4, inherentImpact: 5 });
    const a2 = await addRisk(t, { area: 'Lending', inherentLikelihood: 2, inherentImpact: 2 });
    const b1 = await addRisk(t, { area: 'HR', inherentLikelihood: 3, inherentImpact: 4 });
    const n1 = await addRisk(t, { inherentLikelihood: 5, inherentImpact: 5 });

    let nav = (await t.call('GET', '/v1/risk/navigate')).body;
    expect(nav.total).toBe(4);
    expect(nav.areas.map((a: Json) => [a.area, a.count, a.worstResidualScore, a.worstRiskIds])).toEqual([
      [null, 1, 25, [n1.id]],
      ['Lending', 2, 20, [a1.id]],
      ['HR', 1, 12, [b1.id]],
    ]);
    const lending = nav.areas.find((a: Json) => a.area === 'Lending');
    expect(lending.byRating).toEqual({ low: 1, medium: 0, high: 0, critical: 1 });
    expect(lending.byStatus).toEqual({ open: 2, treated: 0, accepted: 0, closed: 0 });

    // Treating the worst Lending risk lowers the area's worst residual; the order changes.
    await treat(t, a1.id, { type: 'mitigate', likelihoodReduction: 3, impactReduction: 3 });
    nav = (await t.call('GET', '/v1/risk/navigate')).body;
    expect(nav.areas.map((a: Json) => [a.area, a.worstResidualScore])).toEqual([
      [null, 25],
      ['HR', 12],
      ['Lending', 4],
    ]);
    expect(nav.areas.find((a: Json) => a.area === 'Lending').byStatus).toMatchObject({ open: 1, treated: 1 });
    expect(nav.areas.find((a: Json) => a.area === 'Lending').worstRiskIds).toEqual([a2.id]);

    // Closed risks leave the view unless asked for.
    await t.call('POST', `/v1/risk-register/risks/${n1.id}/close`, { body: {} });
    nav = (await t.call('GET', '/v1/risk/navigate')).body;
    expect(nav.areas.map((a: Json) => a.area)).toEqual(['HR', 'Lending']);
    const all = (await t.call('GET', '/v1/risk/navigate?includeClosed=true')).body;
    expect(all.areas[0]).toMatchObject({ area: null, byStatus: { closed: 1 } });
  });
});

describe('risk: policy gaps', () => {
  it('lists risks whose controls no published policy names (drafts do not count), and those naming no control', async () => {
    const t = await growth();
    expect((await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} })).status).toBeLessThan(300);
    const controls = (await collectPages<Json>(t, '/v1/frameworks/eu-ai-act/controls')).map((c) => c.id as string);
    const [c1, c2, c3] = controls as [string, string, string];
    const bare = await addRisk(t, { title: 'No controls' });
    const one = await addRisk(t, { title: 'One control', controlIds: [c1] });
    const two = await addRisk(t, { title: 'Two controls', controlIds: [c2, c3] });

    let gaps = await collectPages<Json>(t, '/v1/risk/policy-gaps');
    expect(gaps.map((g) => [g.riskId, g.reason])).toEqual([
      [two.id, 'no_published_policy'],
      [one.id, 'no_published_policy'],
      [bare.id, 'no_controls'],
    ]);

    // A draft policy naming c1 does not close the gap; it is pointed at.
    const approver = await addPerson(t, 'Ada Approver');
    const chain = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Board', approverIds: [approver] } });
    expect(chain.status, JSON.stringify(chain.body)).toBe(201);
    const draft = await t.call('POST', '/v1/policies/draft', {
      body: { title: 'AI risk policy', controlIds: [c1, c3], text: 'Policy text.' },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    gaps = await collectPages<Json>(t, '/v1/risk/policy-gaps');
    expect(gaps.map((g) => g.riskId)).toEqual([two.id, one.id, bare.id]);
    expect(gaps.find((g) => g.riskId === one.id)?.unpublishedPolicyIds).toEqual([draft.body.id]);

    // Once published, the policy covers c1 and c3: both risks leave the list (one covered control is enough).
    const pub = await t.call('POST', '/v1/policies/publish', { body: { policyId: draft.body.id, chainId: chain.body.id } });
    expect(pub.status, JSON.stringify(pub.body)).toBeLessThan(300);
    const ok = await call(ts.url, 'POST', '/v1/policies/publish/approve', {
      token: await t.personKey(approver),
      body: { policyId: draft.body.id },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    gaps = await collectPages<Json>(t, '/v1/risk/policy-gaps');
    expect(gaps.map((g) => g.riskId)).toEqual([bare.id]);

    // Pagination walks the computed list.
    for (let i = 0; i < 3; i++) await addRisk(t, { title: `Bare ${i}` });
    const page1 = await t.call('GET', '/v1/risk/policy-gaps?limit=2');
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.cursor).toBeTypeOf('string');
    const walked = await collectPages<Json>(t, '/v1/risk/policy-gaps');
    expect(walked).toHaveLength(4);
    expect(new Set(walked.map((g) => g.riskId)).size).toBe(4);
    expectEnvelope(await t.call('GET', '/v1/risk/policy-gaps?cursor=nonsense'), 400, 'bad_request');
  });
});

describe('risk: watchlist', () => {
  it('adds and removes watched risks, persisted and audited; 409 twice, 404 for another tenant', async () => {
    const t = await growth();
    const r1 = await addRisk(t, { title: 'Watched' });
    const r2 = await addRisk(t, { title: 'Also watched', inherentLikelihood: 5, inherentImpact: 5 });
    const add = await t.call('POST', '/v1/risk/watchlist', { body: { riskId: r1.id, note: 'Board' } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({
      object: 'svc.risk.watch',
      riskId: r1.id,
      note: 'Board',
      risk: { title: 'Watched', residualScore: 9 },
    });
    expect(add.body.id).toMatch(/^rwl_/);
    expect(expectEnvelope(await t.call('POST', '/v1/risk/watchlist', { body: { riskId: r1.id } }), 409, 'conflict').message).toContain(
      'already',
    );
    await t.call('POST', '/v1/risk/watchlist', { body: { riskId: r2.id } });

    let list = await collectPages<Json>(t, '/v1/risk/watchlist');
    expect(list.map((w) => w.riskId)).toEqual([r2.id, r1.id]);
    // The entry shows the risk as it is now.
    await treat(t, r1.id, { type: 'avoid' });
    list = await collectPages<Json>(t, '/v1/risk/watchlist');
    expect(list.find((w) => w.riskId === r1.id)?.risk).toMatchObject({ residualScore: 3, status: 'treated' });
    expect((await t.call('GET', '/v1/risk/top-risks')).body.risks.map((x: Json) => [x.riskId, x.watched])).toEqual([
      [r2.id, true],
      [r1.id, true],
    ]);

    const other = await growth();
    expectEnvelope(await other.call('POST', '/v1/risk/watchlist', { body: { riskId: r1.id } }), 404, 'not_found');
    expectEnvelope(await other.call('DELETE', `/v1/risk/watchlist/${r1.id}`), 404, 'not_found');
    expect(await collectPages(other, '/v1/risk/watchlist')).toEqual([]);

    const removed = await t.call('DELETE', `/v1/risk/watchlist/${r1.id}`);
    expect(removed.body).toEqual({ object: 'svc.risk.watch_removal', riskId: r1.id, removed: true, watchId: add.body.id });
    expect((await t.call('DELETE', `/v1/risk/watchlist/${r1.id}`)).body).toMatchObject({ removed: false, watchId: null });
    expect((await collectPages<Json>(t, '/v1/risk/watchlist')).map((w) => w.riskId)).toEqual([r2.id]);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: add.body.id, limit: 50 } });
    expect(audit.body.data.map((e: Json) => e.action).sort()).toEqual(['risk_watch.created', 'risk_watch.removed']);
    // Watching again after removal works.
    expect((await t.call('POST', '/v1/risk/watchlist', { body: { riskId: r1.id } })).status).toBe(201);
  });
});

describe('risk: top risks', () => {
  it('ranks by residual score, treatable before accepted at the same score, limited by `limit`', async () => {
    const t = await growth();
    const owner = await addPerson(t, 'Olga Owner');
    const accepted = await addRisk(t, { title: 'Accepted', ownerId: owner, inherentLikelihood: 4, inherentImpact: 4 });
    const treatable = await addRisk(t, { title: 'Treatable', inherentLikelihood: 4, inherentImpact: 4 });
    const high = await addRisk(t, { title: 'Highest', inherentLikelihood: 5, inherentImpact: 5 });
    const low = await addRisk(t, { title: 'Low', inherentLikelihood: 1, inherentImpact: 2 });

    // Before any acceptance, the tie at 16 falls to the newer risk.
    let top = (await t.call('GET', '/v1/risk/top-risks')).body;
    expect(top.risks.map((x: Json) => x.riskId)).toEqual([high.id, treatable.id, accepted.id, low.id]);
    expect(top.risks.map((x: Json) => x.rank)).toEqual([1, 2, 3, 4]);

    // Accepting the older one keeps it behind; accepting the newer one moves it behind the other.
    // The owner signs with their own key: the signer is whom the key acts for.
    const signed = await call(ts.url, 'POST', '/v1/risk-register/sign-off', {
      token: await t.personKey(owner),
      body: { riskId: accepted.id, signerId: owner },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    top = (await t.call('GET', '/v1/risk/top-risks')).body;
    expect(top.risks.map((x: Json) => [x.riskId, x.treatable])).toEqual([
      [high.id, true],
      [treatable.id, true],
      [accepted.id, false],
      [low.id, true],
    ]);

    const flip = await growth();
    const o2 = await addPerson(flip, 'Otto Owner');
    const older = await addRisk(flip, { title: 'Older', inherentLikelihood: 3, inherentImpact: 3 });
    const newer = await addRisk(flip, { title: 'Newer', ownerId: o2, inherentLikelihood: 3, inherentImpact: 3 });
    expect((await flip.call('GET', '/v1/risk/top-risks')).body.risks.map((x: Json) => x.riskId)).toEqual([newer.id, older.id]);
    // An implemented accept treatment marks acceptance too (through the sign-off that implements it).
    await flip.call('POST', '/v1/risk-register/treatments', { body: { riskId: newer.id, type: 'accept', description: 'Accept' } });
    await call(ts.url, 'POST', '/v1/risk-register/sign-off', { token: await flip.personKey(o2), body: { riskId: newer.id } });
    expect((await flip.call('GET', '/v1/risk/top-risks')).body.risks.map((x: Json) => x.riskId)).toEqual([older.id, newer.id]);

    // Treating the highest drops it; `limit` and `domain` narrow the list.
    await treat(t, high.id, { type: 'mitigate', likelihoodReduction: 4 });
    top = (await t.call('GET', '/v1/risk/top-risks?limit=2')).body;
    expect([top.limit, top.risks.map((x: Json) => x.riskId)]).toEqual([2, [treatable.id, accepted.id]]);
    expect((await t.call('GET', '/v1/risk/top-risks?domain=privacy')).body.risks).toEqual([]);
    expectEnvelope(await t.call('GET', '/v1/risk/top-risks?limit=0'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/risk/top-risks?limit=101'), 422, 'validation_failed');
  });
});

describe('risk: by domain', () => {
  it('counts risks and averages the residual per domain, every domain listed, following the data', async () => {
    const t = await growth();
    const empty = (await t.call('GET', '/v1/risk/by-domain')).body;
    expect(empty.domains.map((d: Json) => d.domain)).toEqual([
      'ai',
      'privacy',
      'security',
      'third-party',
      'operational',
      'regulatory',
      'financial',
    ]);
    expect(empty.domains.every((d: Json) => d.count === 0 && d.averageResidualScore === null)).toBe(true);

    const a = await addRisk(t, { domain: 'ai', inherentLikelihood: 4, inherentImpact: 5 });
    await addRisk(t, { domain: 'ai', inherentLikelihood: 2, inherentImpact: 3 });
    const p = await addRisk(t, { domain: 'privacy', inherentLikelihood: 3, inherentImpact: 3 });
    let view = (await t.call('GET', '/v1/risk/by-domain')).body;
    const ai = () => view.domains.find((d: Json) => d.domain === 'ai');
    expect(view.total).toBe(3);
    expect(ai()).toMatchObject({ count: 2, averageResidualScore: 13, averageInherentScore: 13, maxResidualScore: 20 });
    expect(ai().byRating).toEqual({ low: 0, medium: 1, high: 0, critical: 1 });
    expect(view.domains.find((d: Json) => d.domain === 'privacy')).toMatchObject({ count: 1, averageResidualScore: 9 });

    await treat(t, a.id, { type: 'transfer', impactReduction: 3 });
    view = (await t.call('GET', '/v1/risk/by-domain')).body;
    expect(ai()).toMatchObject({ averageResidualScore: 7, averageInherentScore: 13, maxResidualScore: 8 });

    await t.call('POST', `/v1/risk-register/risks/${p.id}/close`, { body: {} });
    view = (await t.call('GET', '/v1/risk/by-domain')).body;
    expect(view.domains.find((d: Json) => d.domain === 'privacy').count).toBe(0);
    expect((await t.call('GET', '/v1/risk/by-domain?includeClosed=true')).body.total).toBe(3);
  });
});
