import { describe, expect, it } from 'vitest';
import { addToDate, dateOf, daysBetween, endOfDate, kindsOf, requestClocks, rulesFor } from './clocks.ts';

/**
 * The statutory clocks of data-subject requests, worked by hand: the rules come from the shipped
 * `content/dsar/regimes.json`, the calendar arithmetic from clocks.ts. Dates are UTC calendar
 * dates; a period ends at the end of its last day (Reg. (EEC, Euratom) 1182/71 Art. 3(2)(c)).
 */

const at = (s: string) => new Date(s);
const clocks = (
  regime: Parameters<typeof requestClocks>[0]['regime'],
  kind: Parameters<typeof requestClocks>[0]['kind'],
  receivedAt: string,
  extendedAt: string | null = null,
) => requestClocks({ regime, kind, receivedAt: at(receivedAt), extendedAt: extendedAt ? at(extendedAt) : null });

describe('dateOf: the UTC calendar date of a moment', () => {
  it('takes the date in UTC, not in the offset the moment was written with', () => {
    expect(dateOf(at('2026-03-31T23:59:59.999Z'))).toBe('2026-03-31');
    expect(dateOf(at('2026-04-01T00:00:00.000Z'))).toBe('2026-04-01');
    // 23:30 in New York on 31 March is 03:30 UTC on 1 April.
    expect(dateOf(at('2026-03-31T23:30:00-04:00'))).toBe('2026-04-01');
    // 00:30 in Paris on 1 April is still 31 March in UTC.
    expect(dateOf(at('2026-04-01T00:30:00+02:00'))).toBe('2026-03-31');
  });
});

describe('addToDate: calendar days', () => {
  it('counts every calendar day, across month and year ends', () => {
    expect(addToDate('2026-01-01', 45, 'days')).toBe('2026-02-15');
    expect(addToDate('2026-12-20', 15, 'days')).toBe('2027-01-04');
    expect(addToDate('2026-02-20', 15, 'days')).toBe('2026-03-07');
  });

  it('counts 29 February in a leap year', () => {
    expect(addToDate('2024-02-20', 15, 'days')).toBe('2024-03-06');
    expect(addToDate('2024-02-28', 1, 'days')).toBe('2024-02-29');
    expect(addToDate('2026-02-28', 1, 'days')).toBe('2026-03-01');
  });
});

describe('addToDate: months', () => {
  it('ends on the same day number of the month reached', () => {
    expect(addToDate('2026-01-15', 1, 'months')).toBe('2026-02-15');
    expect(addToDate('2026-12-15', 1, 'months')).toBe('2027-01-15');
    expect(addToDate('2026-11-30', 2, 'months')).toBe('2027-01-30');
  });

  it("ends on the month's last day when the day number does not exist", () => {
    expect(addToDate('2026-01-31', 1, 'months')).toBe('2026-02-28');
    expect(addToDate('2024-01-31', 1, 'months')).toBe('2024-02-29');
    expect(addToDate('2026-08-31', 1, 'months')).toBe('2026-09-30');
    expect(addToDate('2026-03-31', 1, 'months')).toBe('2026-04-30');
    expect(addToDate('2026-11-30', 3, 'months')).toBe('2027-02-28');
  });

  it('from 29 February: the 29th of the next month, 28 February a year later', () => {
    expect(addToDate('2024-02-29', 1, 'months')).toBe('2024-03-29');
    expect(addToDate('2024-02-29', 12, 'months')).toBe('2025-02-28');
    expect(addToDate('2024-02-29', 48, 'months')).toBe('2028-02-29');
  });
});

describe('addToDate: business days', () => {
  it('skips Saturdays and Sundays', () => {
    // Friday 2 January 2026 + 10 business days = Friday 16 January.
    expect(addToDate('2026-01-02', 10, 'business_days')).toBe('2026-01-16');
    // Monday 2 March 2026 + 15 business days = Monday 23 March.
    expect(addToDate('2026-03-02', 15, 'business_days')).toBe('2026-03-23');
    // Friday + 1 business day = the next Monday.
    expect(addToDate('2026-01-02', 1, 'business_days')).toBe('2026-01-05');
  });

  it('a receipt on a Saturday or a Sunday counts from the next Monday', () => {
    expect(addToDate('2026-01-03', 1, 'business_days')).toBe('2026-01-05');
    expect(addToDate('2026-01-04', 1, 'business_days')).toBe('2026-01-05');
    expect(addToDate('2026-01-03', 10, 'business_days')).toBe('2026-01-16');
  });

  it('never ends on a weekend', () => {
    for (let n = 1; n <= 30; n++) {
      const day = new Date(`${addToDate('2026-05-01', n, 'business_days')}T00:00:00Z`).getUTCDay();
      expect(day === 0 || day === 6, `n=${n}`).toBe(false);
    }
  });
});

describe('endOfDate and daysBetween', () => {
  it('a deadline is met until the last millisecond of its date (UTC)', () => {
    expect(endOfDate('2026-02-28').toISOString()).toBe('2026-02-28T23:59:59.999Z');
    expect(endOfDate('2024-02-29').toISOString()).toBe('2024-02-29T23:59:59.999Z');
  });

  it('counts whole calendar days from the date of a moment, negative when the date is past', () => {
    expect(daysBetween(at('2026-02-27T23:00:00Z'), '2026-03-01')).toBe(2);
    expect(daysBetween(at('2026-03-01T00:00:00Z'), '2026-03-01')).toBe(0);
    expect(daysBetween(at('2026-03-01T23:59:59Z'), '2026-03-01')).toBe(0);
    expect(daysBetween(at('2026-03-02T00:00:00Z'), '2026-03-01')).toBe(-1);
    expect(daysBetween(at('2024-02-28T12:00:00Z'), '2024-03-01')).toBe(2);
  });
});

describe('GDPR and UK GDPR: one month, extendable by two further months', () => {
  // GDPR Art. 12(3) (and UK GDPR Art. 12(3)): without undue delay and in any event within one
  // month of receipt; may be extended by two further months, the data subject told within the first month.
  it('is due one month after receipt, at the end of that day', () => {
    const c = clocks('gdpr', 'access', '2026-01-15T09:00:00Z');
    expect(c.dueDate).toBe('2026-02-15');
    expect(c.dueAt?.toISOString()).toBe('2026-02-15T23:59:59.999Z');
    expect(c.effectiveDueDate).toBe('2026-02-15');
    expect(c.extendedDueDate).toBeNull();
    expect(c.extendedDueAt).toBeNull();
    expect(c.receiptConfirmationDate).toBeNull();
    expect(c.rules.clock.source).toBe('GDPR Art. 12(3)');
  });

  it('a request received on 31 January is due on the last day of February', () => {
    expect(clocks('gdpr', 'erasure', '2026-01-31T10:00:00Z').dueDate).toBe('2026-02-28');
    expect(clocks('gdpr', 'erasure', '2024-01-31T10:00:00Z').dueDate).toBe('2024-02-29');
    expect(clocks('uk-gdpr', 'access', '2026-01-31T10:00:00Z').dueDate).toBe('2026-02-28');
  });

  it('counts from the UTC date of receipt', () => {
    // 31 January 23:30 in New York is 1 February 04:30 UTC: due 1 March.
    expect(clocks('gdpr', 'access', '2026-01-31T23:30:00-05:00').dueDate).toBe('2026-03-01');
  });

  it('the extension adds two months to the original due date', () => {
    const c = clocks('gdpr', 'access', '2026-01-15T09:00:00Z', '2026-02-01T09:00:00Z');
    expect(c.dueDate).toBe('2026-02-15');
    expect(c.extendedDueDate).toBe('2026-04-15');
    expect(c.extendedDueAt?.toISOString()).toBe('2026-04-15T23:59:59.999Z');
    expect(c.effectiveDueDate).toBe('2026-04-15');
    expect(c.effectiveDueAt?.toISOString()).toBe('2026-04-15T23:59:59.999Z');
    expect(c.rules.extension?.source).toBe('GDPR Art. 12(3)');
  });

  it('the extension counts from the clamped due date at a month end (31 Jan -> 28 Feb -> 28 Apr)', () => {
    // The rule of the data file: "counted from the end of the first month (the original due date)".
    const c = clocks('uk-gdpr', 'portability', '2026-01-31T09:00:00Z', '2026-02-10T00:00:00Z');
    expect(c.dueDate).toBe('2026-02-28');
    expect(c.extendedDueDate).toBe('2026-04-28');
  });

  it('grants the six rights of Arts. 15-21 and no CCPA opt-out', () => {
    expect(kindsOf('gdpr')).toEqual(['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection']);
    expect(rulesFor('gdpr', 'opt-out')).toBeUndefined();
    expect(() => clocks('gdpr', 'opt-out', '2026-01-15T09:00:00Z')).toThrow(/grants no opt-out/);
  });
});

describe('UK GDPR Art. 12A: the period begins with the relevant time', () => {
  it('counts from the later arrival of the identity information asked for, for every kind, with the pause on top', () => {
    // Received 2 March 2026, identity information on 9 March: due 9 April, not 2 April.
    const erasure = requestClocks({
      regime: 'uk-gdpr',
      kind: 'erasure',
      receivedAt: at('2026-03-02T09:00:00Z'),
      extendedAt: null,
      identityInformationAt: at('2026-03-09T15:00:00Z'),
    });
    expect(erasure).toMatchObject({ dueDate: '2026-04-09', startedAt: at('2026-03-09T15:00:00Z') });
    expect(erasure.rules.relevantTime?.source).toMatch(/^UK GDPR Art\. 12A/);
    const access = requestClocks({
      regime: 'uk-gdpr',
      kind: 'access',
      receivedAt: at('2026-03-02T09:00:00Z'),
      extendedAt: at('2026-03-20T09:00:00Z'),
      identityInformationAt: at('2026-03-09T15:00:00Z'),
      pauses: [{ askedAt: at('2026-03-12T10:00:00Z'), answeredAt: at('2026-03-14T10:00:00Z') }],
    });
    expect(access).toMatchObject({ dueDate: '2026-04-11', extendedDueDate: '2026-06-11' });
  });

  it('keeps the receipt when the information came with the request, before 5 February 2026, and under the EU GDPR', () => {
    const same = { kind: 'access' as const, extendedAt: null, identityInformationAt: at('2026-03-09T15:00:00Z') };
    expect(requestClocks({ ...same, regime: 'uk-gdpr', receivedAt: at('2026-03-10T09:00:00Z') })).toMatchObject({ dueDate: '2026-04-10' });
    expect(
      requestClocks({
        ...same,
        regime: 'uk-gdpr',
        receivedAt: at('2026-01-20T09:00:00Z'),
        identityInformationAt: at('2026-02-10T09:00:00Z'),
      }),
    ).toMatchObject({ dueDate: '2026-02-20', startedAt: at('2026-01-20T09:00:00Z') });
    expect(requestClocks({ ...same, regime: 'gdpr', receivedAt: at('2026-03-02T09:00:00Z') })).toMatchObject({ dueDate: '2026-04-02' });
  });
});

describe('UK GDPR Art. 12A: the clock of an access request stands still while the controller waits', () => {
  const pause = (askedAt: string, answeredAt: string | null) => ({ askedAt: at(askedAt), answeredAt: answeredAt ? at(answeredAt) : null });

  it('adds the days from the day asked to the day answered; the extension counts from the moved date', () => {
    // Received 2 March 2026: due 2 April; asked on 5 March, answered on 10 March: five days, due 7 April.
    const c = requestClocks({
      regime: 'uk-gdpr',
      kind: 'access',
      receivedAt: at('2026-03-02T09:00:00Z'),
      extendedAt: at('2026-03-20T09:00:00Z'),
      pauses: [pause('2026-03-05T16:00:00Z', '2026-03-10T08:00:00Z')],
    });
    expect(c).toMatchObject({ pausable: true, pausedDays: 5, dueDate: '2026-04-07', extendedDueDate: '2026-06-07' });
    expect(c.rules.pause?.source).toMatch(/^UK GDPR Art\. 12A/);
  });

  it('an open pause counts to the moment asked about; two pauses add up', () => {
    const open = requestClocks({
      regime: 'uk-gdpr',
      kind: 'access',
      receivedAt: at('2026-03-02T09:00:00Z'),
      extendedAt: null,
      pauses: [pause('2026-03-05T16:00:00Z', '2026-03-06T08:00:00Z'), pause('2026-03-20T10:00:00Z', null)],
      at: at('2026-03-23T12:00:00Z'),
    });
    expect(open).toMatchObject({ pausedDays: 4, dueDate: '2026-04-06' });
  });

  it('does not apply to requests received before 5 February 2026, to other kinds, or under the EU GDPR', () => {
    const p = [pause('2026-01-10T10:00:00Z', '2026-01-20T10:00:00Z')];
    expect(
      requestClocks({ regime: 'uk-gdpr', kind: 'access', receivedAt: at('2026-01-05T09:00:00Z'), extendedAt: null, pauses: p }),
    ).toMatchObject({
      pausable: false,
      pausedDays: 0,
      dueDate: '2026-02-05',
    });
    const later = [pause('2026-03-05T10:00:00Z', '2026-03-15T10:00:00Z')];
    expect(
      requestClocks({ regime: 'uk-gdpr', kind: 'erasure', receivedAt: at('2026-03-02T09:00:00Z'), extendedAt: null, pauses: later }),
    ).toMatchObject({
      pausable: false,
      dueDate: '2026-04-02',
    });
    expect(
      requestClocks({ regime: 'gdpr', kind: 'access', receivedAt: at('2026-03-02T09:00:00Z'), extendedAt: null, pauses: later }),
    ).toMatchObject({
      pausable: false,
      dueDate: '2026-04-02',
    });
  });
});

describe('CCPA/CPRA: 45 days, one 45-day extension, receipt confirmed within 10 business days', () => {
  // Cal. Civ. Code § 1798.130(a)(2)(A): 45 calendar days, extendable once by 45 more (11 CCR
  // § 7021(b): at most 90 days from receipt); 11 CCR § 7021(a): confirm receipt within 10 business days.
  it('is due 45 calendar days after receipt, 90 with the extension', () => {
    const c = clocks('ccpa', 'access', '2026-01-01T12:00:00Z', '2026-01-20T12:00:00Z');
    expect(c.dueDate).toBe('2026-02-15');
    expect(c.extendedDueDate).toBe('2026-04-01');
    expect(daysBetween(at('2026-01-01T12:00:00Z'), c.extendedDueDate as string)).toBe(90);
  });

  it('the extension is only counted once the request is extended', () => {
    const c = clocks('ccpa', 'erasure', '2026-01-01T12:00:00Z');
    expect(c.extendedDueDate).toBeNull();
    expect(c.effectiveDueDate).toBe('2026-02-15');
  });

  it('confirms receipt within 10 business days', () => {
    // Friday 2 January 2026 -> Friday 16 January; a Saturday receipt gives the same date.
    expect(clocks('ccpa', 'access', '2026-01-02T15:00:00Z').receiptConfirmationDate).toBe('2026-01-16');
    expect(clocks('ccpa', 'access', '2026-01-03T15:00:00Z').receiptConfirmationDate).toBe('2026-01-16');
    expect(clocks('ccpa', 'rectification', '2026-01-02T15:00:00Z').rules.receiptConfirmation?.source).toBe('11 CCR § 7021(a)');
  });

  it('opt-out of sale or sharing: 15 business days, no extension, no receipt confirmation', () => {
    // 11 CCR § 7026(f)(1).
    const c = clocks('ccpa', 'opt-out', '2026-03-02T10:00:00Z', '2026-03-05T10:00:00Z');
    expect(c.dueDate).toBe('2026-03-23');
    expect(c.extendedDueDate).toBeNull();
    expect(c.effectiveDueDate).toBe('2026-03-23');
    expect(c.receiptConfirmationDate).toBeNull();
    expect(c.rules.clock.source).toBe('11 CCR § 7026(f)(1)');
  });

  it('limit use of sensitive data: 15 business days (11 CCR § 7027(g)(1))', () => {
    // Received Saturday 7 March: counting starts Monday 9 March; 15 business days = Friday 27 March.
    const c = clocks('ccpa', 'limit-use', '2026-03-07T10:00:00Z');
    expect(c.dueDate).toBe('2026-03-27');
    expect(c.rules.extension).toBeNull();
  });
});

describe('LGPD: 15 days for confirmation and access only (Art. 19, II)', () => {
  it('confirmation/access: a complete declaration within 15 calendar days', () => {
    const c = clocks('lgpd', 'access', '2026-02-20T10:00:00Z');
    expect(c.dueDate).toBe('2026-03-07');
    expect(c.dueAt?.toISOString()).toBe('2026-03-07T23:59:59.999Z');
    expect(c.applicable).toBe(true);
    expect(c.noDueDate).toBeNull();
    expect(c.rules.clock.source).toBe('LGPD (Lei 13.709/2018) Art. 19, caput and II');
    // 2024 is a leap year: 20 February + 15 days = 6 March.
    expect(clocks('lgpd', 'access', '2024-02-20T10:00:00Z').dueDate).toBe('2024-03-06');
  });

  it('the other rights have no statutory period: no due date, with the reason (Art. 18, §§ 3-5)', () => {
    for (const kind of ['rectification', 'restriction', 'portability', 'erasure', 'objection'] as const) {
      const c = clocks('lgpd', kind, '2026-02-20T10:00:00Z');
      expect(c.applicable, kind).toBe(true);
      expect(c.dueDate, kind).toBeNull();
      expect(c.dueAt, kind).toBeNull();
      expect(c.effectiveDueDate, kind).toBeNull();
      expect(c.effectiveDueAt, kind).toBeNull();
      expect(c.noDueDate, kind).toMatchObject({ reason: 'no_statutory_period', source: 'LGPD (Lei 13.709/2018) Art. 18, §§ 3-5' });
      expect(c.rules.clock.amount, kind).toBeNull();
    }
  });

  it('grants no extension: an extension leaves the dates as they were', () => {
    const access = clocks('lgpd', 'access', '2026-02-20T10:00:00Z', '2026-02-25T10:00:00Z');
    expect(access.extendedDueDate).toBeNull();
    expect(access.effectiveDueDate).toBe('2026-03-07');
    const erasure = clocks('lgpd', 'erasure', '2026-02-20T10:00:00Z', '2026-02-25T10:00:00Z');
    expect(erasure.extendedDueDate).toBeNull();
    expect(erasure.effectiveDueDate).toBeNull();
  });

  it('applies to requests received from 18 September 2020', () => {
    expect(clocks('lgpd', 'access', '2020-09-18T00:00:00Z').dueDate).toBe('2020-10-03');
    const before = clocks('lgpd', 'access', '2020-09-17T23:59:59Z');
    expect(before).toMatchObject({ applicable: false, applicableFrom: '2020-09-18', dueDate: null, effectiveDueAt: null });
    expect(before.noDueDate?.reason).toBe('not_yet_applicable');
  });
});

describe('DPDP: the Data Principal’s rights apply from 13 May 2027', () => {
  // G.S.R. 843(E) and the DPDP Rules 2025, rule 1: ss. 3-17 of the Act and rules 3, 5-16 eighteen
  // months after publication on 13 November 2025.
  it('a request received before 13 May 2027 has no statutory due date and says why', () => {
    const c = clocks('dpdp', 'grievance', '2026-01-01T00:00:00Z');
    expect(c.applicable).toBe(false);
    expect(c.applicableFrom).toBe('2027-05-13');
    expect(c.dueDate).toBeNull();
    expect(c.dueAt).toBeNull();
    expect(c.effectiveDueDate).toBeNull();
    expect(c.effectiveDueAt).toBeNull();
    expect(c.receiptConfirmationDate).toBeNull();
    expect(c.noDueDate?.reason).toBe('not_yet_applicable');
    expect(c.noDueDate?.rule).toMatch(/^Received 2026-01-01, before 2027-05-13: /);
    expect(c.noDueDate?.source).toMatch(/G\.S\.R\. 843\(E\)/);
    // The last day before: still not applicable (23:59 UTC on 12 May).
    expect(clocks('dpdp', 'access', '2027-05-12T23:59:59Z').applicable).toBe(false);
  });

  it('from 13 May 2027: grievances within 90 days (Rules 2025, rule 14(3)), no extension', () => {
    const c = clocks('dpdp', 'grievance', '2027-05-13T00:00:00Z', '2027-06-01T00:00:00Z');
    expect(c.applicable).toBe(true);
    expect(c.noDueDate).toBeNull();
    // 13 May + 90 days: 18 in May, 30 in June, 31 in July, 11 in August.
    expect(c.dueDate).toBe('2027-08-11');
    expect(c.extendedDueDate).toBeNull();
    expect(c.effectiveDueDate).toBe('2027-08-11');
    expect(kindsOf('dpdp')).toEqual(['access', 'rectification', 'erasure', 'grievance']);
    expect(rulesFor('dpdp', 'portability')).toBeUndefined();
  });
});

describe('applicableFrom: every regime from its source, a later right from its own', () => {
  it('GDPR from 25 May 2018 (Art. 99(2)): the day before has no due date', () => {
    expect(clocks('gdpr', 'access', '2018-05-25T00:00:00Z')).toMatchObject({ applicable: true, dueDate: '2018-06-25' });
    const before = clocks('gdpr', 'access', '2018-05-24T23:59:59Z', '2018-06-01T00:00:00Z');
    expect(before).toMatchObject({ applicable: false, dueDate: null, extendedDueDate: null, effectiveDueDate: null });
    expect(rulesFor('gdpr', 'access')?.applicableFrom.source).toBe('GDPR Art. 99(2)');
    expect(clocks('uk-gdpr', 'access', '2018-05-24T10:00:00Z').applicable).toBe(false);
  });

  it('CCPA from 1 January 2020; the CPRA rights to correct and to limit from 1 January 2023', () => {
    expect(clocks('ccpa', 'access', '2020-01-01T00:00:00Z')).toMatchObject({ applicable: true, dueDate: '2020-02-15' });
    expect(clocks('ccpa', 'access', '2019-12-31T12:00:00Z')).toMatchObject({ applicable: false, receiptConfirmationDate: null });
    const correct2022 = clocks('ccpa', 'rectification', '2022-06-01T12:00:00Z');
    expect(correct2022).toMatchObject({ applicable: false, applicableFrom: '2023-01-01', dueDate: null });
    expect(correct2022.noDueDate?.source).toMatch(/CPRA/);
    expect(clocks('ccpa', 'limit-use', '2022-12-31T12:00:00Z').applicable).toBe(false);
    // Monday 2 January 2023 + 15 business days = Monday 23 January.
    expect(clocks('ccpa', 'limit-use', '2023-01-02T12:00:00Z').dueDate).toBe('2023-01-23');
  });

  it('counts from the UTC date of receipt', () => {
    // 20:00 on 12 May 2027 in New York is 00:00 UTC on 13 May: the DPDP rights apply.
    expect(clocks('dpdp', 'access', '2027-05-12T20:00:00-04:00').applicable).toBe(true);
  });

  it('every regime has an at-risk window', () => {
    expect(rulesFor('gdpr', 'access')?.atRiskDays).toBe(7);
  });
});
