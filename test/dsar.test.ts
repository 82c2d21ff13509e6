import { createHash } from 'node:crypto';
import { canonicalJson } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The dsar rail. Every date below was worked out by hand from the provision it cites, not from
 * the code: GDPR one month to the same day number of the next month or that month's last day
 * (leap years included), two further months from the original due date; CCPA 45 calendar days,
 * 45 more, and 10 business days to confirm receipt; LGPD 15 days for confirmation and access and no
 * statutory period for the other rights; DPDP 90 days, once the rights apply (13 May 2027). A due
 * date is met until the end of that day (UTC); a request received before its regime applies has none.
 */

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
});
afterAll(() => ts?.close());

type Json = Record<string, any>;

async function receive(body: Json, who = t): Promise<Json> {
  const res = await who.call('POST', '/v1/dsar/requests', {
    body: { regime: 'gdpr', kind: 'access', subject: { name: 'Jana Novak', email: 'jana@example.com' }, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const verify = (id: string, who = t, outcome = 'passed', extra: Json = {}) =>
  who.call('POST', '/v1/dsar/verify', { body: { requestId: id, method: 'document_check', outcome, ...extra } });
const extend = (id: string, body: Json, who = t) => who.call('POST', `/v1/dsar/requests/${id}/extend`, { body });
const store = async (body: Json, who = t) => {
  const res = await who.call('POST', '/v1/dsar/stores', {
    body: { name: 'CRM', system: 'Salesforce', kind: 'crm', categories: ['contact'], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Json;
};
const sha = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex');

describe('dsar: statutory due dates per regime', () => {
  it('GDPR: one month, ending on the month’s last day when the day does not exist (leap years too)', async () => {
    const jan2025 = await receive({ receivedAt: '2025-01-31T15:00:00.000Z' });
    expect(jan2025).toMatchObject({
      status: 'received',
      dueDate: '2025-02-28',
      dueAt: '2025-02-28T23:59:59.999Z',
      extendedDueDate: null,
      extendedDueAt: null,
      deadline: { amount: 1, unit: 'months', source: 'GDPR Art. 12(3)' },
      kindSource: 'GDPR Art. 15',
      rulesVersion: 'dsar/regimes@1.3.0',
      applicable: true,
      applicableFrom: { date: '2018-05-25', source: 'GDPR Art. 99(2)' },
      noDueDate: null,
      receiptConfirmation: null,
    });
    expect(jan2025.extension).toMatchObject({ allowed: true, amount: 2, unit: 'months', extendedAt: null, notice: null });
    // 2024 is a leap year: 31 January + 1 month = 29 February.
    expect((await receive({ receivedAt: '2024-01-31T08:00:00.000Z' })).dueDate).toBe('2024-02-29');
    // A day that exists in the next month: the same day number.
    expect((await receive({ receivedAt: '2026-03-15T10:00:00.000Z' })).dueDate).toBe('2026-04-15');
    // 31 March: April has 30 days.
    expect((await receive({ receivedAt: '2026-03-31T10:00:00.000Z' })).dueDate).toBe('2026-04-30');
    // The clock counts from the UTC calendar date of receipt (23:30 UTC on 30 November).
    expect((await receive({ receivedAt: '2025-11-30T23:30:00.000Z' })).dueDate).toBe('2025-12-30');
  });

  it('UK GDPR follows the same month rule under its own source', async () => {
    const r = await receive({ regime: 'uk-gdpr', kind: 'erasure', receivedAt: '2025-05-31T09:00:00.000Z' });
    expect(r).toMatchObject({ dueDate: '2025-06-30', deadline: { source: 'UK GDPR Art. 12(3)' }, kindSource: 'UK GDPR Art. 17' });
    expect(r.regulator).toBe("Information Commissioner's Office");
  });

  it('CCPA: 45 calendar days across month ends, receipt confirmed within 10 business days; opt-out 15 business days', async () => {
    // Tuesday 20 January 2026: Jan 21-31 is 11 days, February 28 (39), then 6 March (45).
    const r = await receive({ regime: 'ccpa', kind: 'access', receivedAt: '2026-01-20T12:00:00.000Z' });
    expect(r).toMatchObject({
      dueDate: '2026-03-06',
      deadline: { amount: 45, unit: 'days', source: 'Cal. Civ. Code § 1798.130(a)(2)(A)' },
      // Wed 21, Thu 22, Fri 23, Mon 26 ... Fri 30 (8), Mon 2 Feb (9), Tue 3 Feb (10).
      receiptConfirmation: { dueDate: '2026-02-03', source: '11 CCR § 7021(a)' },
    });
    expect(r.extension).toMatchObject({ allowed: true, amount: 45, unit: 'days' });
    // Opt-out of sale: Friday 6 November 2026 + 15 business days = Friday 27 November; no extension, no receipt confirmation.
    const optOut = await receive({ regime: 'ccpa', kind: 'opt-out', receivedAt: '2026-11-06T10:00:00.000Z' });
    expect(optOut).toMatchObject({ dueDate: '2026-11-27', deadline: { unit: 'business_days', source: '11 CCR § 7026(f)(1)' } });
    expect(optOut.extension.allowed).toBe(false);
    expect(optOut.receiptConfirmation).toBeNull();
  });

  it('LGPD: 15 days for confirmation and access (Art. 19, II); the other rights have no statutory due date', async () => {
    // 20 February 2026 + 15 days: 8 days to 28 February, 7 more = 7 March.
    const lgpd = await receive({ regime: 'lgpd', kind: 'access', receivedAt: '2026-02-20T10:00:00.000Z' });
    expect(lgpd).toMatchObject({
      applicable: true,
      applicableFrom: { date: '2020-09-18' },
      noDueDate: null,
      dueDate: '2026-03-07',
      dueAt: '2026-03-07T23:59:59.999Z',
      deadline: { amount: 15, unit: 'days', source: 'LGPD (Lei 13.709/2018) Art. 19, caput and II' },
    });
    expect(lgpd.extension.allowed).toBe(false);
    expectEnvelope(await extend(lgpd.id, { reason: 'complex', extendedAt: '2026-02-25T00:00:00.000Z' }), 409, 'conflict');

    // Erasure (Art. 18, VI): Art. 18 § 5 leaves the period to regulation; no date is made up.
    const erasure = await receive({ regime: 'lgpd', kind: 'erasure', receivedAt: '2026-02-20T10:00:00.000Z' });
    expect(erasure).toMatchObject({
      applicable: true,
      dueDate: null,
      dueAt: null,
      extendedDueDate: null,
      deadline: { amount: null, unit: null, source: 'LGPD (Lei 13.709/2018) Art. 18, §§ 3-5' },
      noDueDate: { reason: 'no_statutory_period', source: 'LGPD (Lei 13.709/2018) Art. 18, §§ 3-5' },
      extension: { allowed: false, notice: null },
    });
    const refused = await extend(erasure.id, { reason: 'complex', extendedAt: '2026-02-25T00:00:00.000Z' });
    expectEnvelope(refused, 409, 'conflict');
    expect(refused.body.message).toMatch(/no statutory due date to extend/);
    // Fetched again: still no date.
    const again = await t.call('GET', `/v1/dsar/requests/${erasure.id}`);
    expect(again.body).toMatchObject({ dueDate: null, noDueDate: { reason: 'no_statutory_period' } });

    // Before 18 September 2020 the LGPD rights were not in force.
    const early = await receive({ regime: 'lgpd', kind: 'access', receivedAt: '2020-09-17T12:00:00.000Z' });
    expect(early).toMatchObject({ applicable: false, dueDate: null, noDueDate: { reason: 'not_yet_applicable' } });
  });

  it('DPDP: a request received before the rights apply (13 May 2027) has no statutory due date', async () => {
    const dpdp = await receive({ regime: 'dpdp', kind: 'grievance', receivedAt: '2026-01-15T06:00:00.000Z' });
    expect(dpdp).toMatchObject({
      applicable: false,
      applicableFrom: { date: '2027-05-13' },
      dueDate: null,
      dueAt: null,
      extendedDueDate: null,
      extendedDueAt: null,
      receiptConfirmation: null,
      deadline: { amount: 90, unit: 'days' },
      noDueDate: { reason: 'not_yet_applicable' },
      regulator: 'Data Protection Board of India',
    });
    expect(dpdp.noDueDate.rule).toMatch(/^Received 2026-01-15, before 2027-05-13: /);
    expect(dpdp.applicableFrom.source).toMatch(/G\.S\.R\. 843\(E\)/);
    const refused = await extend(dpdp.id, { reason: 'complex', extendedAt: '2026-02-25T00:00:00.000Z' });
    expectEnvelope(refused, 409, 'conflict');
    expect(refused.body.message).toMatch(/no statutory due date/);
    // A GDPR request received before 25 May 2018 likewise has none, and cannot be extended.
    const old = await receive({ regime: 'gdpr', kind: 'access', receivedAt: '2018-05-24T10:00:00.000Z' });
    expect(old).toMatchObject({ applicable: false, dueDate: null, noDueDate: { reason: 'not_yet_applicable', source: 'GDPR Art. 99(2)' } });
    expectEnvelope(await extend(old.id, { reason: 'complex', extendedAt: '2018-06-01T00:00:00.000Z' }), 409, 'conflict');
  });

  it('receivedAt defaults to now and may be back-dated, never in the future; a kind the regime does not grant is 422', async () => {
    const before = new Date();
    const now = await receive({});
    const received = new Date(now.receivedAt);
    expect(received.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    // One month from today's UTC date, to the day or the month's last day.
    const y = received.getUTCFullYear();
    const m = received.getUTCMonth();
    const last = new Date(Date.UTC(y, m + 2, 0)).getUTCDate();
    const expected = new Date(Date.UTC(y, m + 1, Math.min(received.getUTCDate(), last))).toISOString().slice(0, 10);
    expect(now.dueDate).toBe(expected);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expectEnvelope(
      await t.call('POST', '/v1/dsar/requests', { body: { regime: 'gdpr', kind: 'access', subject: { name: 'X' }, receivedAt: future } }),
      422,
      'validation_failed',
    );
    const wrongKind = await t.call('POST', '/v1/dsar/requests', { body: { regime: 'gdpr', kind: 'opt-out', subject: { name: 'X' } } });
    expect(expectEnvelope(wrongKind, 422, 'validation_failed').details[0]).toMatchObject({ field: 'kind' });
    expectEnvelope(
      await t.call('POST', '/v1/dsar/requests', { body: { regime: 'hipaa', kind: 'access', subject: { name: 'X' } } }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', '/v1/dsar/requests', { body: { regime: 'gdpr', kind: 'access', subject: { name: '' } } }),
      422,
      'validation_failed',
    );
  });
});

describe('dsar: extension', () => {
  it('GDPR: two further months from the original due date, once, with the notice due by the original due date', async () => {
    const r = await receive({ receivedAt: '2025-01-31T15:00:00.000Z' });
    expectEnvelope(await extend(r.id, {}), 422, 'validation_failed'); // reason is required
    const ext = await extend(r.id, { reason: 'Twelve years of records across four systems.', extendedAt: '2025-02-20T10:00:00.000Z' });
    expect(ext.status, JSON.stringify(ext.body)).toBe(200);
    // 28 February 2025 + 2 months = 28 April 2025 (counted from the original due date, not 3 months from receipt, which would be 30 April).
    expect(ext.body).toMatchObject({ dueDate: '2025-02-28', extendedDueDate: '2025-04-28', extendedDueAt: '2025-04-28T23:59:59.999Z' });
    expect(ext.body.extension).toMatchObject({
      extendedAt: '2025-02-20T10:00:00.000Z',
      reason: 'Twelve years of records across four systems.',
      notice: { sendBy: '2025-02-28', sentAt: '2025-02-20T10:00:00.000Z', source: 'GDPR Art. 12(3)' },
    });
    // A second extension is refused, and nothing changes.
    expectEnvelope(await extend(r.id, { reason: 'again', extendedAt: '2025-02-21T10:00:00.000Z' }), 409, 'conflict');
    expect((await t.call('GET', `/v1/dsar/requests/${r.id}`)).body.extendedDueDate).toBe('2025-04-28');
    const events = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } })).body.data;
    expect(events.map((e: Json) => e.action)).toEqual(['dsar.extended', 'dsar.received']);
  });

  it('after the original due date, or with a late notice, the extension is refused', async () => {
    const r = await receive({ receivedAt: '2024-01-31T08:00:00.000Z' }); // due 29 Feb 2024
    // The last moment of the due date still counts; the next day does not.
    expectEnvelope(await extend(r.id, { reason: 'late', extendedAt: '2024-03-01T00:00:00.000Z' }), 409, 'conflict');
    expectEnvelope(
      await extend(r.id, { reason: 'late notice', extendedAt: '2024-02-20T00:00:00.000Z', noticeSentAt: '2024-03-02T00:00:00.000Z' }),
      422,
      'validation_failed',
    );
    expectEnvelope(await extend(r.id, { reason: 'before receipt', extendedAt: '2024-01-30T00:00:00.000Z' }), 422, 'validation_failed');
    const ok = await extend(r.id, { reason: 'complex', extendedAt: '2024-02-29T23:00:00.000Z' });
    expect(ok.status).toBe(200);
    // 29 February 2024 + 2 months = 29 April 2024.
    expect(ok.body.extendedDueDate).toBe('2024-04-29');
  });

  it('CCPA: 45 more days from the original due date', async () => {
    const r = await receive({ regime: 'ccpa', kind: 'erasure', receivedAt: '2026-01-20T12:00:00.000Z' });
    const ext = await extend(r.id, { reason: 'Reasonably necessary: archived backups.', extendedAt: '2026-02-10T12:00:00.000Z' });
    // 6 March 2026 + 45 days: 25 to 31 March, 20 more = 20 April.
    expect(ext.body).toMatchObject({ dueDate: '2026-03-06', extendedDueDate: '2026-04-20' });
    expect(ext.body.extension.notice).toMatchObject({ sendBy: '2026-03-06', source: 'Cal. Civ. Code § 1798.130(a)(2)(A)' });
  });
});

describe('dsar: the UK GDPR Art. 12A stop of the clock', () => {
  const pause = (id: string, body: Json) => t.call('POST', `/v1/dsar/requests/${id}/pause`, { body });
  const resume = (id: string, body: Json = {}) => t.call('POST', `/v1/dsar/requests/${id}/resume`, { body });

  it('an access request: asked on 5 March, answered on 10 March, due five days later, audited', async () => {
    const r = await receive({ regime: 'uk-gdpr', receivedAt: '2026-03-02T09:00:00.000Z' });
    expect(r).toMatchObject({ dueDate: '2026-04-02', clockPause: { allowed: true, pauses: [], pausedDays: 0 } });
    expect(r.clockPause.source).toMatch(/^UK GDPR Art\. 12A/);
    expectEnvelope(await resume(r.id), 409, 'conflict'); // nothing to resume
    expectEnvelope(await pause(r.id, {}), 422, 'validation_failed'); // what is asked for is required
    expectEnvelope(await pause(r.id, { reason: 'Which services?', askedAt: '2026-03-01T00:00:00.000Z' }), 422, 'validation_failed');
    const p = await pause(r.id, {
      reason: 'Which period and which services does the request concern?',
      askedAt: '2026-03-05T16:00:00.000Z',
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.clockPause.pauses).toMatchObject([{ askedAt: '2026-03-05T16:00:00.000Z', answeredAt: null }]);
    expectEnvelope(await pause(r.id, { reason: 'again', askedAt: '2026-03-06T10:00:00.000Z' }), 409, 'conflict');
    expectEnvelope(await resume(r.id, { answeredAt: '2026-03-04T00:00:00.000Z' }), 422, 'validation_failed');
    const back = await resume(r.id, { answeredAt: '2026-03-10T08:00:00.000Z' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({
      dueDate: '2026-04-07',
      clockPause: { pausedDays: 5, pauses: [{ days: 5, answeredAt: '2026-03-10T08:00:00.000Z' }] },
    });
    const events = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } })).body.data;
    expect(events.map((e: Json) => e.action)).toEqual(['dsar.resumed', 'dsar.paused', 'dsar.received']);
  });

  it('is refused for an EU GDPR request, another kind, or a UK request received before 5 February 2026: 409', async () => {
    for (const body of [
      { regime: 'gdpr', receivedAt: '2026-03-02T09:00:00.000Z' },
      { regime: 'uk-gdpr', kind: 'erasure', receivedAt: '2026-03-02T09:00:00.000Z' },
      { regime: 'uk-gdpr', receivedAt: '2026-01-20T09:00:00.000Z' },
    ]) {
      const r = await receive(body);
      expect(r.clockPause.allowed).toBe(false);
      expectEnvelope(await pause(r.id, { reason: 'Which services?', askedAt: '2026-03-05T16:00:00.000Z' }), 409, 'conflict');
      expect((await t.call('GET', `/v1/dsar/requests/${r.id}`)).body.dueDate).toBe(r.dueDate);
    }
  });
});

describe('dsar: the UK GDPR Art. 12A relevant time', () => {
  const verify = (body: Json) => t.call('POST', '/v1/dsar/verify', { body });

  it('counts the period from the identity information asked for when it arrives after the request', async () => {
    const r = await receive({ regime: 'uk-gdpr', kind: 'erasure', receivedAt: '2026-03-02T09:00:00.000Z' });
    expect(r).toMatchObject({ clockStartedAt: '2026-03-02T09:00:00.000Z', dueDate: '2026-04-02' });
    const base = { requestId: r.id, method: 'document_check', outcome: 'passed', verifiedAt: '2026-03-09T16:00:00.000Z' };
    // Not before the receipt, not after the check that uses it: 422 and nothing recorded.
    expectEnvelope(await verify({ ...base, informationReceivedAt: '2026-03-01T09:00:00.000Z' }), 422, 'validation_failed');
    expectEnvelope(await verify({ ...base, informationReceivedAt: '2026-03-10T09:00:00.000Z' }), 422, 'validation_failed');
    expect((await t.call('GET', `/v1/dsar/requests/${r.id}`)).body.verifications).toEqual([]);
    const v = await verify({ ...base, informationReceivedAt: '2026-03-09T15:00:00.000Z' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body).toMatchObject({
      status: 'verified',
      clockStartedAt: '2026-03-09T15:00:00.000Z',
      dueDate: '2026-04-09',
      verifications: [{ informationReceivedAt: '2026-03-09T15:00:00.000Z' }],
    });
  });

  it('leaves the EU GDPR clock on the receipt: the arrival is recorded only', async () => {
    const r = await receive({ regime: 'gdpr', kind: 'erasure', receivedAt: '2026-03-02T09:00:00.000Z' });
    const v = await verify({
      requestId: r.id,
      method: 'document_check',
      outcome: 'passed',
      verifiedAt: '2026-03-09T16:00:00.000Z',
      informationReceivedAt: '2026-03-09T15:00:00.000Z',
    });
    expect(v.body).toMatchObject({ clockStartedAt: '2026-03-02T09:00:00.000Z', dueDate: '2026-04-02' });
  });
});

describe('dsar: verification, fulfillment and lifecycle', () => {
  it('walks received -> verified -> in_progress -> fulfilled with one item per store holding the subject’s data', async () => {
    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    const crm = await store({ name: 'CRM', subjectTypes: ['customer', 'prospect'] }, u);
    const hr = await store(
      { name: 'HR system', system: 'Workday', kind: 'saas', categories: ['employment'], subjectTypes: ['employee'] },
      u,
    );
    const orders = await store({ name: 'Orders DB', system: 'PostgreSQL', kind: 'database', categories: ['orders', 'payment'] }, u);
    expect(orders.subjectTypes).toEqual(['customer']);
    const r = await receive({ receivedAt: '2026-11-02T09:00:00.000Z' }, u);

    // Not verified: no fulfillment, no export, no fulfill.
    expectEnvelope(await u.call('POST', '/v1/dsar/fulfillment', { body: { requestId: r.id } }), 409, 'conflict');
    expectEnvelope(await u.call('POST', '/v1/dsar/export', { body: { requestId: r.id } }), 409, 'conflict');
    const early = expectEnvelope(await u.call('POST', `/v1/dsar/requests/${r.id}/fulfill`, { body: {} }), 409, 'conflict');
    expect(early.message).toContain('received');

    // A failed check is recorded and leaves the request received.
    const failed = await verify(r.id, u, 'failed', { notes: 'Signature did not match.', verifiedAt: '2026-11-03T09:00:00.000Z' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'received', verifiedAt: null });
    expect(failed.body.verifications).toEqual([
      expect.objectContaining({
        method: 'document_check',
        outcome: 'failed',
        notes: 'Signature did not match.',
        verifiedAt: '2026-11-03T09:00:00.000Z',
      }),
    ]);
    expectEnvelope(await verify(r.id, u, 'passed', { verifiedAt: '2026-11-01T00:00:00.000Z' }), 422, 'validation_failed');
    const passed = await verify(r.id, u, 'passed', { verifiedAt: '2026-11-04T09:00:00.000Z' });
    expect(passed.body).toMatchObject({ status: 'verified', verifiedAt: '2026-11-04T09:00:00.000Z' });
    expect(passed.body.verifications).toHaveLength(2);
    expectEnvelope(await verify(r.id, u), 409, 'conflict');

    const started = await u.call('POST', '/v1/dsar/fulfillment', { body: { requestId: r.id } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.status).toBe('in_progress');
    // The HR system holds no customer data: two items, CRM and orders.
    expect(started.body.items.map((i: Json) => i.storeId).sort()).toEqual([crm.id, orders.id].sort());
    expect(started.body.items.every((i: Json) => i.status === 'pending' && i.requestId === r.id)).toBe(true);
    expect(started.body.items.map((i: Json) => i.storeId)).not.toContain(hr.id);
    expectEnvelope(await u.call('POST', '/v1/dsar/fulfillment', { body: { requestId: r.id } }), 409, 'conflict');

    const [a, b] = started.body.items as Json[];
    const open = expectEnvelope(await u.call('POST', `/v1/dsar/requests/${r.id}/fulfill`, { body: {} }), 409, 'conflict');
    expect(open.message).toContain('open fulfillment item');
    const done = await u.call('POST', `/v1/dsar/fulfillment/${a?.id}/complete`, { body: { notes: 'Exported 14 records.' } });
    expect(done.body).toMatchObject({ status: 'done', notes: 'Exported 14 records.' });
    expect(done.body.closedAt).not.toBeNull();
    expectEnvelope(await u.call('POST', `/v1/dsar/fulfillment/${a?.id}/withhold`, { body: { notes: 'x' } }), 409, 'conflict');
    // Withholding needs its ground.
    expectEnvelope(await u.call('POST', `/v1/dsar/fulfillment/${b?.id}/withhold`, { body: {} }), 422, 'validation_failed');
    const withheld = await u.call('POST', `/v1/dsar/fulfillment/${b?.id}/withhold`, {
      body: { notes: 'Third-party data of another customer.' },
    });
    expect(withheld.body.status).toBe('withheld');

    const list = await u.call('GET', `/v1/dsar/fulfillment?requestId=${r.id}&status=withheld`);
    expect(list.body.data.map((i: Json) => i.id)).toEqual([b?.id]);

    const fulfilled = await u.call('POST', `/v1/dsar/requests/${r.id}/fulfill`, { body: { reason: 'All stores answered.' } });
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body.status).toBe('fulfilled');
    expect(fulfilled.body.fulfilledAt).not.toBeNull();
    expectEnvelope(await u.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body: { reason: 'late' } }), 409, 'conflict');

    const actions = (await u.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } })).body.data.map(
      (e: Json) => e.action,
    );
    expect(actions).toEqual(['dsar.fulfilled', 'dsar.fulfillment_started', 'dsar.verified', 'dsar.verification_failed', 'dsar.received']);
  });

  it('rejection needs a reason and is allowed from received or verified only; no matching store is 409', async () => {
    const r = await receive({});
    const missing = await t.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body: {} });
    expect(expectEnvelope(missing, 422, 'validation_failed').details[0]).toMatchObject({ field: 'reason' });
    const rejected = await t.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body: { reason: 'Manifestly unfounded.' } });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Manifestly unfounded.' });
    const again = expectEnvelope(await verify(r.id), 409, 'conflict');
    expect(again.message).toContain('rejected');
    expectEnvelope(await extend(r.id, { reason: 'x' }), 409, 'conflict');

    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    await store({ subjectTypes: ['employee'] }, u);
    const c = await receive({ subject: { name: 'Client', type: 'customer' } }, u);
    await verify(c.id, u);
    const none = expectEnvelope(await u.call('POST', '/v1/dsar/fulfillment', { body: { requestId: c.id } }), 409, 'conflict');
    expect(none.message).toContain('customer');
    expect((await u.call('GET', `/v1/dsar/requests/${c.id}`)).body.status).toBe('verified');
  });

  it('erasure: completing an item is refused while the request is under a legal hold', async () => {
    const u = await createTenant(ts, { tier: 'enterprise', rateLimitPerSecond: 1000 });
    await store({}, u);
    const r = await receive({ kind: 'erasure' }, u);
    await verify(r.id, u);
    const started = await u.call('POST', '/v1/dsar/fulfillment', { body: { requestId: r.id } });
    const item = started.body.items[0] as Json;
    // A hold placed through the litigation-hold rail.
    const hold = await u.call('POST', '/v1/litigation-hold/holds', {
      body: { matter: 'Doe v. Example (2026-17)', records: [{ type: 'dsar_request', id: r.id }] },
    });
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const refused = expectEnvelope(
      await u.call('POST', `/v1/dsar/fulfillment/${item.id}/complete`, { body: { notes: 'Erased.' } }),
      409,
      'conflict',
    );
    expect(refused.message).toContain('legal hold');
    expect((await u.call('GET', `/v1/dsar/fulfillment/${item.id}`)).body.status).toBe('pending');
    // Once the hold is released, the erasure goes through.
    const released = await u.call('POST', `/v1/litigation-hold/holds/${hold.body.id}/release`, { body: { reason: 'Matter settled.' } });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const erased = await u.call('POST', `/v1/dsar/fulfillment/${item.id}/complete`, {
      body: { notes: 'Erased.', records: [{ type: 'dsar_request', id: r.id }] },
    });
    expect(erased.body).toMatchObject({ status: 'done', records: [{ type: 'dsar_request', id: r.id }] });
  });
});

describe('dsar: packet versions made at once', () => {
  it('exports and redactions of one request at once are numbered in turn, none refused', async () => {
    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    const r = await receive({ receivedAt: '2026-11-02T09:00:00.000Z' }, u);
    await verify(r.id, u, 'passed', { verifiedAt: '2026-11-03T09:00:00.000Z' });
    const first = await u.call('POST', '/v1/dsar/export', { body: { requestId: r.id } });
    expect(first.status).toBe(201);
    const redaction = { exportId: first.body.id, redactions: [{ path: '/request/subject/email', reason: 'security' }] };
    const all = await Promise.all([
      ...Array.from({ length: 3 }, () => u.call('POST', '/v1/dsar/export', { body: { requestId: r.id } })),
      ...Array.from({ length: 2 }, () => u.call('POST', '/v1/dsar/redact', { body: redaction })),
    ]);
    expect(
      all.map((x) => x.status),
      JSON.stringify(all.map((x) => x.body)),
    ).toEqual([201, 201, 201, 201, 201]);
    expect(all.map((x) => x.body.version).sort()).toEqual([2, 3, 4, 5, 6]);
    const versions = await u.call('GET', `/v1/dsar/export?requestId=${r.id}&limit=50`);
    // Listed by id (taken when each request arrived), the six versions once each.
    expect(versions.body.data.map((e: Json) => e.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('dsar: export and redact', () => {
  it('the packet carries the request, checks, per-store results, dates and the regime’s answer, hashed and versioned; redaction makes a new version', async () => {
    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    await store({ name: 'CRM' }, u);
    const r = await receive({ receivedAt: '2026-11-02T09:00:00.000Z', subject: { name: 'Jana Novak', email: 'jana@example.com' } }, u);
    await verify(r.id, u, 'passed', { verifiedAt: '2026-11-03T09:00:00.000Z' });
    const started = await u.call('POST', '/v1/dsar/fulfillment', { body: { requestId: r.id } });
    await u.call('POST', `/v1/dsar/fulfillment/${started.body.items[0].id}/complete`, {
      body: { notes: 'Orders of Jana Novak; one note mentions Petr Svoboda.' },
    });
    const v1 = await u.call('POST', '/v1/dsar/export', { body: { requestId: r.id } });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    expect(v1.body).toMatchObject({ version: 1, parentExportId: null, redactionId: null, requestId: r.id });
    const p = v1.body.packet;
    expect(p.request).toMatchObject({
      id: r.id,
      regime: 'gdpr',
      kind: 'access',
      subject: { name: 'Jana Novak', email: 'jana@example.com' },
    });
    expect(p.verification).toEqual([{ method: 'document_check', outcome: 'passed', verifiedAt: '2026-11-03T09:00:00.000Z' }]);
    expect(p.stores).toEqual([
      expect.objectContaining({ store: 'CRM', status: 'done', notes: 'Orders of Jana Novak; one note mentions Petr Svoboda.' }),
    ]);
    expect(p.dates).toMatchObject({
      receivedAt: '2026-11-02T09:00:00.000Z',
      dueDate: '2026-12-02',
      verifiedAt: '2026-11-03T09:00:00.000Z',
    });
    expect(p.answer).toMatchObject({ source: 'GDPR Art. 12(1), Art. 15(1)-(3)' });
    expect(p.answer.summary).toContain('1 done');
    // The hash is the SHA-256 of the packet's canonical JSON.
    expect(v1.body.sha256).toBe(sha(p));

    const v2 = await u.call('POST', '/v1/dsar/export', { body: { requestId: r.id } });
    expect(v2.body.version).toBe(2);
    expect(v2.body.sha256).toBe(v1.body.sha256);

    const red = await u.call('POST', '/v1/dsar/redact', {
      body: {
        exportId: v1.body.id,
        redactions: [
          { text: 'Petr Svoboda', reason: 'third-party-data', note: 'A colleague.' },
          { path: '/request/subject/email', reason: 'security' },
          { path: '/request/subject/name', start: 0, end: 4, reason: 'other' },
        ],
      },
    });
    expect(red.status, JSON.stringify(red.body)).toBe(201);
    expect(red.body).toMatchObject({ sourceExportId: v1.body.id, version: 3, sha256Before: v1.body.sha256 });
    expect(red.body.redactions.map((x: Json) => x.occurrences)).toEqual([1, 1, 1]);
    const v3 = await u.call('GET', `/v1/dsar/export/${red.body.resultExportId}`);
    expect(v3.body).toMatchObject({ version: 3, parentExportId: v1.body.id, redactionId: red.body.id });
    expect(v3.body.packet.stores[0].notes).toBe('Orders of Jana Novak; one note mentions [REDACTED: third-party-data].');
    expect(v3.body.packet.request.subject).toMatchObject({ email: '[REDACTED: security]', name: '[REDACTED: other] Novak' });
    expect(v3.body.sha256).toBe(sha(v3.body.packet));
    expect(v3.body.sha256).not.toBe(v1.body.sha256);
    expect(red.body.sha256After).toBe(v3.body.sha256);
    // The original is kept unchanged.
    const orig = await u.call('GET', `/v1/dsar/export/${v1.body.id}`);
    expect(orig.body).toEqual(v1.body);
    const versions = await u.call('GET', `/v1/dsar/export?requestId=${r.id}`);
    expect(versions.body.data.map((e: Json) => e.version)).toEqual([3, 2, 1]);

    // Nothing to redact there: 422 naming the field, and no new version.
    const bad = await u.call('POST', '/v1/dsar/redact', {
      body: { exportId: v1.body.id, redactions: [{ path: '/nope/x', reason: 'other' }] },
    });
    expect(expectEnvelope(bad, 422, 'validation_failed').details[0].field).toBe('redactions[0].path');
    expectEnvelope(
      await u.call('POST', '/v1/dsar/redact', { body: { exportId: v1.body.id, redactions: [{ text: 'absent words', reason: 'other' }] } }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await u.call('POST', '/v1/dsar/redact', {
        body: { exportId: v1.body.id, redactions: [{ path: '/request/id', start: 0, end: 999, reason: 'other' }] },
      }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await u.call('POST', '/v1/dsar/redact', { body: { exportId: v1.body.id, redactions: [{ path: '/a', text: 'b', reason: 'other' }] } }),
      422,
      'validation_failed',
    );
    expect((await u.call('GET', `/v1/dsar/export?requestId=${r.id}`)).body.data).toHaveLength(3);
    // Another tenant's packet is not found.
    expectEnvelope(
      await t.call('POST', '/v1/dsar/redact', { body: { exportId: v1.body.id, redactions: [{ text: 'Jana', reason: 'other' }] } }),
      404,
      'not_found',
    );
    expectEnvelope(await t.call('POST', '/v1/dsar/export', { body: { requestId: r.id } }), 404, 'not_found');
  });
});

describe('dsar: writes in one transaction, replayed by their Idempotency-Key', () => {
  it('a redaction and its packet version commit together, audited once; a replay returns it and adds no version', async () => {
    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    await store({}, u);
    const r = await receive({ subject: { name: 'Jana Novak', email: 'jana@example.com' } }, u);
    await verify(r.id, u);
    const v1 = await u.call('POST', '/v1/dsar/export', { body: { requestId: r.id } });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    const body = { exportId: v1.body.id, redactions: [{ path: '/request/subject/email', reason: 'security' }] };
    const headers = { 'idempotency-key': `redact-${r.id}` };
    const red = await u.call('POST', '/v1/dsar/redact', { body, headers });
    expect(red.status, JSON.stringify(red.body)).toBe(201);
    const again = await u.call('POST', '/v1/dsar/redact', { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(red.body);
    const versions = (await u.call('GET', `/v1/dsar/export?requestId=${r.id}`)).body.data;
    expect(versions.map((e: Json) => [e.version, e.redactionId])).toEqual([
      [2, red.body.id],
      [1, null],
    ]);
    expect(versions[0]).toMatchObject({ id: red.body.resultExportId, parentExportId: v1.body.id, sha256: red.body.sha256After });
    expect(versions[0].packet.request.subject.email).toBe('[REDACTED: security]');
    const events = (await u.call('POST', '/v1/audit-trail/query', { body: { resourceId: red.body.id, limit: 50 } })).body.data;
    expect(events.map((e: Json) => [e.action, e.data])).toEqual([
      [
        'dsar.redacted',
        { requestId: r.id, sourceExportId: v1.body.id, resultExportId: red.body.resultExportId, version: 2, reasons: ['security'] },
      ],
    ]);
  });

  it('a rejection replayed with its key returns the same request, its reason kept once in one audit event', async () => {
    const r = await receive({});
    const headers = { 'idempotency-key': `reject-${r.id}` };
    const body = { reason: 'Identity not established.' };
    const rejected = await t.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body, headers });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Identity not established.' });
    expect(rejected.body.rejectedAt).not.toBeNull();
    const again = await t.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(rejected.body);
    const events = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } })).body.data;
    expect(events.map((e: Json) => e.action)).toEqual(['dsar.rejected', 'dsar.received']);
  });

  it('a transition checks the state before its own rules: a closed request is 409 with or without a reason, an unknown one 404', async () => {
    const r = await receive({});
    expect((await t.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body: { reason: 'Unfounded.' } })).status).toBe(200);
    const noReason = expectEnvelope(await t.call('POST', `/v1/dsar/requests/${r.id}/reject`, { body: {} }), 409, 'conflict');
    expect(noReason.message).toContain('rejected');
    expectEnvelope(await t.call('POST', `/v1/dsar/requests/${r.id}/fulfill`, { body: {} }), 409, 'conflict');
    const unknown = 'dsr_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
    expectEnvelope(await t.call('POST', `/v1/dsar/requests/${unknown}/reject`, { body: {} }), 404, 'not_found');
    expectEnvelope(await t.call('POST', `/v1/dsar/requests/${unknown}/fulfill`, { body: {} }), 404, 'not_found');
    const events = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } })).body.data;
    expect(events.map((e: Json) => [e.action, e.data])).toEqual([
      ['dsar.rejected', { from: 'received', to: 'rejected', reason: 'Unfounded.' }],
      ['dsar.received', expect.objectContaining({ regime: 'gdpr', kind: 'access' })],
    ]);
  });
});

describe('dsar: SLA', () => {
  it('on_time, at_risk (within 7 days) and overdue at a given moment, per regime and regulator, against the extended date', async () => {
    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    const a = await receive({ receivedAt: '2026-10-01T10:00:00.000Z' }, u); // GDPR due 1 Nov 2026
    const b = await receive({ regime: 'ccpa', kind: 'access', receivedAt: '2026-10-20T10:00:00.000Z' }, u); // 45 days: 4 Dec 2026
    const c = await receive({ regime: 'lgpd', kind: 'access', receivedAt: '2026-11-10T10:00:00.000Z' }, u); // 15 days: 25 Nov 2026
    const d = await receive({ regime: 'gdpr', kind: 'erasure', receivedAt: '2026-10-15T10:00:00.000Z' }, u); // due 15 Nov, extended to 15 Jan 2027
    await extend(d.id, { reason: 'Complex.', extendedAt: '2026-11-01T00:00:00.000Z' }, u);
    const e = await receive({ receivedAt: '2026-10-02T10:00:00.000Z' }, u); // rejected: not open
    await u.call('POST', `/v1/dsar/requests/${e.id}/reject`, { body: { reason: 'Unfounded.' } });
    await receive({ receivedAt: '2026-11-21T00:00:00.000Z' }, u); // received after `at`: not counted
    const f = await receive({ regime: 'lgpd', kind: 'erasure', receivedAt: '2026-11-01T10:00:00.000Z' }, u); // no statutory period
    const g = await receive({ regime: 'dpdp', kind: 'access', receivedAt: '2026-11-02T10:00:00.000Z' }, u); // DPDP rights not yet in force

    const at = '2026-11-20T12:00:00.000Z';
    const s = await u.call('GET', `/v1/dsar/sla?at=${at}`);
    expect(s.status).toBe(200);
    expect(s.body.items.map((i: Json) => [i.requestId, i.dueDate, i.daysRemaining, i.state])).toEqual([
      [a.id, '2026-11-01', -19, 'overdue'],
      [c.id, '2026-11-25', 5, 'at_risk'],
      [b.id, '2026-12-04', 14, 'on_time'],
      [d.id, '2027-01-15', 56, 'on_time'],
      // Open without a statutory due date: last, neither on time nor late.
      [f.id, null, null, 'no_deadline'],
      [g.id, null, null, 'no_deadline'],
    ]);
    expect(s.body.items.slice(-2).map((i: Json) => i.noDueDate)).toEqual(['no_statutory_period', 'not_yet_applicable']);
    expect(s.body.totals).toEqual({ open: 6, onTime: 2, atRisk: 1, overdue: 1, noDeadline: 2 });
    const gdpr = s.body.regimes.find((r: Json) => r.regime === 'gdpr');
    expect(gdpr).toMatchObject({ open: 2, overdue: 1, onTime: 1, atRisk: 0, atRiskDays: 7 });
    expect(s.body.regimes.find((r: Json) => r.regime === 'lgpd')).toMatchObject({
      regulator: 'Autoridade Nacional de Proteção de Dados (ANPD)',
      open: 2,
      atRisk: 1,
      noDeadline: 1,
    });
    expect(s.body.regimes.find((r: Json) => r.regime === 'dpdp')).toMatchObject({ open: 1, noDeadline: 1, overdue: 0 });
    expect(s.body.regimes).toHaveLength(5);

    // Seven days before the end of 4 December is at risk; eight is not.
    const on27 = await u.call('GET', `/v1/dsar/sla?at=2026-11-27T00:00:00.000Z&regime=ccpa`);
    expect(on27.body.items.map((i: Json) => [i.daysRemaining, i.state])).toEqual([[7, 'at_risk']]);
    const on26 = await u.call('GET', `/v1/dsar/sla?at=2026-11-26T23:59:59.000Z&regime=ccpa`);
    expect(on26.body.items.map((i: Json) => [i.daysRemaining, i.state])).toEqual([[8, 'on_time']]);
    expect(on26.body.regimes).toHaveLength(1);
    // The last moment of the due date is still on the day: at risk, not overdue.
    const last = await u.call('GET', `/v1/dsar/sla?at=2026-11-01T23:59:59.000Z&regime=gdpr`);
    expect(last.body.items.find((i: Json) => i.requestId === a.id).state).toBe('at_risk');
    expectEnvelope(await u.call('GET', '/v1/dsar/sla?at=yesterday'), 422, 'validation_failed');
  });
});

describe('dsar: stores, tenancy, tiers, permissions', () => {
  it('declares stores; another tenant sees 404 and empty lists; a starter tenant gets 403; a viewer reads only', async () => {
    const s = await store({
      name: 'Data lake',
      system: 'S3',
      kind: 'data_warehouse',
      categories: ['contact', 'contact'],
      subjectTypes: ['employee', 'customer'],
    });
    expect(s).toMatchObject({ object: 'svc.dsar.data_store', categories: ['contact'], subjectTypes: ['employee', 'customer'] });
    expect((await t.call('GET', `/v1/dsar/stores/${s.id}`)).body).toEqual(s);
    const employees = await t.call('GET', '/v1/dsar/stores?subjectType=employee');
    expect(employees.body.data.map((x: Json) => x.id)).toContain(s.id);
    expectEnvelope(
      await t.call('POST', '/v1/dsar/stores', { body: { name: 'x', system: 'y', kind: 'crm', categories: [] } }),
      422,
      'validation_failed',
    );

    const other = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    const r = await receive({});
    expectEnvelope(await other.call('GET', `/v1/dsar/requests/${r.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/dsar/stores/${s.id}`), 404, 'not_found');
    expectEnvelope(await verify(r.id, other), 404, 'not_found');
    expectEnvelope(await extend(r.id, { reason: 'x' }, other), 404, 'not_found');
    expect((await other.call('GET', '/v1/dsar/requests')).body.data).toEqual([]);
    expect((await other.call('GET', '/v1/dsar/sla')).body.totals.open).toBe(0);

    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    expect(expectEnvelope(await starter.call('GET', '/v1/dsar/requests'), 403, 'forbidden').details).toEqual([
      { field: 'tier', issue: 'growth' },
    ]);
    expectEnvelope(await starter.call('GET', '/v1/dsar/sla'), 403, 'forbidden');
    expectEnvelope(
      await starter.call('POST', '/v1/dsar/verify', { body: { requestId: r.id, method: 'other', outcome: 'passed' } }),
      403,
      'forbidden',
    );

    const viewer = await t.key('viewer');
    expect((await t.call('GET', '/v1/dsar/requests', { token: viewer })).status).toBe(200);
    expectEnvelope(
      await t.call('POST', '/v1/dsar/requests', { token: viewer, body: { regime: 'gdpr', kind: 'access', subject: { name: 'X' } } }),
      403,
      'forbidden',
    );
    expectEnvelope(
      await t.call('POST', '/v1/dsar/verify', { token: viewer, body: { requestId: r.id, method: 'other', outcome: 'passed' } }),
      403,
      'forbidden',
    );
  });

  it('filters requests by regime, kind and status, and emits the dsar.* webhook events', async () => {
    const u = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 1000 });
    const sub = await u.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/dsar', eventTypes: ['dsar.*'] },
    });
    expect(sub.status).toBe(201);
    const a = await receive({ regime: 'ccpa', kind: 'opt-out' }, u);
    const b = await receive({}, u);
    await verify(b.id, u);
    await u.call('POST', `/v1/dsar/requests/${a.id}/reject`, { body: { reason: 'Duplicate.' } });
    expect((await u.call('GET', '/v1/dsar/requests?regime=ccpa')).body.data.map((x: Json) => x.id)).toEqual([a.id]);
    expect((await u.call('GET', '/v1/dsar/requests?kind=access')).body.data.map((x: Json) => x.id)).toEqual([b.id]);
    expect((await u.call('GET', '/v1/dsar/requests?status=verified')).body.data.map((x: Json) => x.id)).toEqual([b.id]);
    const events = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: u.tenantId }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.type, e.subject])).toEqual([
      ['dsar.received', a.id],
      ['dsar.received', b.id],
      ['dsar.verified', b.id],
      ['dsar.rejected', a.id],
    ]);
    expect((events[2]?.data as Json | undefined)?.status).toBe('verified');
  });
});
