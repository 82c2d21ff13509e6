import { describe, expect, it } from 'vitest';
import type {
  VendorRiskAssessment as AssessmentRow,
  VendorRiskContract as ContractRow,
  VendorRiskMonitoringEvent as EventRow,
  VendorRiskVendor as VendorRow,
} from '../../generated/prisma/client.ts';
import { addDays, addMonths, computeScorecard, contractStateAt, dateOf, dayOf, nextTermEnd, renderContract } from './service.ts';

/**
 * The pure rules of the vendor_risk rail, worked by hand: calendar dates as UTC day numbers, the
 * renewal terms, the state of a contract at a date, and the scorecard (the formula documented in
 * packages/contract/src/rails/vendor-risk/schemas.ts).
 */

const T0 = new Date('2026-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

const contract = (over: Partial<ContractRow> = {}): ContractRow => ({
  id: 'vct_a',
  tenantId: 'ten_1',
  vendorId: 'vnd_1',
  title: 'Hosting',
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  autoRenew: false,
  renewalTermMonths: 12,
  noticePeriodDays: 30,
  value: 1000,
  currency: 'EUR',
  status: 'in_force',
  renewals: [],
  terminatedAt: null,
  createdBy: 'key_1',
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

const vendor: VendorRow = {
  id: 'vnd_1',
  tenantId: 'ten_1',
  name: 'Acme Cloud',
  nameKey: 'acme cloud',
  criticality: 'high',
  services: [],
  dataAccess: [],
  status: 'active',
  riskScore: 0,
  riskScoredAt: T0,
  origin: null,
  offboardedAt: null,
  createdBy: 'key_1',
  createdAt: T0,
  updatedAt: T0,
};

const assessment = (id: string, domainScores: Record<string, number>, completedAt: string | null, status = 'completed'): AssessmentRow => ({
  id,
  tenantId: 'ten_1',
  vendorId: 'vnd_1',
  title: id,
  answers: [],
  domainScores,
  status,
  completedAt: completedAt ? new Date(completedAt) : null,
  createdBy: 'key_1',
  createdAt: T0,
  updatedAt: T0,
});

const event = (id: string, severity: string, occurredAt: Date): EventRow => ({
  id,
  tenantId: 'ten_1',
  vendorId: 'vnd_1',
  type: 'breach',
  severity,
  title: id,
  details: null,
  sourceUrl: null,
  occurredAt,
  createdBy: 'key_1',
  createdAt: T0,
});

const card = (inputs: { assessments?: AssessmentRow[]; contracts?: ContractRow[]; events?: EventRow[] }, at: Date) =>
  computeScorecard({ vendor, assessments: inputs.assessments ?? [], contracts: inputs.contracts ?? [], events: inputs.events ?? [] }, at);

// ---------------------------------------------------------------- calendar dates

describe('dayOf and dateOf: UTC day numbers', () => {
  it('counts days since 1970-01-01 and back', () => {
    expect(dayOf('1970-01-01')).toBe(0);
    expect(dayOf('1970-01-02')).toBe(1);
    expect(dateOf(0)).toBe('1970-01-01');
    expect(dateOf(-1)).toBe('1969-12-31');
    expect(dateOf(dayOf('2026-07-14'))).toBe('2026-07-14');
  });

  it('has a 29 February in leap years only', () => {
    expect(dayOf('2024-03-01') - dayOf('2024-02-28')).toBe(2);
    expect(dayOf('2026-03-01') - dayOf('2026-02-28')).toBe(1);
    expect(dayOf('2025-01-01') - dayOf('2024-01-01')).toBe(366);
    expect(dayOf('2027-01-01') - dayOf('2026-01-01')).toBe(365);
  });

  it('reads only the date of a timestamp', () => {
    expect(dayOf('2026-05-04T23:59:59.999Z')).toBe(dayOf('2026-05-04'));
  });

  it('addDays crosses month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', -90)).toBe('2026-10-02');
  });
});

describe('addMonths', () => {
  it('keeps the day number, or takes the last day of a shorter month', () => {
    expect(addMonths('2026-01-15', 1)).toBe('2026-02-15');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-05-31', 1)).toBe('2026-06-30');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
    expect(addMonths('2024-02-29', 48)).toBe('2028-02-29');
  });

  it('crosses year ends both ways', () => {
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-01-31', -1)).toBe('2025-12-31');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-06-10', 0)).toBe('2026-06-10');
  });
});

describe('nextTermEnd: the next term starts the day after the end and lasts N months, ending the day before', () => {
  it('a calendar-year term renews to the next calendar year', () => {
    expect(nextTermEnd('2026-12-31', 12)).toBe('2027-12-31');
    expect(nextTermEnd('2026-06-30', 1)).toBe('2026-07-31');
    expect(nextTermEnd('2026-12-31', 3)).toBe('2027-03-31');
  });

  it('a term ending 28 February 2027 renews to 29 February 2028 (starts 1 March 2027)', () => {
    expect(nextTermEnd('2027-02-28', 12)).toBe('2028-02-29');
    expect(nextTermEnd('2028-02-29', 12)).toBe('2029-02-28');
  });

  it("a term starting on a day the target month lacks ends the day before that month's last day", () => {
    // As documented on the renew transition: start 31 January + 1 month = 28 February, ending the day before.
    expect(nextTermEnd('2026-01-30', 1)).toBe('2026-02-27');
    // Start 29 February 2024 + 12 months = 28 February 2025, ending the day before.
    expect(nextTermEnd('2024-02-28', 12)).toBe('2025-02-27');
  });
});

// ---------------------------------------------------------------- contract state

describe('contractStateAt', () => {
  it('pending before the start, active from the start day', () => {
    expect(contractStateAt(contract(), '2025-12-31')).toEqual({
      state: 'pending',
      termStartDate: '2026-01-01',
      contractEndDate: '2026-12-31',
      noticeDeadline: '2026-12-01',
      automaticRenewals: 0,
      manualRenewals: 0,
      daysToEnd: 365,
    });
    expect(contractStateAt(contract(), '2026-01-01').state).toBe('active');
  });

  it('expiring from noticePeriodDays before the end, both days inclusive; expired the day after the end', () => {
    expect(contractStateAt(contract(), '2026-11-30').state).toBe('active');
    expect(contractStateAt(contract(), '2026-12-01')).toMatchObject({ state: 'expiring', daysToEnd: 30, noticeDeadline: '2026-12-01' });
    expect(contractStateAt(contract(), '2026-12-31')).toMatchObject({ state: 'expiring', daysToEnd: 0 });
    expect(contractStateAt(contract(), '2027-01-01')).toMatchObject({ state: 'expired', daysToEnd: -1, contractEndDate: '2026-12-31' });
  });

  it('a notice period of 0 days: expiring on the last day only', () => {
    const c = contract({ noticePeriodDays: 0 });
    expect(contractStateAt(c, '2026-12-30').state).toBe('active');
    expect(contractStateAt(c, '2026-12-31')).toMatchObject({ state: 'expiring', noticeDeadline: '2026-12-31' });
  });

  it('an auto-renewing contract rolls over instead of expiring', () => {
    const c = contract({ autoRenew: true });
    expect(contractStateAt(c, '2027-01-01')).toMatchObject({
      state: 'renewed',
      termStartDate: '2027-01-01',
      contractEndDate: '2027-12-31',
      noticeDeadline: '2027-12-01',
      automaticRenewals: 1,
    });
    // In the notice window of a renewed term it is expiring, not renewed.
    expect(contractStateAt(c, '2027-12-01').state).toBe('expiring');
    expect(contractStateAt(c, '2029-06-15')).toMatchObject({
      state: 'renewed',
      termStartDate: '2029-01-01',
      contractEndDate: '2029-12-31',
      automaticRenewals: 3,
    });
  });

  it('rolls a term ending 29 February over to 28 February of the next year', () => {
    const c = contract({ startDate: '2027-03-01', endDate: '2028-02-29', autoRenew: true, noticePeriodDays: 0 });
    expect(contractStateAt(c, '2028-03-01')).toMatchObject({
      contractEndDate: '2029-02-28',
      termStartDate: '2028-03-01',
      state: 'renewed',
    });
  });

  it('a manual renewal counts from the day it was made, and the renewed term from the day after the old end', () => {
    const c = contract({
      renewals: [{ renewedAt: '2026-11-15T09:00:00.000Z', previousEndDate: '2026-12-31', newEndDate: '2027-12-31' }],
    });
    // Not made yet: the agreed end holds.
    expect(contractStateAt(c, '2026-11-14')).toMatchObject({ state: 'active', contractEndDate: '2026-12-31', manualRenewals: 0 });
    // Made, still in the first term: active (no longer in the old notice window).
    expect(contractStateAt(c, '2026-12-10')).toMatchObject({
      state: 'active',
      contractEndDate: '2027-12-31',
      termStartDate: '2026-01-01',
      manualRenewals: 1,
    });
    expect(contractStateAt(c, '2027-01-01')).toMatchObject({ state: 'renewed', termStartDate: '2027-01-01', automaticRenewals: 0 });
    expect(contractStateAt(c, '2028-01-01').state).toBe('expired');
  });

  it('terminated from the day of termination, even after the end', () => {
    const c = contract({ terminatedAt: new Date('2026-06-15T22:00:00.000Z') });
    expect(contractStateAt(c, '2026-06-14').state).toBe('active');
    expect(contractStateAt(c, '2026-06-15').state).toBe('terminated');
    expect(contractStateAt(c, '2027-02-01').state).toBe('terminated');
  });

  it('the termination day is its UTC date', () => {
    // 00:30 in Paris on 16 June is 22:30 UTC on 15 June.
    const c = contract({ terminatedAt: new Date('2026-06-16T00:30:00+02:00') });
    expect(contractStateAt(c, '2026-06-15').state).toBe('terminated');
  });

  it('renderContract shows the state, end and notice deadline derived at the day given', () => {
    const out = renderContract(contract({ autoRenew: true }), '2027-03-01');
    expect(out).toMatchObject({
      object: 'svc.vendor_risk.vendor_contract',
      endDate: '2026-12-31',
      currentEndDate: '2027-12-31',
      noticeDeadline: '2027-12-01',
      state: 'renewed',
      terminatedAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });
});

// ---------------------------------------------------------------- scorecard

describe('computeScorecard', () => {
  const at = new Date('2026-04-01T00:00:00.000Z');

  it('a vendor with nothing assessed scores 100 (critical): every domain counts as 0', () => {
    const c = card({}, at);
    expect(c.assessment).toMatchObject({ part: 100, meanDomainScore: 0 });
    expect(c.assessment.domains.map((d) => [d.domain, d.score])).toEqual([
      ['security', null],
      ['privacy', null],
      ['resilience', null],
      ['compliance', null],
    ]);
    expect(c.contracts).toEqual({ part: 0, items: [] });
    expect(c.monitoring).toEqual({ part: 0, items: [] });
    expect(c).toMatchObject({ score: 100, rating: 'critical', at: '2026-04-01T00:00:00.000Z', vendorId: 'vnd_1' });
  });

  it('takes each domain from the latest completed assessment that scored it, up to `at`', () => {
    const c = card(
      {
        assessments: [
          assessment('vas_1', { security: 80, privacy: 60 }, '2026-01-10T00:00:00Z'),
          assessment('vas_2', { security: 90 }, '2026-03-01T00:00:00Z'),
          assessment('vas_3', { privacy: 100, resilience: 100 }, null, 'in_progress'),
          assessment('vas_4', { compliance: 100 }, '2026-04-01T00:00:00.001Z'),
        ],
      },
      at,
    );
    expect(c.assessment.domains.map((d) => [d.domain, d.score, d.assessmentId])).toEqual([
      ['security', 90, 'vas_2'],
      ['privacy', 60, 'vas_1'],
      ['resilience', null, null],
      ['compliance', null, null],
    ]);
    // mean = (90 + 60 + 0 + 0) / 4 = 37.5; part = 62.5.
    expect(c.assessment).toMatchObject({ meanDomainScore: 37.5, part: 62.5 });
    expect(c.score).toBe(62.5);
    expect(c.rating).toBe('high');
  });

  it('an assessment completed exactly at `at` counts', () => {
    const c = card(
      { assessments: [assessment('vas_1', { security: 100, privacy: 100, resilience: 100, compliance: 100 }, '2026-04-01T00:00:00Z')] },
      at,
    );
    expect(c.score).toBe(0);
    expect(c.rating).toBe('low');
  });

  it('two assessments completed at the same moment: the greater id wins', () => {
    const same = '2026-03-01T00:00:00Z';
    const c = card({ assessments: [assessment('vas_b', { security: 90 }, same), assessment('vas_a', { security: 10 }, same)] }, at);
    expect(c.assessment.domains[0]).toMatchObject({ score: 90, assessmentId: 'vas_b' });
  });

  it('rating bands: low < 25 <= medium < 50 <= high < 75 <= critical', () => {
    const all = (s: number) => ({ security: s, privacy: s, resilience: s, compliance: s });
    const scoreOf = (s: number) => card({ assessments: [assessment('vas_1', all(s), '2026-03-01T00:00:00Z')] }, at);
    expect(scoreOf(75.01)).toMatchObject({ score: 24.99, rating: 'low' });
    expect(scoreOf(75)).toMatchObject({ score: 25, rating: 'medium' });
    expect(scoreOf(50.01)).toMatchObject({ score: 49.99, rating: 'medium' });
    expect(scoreOf(50)).toMatchObject({ score: 50, rating: 'high' });
    expect(scoreOf(25.01)).toMatchObject({ score: 74.99, rating: 'high' });
    expect(scoreOf(25)).toMatchObject({ score: 75, rating: 'critical' });
  });

  it('contracts: +15 expired, +5 expiring, 0 otherwise, at most 30', () => {
    const perfect = assessment('vas_1', { security: 100, privacy: 100, resilience: 100, compliance: 100 }, '2026-01-02T00:00:00Z');
    const expired = contract({ id: 'vct_1', startDate: '2025-01-01', endDate: '2026-03-31' });
    const expiring = contract({ id: 'vct_2', startDate: '2025-01-01', endDate: '2026-04-20' });
    const active = contract({ id: 'vct_3' });
    const c = card({ assessments: [perfect], contracts: [expired, expiring, active] }, at);
    expect(c.contracts.items.map((i) => [i.contractId, i.state, i.penalty])).toEqual([
      ['vct_1', 'expired', 15],
      ['vct_2', 'expiring', 5],
      ['vct_3', 'active', 0],
    ]);
    expect(c.contracts.part).toBe(20);
    expect(c.score).toBe(20);
    const three = ['vct_4', 'vct_5', 'vct_6'].map((id) => contract({ id, startDate: '2025-01-01', endDate: '2026-01-31' }));
    expect(card({ assessments: [perfect], contracts: three }, at).contracts.part).toBe(30);
  });

  it('the state of a contract is taken on the UTC date of `at`', () => {
    // 00:30 on 1 January 2027 in Paris is still 31 December 2026 in UTC: expiring, not expired.
    const c = card({ contracts: [contract()] }, new Date('2027-01-01T00:30:00+01:00'));
    expect(c.contracts.items[0]).toMatchObject({ state: 'expiring', penalty: 5 });
  });

  it('monitoring: severity weight halved every 90 days of age; events after `at` do not count', () => {
    const perfect = assessment('vas_1', { security: 100, privacy: 100, resilience: 100, compliance: 100 }, '2026-01-02T00:00:00Z');
    const c = card(
      {
        assessments: [perfect],
        events: [
          event('vmo_1', 'critical', new Date(at.getTime() - 90 * DAY_MS)),
          event('vmo_2', 'high', at),
          event('vmo_3', 'low', new Date(at.getTime() - 180 * DAY_MS)),
          event('vmo_4', 'medium', new Date(at.getTime() - 30 * DAY_MS)),
          event('vmo_5', 'critical', new Date(at.getTime() + 1)),
        ],
      },
      at,
    );
    // Newest first.
    expect(c.monitoring.items.map((i) => [i.eventId, i.weight, i.ageDays, i.decay, i.penalty])).toEqual([
      ['vmo_2', 10, 0, 1, 10],
      ['vmo_4', 5, 30, 0.7937, 3.97],
      ['vmo_1', 20, 90, 0.5, 10],
      ['vmo_3', 2, 180, 0.25, 0.5],
    ]);
    // 10 + 3.97 + 10 + 0.5
    expect(c.monitoring.part).toBe(24.47);
    expect(c.score).toBe(24.47);
    expect(c.rating).toBe('low');
  });

  it('an unknown severity weighs 0', () => {
    const c = card({ events: [event('vmo_1', 'unknown', at)] }, at);
    expect(c.monitoring.items[0]).toMatchObject({ weight: 0, penalty: 0 });
  });

  it('the monitoring part and the total are capped at 100', () => {
    const events = Array.from({ length: 6 }, (_, i) => event(`vmo_${i}`, 'critical', at));
    const c = card({ events }, at);
    expect(c.monitoring.part).toBe(100);
    expect(c.score).toBe(100);
    const withContracts = card({ contracts: [contract({ startDate: '2025-01-01', endDate: '2026-01-31' })] }, at);
    expect(withContracts.assessment.part + withContracts.contracts.part).toBe(115);
    expect(withContracts.score).toBe(100);
  });
});
