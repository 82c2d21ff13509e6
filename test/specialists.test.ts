import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const firmBody = { name: 'Northwind AI Assurance', description: 'AI Act readiness', jurisdictions: ['eu', 'UK', 'EU'] };
const consultantBody = { name: 'Amara Okafor', headline: 'High-risk AI conformity', expertise: ['eu-ai-act'], jurisdictions: ['EU'] };

async function specialistTenant(): Promise<TenantFixture> {
  return createTenant(ts, { tier: 'specialist', rateLimitPerSecond: 100_000 });
}

async function post(t: TenantFixture, path: string, body: unknown, status = 201) {
  const res = await t.call('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A specialist tenant with a firm and a published listing covering the frameworks. */
async function firmWithListing(frameworks = ['eu-ai-act'], revenueShareBps = 8000) {
  const t = await specialistTenant();
  const firm = await post(t, '/v1/specialists/firms', firmBody);
  const listing = await post(t, '/v1/marketplace/listings', {
    firmId: firm.id,
    title: 'Readiness sprint',
    services: ['gap assessment'],
    frameworks,
    priceMinEur: 10_000,
    priceMaxEur: 20_000,
    revenueShareBps,
  });
  await post(t, `/v1/marketplace/listings/${listing.id}/publish`, {}, 200);
  return { t, firm, listing };
}

async function activate(t: TenantFixture, framework: string): Promise<string[]> {
  const act = await t.call('POST', `/v1/frameworks/${framework}/activate`, { body: {} });
  expect([200, 201]).toContain(act.status);
  return (await collectPages<{ id: string }>(t, `/v1/frameworks/${framework}/controls`)).map((c) => c.id);
}

describe('specialists: tier gate', () => {
  it("is the specialist tier's only: starter, growth and enterprise get 403 naming the tier", async () => {
    for (const tier of ['starter', 'growth', 'enterprise'] as const) {
      const t = await createTenant(ts, { tier, rateLimitPerSecond: 100_000 });
      for (const path of ['/v1/specialists/firms', '/v1/specialists/client-engagements', '/v1/specialists/billing-share']) {
        const env = expectEnvelope(await t.call('GET', path), 403, 'forbidden');
        expect(env.details).toEqual([{ field: 'tier', issue: 'specialist' }]);
      }
      expectEnvelope(await t.call('POST', '/v1/specialists/firms', { body: firmBody }), 403, 'forbidden');
    }
    const t = await createTenant(ts, { tier: 'specialist', rateLimitPerSecond: 100_000 });
    expect((await t.call('GET', '/v1/specialists/firms')).status).toBe(200);
    expect((await t.call('POST', '/v1/specialists/firms', { body: firmBody })).status).toBe(201);
  });
});

describe('specialists: firms and consultants', () => {
  it('registers a firm (jurisdictions upper-cased, distinct); another tenant gets 404', async () => {
    const t = await specialistTenant();
    const firm = await post(t, '/v1/specialists/firms', firmBody);
    expect(firm).toMatchObject({ object: 'svc.specialists.firm', name: firmBody.name, jurisdictions: ['EU', 'UK'] });
    expect(firm.id).toMatch(/^frm_/);
    expect((await t.call('GET', `/v1/specialists/firms/${firm.id}`)).body).toEqual(firm);
    const other = await specialistTenant();
    expectEnvelope(await other.call('GET', `/v1/specialists/firms/${firm.id}`), 404, 'not_found');
    const bad = expectEnvelope(
      await t.call('POST', '/v1/specialists/firms', { body: { name: 'X', jurisdictions: ['Europe'] } }),
      422,
      'validation_failed',
    );
    expect(bad.details[0].field).toContain('jurisdictions');
  });

  it('adds consultants to a firm of the tenant, validates expertise, and lists/unlists them', async () => {
    const t = await specialistTenant();
    // No firm yet: 422 naming firmId.
    const none = expectEnvelope(await t.call('POST', '/v1/specialists/consultants', { body: consultantBody }), 422, 'validation_failed');
    expect(none.details[0].field).toBe('firmId');
    const firm = await post(t, '/v1/specialists/firms', firmBody);
    const second = await post(t, '/v1/specialists/firms', { name: 'Second brand', jurisdictions: ['DE'] });

    const c = await post(t, '/v1/specialists/consultants', consultantBody);
    expect(c).toMatchObject({ object: 'svc.specialists.consultant', firmId: firm.id, status: 'unlisted', listed: false });
    const c2 = await post(t, '/v1/specialists/consultants', { ...consultantBody, firmId: second.id, listed: true });
    expect(c2).toMatchObject({ firmId: second.id, status: 'listed', listed: true });

    const unknown = expectEnvelope(
      await t.call('POST', '/v1/specialists/consultants', { body: { ...consultantBody, expertise: ['eu-ai-act', 'no-such-law'] } }),
      422,
      'validation_failed',
    );
    expect(unknown.details[0].field).toBe('expertise');
    expect(unknown.message).toContain('no-such-law');

    const other = await specialistTenant();
    const otherFirm = await post(other, '/v1/specialists/firms', firmBody);
    const foreign = expectEnvelope(
      await t.call('POST', '/v1/specialists/consultants', { body: { ...consultantBody, firmId: otherFirm.id } }),
      422,
      'validation_failed',
    );
    expect(foreign.details[0].field).toBe('firmId');
    expectEnvelope(await other.call('GET', `/v1/specialists/consultants/${c.id}`), 404, 'not_found');

    const byFirm = await collectPages<{ id: string }>(t, `/v1/specialists/consultants?firmId=${second.id}`);
    expect(byFirm.map((x) => x.id)).toEqual([c2.id]);

    // Lifecycle: unlisted -> listed -> unlisted; illegal moves are 409 naming the state.
    const listed = await post(t, `/v1/specialists/consultants/${c.id}/list-in-marketplace`, {}, 200);
    expect(listed).toMatchObject({ status: 'listed', listed: true });
    const again = expectEnvelope(
      await t.call('POST', `/v1/specialists/consultants/${c.id}/list-in-marketplace`, { body: {} }),
      409,
      'conflict',
    );
    expect(again.message).toContain('listed');
    const unlisted = await post(t, `/v1/specialists/consultants/${c.id}/unlist`, {}, 200);
    expect(unlisted).toMatchObject({ status: 'unlisted', listed: false });
    expectEnvelope(await t.call('POST', `/v1/specialists/consultants/${c.id}/unlist`, { body: {} }), 409, 'conflict');
    expectEnvelope(await other.call('POST', `/v1/specialists/consultants/${c.id}/unlist`, { body: {} }), 404, 'not_found');
    // The shared table's `listed` column follows the status.
    const row = await ts.server.db.prisma.specialistConsultant.findUnique({ where: { id: c.id } });
    expect(row?.listed).toBe(false);
  });

  it('records certifications of consultants and of the firm, with the expired flag computed', async () => {
    const t = await specialistTenant();
    const firm = await post(t, '/v1/specialists/firms', firmBody);
    const c = await post(t, '/v1/specialists/consultants', consultantBody);
    const valid = await post(t, '/v1/specialists/certifications', {
      consultantId: c.id,
      name: 'CIPP/E',
      issuer: 'IAPP',
      validUntil: '2099-01-01T00:00:00.000Z',
    });
    expect(valid).toMatchObject({ object: 'svc.specialists.certification', firmId: firm.id, consultantId: c.id, expired: false });
    const old = await post(t, '/v1/specialists/certifications', {
      consultantId: c.id,
      name: 'CIPM',
      issuer: 'IAPP',
      validFrom: '2020-01-01T00:00:00.000Z',
      validUntil: '2022-01-01T00:00:00.000Z',
    });
    expect(old.expired).toBe(true);
    const firmLevel = await post(t, '/v1/specialists/certifications', { name: 'ISO/IEC 27001:2022', issuer: 'BSI' });
    expect(firmLevel).toMatchObject({ firmId: firm.id, consultantId: null, validUntil: null, expired: false });

    const ofConsultant = (
      await collectPages<{ id: string; expired: boolean; consultantId: string | null }>(t, '/v1/specialists/certifications')
    ).filter((x) => x.consultantId === c.id);
    expect(ofConsultant.map((x) => [x.id, x.expired]).sort()).toEqual(
      [
        [valid.id, false],
        [old.id, true],
      ].sort(),
    );
    const second = await post(t, '/v1/specialists/firms', { name: 'Other', jurisdictions: ['EU'] });
    const mismatch = expectEnvelope(
      await t.call('POST', '/v1/specialists/certifications', { body: { consultantId: c.id, firmId: second.id, name: 'X', issuer: 'Y' } }),
      422,
      'validation_failed',
    );
    expect(mismatch.details[0].field).toBe('firmId');
    const backwards = expectEnvelope(
      await t.call('POST', '/v1/specialists/certifications', {
        body: { name: 'X', issuer: 'Y', validFrom: '2026-01-01T00:00:00.000Z', validUntil: '2025-01-01T00:00:00.000Z' },
      }),
      422,
      'validation_failed',
    );
    expect(backwards.details[0].field).toBe('validUntil');
  });
});

describe('specialists: client engagements (cross-tenant, granted clients only)', () => {
  it('shows each granting client with its live score and open findings; an ended grant disappears', async () => {
    const { t: firmTenant, firm, listing } = await firmWithListing();
    const client = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    const bystander = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    await activate(bystander, 'eu-ai-act');

    expect((await firmTenant.call('GET', '/v1/specialists/client-engagements')).body.data).toEqual([]);

    const controls = await activate(client, 'eu-ai-act');
    const engagement = await post(client, '/v1/marketplace/engagements', { listingId: listing.id });
    expect(engagement).toMatchObject({ object: 'svc.marketplace.engagement', status: 'active', firmId: firm.id, shareRateBps: 8000 });

    const first = (await firmTenant.call('GET', '/v1/specialists/client-engagements')).body.data;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      object: 'svc.specialists.client_engagement',
      engagementId: engagement.id,
      tenant: client.tenantId,
      firmId: firm.id,
      listingId: listing.id,
      score: 0,
      evidenced: 0,
      controls: controls.length,
      frameworks: ['eu-ai-act'],
      openFindings: 0,
    });

    // The client's data changes: evidence raises the score, a finding counts as open.
    const ev = await client.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Risk policy', kind: 'policy', controlIds: [controls[0], controls[1]] },
    });
    expect(ev.status).toBe(201);
    const finding = await client.call('POST', '/v1/self-audit/findings', {
      body: { title: 'No risk register', severity: 'high', controlId: controls[2] },
    });
    expect(finding.status, JSON.stringify(finding.body)).toBe(201);
    const second = (await firmTenant.call('GET', '/v1/specialists/client-engagements')).body.data[0];
    expect(second.evidenced).toBe(2);
    expect(second.score).toBeCloseTo(2 / controls.length, 3);
    expect(second.openFindings).toBe(1);
    // The bystander (no grant) never shows; another firm tenant sees nothing.
    expect(second.tenant).not.toBe(bystander.tenantId);
    const otherFirm = await specialistTenant();
    expect((await otherFirm.call('GET', '/v1/specialists/client-engagements')).body.data).toEqual([]);

    // Revoked: the firm loses the client at once.
    await post(client, '/v1/marketplace/engagements/revoke', { engagementId: engagement.id }, 200);
    expect((await firmTenant.call('GET', '/v1/specialists/client-engagements')).body.data).toEqual([]);
  });
});

describe('specialists: billing share', () => {
  it('computes the firm share of recorded fees at the engagement rate, per period and in total', async () => {
    const { t: firmTenant, listing } = await firmWithListing(['gdpr'], 7500);
    const client = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 100_000 });
    const engagement = await post(client, '/v1/marketplace/engagements', { listingId: listing.id });
    expect(engagement.shareRateBps).toBe(7500);

    const empty = (await firmTenant.call('GET', '/v1/specialists/billing-share')).body;
    expect(empty).toMatchObject({ object: 'svc.specialists.billing_share', period: null, lines: [], totals: [] });

    const fee = await post(firmTenant, '/v1/specialists/billing-share/fees', {
      engagementId: engagement.id,
      period: '2026-10',
      amountCents: 100_001,
    });
    expect(fee).toMatchObject({ object: 'svc.specialists.fee', currency: 'EUR', amountCents: 100_001 });
    await post(firmTenant, '/v1/specialists/billing-share/fees', { engagementId: engagement.id, period: '2026-11', amountCents: 40_000 });
    await post(firmTenant, '/v1/specialists/billing-share/fees', { engagementId: engagement.id, period: '2026-11', amountCents: 20_000 });

    const nov = (await firmTenant.call('GET', '/v1/specialists/billing-share?period=2026-11')).body;
    expect(nov.lines).toEqual([
      {
        engagementId: engagement.id,
        tenant: client.tenantId,
        firmId: listing.firmId,
        period: '2026-11',
        currency: 'EUR',
        rateBps: 7500,
        fees: 2,
        feesCents: 60_000,
        firmShareCents: 45_000,
        platformShareCents: 15_000,
      },
    ]);
    const all = (await firmTenant.call('GET', '/v1/specialists/billing-share')).body;
    expect(all.lines.map((l: { period: string }) => l.period)).toEqual(['2026-10', '2026-11']);
    // 100,001 × 0.75 = 75,000.75 -> 75,001 (half up).
    expect(all.lines[0]).toMatchObject({ feesCents: 100_001, firmShareCents: 75_001, platformShareCents: 25_000 });
    expect(all.totals).toEqual([{ currency: 'EUR', feesCents: 160_001, firmShareCents: 120_001, platformShareCents: 40_000 }]);

    const fees = await collectPages<{ id: string }>(firmTenant, `/v1/specialists/billing-share/fees?period=2026-10`);
    expect(fees.map((f) => f.id)).toEqual([fee.id]);

    // Only the firm's own engagements take fees; the client cannot (tier), another firm gets 404.
    const otherFirm = await specialistTenant();
    expectEnvelope(
      await otherFirm.call('POST', '/v1/specialists/billing-share/fees', {
        body: { engagementId: engagement.id, period: '2026-11', amountCents: 1 },
      }),
      404,
      'not_found',
    );
    const badPeriod = expectEnvelope(
      await firmTenant.call('POST', '/v1/specialists/billing-share/fees', {
        body: { engagementId: engagement.id, period: '2026-13', amountCents: 1 },
      }),
      422,
      'validation_failed',
    );
    expect(badPeriod.details[0].field).toBe('period');
  });
});
