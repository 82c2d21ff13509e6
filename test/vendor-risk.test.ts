import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The vendor_risk rail. Every date and score below was worked out by hand from the rules the
 * contract documents: contract states from the notice window (2026-12-31 - 90 days = 2026-10-02),
 * renewal terms (a 12-month term after 2027-02-28 ends on the leap day 2028-02-29), the risk score
 * `100 - mean(domain scores)` + contract penalties (15 expired, 5 expiring) + monitoring events
 * (weight x 0.5^(age/90 days)).
 */

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
});
afterAll(() => ts?.close());

const DAY = 86_400_000;
let n = 0;
const unique = () => `${Date.now().toString(36)}-${n++}`;

async function vendor(body: Record<string, unknown> = {}, who = t) {
  const res = await who.call('POST', '/v1/vendor-risk/vendors', { body: { name: `Vendor ${unique()}`, criticality: 'high', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function assessment(vendorId: string, body: Record<string, unknown>, complete = true) {
  const res = await t.call('POST', '/v1/vendor-risk/assessments', { body: { vendorId, title: 'Review', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (!complete) return res.body;
  const done = await t.call('POST', `/v1/vendor-risk/assessments/${res.body.id}/complete`, { body: {} });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body;
}
async function contract(vendorId: string, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/vendor-risk/contracts', {
    body: { vendorId, title: 'MSA', value: 1000, currency: 'EUR', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const stateAt = async (id: string, at: string) => {
  const res = await t.call('GET', `/v1/vendor-risk/contracts/${id}/state?at=${at}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const audit = async (resourceId: string) =>
  (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 200 } })).body.data as {
    action: string;
    data: Record<string, unknown>;
  }[];

describe('vendors', () => {
  it('adds a vendor (scored 100 before any assessment), names unique per tenant without case', async () => {
    const v = await vendor({ name: `Acme ${unique()}`, services: ['Hosting', 'Hosting'], dataAccess: ['personal'] });
    expect(v).toMatchObject({ object: 'svc.vendor_risk.vendor', status: 'active', riskScore: 100, riskRating: 'critical', origin: null });
    expect(v.services).toEqual(['Hosting']);
    expect((await audit(v.id)).map((e) => e.action)).toEqual(['vendor.added']);
    const dup = await t.call('POST', '/v1/vendor-risk/vendors', { body: { name: v.name.toUpperCase(), criticality: 'low' } });
    expectEnvelope(dup, 409, 'conflict');
    // Another tenant may use the same name.
    const other = await createTenant(ts, { tier: 'growth' });
    expect((await other.call('POST', '/v1/vendor-risk/vendors', { body: { name: v.name, criticality: 'low' } })).status).toBe(201);
  });

  it('validation: unknown criticality, empty name, unknown data category are 422 naming the field', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const env = expectEnvelope(await t.call('POST', '/v1/vendor-risk/vendors', { body }), 422, 'validation_failed');
      expect(env.details?.[0]?.field).toBe(field);
    };
    await bad({ name: 'x', criticality: 'extreme' }, 'criticality');
    await bad({ name: '', criticality: 'low' }, 'name');
    await bad({ name: 'y', criticality: 'low', dataAccess: ['dna'] }, 'dataAccess.0');
  });

  it('offboarding refuses while a contract runs, succeeds once it is terminated, and is final', async () => {
    const v = await vendor();
    const c = await contract(v.id, { startDate: '2030-01-01', endDate: '2030-12-31' });
    expect(c.state).toBe('pending');
    const refused = expectEnvelope(await t.call('POST', `/v1/vendor-risk/vendors/${v.id}/offboard`, { body: {} }), 409, 'conflict');
    expect(refused.message).toContain(c.id);
    expect((await t.call('GET', `/v1/vendor-risk/vendors/${v.id}`)).body.status).toBe('active');
    const term = await t.call('POST', `/v1/vendor-risk/contracts/${c.id}/terminate`, { body: { reason: 'Replaced' } });
    expect(term.body).toMatchObject({ status: 'terminated', state: 'terminated' });
    const off = await t.call('POST', `/v1/vendor-risk/vendors/${v.id}/offboard`, { body: { reason: 'Contract ended' } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.status).toBe('offboarded');
    expect(off.body.offboardedAt).not.toBeNull();
    expect((await audit(v.id))[0]).toMatchObject({
      action: 'vendor.offboarded',
      data: { from: 'active', to: 'offboarded', reason: 'Contract ended' },
    });
    const again = expectEnvelope(await t.call('POST', `/v1/vendor-risk/vendors/${v.id}/offboard`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('offboarded');
    // An offboarded vendor takes no new assessment, contract or event.
    expectEnvelope(
      await t.call('POST', '/v1/vendor-risk/assessments', { body: { vendorId: v.id, title: 'x', domainScores: { security: 1 } } }),
      409,
      'conflict',
    );
    expectEnvelope(
      await t.call('POST', '/v1/vendor-risk/monitoring', { body: { vendorId: v.id, type: 'incident', severity: 'low', title: 'x' } }),
      409,
      'conflict',
    );
  });

  it('an expired contract does not block offboarding', async () => {
    const v = await vendor();
    await contract(v.id, { startDate: '2020-01-01', endDate: '2020-12-31' });
    expect((await t.call('POST', `/v1/vendor-risk/vendors/${v.id}/offboard`, { body: {} })).status).toBe(200);
  });
});

describe('contracts: state at a date', () => {
  it('fixed term: pending, active, expiring from the notice deadline, expired after the end', async () => {
    const v = await vendor();
    const c = await contract(v.id, { startDate: '2026-01-01', endDate: '2026-12-31', noticePeriodDays: 90 });
    expect(c).toMatchObject({ autoRenew: false, renewalTermMonths: 12, noticeDeadline: '2026-10-02', currentEndDate: '2026-12-31' });
    expect((await stateAt(c.id, '2025-12-31')).state).toBe('pending');
    expect(await stateAt(c.id, '2026-06-30')).toMatchObject({ state: 'active', daysToEnd: 184, noticeDeadline: '2026-10-02' });
    expect((await stateAt(c.id, '2026-10-01')).state).toBe('active');
    expect((await stateAt(c.id, '2026-10-02')).state).toBe('expiring');
    expect((await stateAt(c.id, '2026-12-31')).state).toBe('expiring');
    expect(await stateAt(c.id, '2027-01-01')).toMatchObject({ state: 'expired', daysToEnd: -1, automaticRenewals: 0 });
  });

  it('auto-renewal rolls the term over; a 12-month term after 2027-02-28 ends on the leap day 2028-02-29', async () => {
    const v = await vendor();
    const c = await contract(v.id, {
      startDate: '2026-03-01',
      endDate: '2027-02-28',
      autoRenew: true,
      renewalTermMonths: 12,
      noticePeriodDays: 30,
    });
    // 2027-02-28 - 30 days = 2027-01-29: the notice window opens.
    expect(await stateAt(c.id, '2027-01-28')).toMatchObject({ state: 'active', noticeDeadline: '2027-01-29' });
    expect((await stateAt(c.id, '2027-01-29')).state).toBe('expiring');
    expect((await stateAt(c.id, '2027-02-28')).state).toBe('expiring');
    expect(await stateAt(c.id, '2027-03-01')).toMatchObject({
      state: 'renewed',
      termStartDate: '2027-03-01',
      contractEndDate: '2028-02-29',
      noticeDeadline: '2028-01-30',
      automaticRenewals: 1,
    });
    expect((await stateAt(c.id, '2028-01-29')).state).toBe('renewed');
    expect((await stateAt(c.id, '2028-01-30')).state).toBe('expiring');
    expect(await stateAt(c.id, '2028-03-01')).toMatchObject({ state: 'renewed', contractEndDate: '2029-02-28', automaticRenewals: 2 });
  });

  it('renew extends the end by one term from the day after it; terminate is final (409 naming the state)', async () => {
    const v = await vendor();
    const c = await contract(v.id, { startDate: '2030-01-01', endDate: '2030-12-31', renewalTermMonths: 6, noticePeriodDays: 30 });
    const r1 = await t.call('POST', `/v1/vendor-risk/contracts/${c.id}/renew`, { body: { reason: 'Extended' } });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(r1.body).toMatchObject({
      status: 'in_force',
      endDate: '2030-12-31',
      currentEndDate: '2031-06-30',
      noticeDeadline: '2031-05-31',
    });
    expect(r1.body.renewals).toHaveLength(1);
    expect(r1.body.renewals[0]).toMatchObject({ previousEndDate: '2030-12-31', newEndDate: '2031-06-30' });
    expect(await stateAt(c.id, '2030-06-01')).toMatchObject({
      state: 'active',
      termStartDate: '2030-01-01',
      contractEndDate: '2031-06-30',
    });
    expect(await stateAt(c.id, '2031-01-15')).toMatchObject({ state: 'renewed', termStartDate: '2031-01-01', manualRenewals: 1 });
    expect((await stateAt(c.id, '2031-06-15')).state).toBe('expiring');
    expect((await stateAt(c.id, '2031-07-01')).state).toBe('expired');
    const r2 = await t.call('POST', `/v1/vendor-risk/contracts/${c.id}/renew`, { body: {} });
    expect(r2.body.currentEndDate).toBe('2031-12-31');
    expect((await audit(c.id))[0]).toMatchObject({
      action: 'vendor.contract_renewed',
      data: { from: 'in_force', to: 'in_force', previousEndDate: '2031-06-30', newEndDate: '2031-12-31' },
    });
    await t.call('POST', `/v1/vendor-risk/contracts/${c.id}/terminate`, { body: {} });
    const refused = expectEnvelope(await t.call('POST', `/v1/vendor-risk/contracts/${c.id}/renew`, { body: {} }), 409, 'conflict');
    expect(refused.message).toContain('terminated');
    expect((await t.call('GET', `/v1/vendor-risk/contracts/${c.id}`)).body.currentEndDate).toBe('2031-12-31');
  });

  it('three renewals sent at once extend the term three times: each reads the contract the one before it wrote', async () => {
    const v = await vendor();
    const c = await contract(v.id, { startDate: '2030-01-01', endDate: '2030-12-31', renewalTermMonths: 6 });
    const answers = await Promise.all([1, 2, 3].map(() => t.call('POST', `/v1/vendor-risk/contracts/${c.id}/renew`, { body: {} })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const after = (await t.call('GET', `/v1/vendor-risk/contracts/${c.id}`)).body;
    expect(after.renewals.map((r: { newEndDate: string }) => r.newEndDate)).toEqual(['2031-06-30', '2031-12-31', '2032-06-30']);
    expect(after.currentEndDate).toBe('2032-06-30');
  });

  it('an end before the start, a bad currency or a bad date are 422 naming the field; another tenant gets 404', async () => {
    const v = await vendor();
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await t.call('POST', '/v1/vendor-risk/contracts', {
        body: { vendorId: v.id, title: 'x', startDate: '2026-01-01', endDate: '2026-12-31', value: 1, currency: 'EUR', ...body },
      });
      expect(expectEnvelope(res, 422, 'validation_failed').details?.[0]?.field).toBe(field);
    };
    await bad({ endDate: '2025-12-31' }, 'endDate');
    await bad({ currency: 'euro' }, 'currency');
    await bad({ startDate: '2026-02-30' }, 'startDate');
    await bad({ value: -1 }, 'value');
    const c = await contract(v.id, { startDate: '2026-01-01', endDate: '2026-12-31' });
    const other = await createTenant(ts, { tier: 'growth' });
    expectEnvelope(await other.call('GET', `/v1/vendor-risk/contracts/${c.id}/state?at=2026-01-01`), 404, 'not_found');
    expectEnvelope(
      await other.call('POST', '/v1/vendor-risk/contracts', {
        body: { vendorId: v.id, title: 'x', startDate: '2026-01-01', endDate: '2026-12-31', value: 1, currency: 'EUR' },
      }),
      404,
      'not_found',
    );
  });
});

describe('assessments and scorecards', () => {
  it('questionnaire answers score a domain (yes 100, partial 50, no 0, not applicable left out); a domain scored twice is 422', async () => {
    const v = await vendor();
    const a = await assessment(
      v.id,
      {
        answers: [
          { domain: 'resilience', question: 'Backups tested?', answer: 'yes' },
          { domain: 'resilience', question: 'DR site?', answer: 'partial' },
          { domain: 'resilience', question: 'RTO under 4 h?', answer: 'no' },
          { domain: 'compliance', question: 'ISO 27001?', answer: 'yes' },
          { domain: 'compliance', question: 'SOC 2 type II?', answer: 'not_applicable' },
        ],
      },
      false,
    );
    expect(a).toMatchObject({ status: 'in_progress', domainScores: { resilience: 50, compliance: 100 }, completedAt: null });
    const both = await t.call('POST', '/v1/vendor-risk/assessments', {
      body: { vendorId: v.id, title: 'x', domainScores: { security: 50 }, answers: [{ domain: 'security', question: 'q', answer: 'yes' }] },
    });
    expect(expectEnvelope(both, 422, 'validation_failed').details?.[0]?.field).toBe('answers');
    const none = await t.call('POST', '/v1/vendor-risk/assessments', { body: { vendorId: v.id, title: 'x' } });
    expect(expectEnvelope(none, 422, 'validation_failed').details?.[0]?.field).toBe('domainScores');
    const over = await t.call('POST', '/v1/vendor-risk/assessments', {
      body: { vendorId: v.id, title: 'x', domainScores: { security: 101 } },
    });
    expect(expectEnvelope(over, 422, 'validation_failed').details?.[0]?.field).toBe('domainScores.security');
  });

  it('completing an assessment recomputes the vendor score and emits vendor.risk_changed from/to; completing twice is 409', async () => {
    const v = await vendor();
    const a = await assessment(v.id, { domainScores: { security: 80, privacy: 60 } });
    expect(a.status).toBe('completed');
    // (80 + 60 + 0 + 0) / 4 = 35 -> 100 - 35 = 65.
    const after = (await t.call('GET', `/v1/vendor-risk/vendors/${v.id}`)).body;
    expect(after).toMatchObject({ riskScore: 65, riskRating: 'high' });
    const events = await audit(v.id);
    expect(events.map((e) => e.action)).toEqual(['vendor.risk_changed', 'vendor.added']);
    expect(events[0]?.data).toMatchObject({ from: 100, to: 65, cause: 'vendor.assessed', causeId: a.id });
    expect((await audit(a.id)).map((e) => e.action)).toEqual(['vendor.assessed', 'vendor.assessment_started']);
    const again = expectEnvelope(await t.call('POST', `/v1/vendor-risk/assessments/${a.id}/complete`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('completed');
  });

  it('vendor.added and vendor.risk_changed reach the webhook outbox with data that carries from and to', async () => {
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/vendors', eventTypes: ['vendor.*'] },
    });
    expect(sub.status).toBe(201);
    const v = await vendor();
    const a = await assessment(v.id, { domainScores: { security: 100, privacy: 100, resilience: 100, compliance: 100 } });
    const rows = await ts.server.db.prisma.webhookEvent.findMany({
      where: { tenantId: t.tenantId, subject: v.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(rows.map((r) => r.type)).toEqual(['vendor.added', 'vendor.risk_changed']);
    expect(rows[1]?.data).toMatchObject({ vendorId: v.id, from: 100, to: 0, fromRating: 'critical', toRating: 'low', causeId: a.id });
    const assessed = await ts.server.db.prisma.webhookEvent.findMany({
      where: { tenantId: t.tenantId, subject: a.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(assessed.map((r) => r.type)).toEqual(['vendor.assessment_started', 'vendor.assessed']);
    await t.call('DELETE', `/v1/webhook-subscriptions/${sub.body.id}`);
  });

  it('the scorecard: latest completed assessment per domain, contract penalties, severity-weighted events decaying with age', async () => {
    const v = await vendor();
    await assessment(v.id, { domainScores: { security: 80, privacy: 60 } });
    await assessment(v.id, {
      answers: [
        { domain: 'resilience', question: 'a', answer: 'yes' },
        { domain: 'resilience', question: 'b', answer: 'partial' },
        { domain: 'resilience', question: 'c', answer: 'no' },
        { domain: 'compliance', question: 'd', answer: 'yes' },
      ],
    });
    // (80 + 60 + 50 + 100) / 4 = 72.5 -> 27.5
    expect((await t.call('GET', `/v1/vendor-risk/vendors/${v.id}`)).body.riskScore).toBe(27.5);
    await assessment(v.id, { domainScores: { security: 40 } });
    // An in-progress assessment does not count.
    await assessment(v.id, { domainScores: { security: 100, privacy: 100 } }, false);
    // (40 + 60 + 50 + 100) / 4 = 62.5 -> 37.5
    expect((await t.call('GET', `/v1/vendor-risk/vendors/${v.id}`)).body.riskScore).toBe(37.5);

    const at = new Date(Date.now() + 3_600_000);
    const atDate = at.toISOString().slice(0, 10);
    const tenDaysLater = new Date(at.getTime() + 10 * DAY).toISOString().slice(0, 10);
    const expired = await contract(v.id, { startDate: '2020-01-01', endDate: '2020-12-31' });
    const expiring = await contract(v.id, { startDate: '2020-01-01', endDate: tenDaysLater, noticePeriodDays: 30 });
    const running = await contract(v.id, { startDate: '2020-01-01', endDate: '2099-12-31', noticePeriodDays: 30 });
    expect((await stateAt(expiring.id, atDate)).state).toBe('expiring');
    const event = async (severity: string, daysBefore: number) => {
      const res = await t.call('POST', '/v1/vendor-risk/monitoring', {
        body: {
          vendorId: v.id,
          type: 'breach_news',
          severity,
          title: `${severity} ${daysBefore}`,
          occurredAt: new Date(at.getTime() - daysBefore * DAY).toISOString(),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const critical = await event('critical', 90); // 20 x 0.5 = 10
    await event('medium', 180); // 5 x 0.25 = 1.25
    await event('high', 270); // 10 x 0.125 = 1.25

    const card = await t.call('GET', `/v1/vendor-risk/scorecards/${v.id}?at=${encodeURIComponent(at.toISOString())}`);
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    expect(card.body.assessment).toMatchObject({ part: 37.5, meanDomainScore: 62.5 });
    expect(card.body.assessment.domains.map((d: { score: number }) => d.score)).toEqual([40, 60, 50, 100]);
    expect(card.body.contracts.part).toBe(20);
    const penalties = Object.fromEntries(
      card.body.contracts.items.map((c: { contractId: string; penalty: number }) => [c.contractId, c.penalty]),
    );
    expect(penalties).toEqual({ [expired.id]: 15, [expiring.id]: 5, [running.id]: 0 });
    expect(card.body.monitoring.part).toBe(12.5);
    expect(card.body.monitoring.items[0]).toMatchObject({ eventId: critical.id, ageDays: 90, weight: 20, decay: 0.5, penalty: 10 });
    expect(card.body.monitoring.items.map((i: { penalty: number }) => i.penalty)).toEqual([10, 1.25, 1.25]);
    // 37.5 + 20 + 12.5 = 70
    expect(card.body).toMatchObject({ score: 70, rating: 'high' });
    // The stored score was recomputed at each write (an hour before `at`: the events weigh a little more).
    expect((await t.call('GET', `/v1/vendor-risk/vendors/${v.id}`)).body.riskScore).toBeCloseTo(70, 0);

    // Before the events and the second contract existed: a moment before all of them occurred.
    const early = new Date(at.getTime() - 400 * DAY).toISOString();
    const before = await t.call('GET', `/v1/vendor-risk/scorecards/${v.id}?at=${encodeURIComponent(early)}`);
    expect(before.body.monitoring).toEqual({ part: 0, items: [] });
    // No assessment was completed then either: every domain counts as 0.
    expect(before.body.assessment.part).toBe(100);
    expect(before.body.score).toBe(100);
  });

  it('GET scorecards lists every vendor sorted by score, both ways, with a cursor walk', async () => {
    const own = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    const risky = await vendor({}, own); // 100
    const mid = await vendor({}, own);
    const safe = await vendor({}, own);
    const complete = async (vendorId: string, domainScores: Record<string, number>) => {
      const a = await own.call('POST', '/v1/vendor-risk/assessments', { body: { vendorId, title: 'x', domainScores } });
      await own.call('POST', `/v1/vendor-risk/assessments/${a.body.id}/complete`, { body: {} });
    };
    await complete(mid.id, { security: 50, privacy: 50, resilience: 50, compliance: 50 }); // 50
    await complete(safe.id, { security: 100, privacy: 100, resilience: 100, compliance: 90 }); // 2.5
    const desc = await own.call('GET', '/v1/vendor-risk/scorecards');
    expect(desc.body.data.map((c: { vendorId: string; score: number }) => [c.vendorId, c.score])).toEqual([
      [risky.id, 100],
      [mid.id, 50],
      [safe.id, 2.5],
    ]);
    const asc = await own.call('GET', '/v1/vendor-risk/scorecards?sort=score_asc');
    expect(asc.body.data.map((c: { vendorId: string }) => c.vendorId)).toEqual([safe.id, mid.id, risky.id]);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { vendorId: string }[]; cursor: string | null } } = await own.call(
        'GET',
        `/v1/vendor-risk/scorecards?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      walked.push(...page.body.data.map((c) => c.vendorId));
      cursor = page.body.cursor;
    } while (cursor);
    expect(walked).toEqual([risky.id, mid.id, safe.id]);
    expectEnvelope(await own.call('GET', '/v1/vendor-risk/scorecards?cursor=garbage'), 400, 'bad_request');
    expectEnvelope(await t.call('GET', `/v1/vendor-risk/scorecards/${risky.id}`), 404, 'not_found');
  });

  it('monitoring events: not in the future, unknown vendor is 404', async () => {
    const v = await vendor();
    const future = await t.call('POST', '/v1/vendor-risk/monitoring', {
      body: { vendorId: v.id, type: 'incident', severity: 'low', title: 'x', occurredAt: new Date(Date.now() + DAY).toISOString() },
    });
    expect(expectEnvelope(future, 422, 'validation_failed').details?.[0]?.field).toBe('occurredAt');
    expectEnvelope(
      await t.call('POST', '/v1/vendor-risk/monitoring', {
        body: { vendorId: 'vnd_01JD3Z8W2M6Q4X9V7K5T1B0N3R', type: 'incident', severity: 'low', title: 'x' },
      }),
      404,
      'not_found',
    );
  });
});

describe('tier gating', () => {
  it('starter is refused (403 naming growth); growth is admitted', async () => {
    const starter = await createTenant(ts, { tier: 'starter' });
    const res = await starter.call('GET', '/v1/vendor-risk/vendors');
    expect(expectEnvelope(res, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'growth' }]);
    expectEnvelope(await starter.call('GET', '/v1/vendor-risk/scorecards'), 403, 'forbidden');
    expect((await t.call('GET', '/v1/vendor-risk/vendors')).status).toBe(200);
  });
});
