import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The insurance rail. Every amount below was worked out by hand: payable = min(max(claimed -
 * retention, 0), limit), approval capped by the aggregate limit left after the policy's other
 * approved claims, offers ranked by premium / limit. Coverage is checked against risks and
 * policies set up here, and again after a policy or a risk changes.
 */

let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  other = await createTenant(ts);
});
afterAll(() => ts?.close());

const I = '/v1/insurance';
const YEAR_2026 = { periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z' };

async function policy(who: TenantFixture, body: Record<string, unknown> = {}) {
  const res = await who.call('POST', `${I}/policies`, {
    body: {
      insurer: 'Example Mutual',
      line: 'cyber',
      currency: 'EUR',
      limit: 5_000_000,
      retention: 100_000,
      perils: ['data_breach', 'ransomware'],
      ...YEAR_2026,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; state: string; status: string; limit: number };
}

async function claim(who: TenantFixture, policyId: string, amountClaimed: number, lossDate = '2026-03-10T00:00:00.000Z') {
  const res = await who.call('POST', `${I}/claims`, { body: { policyId, title: 'Loss', lossDate, amountClaimed } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; payable: number; status: string };
}

const move = async (who: TenantFixture, id: string, verb: string) => {
  const res = await who.call('POST', `${I}/claims/${id}/${verb}`, { body: {} });
  expect(res.status, `${verb}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

async function risk(who: TenantFixture, title: string, domain: string, l: number, i: number) {
  const res = await who.call('POST', '/v1/risk-register/risks', { body: { title, domain, inherentLikelihood: l, inherentImpact: i } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

describe('tiers and validation', () => {
  it('a tenant below enterprise gets 403', async () => {
    const growth = await createTenant(ts, { tier: 'growth' });
    for (const p of ['policies', 'claims', 'coverage', 'quotes']) expectEnvelope(await growth.call('GET', `${I}/${p}`), 403, 'forbidden');
  });

  it('bad periods, duplicate perils, amounts and currencies are 422', async () => {
    const base = { insurer: 'X', line: 'cyber', currency: 'EUR', limit: 1000, retention: 0, perils: ['data_breach'], ...YEAR_2026 };
    const bad = [
      { ...base, periodEnd: base.periodStart },
      { ...base, perils: ['data_breach', 'data_breach'] },
      { ...base, perils: ['meteor'] },
      { ...base, limit: 0 },
      { ...base, retention: -1 },
      { ...base, currency: 'euro' },
      { ...base, line: 'pet' },
    ];
    for (const body of bad) expectEnvelope(await t.call('POST', `${I}/policies`, { body }), 422, 'validation_failed');
  });
});

describe('policies: standing by date, cancellation', () => {
  it('period [start, end): scheduled, in force, expired; cancelled from cancelledAt', async () => {
    const p = await policy(t);
    expect(p.state).toBe('in_force'); // today (Nov 2026) lies in 2026
    const at = async (iso: string) => (await t.call('GET', `${I}/policies/${p.id}/standing?at=${iso}`)).body;
    expect(await at('2025-12-31T23:59:59.999Z')).toMatchObject({ state: 'scheduled', inForce: false });
    expect(await at('2026-01-01T00:00:00.000Z')).toMatchObject({ state: 'in_force', inForce: true });
    expect(await at('2026-12-31T23:59:59.999Z')).toMatchObject({ state: 'in_force', inForce: true });
    expect(await at('2027-01-01T00:00:00.000Z')).toMatchObject({ state: 'expired', inForce: false });

    const cancelled = await t.call('POST', `${I}/policies/${p.id}/cancel`, { body: { reason: 'Replaced' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', state: 'cancelled' });
    const cancelledAt = cancelled.body.cancelledAt as string;
    // Before the cancellation the policy was in force; a loss then may still be claimed.
    expect(await at('2026-06-01T00:00:00.000Z')).toMatchObject({ state: 'in_force' });
    expect((await claim(t, p.id, 200_000, '2026-06-01T00:00:00.000Z')).payable).toBe(100_000);
    await new Promise((r) => setTimeout(r, 30));
    const after = new Date(new Date(cancelledAt).getTime() + 10).toISOString();
    const refused = expectEnvelope(
      await t.call('POST', `${I}/claims`, { body: { policyId: p.id, title: 'Late loss', lossDate: after, amountClaimed: 1000 } }),
      422,
      'validation_failed',
    );
    expect(refused.details[0].field).toBe('lossDate');
    expect(refused.message).toContain('cancelled');
    expectEnvelope(await t.call('POST', `${I}/policies/${p.id}/cancel`, { body: {} }), 409, 'conflict');
  });
});

describe('claims: payable, lifecycle, aggregate limit', () => {
  it('payable = min(max(claimed - retention, 0), limit)', async () => {
    const p = await policy(t, { limit: 300_000, retention: 50_000 });
    expect((await claim(t, p.id, 350_000)).payable).toBe(300_000); // 350,000 - 50,000 = 300,000 = the limit
    expect((await claim(t, p.id, 1_000_000)).payable).toBe(300_000); // 950,000 capped at 300,000
    expect((await claim(t, p.id, 120_000)).payable).toBe(70_000); // 120,000 - 50,000
    expect((await claim(t, p.id, 40_000)).payable).toBe(0); // under the retention
  });

  it('a loss outside the period, in the future, or under an unknown policy is 422', async () => {
    const p = await policy(t);
    const body = (x: Record<string, unknown>) => ({
      policyId: p.id,
      title: 'L',
      amountClaimed: 1000,
      lossDate: '2026-03-10T00:00:00.000Z',
      ...x,
    });
    const before = expectEnvelope(
      await t.call('POST', `${I}/claims`, { body: body({ lossDate: '2025-12-31T23:59:59.000Z' }) }),
      422,
      'validation_failed',
    );
    expect(before.details[0]).toMatchObject({ field: 'lossDate' });
    expect(before.message).toContain('scheduled');
    expectEnvelope(await t.call('POST', `${I}/claims`, { body: body({ lossDate: '2026-12-31T00:00:00.000Z' }) }), 422, 'validation_failed');
    expectEnvelope(
      await t.call('POST', `${I}/claims`, { body: body({ policyId: 'inp_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }) }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', `${I}/claims`, { body: body({ riskId: 'rsk_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }) }),
      422,
      'validation_failed',
    );
    // Another tenant's policy is not this tenant's.
    expectEnvelope(await other.call('POST', `${I}/claims`, { body: body({}) }), 422, 'validation_failed');
  });

  it('draft -> submitted -> under_review -> approved -> paid -> closed -> reopened; illegal moves are 409 and change nothing', async () => {
    const p = await policy(t, { limit: 300_000, retention: 50_000 });
    const a = await claim(t, p.id, 250_000); // payable 200,000
    expect(a).toMatchObject({ status: 'draft', payable: 200_000, approvedAmount: null });
    const early = expectEnvelope(await t.call('POST', `${I}/claims/${a.id}/approve`, { body: {} }), 409, 'conflict');
    expect(early.message).toContain('draft');
    expect((await t.call('GET', `${I}/claims/${a.id}`)).body.status).toBe('draft');
    expectEnvelope(await t.call('POST', `${I}/claims/${a.id}/pay`, { body: {} }), 409, 'conflict');

    expect((await move(t, a.id, 'submit')).submittedAt).not.toBeNull();
    expectEnvelope(await t.call('POST', `${I}/claims/${a.id}/submit`, { body: {} }), 409, 'conflict');
    await move(t, a.id, 'review');
    const approvedA = await move(t, a.id, 'approve');
    expect(approvedA).toMatchObject({ status: 'approved', approvedAmount: 200_000 });

    // B: payable 200,000 too, but the aggregate limit has 300,000 - 200,000 = 100,000 left.
    const b = await claim(t, p.id, 250_000);
    await move(t, b.id, 'submit');
    await move(t, b.id, 'review');
    expect(await move(t, b.id, 'approve')).toMatchObject({ approvedAmount: 100_000, payable: 200_000 });
    const paid = await move(t, b.id, 'pay');
    expect(paid).toMatchObject({ status: 'paid', paidAmount: 100_000 });
    expect(paid.paidAt).not.toBeNull();
    const closed = await move(t, b.id, 'close');
    expect(closed.status).toBe('closed');

    // C: nothing left under the limit: approved at 0.
    const c = await claim(t, p.id, 60_000); // payable 10,000
    await move(t, c.id, 'submit');
    await move(t, c.id, 'review');
    expect(await move(t, c.id, 'approve')).toMatchObject({ approvedAmount: 0, payable: 10_000 });

    // Deny, then reopen and approve: A's and B's 300,000 still use up the limit.
    const d = await claim(t, p.id, 70_000);
    await move(t, d.id, 'submit');
    await move(t, d.id, 'review');
    expect((await move(t, d.id, 'deny')).status).toBe('denied');
    expectEnvelope(await t.call('POST', `${I}/claims/${d.id}/pay`, { body: {} }), 409, 'conflict');
    expect((await move(t, d.id, 'reopen')).status).toBe('under_review');

    // Audit: each move one event with from and to.
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: b.id, limit: 50 } });
    expect(audit.body.data.map((e: { action: string }) => e.action).reverse()).toEqual([
      'insurance_claim.created',
      'insurance_claim.submitted',
      'insurance_claim.reviewed',
      'insurance_claim.approved',
      'insurance_claim.paid',
      'insurance_claim.closed',
    ]);
    const approval = audit.body.data.find((e: { action: string }) => e.action === 'insurance_claim.approved');
    expect(approval.data).toMatchObject({ from: 'under_review', to: 'approved', approvedAmount: 100_000 });

    const listed = await collectPages<{ id: string }>(t, `${I}/claims?policyId=${p.id}&status=approved`);
    expect(listed.map((x) => x.id).sort()).toEqual([a.id, c.id].sort());
  });
});

describe('coverage', () => {
  it('maps open register risks to the policies in force by peril, and follows policy and risk changes', async () => {
    const me = await createTenant(ts);
    const sec = await risk(me, 'Ransomware on the loan platform', 'security', 4, 5); // score 20
    const priv = await risk(me, 'Customer data leak', 'privacy', 3, 3); // score 9
    const fin = await risk(me, 'Payment fraud', 'financial', 2, 2); // score 4
    const cov = async (q = '') => {
      const res = await me.call('GET', `${I}/coverage${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const ids = (xs: { riskId: string }[]) => xs.map((x) => x.riskId);

    let c = await cov();
    expect(c.policiesInForce).toBe(0);
    expect(ids(c.covered)).toEqual([]);
    expect(ids(c.uncovered)).toEqual([sec.id, priv.id, fin.id]); // by residual score 20, 9, 4

    const cyber = await policy(me, { perils: ['data_breach', 'ransomware'], limit: 5_000_000 });
    c = await cov();
    expect(c.policiesInForce).toBe(1);
    expect(ids(c.covered)).toEqual([sec.id, priv.id]);
    expect(ids(c.uncovered)).toEqual([fin.id]);
    const secEntry = c.covered[0];
    expect(secEntry).toMatchObject({ residualScore: 20, perils: ['data_breach', 'ransomware'], limitAvailable: { EUR: 5_000_000 } });
    expect(secEntry.policies).toEqual([
      expect.objectContaining({
        policyId: cyber.id,
        matchedPerils: ['data_breach', 'ransomware'],
        limit: 5_000_000,
        limitAvailable: 5_000_000,
      }),
    ]);
    // Privacy maps to privacy_liability, data_breach, regulatory_fines: only data_breach is bought.
    expect(c.covered[1].policies[0].matchedPerils).toEqual(['data_breach']);

    // An approved claim uses up limit: 5,000,000 - (400,000 - 100,000) = 4,700,000 left.
    const cl = await claim(me, cyber.id, 400_000);
    for (const v of ['submit', 'review', 'approve']) await move(me, cl.id, v);
    c = await cov();
    expect(c.covered[0].policies[0].limitAvailable).toBe(4_700_000);
    expect(c.covered[0].limitAvailable).toEqual({ EUR: 4_700_000 });

    // A D&O policy covers the financial risk (management_liability); one starting in 2027 covers nothing yet.
    const dno = await policy(me, { line: 'd_and_o', perils: ['management_liability'], currency: 'USD', limit: 2_000_000 });
    await policy(me, {
      line: 'crime',
      perils: ['crime_fraud'],
      periodStart: '2027-01-01T00:00:00.000Z',
      periodEnd: '2028-01-01T00:00:00.000Z',
    });
    c = await cov();
    expect(ids(c.covered)).toEqual([sec.id, priv.id, fin.id]);
    expect(c.covered[2].policies.map((p: { policyId: string }) => p.policyId)).toEqual([dno.id]);
    expect(c.covered[2].limitAvailable).toEqual({ USD: 2_000_000 });
    // In 2027 the 2026 policies have expired; only the crime policy is in force.
    const future = await cov('?at=2027-06-01T00:00:00.000Z');
    expect(future.policiesInForce).toBe(1);
    expect(ids(future.covered)).toEqual([fin.id]);
    expect(future.covered[0].policies[0].matchedPerils).toEqual(['crime_fraud']);

    // Cancelling the cyber policy uncovers the security and privacy risks.
    expect((await me.call('POST', `${I}/policies/${cyber.id}/cancel`, { body: {} })).status).toBe(200);
    c = await cov();
    expect(ids(c.covered)).toEqual([fin.id]);
    expect(ids(c.uncovered)).toEqual([sec.id, priv.id]);

    // Closing a risk takes it out of the view.
    expect((await me.call('POST', `/v1/risk-register/risks/${fin.id}/close`, { body: {} })).status).toBe(200);
    c = await cov();
    expect(ids(c.covered)).toEqual([]);
    expect(ids(c.uncovered)).toEqual([sec.id, priv.id]);

    // Another tenant sees none of this tenant's risks or policies.
    const theirs = (await other.call('GET', `${I}/coverage`)).body;
    expect([...ids(theirs.covered), ...ids(theirs.uncovered)]).not.toContain(sec.id);
  });
});

describe('quotes', () => {
  it('two acceptances at once: one policy; the other finds the request accepted', async () => {
    const q = await t.call('POST', `${I}/quotes`, {
      body: {
        line: 'cyber',
        currency: 'EUR',
        requestedLimit: 1_000_000,
        perils: ['data_breach'],
        periodStart: '2027-01-01T00:00:00.000Z',
        periodEnd: '2028-01-01T00:00:00.000Z',
      },
    });
    const id = q.body.id as string;
    for (const insurer of ['Alpha', 'Beta']) {
      const o = await t.call('POST', `${I}/quotes/${id}/offers`, {
        body: { insurer, premium: 20_000, limit: 1_000_000, retention: 10_000 },
      });
      expect(o.status).toBe(200);
    }
    const both = await Promise.all(
      ['Alpha', 'Beta'].map((insurer, i) =>
        t.call('POST', `${I}/quotes/${id}/accept`, { body: { insurer, policyNumber: `CY-RACE-${i}` } }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(expectEnvelope(both.find((r) => r.status === 409) as (typeof both)[number], 409, 'conflict').message).toContain('accepted');
  });

  it('offers ranked by premium per unit of limit; accepting one creates the policy', async () => {
    const q = await t.call('POST', `${I}/quotes`, {
      body: {
        line: 'cyber',
        currency: 'EUR',
        requestedLimit: 5_000_000,
        perils: ['data_breach', 'ransomware'],
        periodStart: '2027-01-01T00:00:00.000Z',
        periodEnd: '2028-01-01T00:00:00.000Z',
      },
    });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    const id = q.body.id as string;
    const offer = (body: Record<string, unknown>) => t.call('POST', `${I}/quotes/${id}/offers`, { body });
    expect((await offer({ insurer: 'Alpha', premium: 90_000, limit: 5_000_000, retention: 100_000 })).status).toBe(200); // 0.018
    expect((await offer({ insurer: 'Beta', premium: 50_000, limit: 2_000_000, retention: 50_000 })).status).toBe(200); // 0.025
    expect((await offer({ insurer: 'Gamma', premium: 100_000, limit: 10_000_000, retention: 250_000 })).status).toBe(200); // 0.01
    expect((await offer({ insurer: 'Delta', premium: 180_000, limit: 10_000_000, retention: 200_000 })).status).toBe(200); // 0.018, as Alpha, with a higher retention
    expectEnvelope(await offer({ insurer: 'alpha', premium: 1, limit: 1, retention: 0 }), 409, 'conflict');

    const cmp = await t.call('GET', `${I}/quotes/${id}/comparison`);
    expect(cmp.status).toBe(200);
    expect(
      cmp.body.ranked.map((r: { insurer: string; premiumPerUnitOfLimit: number; rank: number; meetsRequestedLimit: boolean }) => [
        r.rank,
        r.insurer,
        r.premiumPerUnitOfLimit,
        r.meetsRequestedLimit,
      ]),
    ).toEqual([
      [1, 'Gamma', 0.01, true],
      [2, 'Alpha', 0.018, true], // ties Delta at 0.018; lower retention (100,000 < 200,000) first
      [3, 'Delta', 0.018, true],
      [4, 'Beta', 0.025, false], // 2,000,000 < 5,000,000 asked
    ]);

    expectEnvelope(await t.call('POST', `${I}/quotes/${id}/accept`, { body: { insurer: 'Omega' } }), 422, 'validation_failed');
    const accepted = await t.call('POST', `${I}/quotes/${id}/accept`, { body: { insurer: 'Alpha', policyNumber: 'CY-2027-0007' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body).toMatchObject({
      object: 'svc.insurance.policy',
      insurer: 'Alpha',
      line: 'cyber',
      policyNumber: 'CY-2027-0007',
      currency: 'EUR',
      limit: 5_000_000,
      retention: 100_000,
      premium: 90_000,
      perils: ['data_breach', 'ransomware'],
      periodStart: '2027-01-01T00:00:00.000Z',
      periodEnd: '2028-01-01T00:00:00.000Z',
      status: 'active',
      state: 'scheduled',
      quoteId: id,
    });
    expect((await t.call('GET', `${I}/policies/${accepted.body.id}`)).body).toEqual(accepted.body);
    const after = (await t.call('GET', `${I}/quotes/${id}`)).body;
    expect(after).toMatchObject({ status: 'accepted', acceptedInsurer: 'Alpha', policyId: accepted.body.id });
    expect(after.offers).toHaveLength(4);

    // Accepted: no more offers, no second acceptance, no withdrawal.
    expectEnvelope(await offer({ insurer: 'Epsilon', premium: 1, limit: 1, retention: 0 }), 409, 'conflict');
    expectEnvelope(await t.call('POST', `${I}/quotes/${id}/accept`, { body: { insurer: 'Gamma' } }), 409, 'conflict');
    const w = expectEnvelope(await t.call('POST', `${I}/quotes/${id}/withdraw`, { body: {} }), 409, 'conflict');
    expect(w.message).toContain('accepted');

    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: id, limit: 50 } });
    expect(audit.body.data.map((e: { action: string }) => e.action).reverse()).toEqual([
      'insurance_quote.requested',
      'insurance_quote.offer_recorded',
      'insurance_quote.offer_recorded',
      'insurance_quote.offer_recorded',
      'insurance_quote.offer_recorded',
      'insurance_quote.accepted',
    ]);
    const policyAudit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: accepted.body.id, limit: 50 } });
    expect(policyAudit.body.data.map((e: { action: string }) => e.action)).toEqual(['insurance_policy.created']);

    // Tenancy.
    expectEnvelope(await other.call('GET', `${I}/quotes/${id}/comparison`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `${I}/quotes/${id}/accept`, { body: { insurer: 'Alpha' } }), 404, 'not_found');
    expectEnvelope(await other.call('GET', `${I}/policies/${accepted.body.id}`), 404, 'not_found');
  });

  it('the policy an accepted offer becomes is audited with its quote request, and its terms are the request’s and the offer’s', async () => {
    const q = await t.call('POST', `${I}/quotes`, {
      body: { line: 'crime', currency: 'EUR', requestedLimit: 1_000_000, perils: ['crime_fraud'], ...YEAR_2026 },
    });
    expect(q.status).toBe(201);
    const offered = await t.call('POST', `${I}/quotes/${q.body.id}/offers`, {
      body: { insurer: 'Zeta', premium: 10_000, limit: 1_000_000, retention: 5_000 },
    });
    expect(offered.status).toBe(200);
    const accepted = await t.call('POST', `${I}/quotes/${q.body.id}/accept`, { body: { insurer: 'zeta' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body).toMatchObject({
      insurer: 'Zeta',
      line: 'crime',
      policyNumber: null,
      limit: 1_000_000,
      retention: 5_000,
      premium: 10_000,
      perils: ['crime_fraud'],
      exclusions: [],
      ...YEAR_2026,
      status: 'active',
      cancelledAt: null,
      quoteId: q.body.id,
    });
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: accepted.body.id, limit: 10 } });
    expect(audit.body.data[0]).toMatchObject({ action: 'insurance_policy.created' });
    expect(audit.body.data[0].data).toMatchObject({
      insurer: 'Zeta',
      line: 'crime',
      limit: 1_000_000,
      retention: 5_000,
      perils: ['crime_fraud'],
      quoteId: q.body.id,
    });
    // A policy recorded directly comes from no quote request.
    const direct = await t.call('POST', `${I}/policies`, {
      body: { insurer: 'Eta', line: 'crime', currency: 'EUR', limit: 1_000, retention: 0, perils: ['crime_fraud'], ...YEAR_2026 },
    });
    expect(direct.body.quoteId).toBeNull();
    const directAudit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: direct.body.id, limit: 10 } });
    expect(directAudit.body.data[0].data).not.toHaveProperty('quoteId');
  });

  it('a withdrawn request takes no offers', async () => {
    const q = await t.call('POST', `${I}/quotes`, {
      body: { line: 'tech_eo', currency: 'EUR', requestedLimit: 1_000_000, perils: ['technology_errors'], ...YEAR_2026 },
    });
    expect(q.status).toBe(201);
    expect((await t.call('POST', `${I}/quotes/${q.body.id}/withdraw`, { body: { reason: 'Budget cut' } })).body.status).toBe('withdrawn');
    expectEnvelope(
      await t.call('POST', `${I}/quotes/${q.body.id}/offers`, { body: { insurer: 'Alpha', premium: 1, limit: 1, retention: 0 } }),
      409,
      'conflict',
    );
    expectEnvelope(
      await t.call('POST', `${I}/quotes`, {
        body: {
          line: 'cyber',
          currency: 'EUR',
          requestedLimit: 1,
          perils: ['ransomware'],
          periodStart: YEAR_2026.periodEnd,
          periodEnd: YEAR_2026.periodStart,
        },
      }),
      422,
      'validation_failed',
    );
  });
});
