import { describe, expect, it } from 'vitest';
import { addPeriod, applicableStages, type ClockInput, computeClocks, regimeRule, type SubmissionRecord } from './clocks.ts';

/**
 * The notification clocks of the incident regimes, worked by hand: the stages come from the
 * shipped `content/incident-disclosures/regimes.json`, the arithmetic from clocks.ts (UTC).
 */

const at = (s: string) => new Date(s);
const iso = (s: string) => at(s).toISOString();

const input = (over: Partial<ClockInput>): ClockInput => ({
  regimes: ['gdpr'],
  knownAt: at('2026-03-01T08:00:00Z'),
  classifiedMajorAt: null,
  factors: {},
  submissions: [],
  ...over,
});

const filed = (regime: SubmissionRecord['regime'], stage: string, submittedAt: string): SubmissionRecord => ({
  regime,
  stage,
  submittedAt: iso(submittedAt),
  channelId: null,
  reference: null,
  recordedBy: 'key_test',
});

const clockOf = (clocks: ReturnType<typeof computeClocks>, regime: string, stage: string) => {
  const c = clocks.find((x) => x.regime === regime && x.stage === stage);
  if (!c) throw new Error(`no clock ${regime} ${stage}`);
  return c;
};

describe('addPeriod', () => {
  it('adds exact hours in UTC, whatever the local daylight-saving change', () => {
    // The EU clocks go forward on 29 March 2026: 72 hours are still 72 hours.
    expect(addPeriod(at('2026-03-27T10:00:00Z'), 72, 'hours').toISOString()).toBe('2026-03-30T10:00:00.000Z');
    expect(addPeriod(at('2026-03-01T22:30:00+02:00'), 24, 'hours').toISOString()).toBe('2026-03-02T20:30:00.000Z');
  });

  it('adds days as 24 hours each, across 29 February', () => {
    expect(addPeriod(at('2024-02-20T06:00:00Z'), 15, 'days').toISOString()).toBe('2024-03-06T06:00:00.000Z');
    expect(addPeriod(at('2026-02-20T06:00:00Z'), 15, 'days').toISOString()).toBe('2026-03-07T06:00:00.000Z');
  });

  it("adds months to the same day and time, or the month's last day", () => {
    expect(addPeriod(at('2026-01-15T15:00:00Z'), 1, 'months').toISOString()).toBe('2026-02-15T15:00:00.000Z');
    expect(addPeriod(at('2026-01-31T15:00:00Z'), 1, 'months').toISOString()).toBe('2026-02-28T15:00:00.000Z');
    expect(addPeriod(at('2024-01-31T15:00:00Z'), 1, 'months').toISOString()).toBe('2024-02-29T15:00:00.000Z');
    expect(addPeriod(at('2026-12-31T23:00:00Z'), 1, 'months').toISOString()).toBe('2027-01-31T23:00:00.000Z');
    expect(addPeriod(at('2026-03-31T00:00:00Z'), 1, 'months').toISOString()).toBe('2026-04-30T00:00:00.000Z');
  });

  it('adds business days skipping Saturdays and Sundays, keeping the time of day', () => {
    // Thursday 8 January 2026 + 3 business days = Tuesday 13 January.
    expect(addPeriod(at('2026-01-08T10:00:00Z'), 3, 'business_days').toISOString()).toBe('2026-01-13T10:00:00.000Z');
    // Friday 2 January + 3 = Wednesday 7 January; from Saturday 3 January too.
    expect(addPeriod(at('2026-01-02T18:00:00Z'), 3, 'business_days').toISOString()).toBe('2026-01-07T18:00:00.000Z');
    expect(addPeriod(at('2026-01-03T18:00:00Z'), 3, 'business_days').toISOString()).toBe('2026-01-07T18:00:00.000Z');
  });

  it('does not change its argument', () => {
    const start = at('2026-01-31T15:00:00Z');
    addPeriod(start, 1, 'months');
    addPeriod(start, 3, 'business_days');
    expect(start.toISOString()).toBe('2026-01-31T15:00:00.000Z');
  });
});

describe('GDPR: 72 hours to the authority, data subjects without undue delay', () => {
  it('Art. 33(1): the authority within 72 hours of awareness', () => {
    const [c] = computeClocks(input({}), at('2026-03-02T00:00:00Z'));
    expect(c).toMatchObject({
      regime: 'gdpr',
      stage: 'authority-notification',
      dueAt: '2026-03-04T08:00:00.000Z',
      basis: 'aware',
      source: 'GDPR Art. 33(1)',
      state: 'pending',
      submittedAt: null,
    });
  });

  it('Art. 34(1): the data subjects only when the risk to them is high, and with no fixed deadline', () => {
    const gdpr = regimeRule('gdpr');
    expect(applicableStages(gdpr, {}).map((s) => s.id)).toEqual(['authority-notification']);
    expect(applicableStages(gdpr, { highRiskToDataSubjects: false }).map((s) => s.id)).toEqual(['authority-notification']);
    expect(applicableStages(gdpr, { highRiskToDataSubjects: true }).map((s) => s.id)).toEqual([
      'authority-notification',
      'data-subject-communication',
    ]);
    const clocks = computeClocks(input({ factors: { highRiskToDataSubjects: true } }), at('2026-03-10T00:00:00Z'));
    const subjects = clockOf(clocks, 'gdpr', 'data-subject-communication');
    expect(subjects).toMatchObject({ dueAt: null, state: 'no_deadline', source: 'GDPR Art. 34(1)' });
    // Without a deadline it is never late; it sorts after every dated clock.
    expect(clocks.at(-1)?.stage).toBe('data-subject-communication');
  });

  it('a stage without deadline, once filed, is submitted', () => {
    const clocks = computeClocks(
      input({
        factors: { highRiskToDataSubjects: true },
        submissions: [filed('gdpr', 'data-subject-communication', '2026-03-05T00:00:00Z')],
      }),
      at('2026-03-10T00:00:00Z'),
    );
    expect(clockOf(clocks, 'gdpr', 'data-subject-communication').state).toBe('submitted');
  });

  it('is late from the first moment after 72 hours, not at the 72nd hour', () => {
    const due = '2026-03-04T08:00:00.000Z';
    expect(computeClocks(input({}), at(due))[0]?.state).toBe('pending');
    expect(computeClocks(input({}), new Date(at(due).getTime() + 1))[0]?.state).toBe('late');
  });

  it('a filing at the deadline is in time; one millisecond later it is late', () => {
    const onTime = computeClocks(
      input({ submissions: [filed('gdpr', 'authority-notification', '2026-03-04T08:00:00.000Z')] }),
      at('2026-04-01T00:00:00Z'),
    );
    expect(onTime[0]).toMatchObject({ state: 'submitted', submittedAt: '2026-03-04T08:00:00.000Z' });
    const late = computeClocks(
      input({ submissions: [filed('gdpr', 'authority-notification', '2026-03-04T08:00:00.001Z')] }),
      at('2026-04-01T00:00:00Z'),
    );
    expect(late[0]?.state).toBe('submitted_late');
  });

  it("another regime's filing of the same stage does not count", () => {
    const clocks = computeClocks(
      input({ regimes: ['gdpr', 'uk-gdpr'], submissions: [filed('uk-gdpr', 'authority-notification', '2026-03-02T08:00:00Z')] }),
      at('2026-03-03T00:00:00Z'),
    );
    expect(clockOf(clocks, 'gdpr', 'authority-notification').state).toBe('pending');
    expect(clockOf(clocks, 'uk-gdpr', 'authority-notification').state).toBe('submitted');
  });
});

describe('NIS2 Art. 23(4): early warning 24 h, notification 72 h, final report one month after the notification', () => {
  const known = '2026-01-28T12:00:00Z';

  it('counts the first two stages from awareness, the final report provisionally from the notification deadline', () => {
    const clocks = computeClocks(input({ regimes: ['nis2'], knownAt: at(known) }), at('2026-01-28T13:00:00Z'));
    expect(clocks.map((c) => [c.stage, c.dueAt, c.basis])).toEqual([
      ['early-warning', '2026-01-29T12:00:00.000Z', 'aware'],
      ['incident-notification', '2026-01-31T12:00:00.000Z', 'aware'],
      // 31 January + 1 month: the last day of February.
      ['final-report', '2026-02-28T12:00:00.000Z', 'provisional:incident-notification'],
    ]);
    expect(clockOf(clocks, 'nis2', 'final-report').source).toBe('NIS2 Art. 23(4)(d)');
  });

  it('the final report counts from the actual filing of the incident notification', () => {
    const clocks = computeClocks(
      input({ regimes: ['nis2'], knownAt: at(known), submissions: [filed('nis2', 'incident-notification', '2026-01-30T09:00:00Z')] }),
      at('2026-02-01T00:00:00Z'),
    );
    const final = clockOf(clocks, 'nis2', 'final-report');
    // 30 January + 1 month: 28 February (2026 is not a leap year).
    expect(final.dueAt).toBe('2026-02-28T09:00:00.000Z');
    expect(final.basis).toBe('submission:incident-notification');
    // The early warning was never filed and its 24 hours are over.
    expect(clockOf(clocks, 'nis2', 'early-warning').state).toBe('late');
  });
});

describe('DORA (RTS 2025/301 Art. 5(1)): 4 h after classification as major, at most 24 h after awareness', () => {
  const known = at('2026-05-04T08:00:00Z');

  it('not yet classified: only the 24-hour bound from awareness runs', () => {
    const clocks = computeClocks(input({ regimes: ['dora'], knownAt: known }), at('2026-05-04T09:00:00Z'));
    expect(clockOf(clocks, 'dora', 'initial-notification')).toMatchObject({ dueAt: '2026-05-05T08:00:00.000Z', basis: 'aware' });
    // The intermediate report: 72 h after the initial notification, provisionally after its deadline.
    expect(clockOf(clocks, 'dora', 'intermediate-report')).toMatchObject({
      dueAt: '2026-05-08T08:00:00.000Z',
      basis: 'provisional:initial-notification',
    });
    // The final report: one month after the intermediate report.
    expect(clockOf(clocks, 'dora', 'final-report')).toMatchObject({
      dueAt: '2026-06-08T08:00:00.000Z',
      basis: 'provisional:intermediate-report',
    });
  });

  it('classified early: 4 hours from the classification', () => {
    const clocks = computeClocks(input({ regimes: ['dora'], knownAt: known, classifiedMajorAt: at('2026-05-04T10:00:00Z') }), known);
    expect(clockOf(clocks, 'dora', 'initial-notification')).toMatchObject({ dueAt: '2026-05-04T14:00:00.000Z', basis: 'classified' });
  });

  it('classified late: the 24-hour bound from awareness wins', () => {
    // Classified 22 h after awareness: 4 h more would pass the 24 h bound.
    const clocks = computeClocks(input({ regimes: ['dora'], knownAt: known, classifiedMajorAt: at('2026-05-05T06:00:00Z') }), known);
    expect(clockOf(clocks, 'dora', 'initial-notification')).toMatchObject({ dueAt: '2026-05-05T08:00:00.000Z', basis: 'aware' });
  });

  it('classified exactly 20 h after awareness: both bounds fall together', () => {
    const clocks = computeClocks(input({ regimes: ['dora'], knownAt: known, classifiedMajorAt: at('2026-05-05T04:00:00Z') }), known);
    expect(clockOf(clocks, 'dora', 'initial-notification').dueAt).toBe('2026-05-05T08:00:00.000Z');
  });

  it('the later stages count from the filings', () => {
    const clocks = computeClocks(
      input({
        regimes: ['dora'],
        knownAt: known,
        classifiedMajorAt: at('2026-05-04T10:00:00Z'),
        submissions: [
          filed('dora', 'initial-notification', '2026-05-04T13:00:00Z'),
          filed('dora', 'intermediate-report', '2026-05-06T09:30:00Z'),
        ],
      }),
      at('2026-05-10T00:00:00Z'),
    );
    expect(clockOf(clocks, 'dora', 'intermediate-report')).toMatchObject({
      dueAt: '2026-05-07T13:00:00.000Z',
      basis: 'submission:initial-notification',
      state: 'submitted',
    });
    expect(clockOf(clocks, 'dora', 'final-report')).toMatchObject({
      dueAt: '2026-06-06T09:30:00.000Z',
      basis: 'submission:intermediate-report',
      state: 'pending',
    });
  });
});

describe('EU AI Act Art. 73: 15 days; 10 on a death; 2 for a widespread infringement or critical infrastructure', () => {
  const known = at('2028-01-01T12:00:00Z');
  const report = (factors: ClockInput['factors']) =>
    clockOf(computeClocks(input({ regimes: ['eu-ai-act'], knownAt: known, factors }), known), 'eu-ai-act', 'serious-incident-report');

  it('Art. 73(2): 15 days after awareness', () => {
    expect(report({})).toMatchObject({ dueAt: '2028-01-16T12:00:00.000Z', source: 'EU AI Act Art. 73(2)' });
  });

  it('Art. 73(4): 10 days on the death of a person', () => {
    expect(report({ death: true })).toMatchObject({ dueAt: '2028-01-11T12:00:00.000Z', source: 'EU AI Act Art. 73(4)' });
  });

  it('Art. 73(3): 2 days for a widespread infringement or a critical-infrastructure disruption', () => {
    expect(report({ widespreadInfringement: true })).toMatchObject({ dueAt: '2028-01-03T12:00:00.000Z', source: 'EU AI Act Art. 73(3)' });
    expect(report({ criticalInfrastructure: true })).toMatchObject({ dueAt: '2028-01-03T12:00:00.000Z', source: 'EU AI Act Art. 73(3)' });
  });

  it('the shortest applicable variant wins (a death and a widespread infringement: 2 days)', () => {
    expect(report({ death: true, widespreadInfringement: true })).toMatchObject({
      dueAt: '2028-01-03T12:00:00.000Z',
      source: 'EU AI Act Art. 73(3)',
    });
    expect(report({ death: false })).toMatchObject({ dueAt: '2028-01-16T12:00:00.000Z' });
  });

  it('Art. 113 as amended: not applicable to an incident known before 2 December 2027', () => {
    const before = computeClocks(input({ regimes: ['eu-ai-act'], knownAt: at('2027-12-01T23:59:59.999Z') }), known);
    expect(before[0]).toMatchObject({
      dueAt: null,
      state: 'not_applicable',
      source: expect.stringMatching(/^EU AI Act Art\. 113 as amended by Regulation \(EU\) 2026\/1744/),
    });
    const on = computeClocks(input({ regimes: ['eu-ai-act'], knownAt: at('2027-12-02T00:00:00.000Z') }), known);
    expect(on[0]).toMatchObject({ dueAt: '2027-12-17T00:00:00.000Z', state: 'late' });
  });
});

describe('each regime runs from the day its law applies', () => {
  it('no clock for an incident known before the regime applied: GDPR, NIS2, DORA, the ANPD periods', () => {
    const now = at('2026-11-20T10:00:00Z');
    for (const [regime, before, source] of [
      ['gdpr', '2018-05-24T23:59:59.999Z', /^GDPR Art\. 99\(2\)/],
      ['nis2', '2024-10-17T12:00:00Z', /^NIS2 Art\. 41\(1\)/],
      ['dora', '2025-01-16T12:00:00Z', /^DORA Art\. 64/],
      ['lgpd', '2024-04-25T12:00:00Z', /^ANPD Resolution CD\/ANPD 15\/2024/],
    ] as const) {
      const clocks = computeClocks(input({ regimes: [regime], knownAt: at(before) }), now);
      expect(clocks.length, regime).toBeGreaterThan(0);
      for (const c of clocks)
        expect(c, regime).toMatchObject({ dueAt: null, state: 'not_applicable', source: expect.stringMatching(source) });
    }
    const [onTheDay] = computeClocks(input({ regimes: ['nis2'], knownAt: at('2024-10-18T00:00:00Z') }), now);
    expect(onTheDay?.dueAt).toBe('2024-10-19T00:00:00.000Z');
  });
});

describe('LGPD (ANPD Resolution 15/2024 Art. 6): 3 business days', () => {
  it('skips the weekend', () => {
    const [c] = computeClocks(input({ regimes: ['lgpd'], knownAt: at('2026-01-08T10:00:00Z') }), at('2026-01-08T10:00:00Z'));
    expect(c).toMatchObject({ dueAt: '2026-01-13T10:00:00.000Z', basis: 'aware' });
  });
});

describe('several regimes: earliest deadline first', () => {
  it('sorts by deadline, ties in the order of the regimes, undated last', () => {
    const clocks = computeClocks(
      input({ regimes: ['gdpr', 'nis2'], factors: { highRiskToDataSubjects: true } }),
      at('2026-03-01T09:00:00Z'),
    );
    expect(clocks.map((c) => `${c.regime}/${c.stage}`)).toEqual([
      'nis2/early-warning',
      'gdpr/authority-notification',
      'nis2/incident-notification',
      'nis2/final-report',
      'gdpr/data-subject-communication',
    ]);
  });

  it('no regime: no clock', () => {
    expect(computeClocks(input({ regimes: [] }), at('2026-03-01T09:00:00Z'))).toEqual([]);
  });
});
