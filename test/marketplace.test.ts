import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const tenantOf = (tier: 'starter' | 'growth' | 'specialist' | 'sandbox') => createTenant(ts, { tier, rateLimitPerSecond: 100_000 });

async function post(t: TenantFixture, path: string, body: unknown, status = 201) {
  const res = await t.call('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

const listingBody = (frameworks: string[], title = 'Readiness sprint') => ({
  title,
  services: ['gap assessment'],
  frameworks,
  priceMinEur: 10_000,
  priceMaxEur: 20_000,
});

/** A specialist firm tenant with one published listing per framework set. */
async function firm(name: string, listings: string[][]) {
  const t = await tenantOf('specialist');
  const f = await post(t, '/v1/specialists/firms', { name, jurisdictions: ['EU'] });
  const made = [];
  for (const frameworks of listings) {
    const l = await post(t, '/v1/marketplace/listings', { ...listingBody(frameworks, `${name} ${frameworks.join('+')}`), firmId: f.id });
    made.push(await post(t, `/v1/marketplace/listings/${l.id}/publish`, {}, 200));
  }
  return { t, firm: f, listings: made };
}

describe('marketplace: tier gate', () => {
  it('is open from starter (sandbox: 403); creating a listing needs a specialist firm', async () => {
    const sandbox = await tenantOf('sandbox');
    const env = expectEnvelope(await sandbox.call('GET', '/v1/marketplace/specialists'), 403, 'forbidden');
    expect(env.details).toEqual([{ field: 'tier', issue: 'starter' }]);
    const starter = await tenantOf('starter');
    for (const path of [
      '/v1/marketplace/specialists',
      '/v1/marketplace/listings/published',
      '/v1/marketplace/matching',
      '/v1/marketplace/reviews',
    ]) {
      expect((await starter.call('GET', path)).status, path).toBe(200);
    }
    const refused = expectEnvelope(
      await starter.call('POST', '/v1/marketplace/listings', { body: listingBody(['eu-ai-act']) }),
      403,
      'forbidden',
    );
    expect(refused.details).toEqual([{ field: 'tier', issue: 'specialist' }]);
  });
});

describe('marketplace: specialists and listings', () => {
  it('shows only listed consultants, public fields only, filtered by expertise and jurisdiction', async () => {
    const t = await tenantOf('specialist');
    const f = await post(t, '/v1/specialists/firms', { name: 'Filter Firm', jurisdictions: ['EU'] });
    const tag = `${Date.now()}`;
    const listed = await post(t, '/v1/specialists/consultants', {
      name: `Listed ${tag}`,
      headline: 'AI Act',
      expertise: ['eu-ai-act'],
      jurisdictions: ['de'],
      listed: true,
    });
    const hidden = await post(t, '/v1/specialists/consultants', {
      name: `Hidden ${tag}`,
      headline: 'GDPR',
      expertise: ['gdpr'],
      jurisdictions: ['DE'],
    });
    await post(t, '/v1/specialists/certifications', { consultantId: listed.id, name: 'CIPP/E', issuer: 'IAPP' });
    await post(t, '/v1/specialists/certifications', {
      consultantId: listed.id,
      name: 'Old',
      issuer: 'X',
      validUntil: '2021-01-01T00:00:00.000Z',
    });

    const viewer = await tenantOf('starter');
    const all = await collectPages<Record<string, any>>(viewer, '/v1/marketplace/specialists');
    const mine = all.find((s) => s.id === listed.id);
    expect(mine).toEqual({
      object: 'svc.marketplace.specialist',
      id: listed.id,
      name: `Listed ${tag}`,
      headline: 'AI Act',
      expertise: ['eu-ai-act'],
      jurisdictions: ['DE'],
      firm: { id: f.id, name: 'Filter Firm', averageRating: null, reviewCount: 0 },
      certifications: [{ name: 'CIPP/E', issuer: 'IAPP', validUntil: null }],
    });
    expect(JSON.stringify(mine)).not.toContain(t.tenantId);
    expect(all.map((s) => s.id)).not.toContain(hidden.id);

    const byExpertise = await collectPages<{ id: string; expertise: string[] }>(viewer, '/v1/marketplace/specialists?expertise=eu-ai-act');
    expect(byExpertise.map((s) => s.id)).toContain(listed.id);
    expect(byExpertise.every((s) => s.expertise.includes('eu-ai-act'))).toBe(true);
    expect((await collectPages<{ id: string }>(viewer, '/v1/marketplace/specialists?expertise=gdpr')).map((s) => s.id)).not.toContain(
      listed.id,
    );
    expect((await collectPages<{ id: string }>(viewer, '/v1/marketplace/specialists?jurisdiction=de')).map((s) => s.id)).toContain(
      listed.id,
    );
    expect((await collectPages<{ id: string }>(viewer, '/v1/marketplace/specialists?jurisdiction=FR')).map((s) => s.id)).not.toContain(
      listed.id,
    );

    // Unlisting hides the consultant again.
    await post(t, `/v1/specialists/consultants/${listed.id}/unlist`, {}, 200);
    expect((await collectPages<{ id: string }>(viewer, '/v1/marketplace/specialists')).map((s) => s.id)).not.toContain(listed.id);
  });

  it('publishes and withdraws listings; only published ones are visible to other tenants', async () => {
    const t = await tenantOf('specialist');
    await post(t, '/v1/specialists/firms', { name: 'Lifecycle Firm', jurisdictions: ['EU'] });
    const bad = expectEnvelope(
      await t.call('POST', '/v1/marketplace/listings', { body: listingBody(['nope-law']) }),
      422,
      'validation_failed',
    );
    expect(bad.details[0].field).toBe('frameworks');
    const band = expectEnvelope(
      await t.call('POST', '/v1/marketplace/listings', { body: { ...listingBody(['gdpr']), priceMinEur: 5, priceMaxEur: 1 } }),
      422,
      'validation_failed',
    );
    expect(band.details[0].field).toBe('priceMaxEur');

    const draft = await post(t, '/v1/marketplace/listings', listingBody(['gdpr']));
    expect(draft).toMatchObject({ object: 'svc.marketplace.listing', status: 'draft', revenueShareBps: 8000 });
    const viewer = await tenantOf('starter');
    const visible = async () => (await collectPages<{ id: string }>(viewer, '/v1/marketplace/listings/published')).map((l) => l.id);
    expect(await visible()).not.toContain(draft.id);
    expectEnvelope(await viewer.call('GET', `/v1/marketplace/listings/${draft.id}`), 404, 'not_found');
    // Engaging a draft: 404.
    expectEnvelope(await viewer.call('POST', '/v1/marketplace/engagements', { body: { listingId: draft.id } }), 404, 'not_found');

    await post(t, `/v1/marketplace/listings/${draft.id}/publish`, {}, 200);
    expect(await visible()).toContain(draft.id);
    const again = expectEnvelope(await t.call('POST', `/v1/marketplace/listings/${draft.id}/publish`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('published');
    const byFramework = await collectPages<{ id: string }>(viewer, '/v1/marketplace/listings/published?framework=gdpr');
    expect(byFramework.map((l) => l.id)).toContain(draft.id);
    expect(
      (await collectPages<{ id: string }>(viewer, '/v1/marketplace/listings/published?framework=eu-ai-act')).map((l) => l.id),
    ).not.toContain(draft.id);

    await post(t, `/v1/marketplace/listings/${draft.id}/withdraw`, {}, 200);
    expect(await visible()).not.toContain(draft.id);
    expectEnvelope(await t.call('POST', `/v1/marketplace/listings/${draft.id}/withdraw`, { body: {} }), 409, 'conflict');
  });
});

describe('marketplace: engagements and reviews', () => {
  it('runs the client side of an engagement and its one review, with the average shown on the listing', async () => {
    const { t: firmTenant, firm: f, listings } = await firm('Review Firm', [['eu-ai-act']]);
    const listing = listings[0];
    const client = await tenantOf('starter');
    const other = await tenantOf('starter');

    // A firm cannot engage itself.
    const self = expectEnvelope(
      await firmTenant.call('POST', '/v1/marketplace/engagements', { body: { listingId: listing.id } }),
      422,
      'validation_failed',
    );
    expect(self.details[0].field).toBe('listingId');

    const e = await post(client, '/v1/marketplace/engagements', { listingId: listing.id });
    expect(e).toMatchObject({ status: 'active', firmName: 'Review Firm', listingId: listing.id, endedAt: null });
    expectEnvelope(await client.call('POST', '/v1/marketplace/engagements', { body: { listingId: listing.id } }), 409, 'conflict');
    expect((await collectPages<{ id: string }>(client, '/v1/marketplace/engagements')).map((x) => x.id)).toEqual([e.id]);
    expect(await collectPages(other, '/v1/marketplace/engagements')).toEqual([]);

    // Only the client reviews, once, rating 1 to 5.
    expectEnvelope(await other.call('POST', '/v1/marketplace/reviews', { body: { engagementId: e.id, rating: 5 } }), 404, 'not_found');
    for (const rating of [0, 6, 4.5]) {
      const bad = expectEnvelope(
        await client.call('POST', '/v1/marketplace/reviews', { body: { engagementId: e.id, rating } }),
        422,
        'validation_failed',
      );
      expect(bad.details[0].field).toBe('rating');
    }
    const review = await post(client, '/v1/marketplace/reviews', { engagementId: e.id, rating: 4, comment: 'Solid work' });
    expect(review).toMatchObject({ object: 'svc.marketplace.review', rating: 4, firmId: f.id, listingId: listing.id });
    expect(JSON.stringify(review)).not.toContain(client.tenantId);
    expectEnvelope(await client.call('POST', '/v1/marketplace/reviews', { body: { engagementId: e.id, rating: 5 } }), 409, 'conflict');

    const shown = async () =>
      (await collectPages<Record<string, any>>(other, `/v1/marketplace/listings/published?firmId=${f.id}`)).find(
        (l) => l.id === listing.id,
      );
    expect(await shown()).toMatchObject({ averageRating: 4, reviewCount: 1, firm: { averageRating: 4, reviewCount: 1 } });

    // A second client's review moves the average.
    const second = await tenantOf('starter');
    const e2 = await post(second, '/v1/marketplace/engagements', { listingId: listing.id });
    await post(second, '/v1/marketplace/reviews', { engagementId: e2.id, rating: 1 });
    expect(await shown()).toMatchObject({ averageRating: 2.5, reviewCount: 2 });
    const reviews = await collectPages<{ rating: number }>(other, `/v1/marketplace/reviews?listingId=${listing.id}`);
    expect(reviews.map((r) => r.rating)).toEqual([1, 4]);

    // End: 200 once, then 409 naming the state; another tenant's id is 404.
    expectEnvelope(await other.call('POST', '/v1/marketplace/engagements/end', { body: { engagementId: e.id } }), 404, 'not_found');
    const ended = await post(client, '/v1/marketplace/engagements/end', { engagementId: e.id, reason: 'Delivered' }, 200);
    expect(ended.status).toBe('ended');
    expect(ended.endedAt).not.toBeNull();
    const twice = expectEnvelope(
      await client.call('POST', '/v1/marketplace/engagements/revoke', { body: { engagementId: e.id } }),
      409,
      'conflict',
    );
    expect(twice.message).toContain('ended');
    expect((await collectPages<{ id: string }>(client, '/v1/marketplace/engagements?status=active')).map((x) => x.id)).toEqual([]);
  });

  it('makes one active engagement of a firm when several are sent at once', async () => {
    const { listings } = await firm('Race Firm', [['eu-ai-act']]);
    const client = await tenantOf('starter');
    const sent = await Promise.all(
      Array.from({ length: 4 }, () => client.call('POST', '/v1/marketplace/engagements', { body: { listingId: listings[0].id } })),
    );
    expect(sent.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of sent.filter((x) => x.status === 409)) expectEnvelope(r, 409, 'conflict');
    expect(await collectPages(client, '/v1/marketplace/engagements?status=active')).toHaveLength(1);
  });
});

describe('marketplace: matching', () => {
  it('ranks listings by fit to activated frameworks and open gaps, and the ranking moves with the data', async () => {
    const { listings: aiListings } = await firm('AI Act Firm', [['eu-ai-act']]);
    const { listings: gdprListings } = await firm('GDPR Firm', [['gdpr']]);
    const ai = aiListings[0].id as string;
    const gdpr = gdprListings[0].id as string;
    const client = await tenantOf('starter');
    const matchOf = async (id: string) => {
      const res = await client.call('GET', '/v1/marketplace/matching?limit=100');
      expect(res.status).toBe(200);
      const all = [];
      let body = res.body;
      all.push(...body.data);
      while (body.cursor) {
        body = (await client.call('GET', `/v1/marketplace/matching?limit=100&cursor=${body.cursor}`)).body;
        all.push(...body.data);
      }
      return { basis: res.body.basis, match: all.find((m: { listing: { id: string } }) => m.listing.id === id), all };
    };

    // Nothing activated: no fit at all.
    const zero = await matchOf(ai);
    expect(zero.basis).toEqual({ activatedFrameworks: [], openFindings: 0, unevidencedControls: 0 });
    expect(zero.match).toMatchObject({ score: 0, parts: { frameworkFit: 0, gapFit: 0, gaps: 0 } });

    const controls = (await client.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} })).status;
    expect([200, 201]).toContain(controls);
    const one = await matchOf(ai);
    expect(one.match.parts).toMatchObject({ frameworksMatched: ['eu-ai-act'], frameworkFit: 1, gapFit: 1 });
    expect(one.match.score).toBe(100);
    expect(one.match.parts.unevidencedControlsCovered).toBe(one.basis.unevidencedControls);
    expect((await matchOf(gdpr)).match).toMatchObject({ score: 0 });
    const rankAi = one.match.rank;
    expect(rankAi).toBeLessThan((await matchOf(gdpr)).match.rank);

    // Activating GDPR changes the fit of both listings.
    await client.call('POST', '/v1/frameworks/gdpr/activate', { body: {} });
    const two = await matchOf(ai);
    expect(two.basis.activatedFrameworks).toEqual(['eu-ai-act', 'gdpr']);
    expect(two.match.parts.frameworkFit).toBe(0.5);
    expect(two.match.score).toBeLessThan(100);
    const g = (await matchOf(gdpr)).match;
    expect(g.parts).toMatchObject({ frameworksMatched: ['gdpr'], frameworkFit: 0.5 });
    expect(g.score).toBeGreaterThan(0);
    // The parts add up to the score.
    for (const m of [two.match, g]) expect(m.score).toBeCloseTo(50 * m.parts.frameworkFit + 50 * m.parts.gapFit, 1);

    // An open finding on an AI Act control is a gap only the AI Act listing covers.
    const aiControls = await collectPages<{ id: string }>(client, '/v1/frameworks/eu-ai-act/controls');
    const finding = await client.call('POST', '/v1/self-audit/findings', {
      body: { title: 'Gap', severity: 'high', controlId: aiControls[0]?.id },
    });
    expect(finding.status, JSON.stringify(finding.body)).toBe(201);
    const three = await matchOf(ai);
    expect(three.basis.openFindings).toBe(1);
    expect(three.match.parts.openFindingsCovered).toBe(1);
    expect((await matchOf(gdpr)).match.parts.openFindingsCovered).toBe(0);

    // Own listings are never matched.
    const { t: firmTenant, listings: own } = await firm('Own Firm', [['eu-ai-act']]);
    const firmView = await firmTenant.call('GET', '/v1/marketplace/matching?limit=100');
    expect(firmView.body.data.map((m: { listing: { id: string } }) => m.listing.id)).not.toContain(own[0].id);
  });
});
