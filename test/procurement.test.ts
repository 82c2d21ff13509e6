import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The procurement rail. The totals below were worked out by hand as weighted sums of the scores
 * the test gives (weights 0.5 / 0.3 / 0.2, then 0.2 / 0.6 / 0.2), and the lifecycle walked through
 * every refusal: bids only while open, evaluation needs a bid, award only while evaluating,
 * weights frozen once awarded, onboarding once per award.
 */

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts, { tier: 'enterprise', rateLimitPerSecond: 1000 });
});
afterAll(() => ts?.close());

const CRITERIA = [
  { key: 'price', name: 'Total cost', weight: 0.5 },
  { key: 'quality', name: 'Quality', weight: 0.3 },
  { key: 'delivery', name: 'Delivery', weight: 0.2 },
];

async function rfp(body: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/procurement/rfp', { body: { title: 'Managed hosting', criteria: CRITERIA, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const move = (id: string, verb: string) => t.call('POST', `/v1/procurement/rfp/${id}/${verb}`, { body: {} });
async function bid(rfpId: string, supplierName: string, scores: Record<string, number>) {
  const res = await t.call('POST', `/v1/procurement/rfp/${rfpId}/bids`, { body: { supplierName, scores } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('RFPs', () => {
  it('weights must sum to 1 (within 1e-9): 422 naming criteria; repeated keys name the key', async () => {
    const off = await t.call('POST', '/v1/procurement/rfp', {
      body: {
        title: 'x',
        criteria: [
          { key: 'price', name: 'p', weight: 0.5 },
          { key: 'quality', name: 'q', weight: 0.4 },
        ],
      },
    });
    expect(expectEnvelope(off, 422, 'validation_failed').details?.map((d: { field: string }) => d.field)).toContain('criteria');
    // 0.1 + 0.2 + 0.7 is not exactly 1 in binary floating point: within the tolerance.
    const ok = await rfp({
      criteria: [
        { key: 'a', name: 'a', weight: 0.1 },
        { key: 'b', name: 'b', weight: 0.2 },
        { key: 'c', name: 'c', weight: 0.7 },
      ],
    });
    expect(ok).toMatchObject({ status: 'draft', weightsVersion: 1, awardId: null });
    const twice = await t.call('POST', '/v1/procurement/rfp', {
      body: {
        title: 'x',
        criteria: [
          { key: 'price', name: 'p', weight: 0.5 },
          { key: 'price', name: 'q', weight: 0.5 },
        ],
      },
    });
    expect(expectEnvelope(twice, 422, 'validation_failed').details?.map((d: { field: string }) => d.field)).toContain('criteria.1.key');
  });

  it('lifecycle: bids only while open, evaluation needs a bid, cancel from draft/open/evaluating only', async () => {
    const r = await rfp();
    const early = await t.call('POST', `/v1/procurement/rfp/${r.id}/bids`, {
      body: { supplierName: 'A', scores: { price: 1, quality: 1, delivery: 1 } },
    });
    expect(expectEnvelope(early, 409, 'conflict').message).toContain('draft');
    expect(expectEnvelope(await move(r.id, 'evaluate'), 409, 'conflict').message).toContain('draft');
    expect((await move(r.id, 'open')).body).toMatchObject({ status: 'open' });
    const empty = expectEnvelope(await move(r.id, 'evaluate'), 409, 'conflict');
    expect(empty.message).toContain('no bid');
    expect((await t.call('GET', `/v1/procurement/rfp/${r.id}`)).body.status).toBe('open');
    await bid(r.id, 'Acme', { price: 8, quality: 6, delivery: 9 });
    expect((await move(r.id, 'evaluate')).body.status).toBe('evaluating');
    const late = await t.call('POST', `/v1/procurement/rfp/${r.id}/bids`, {
      body: { supplierName: 'B', scores: { price: 1, quality: 1, delivery: 1 } },
    });
    expect(expectEnvelope(late, 409, 'conflict').message).toContain('evaluating');
    expect((await move(r.id, 'cancel')).body).toMatchObject({ status: 'cancelled' });
    expect(expectEnvelope(await move(r.id, 'cancel'), 409, 'conflict').message).toContain('cancelled');
    const weights = await t.call('PATCH', `/v1/procurement/rfp/${r.id}/weights`, {
      body: {
        criteria: [
          { key: 'price', weight: 1 },
          { key: 'quality', weight: 0 },
          { key: 'delivery', weight: 0 },
        ],
      },
    });
    expect(expectEnvelope(weights, 409, 'conflict').message).toContain('cancelled');
  });

  it('weights changed several times at once are each applied in turn, none refused', async () => {
    const r = await rfp();
    const sets = [
      [0.6, 0.2, 0.2],
      [0.2, 0.6, 0.2],
      [0.2, 0.2, 0.6],
    ];
    const sent = await Promise.all(
      sets.map(([price, quality, delivery]) =>
        t.call('PATCH', `/v1/procurement/rfp/${r.id}/weights`, {
          body: {
            criteria: [
              { key: 'price', weight: price },
              { key: 'quality', weight: quality },
              { key: 'delivery', weight: delivery },
            ],
          },
        }),
      ),
    );
    expect(sent.map((x) => x.status)).toEqual([200, 200, 200]);
    expect((await t.call('GET', `/v1/procurement/rfp/${r.id}`)).body.weightsVersion).toBe(r.weightsVersion + 3);
  });

  it('a bid scores every criterion (0 to 10) and no other; one bid per supplier', async () => {
    const r = await rfp();
    await move(r.id, 'open');
    const missing = await t.call('POST', `/v1/procurement/rfp/${r.id}/bids`, {
      body: { supplierName: 'A', scores: { price: 5, quality: 5 } },
    });
    expect(expectEnvelope(missing, 422, 'validation_failed').details?.[0]?.field).toBe('scores.delivery');
    const extra = await t.call('POST', `/v1/procurement/rfp/${r.id}/bids`, {
      body: { supplierName: 'A', scores: { price: 5, quality: 5, delivery: 5, colour: 5 } },
    });
    expect(expectEnvelope(extra, 422, 'validation_failed').details?.[0]?.field).toBe('scores.colour');
    const high = await t.call('POST', `/v1/procurement/rfp/${r.id}/bids`, {
      body: { supplierName: 'A', scores: { price: 11, quality: 5, delivery: 5 } },
    });
    expect(expectEnvelope(high, 422, 'validation_failed').details?.[0]?.field).toBe('scores.price');
    await bid(r.id, 'Acme Ltd', { price: 5, quality: 5, delivery: 5 });
    expectEnvelope(
      await t.call('POST', `/v1/procurement/rfp/${r.id}/bids`, {
        body: { supplierName: 'ACME LTD', scores: { price: 1, quality: 1, delivery: 1 } },
      }),
      409,
      'conflict',
    );
  });
});

describe('scoring, weights, award and onboarding', () => {
  it('ranks bids by weighted sum, recomputes when the weights change, awards one bid and onboards it as a vendor', async () => {
    const r = await rfp();
    await move(r.id, 'open');
    const acme = await bid(r.id, 'Acme Cloud', { price: 8, quality: 6, delivery: 9 });
    const beta = await bid(r.id, 'Beta Hosting', { price: 6, quality: 9, delivery: 7 });
    const gamma = await bid(r.id, 'Gamma Systems', { price: 9, quality: 4, delivery: 6 });
    // 0.5 x 8 + 0.3 x 6 + 0.2 x 9 = 4 + 1.8 + 1.8 = 7.6
    // 0.5 x 6 + 0.3 x 9 + 0.2 x 7 = 3 + 2.7 + 1.4 = 7.1
    // 0.5 x 9 + 0.3 x 4 + 0.2 x 6 = 4.5 + 1.2 + 1.2 = 6.9
    expect(acme.total).toBeCloseTo(7.6, 9);
    const s1 = (await t.call('GET', `/v1/procurement/scoring/${r.id}`)).body;
    expect(s1.weightsVersion).toBe(1);
    expect(s1.ranking.map((x: { bidId: string; rank: number }) => [x.bidId, x.rank])).toEqual([
      [acme.id, 1],
      [beta.id, 2],
      [gamma.id, 3],
    ]);
    expect(s1.ranking.map((x: { total: number }) => x.total)).toEqual([7.6, 7.1, 6.9]);
    expect(s1.ranking[1].contributions).toEqual([
      { key: 'price', score: 6, weight: 0.5, weighted: 3 },
      { key: 'quality', score: 9, weight: 0.3, weighted: 2.7 },
      { key: 'delivery', score: 7, weight: 0.2, weighted: 1.4 },
    ]);

    // New weights 0.2 / 0.6 / 0.2:
    // Acme 1.6 + 3.6 + 1.8 = 7.0; Beta 1.2 + 5.4 + 1.4 = 8.0; Gamma 1.8 + 2.4 + 1.2 = 5.4
    const newWeights = {
      criteria: [
        { key: 'price', weight: 0.2 },
        { key: 'quality', weight: 0.6 },
        { key: 'delivery', weight: 0.2 },
      ],
    };
    const changed = await t.call('PATCH', `/v1/procurement/rfp/${r.id}/weights`, { body: newWeights });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.weightsVersion).toBe(2);
    expect(changed.body.ranking.map((x: { bidId: string; total: number }) => [x.bidId, x.total])).toEqual([
      [beta.id, 8],
      [acme.id, 7],
      [gamma.id, 5.4],
    ]);
    const bids = (await t.call('GET', `/v1/procurement/rfp/${r.id}/bids`)).body.data;
    expect(Object.fromEntries(bids.map((b: { id: string; total: number }) => [b.id, b.total]))).toEqual({
      [acme.id]: 7,
      [beta.id]: 8,
      [gamma.id]: 5.4,
    });
    // Stored scores are unchanged: only the weights moved.
    expect(bids.find((b: { id: string }) => b.id === acme.id).scores).toEqual({ price: 8, quality: 6, delivery: 9 });
    const rfpNow = (await t.call('GET', `/v1/procurement/rfp/${r.id}`)).body;
    expect(rfpNow.criteria.map((c: { weight: number }) => c.weight)).toEqual([0.2, 0.6, 0.2]);

    const wrongSum = await t.call('PATCH', `/v1/procurement/rfp/${r.id}/weights`, {
      body: {
        criteria: [
          { key: 'price', weight: 0.2 },
          { key: 'quality', weight: 0.2 },
          { key: 'delivery', weight: 0.2 },
        ],
      },
    });
    expect(expectEnvelope(wrongSum, 422, 'validation_failed').details?.[0]?.field).toBe('criteria');
    const missingKey = await t.call('PATCH', `/v1/procurement/rfp/${r.id}/weights`, {
      body: {
        criteria: [
          { key: 'price', weight: 0.5 },
          { key: 'quality', weight: 0.5 },
        ],
      },
    });
    expect(expectEnvelope(missingKey, 422, 'validation_failed').details?.[0]?.field).toBe('criteria');

    // Award: only while evaluating.
    const tooEarly = await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, { body: { bidId: beta.id, rationale: 'Best' } });
    expect(expectEnvelope(tooEarly, 409, 'conflict').message).toContain('open');
    await move(r.id, 'evaluate');
    const other = await rfp();
    await move(other.id, 'open');
    const foreign = await bid(other.id, 'Delta', { price: 1, quality: 1, delivery: 1 });
    const wrongBid = await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, { body: { bidId: foreign.id, rationale: 'x' } });
    expect(expectEnvelope(wrongBid, 422, 'validation_failed').details?.[0]?.field).toBe('bidId');
    const awarded = await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, {
      body: { bidId: beta.id, rationale: 'Best weighted score after the quality re-weighting.' },
    });
    expect(awarded.status, JSON.stringify(awarded.body)).toBe(201);
    expect(awarded.body).toMatchObject({
      rfpId: r.id,
      bidId: beta.id,
      supplierName: 'Beta Hosting',
      totalScore: 8,
      rank: 1,
      topRanked: true,
    });
    expect(awarded.body.ranking.map((x: { bidId: string }) => x.bidId)).toEqual([beta.id, acme.id, gamma.id]);
    expect((await t.call('GET', `/v1/procurement/rfp/${r.id}`)).body).toMatchObject({ status: 'awarded', awardId: awarded.body.id });
    expect((await t.call('GET', `/v1/procurement/scoring/${r.id}`)).body.awardedBidId).toBe(beta.id);
    expect(
      expectEnvelope(
        await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, { body: { bidId: acme.id, rationale: 'x' } }),
        409,
        'conflict',
      ).message,
    ).toContain('awarded');
    expect(
      expectEnvelope(await t.call('PATCH', `/v1/procurement/rfp/${r.id}/weights`, { body: newWeights }), 409, 'conflict').message,
    ).toContain('awarded');
    expect(expectEnvelope(await move(r.id, 'cancel'), 409, 'conflict').message).toContain('awarded');
    const awards = (await t.call('GET', `/v1/procurement/awards?rfpId=${r.id}`)).body.data;
    expect(awards.map((a: { id: string }) => a.id)).toEqual([awarded.body.id]);

    // Onboarding creates the vendor in vendor_risk, once.
    const onboarded = await t.call('POST', '/v1/procurement/onboarding', {
      body: { awardId: awarded.body.id, criticality: 'high', dataAccess: ['personal'] },
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    const vendorId = onboarded.body.vendorId;
    expect(onboarded.body).toMatchObject({ rfpId: r.id, awardId: awarded.body.id, bidId: beta.id, supplierName: 'Beta Hosting' });
    const vendor = await t.call('GET', `/v1/vendor-risk/vendors/${vendorId}`);
    expect(vendor.status).toBe(200);
    expect(vendor.body).toMatchObject({
      name: 'Beta Hosting',
      criticality: 'high',
      services: ['Managed hosting'],
      dataAccess: ['personal'],
      status: 'active',
      origin: { kind: 'procurement', rfpId: r.id, awardId: awarded.body.id, onboardingId: onboarded.body.id },
    });
    expect(onboarded.body.vendor).toEqual(vendor.body);
    const listed = (await t.call('GET', '/v1/vendor-risk/vendors?limit=200')).body.data.map((v: { id: string }) => v.id);
    expect(listed).toContain(vendorId);
    const vendorAudit = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: vendorId, limit: 10 } })).body.data;
    expect(vendorAudit.map((e: { action: string }) => e.action)).toEqual(['vendor.added']);
    const twice = await t.call('POST', '/v1/procurement/onboarding', { body: { awardId: awarded.body.id, vendorName: 'Another name' } });
    expectEnvelope(twice, 409, 'conflict');
    const onboardings = (await t.call('GET', `/v1/procurement/onboarding?rfpId=${r.id}`)).body.data;
    expect(onboardings.map((o: { id: string }) => o.id)).toEqual([onboarded.body.id]);
  });

  it('equal totals share a place; another tenant gets 404 on the RFP, its scoring and its award', async () => {
    const r = await rfp();
    await move(r.id, 'open');
    // 0.5 x 6 + 0.3 x 6 + 0.2 x 6 = 6 and 0.5 x 7 + 0.3 x 5 + 0.2 x 5 = 3.5 + 1.5 + 1 = 6
    const a = await bid(r.id, 'A', { price: 6, quality: 6, delivery: 6 });
    const b = await bid(r.id, 'B', { price: 7, quality: 5, delivery: 5 });
    const c = await bid(r.id, 'C', { price: 1, quality: 1, delivery: 1 });
    const ranking = (await t.call('GET', `/v1/procurement/scoring/${r.id}`)).body.ranking;
    expect(ranking.map((x: { bidId: string; rank: number }) => [x.bidId, x.rank])).toEqual([
      [a.id, 1],
      [b.id, 1],
      [c.id, 3],
    ]);
    const other = await createTenant(ts, { tier: 'enterprise' });
    expectEnvelope(await other.call('GET', `/v1/procurement/rfp/${r.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/procurement/scoring/${r.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/procurement/rfp/${r.id}/bids`), 404, 'not_found');
    await move(r.id, 'evaluate');
    expectEnvelope(
      await other.call('POST', `/v1/procurement/rfp/${r.id}/award`, { body: { bidId: a.id, rationale: 'x' } }),
      404,
      'not_found',
    );
    const awarded = await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, {
      body: { bidId: b.id, rationale: 'Tie broken on references.' },
    });
    expect(awarded.body).toMatchObject({ rank: 1, topRanked: true, totalScore: 6 });
    expectEnvelope(await other.call('POST', '/v1/procurement/onboarding', { body: { awardId: awarded.body.id } }), 404, 'not_found');
    expect((await other.call('GET', '/v1/procurement/awards')).body.data).toEqual([]);
  });

  it('onboarding refuses a vendor name the tenant already uses (409), and creates nothing', async () => {
    const r = await rfp();
    await move(r.id, 'open');
    const name = `Taken ${Date.now()}`;
    const b = await bid(r.id, name, { price: 5, quality: 5, delivery: 5 });
    await move(r.id, 'evaluate');
    const awarded = await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, { body: { bidId: b.id, rationale: 'Only bid.' } });
    expect((await t.call('POST', '/v1/vendor-risk/vendors', { body: { name, criticality: 'low' } })).status).toBe(201);
    expectEnvelope(await t.call('POST', '/v1/procurement/onboarding', { body: { awardId: awarded.body.id } }), 409, 'conflict');
    expect((await t.call('GET', `/v1/procurement/onboarding?rfpId=${r.id}`)).body.data).toEqual([]);
    const ok = await t.call('POST', '/v1/procurement/onboarding', { body: { awardId: awarded.body.id, vendorName: `${name} GmbH` } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.vendor.name).toBe(`${name} GmbH`);
  });

  it('two onboardings of one award at once: one vendor, and the other is the 409 naming the award', async () => {
    const r = await rfp();
    await move(r.id, 'open');
    const name = `Twice ${Date.now()}`;
    const b = await bid(r.id, name, { price: 5, quality: 5, delivery: 5 });
    await move(r.id, 'evaluate');
    const awarded = await t.call('POST', `/v1/procurement/rfp/${r.id}/award`, { body: { bidId: b.id, rationale: 'Only bid.' } });
    const both = await Promise.all([0, 1].map(() => t.call('POST', '/v1/procurement/onboarding', { body: { awardId: awarded.body.id } })));
    expect(both.map((x) => x.status).sort()).toEqual([201, 409]);
    const refused = both.find((x) => x.status === 409);
    expect(refused?.body.message).toContain('onboarded already');
    const vendors = (await t.call('GET', '/v1/vendor-risk/vendors?limit=200')).body.data.filter((v: { name: string }) => v.name === name);
    expect(vendors).toHaveLength(1);
  });
});

describe('tier gating', () => {
  it('growth is refused on procurement (403 naming enterprise) but admitted to vendor risk; enterprise is admitted', async () => {
    const growth = await createTenant(ts, { tier: 'growth' });
    const res = await growth.call('GET', '/v1/procurement/rfp');
    expect(expectEnvelope(res, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'enterprise' }]);
    expectEnvelope(
      await growth.call('POST', '/v1/procurement/onboarding', { body: { awardId: 'awd_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } }),
      403,
      'forbidden',
    );
    expect((await growth.call('GET', '/v1/vendor-risk/vendors')).status).toBe(200);
    expect((await t.call('GET', '/v1/procurement/rfp')).status).toBe(200);
  });
});
