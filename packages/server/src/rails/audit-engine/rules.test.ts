import { describe, expect, it } from 'vitest';
import { type AuditInputs, auditRules, countsOf, type EvaluatedFinding, estimateCompletion, evaluate, findingsHash } from './rules.ts';

/**
 * The evaluation of an audit-engine run against the shipped rules (content/audit-engine/rules.json),
 * worked by hand: the tier of a control from its in-force obligations, the evidence freshness
 * windows, the attestation validity, the severity per tier, and the counts and hash of a run.
 */

const { rules } = auditRules();
const AS_OF = '2026-09-01T00:00:00.000Z';
const daysBefore = (days: number, ms = 0) => new Date(Date.parse(AS_OF) - days * 86_400_000 - ms).toISOString();

const inputs = (over: Partial<AuditInputs>): AuditInputs => ({
  asOf: AS_OF,
  framework: 'eu-ai-act',
  dictionaryVersion: '1.0.0',
  scope: 'all',
  controls: [{ id: 'ctl_1', title: 'Control one', clauseRefs: [] }],
  obligations: [],
  evidence: [],
  attestations: [],
  ...over,
});

const obligation = (id: string, clauseRef: string, applicableFrom = '2024-08-01T00:00:00.000Z') => ({
  id,
  title: id,
  clauseRef,
  applicableFrom,
});
const evidence = (id: string, kind: string, collectedAt: string, expiresAt: string | null = null, controlIds = ['ctl_1']) => ({
  id,
  kind,
  controlIds,
  collectedAt,
  expiresAt,
});
const checks = (fs: EvaluatedFinding[]) => fs.map((f) => [f.controlId, f.check, f.severity]);
const tierOf = (fs: EvaluatedFinding[]) => fs[0]?.facts.tier;

describe('the shipped rules', () => {
  it('load with a hash, and list the fixed tiers', () => {
    const { hash } = auditRules();
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(rules.tiers.map((t) => t.id)).toEqual(['prohibited', 'high_risk', 'in_force', 'not_in_force']);
  });
});

describe('evaluate: tiers', () => {
  it('a control without obligations is not_in_force: only a missing evidence is reported, low', () => {
    const fs = evaluate(inputs({}), rules);
    expect(checks(fs)).toEqual([['ctl_1', 'evidence_missing', 'low']]);
    expect(fs[0]).toMatchObject({
      title: 'No evidence supports control ctl_1 (Control one).',
      facts: { tier: 'not_in_force', evidence: [] },
    });
  });

  it('an in-force Art. 5 obligation makes the control prohibited-tier', () => {
    const fs = evaluate(
      inputs({
        controls: [{ id: 'ctl_1', title: 'No social scoring', clauseRefs: ['art-5-1-c'] }],
        obligations: [obligation('AIA-OBL-001', 'art-5-1-c')],
      }),
      rules,
    );
    expect(tierOf(fs)).toBe('prohibited');
    expect(checks(fs)).toEqual([
      ['ctl_1', 'evidence_missing', 'critical'],
      ['ctl_1', 'obligation_unmet', 'critical'],
      ['ctl_1', 'attestation_missing', 'high'],
    ]);
    expect(fs[1]?.facts).toMatchObject({ unmet: ['AIA-OBL-001'], evidencePresent: false, currentEvidence: 0 });
  });

  it('a clause prefix covers its sub-clauses, not a longer article number', () => {
    const tierFor = (clauseRef: string, framework = 'eu-ai-act') =>
      tierOf(
        evaluate(
          inputs({
            framework,
            controls: [{ id: 'ctl_1', title: 't', clauseRefs: [clauseRef] }],
            obligations: [obligation('OBL-1', clauseRef)],
          }),
          rules,
        ),
      );
    expect(tierFor('art-5')).toBe('prohibited');
    expect(tierFor('art-9-2')).toBe('high_risk');
    // art-50 (transparency) is neither art-5 nor in the high-risk list.
    expect(tierFor('art-50')).toBe('in_force');
    expect(tierFor('art-90')).toBe('in_force');
    // The prefixes are per framework: DORA art-5 is a high-risk duty, not a prohibition.
    expect(tierFor('art-5', 'dora')).toBe('high_risk');
    expect(tierFor('art-23-4', 'nis2')).toBe('high_risk');
    expect(tierFor('art-33', 'gdpr')).toBe('in_force');
  });

  it('an obligation not yet applicable leaves the control not_in_force; on its date it applies', () => {
    const run = (applicableFrom: string) =>
      evaluate(
        inputs({
          controls: [{ id: 'ctl_1', title: 't', clauseRefs: ['art-9'] }],
          obligations: [obligation('AIA-OBL-9', 'art-9', applicableFrom)],
        }),
        rules,
      );
    const before = run('2026-09-01T00:00:00.001Z');
    expect(tierOf(before)).toBe('not_in_force');
    expect(checks(before)).toEqual([['ctl_1', 'evidence_missing', 'low']]);
    expect(before[0]?.facts.obligations).toEqual([
      { id: 'AIA-OBL-9', clauseRef: 'art-9', applicableFrom: '2026-09-01T00:00:00.001Z', inForce: false },
    ]);
    expect(tierOf(run(AS_OF))).toBe('high_risk');
  });

  it('links only the obligations on a clause the control cites exactly', () => {
    const fs = evaluate(
      inputs({ controls: [{ id: 'ctl_1', title: 't', clauseRefs: ['art-9'] }], obligations: [obligation('AIA-OBL-92', 'art-9-2')] }),
      rules,
    );
    expect(fs[0]?.facts.obligations).toEqual([]);
    expect(tierOf(fs)).toBe('not_in_force');
  });

  it('the first tier in the rules wins when obligations fall under several', () => {
    const fs = evaluate(
      inputs({
        controls: [{ id: 'ctl_1', title: 't', clauseRefs: ['art-9', 'art-5-1-a'] }],
        obligations: [obligation('OBL-9', 'art-9'), obligation('OBL-5', 'art-5-1-a')],
      }),
      rules,
    );
    expect(tierOf(fs)).toBe('prohibited');
  });
});

describe('evaluate: evidence freshness', () => {
  const run = (...ev: ReturnType<typeof evidence>[]) => evaluate(inputs({ evidence: ev }), rules);

  it('a log is fresh for 90 days, stale from the 91st', () => {
    expect(run(evidence('evd_1', 'log', daysBefore(90)))).toEqual([]);
    // 90 days and 23 hours count as 90 whole days.
    expect(run(evidence('evd_1', 'log', daysBefore(90, 23 * 3_600_000)))).toEqual([]);
    const stale = run(evidence('evd_1', 'log', daysBefore(91)));
    expect(checks(stale)).toEqual([['ctl_1', 'evidence_stale', 'low']]);
    expect(stale[0]?.facts.evidence).toEqual([
      {
        id: 'evd_1',
        kind: 'log',
        collectedAt: daysBefore(91),
        expiresAt: null,
        ageDays: 91,
        windowDays: 90,
        expired: false,
        current: false,
      },
    ]);
  });

  it('windows per kind: screenshot 180, certificate 1095, an unknown kind the default 365', () => {
    expect(run(evidence('evd_1', 'screenshot', daysBefore(181)))).toHaveLength(1);
    expect(run(evidence('evd_1', 'screenshot', daysBefore(180)))).toEqual([]);
    expect(run(evidence('evd_1', 'certificate', daysBefore(1095)))).toEqual([]);
    expect(run(evidence('evd_1', 'certificate', daysBefore(1096)))).toHaveLength(1);
    expect(run(evidence('evd_1', 'hologram', daysBefore(365)))).toEqual([]);
    expect(run(evidence('evd_1', 'hologram', daysBefore(366)))[0]?.facts.evidence).toMatchObject([{ windowDays: 365 }]);
  });

  it('evidence expiring at asOf is expired', () => {
    const fs = run(evidence('evd_1', 'document', daysBefore(1), AS_OF));
    expect(checks(fs)).toEqual([['ctl_1', 'evidence_stale', 'low']]);
    expect(fs[0]?.facts.evidence).toMatchObject([{ expired: true, current: false }]);
    expect(run(evidence('evd_1', 'document', daysBefore(1), '2026-09-01T00:00:00.001Z'))).toEqual([]);
  });

  it('evidence collected after asOf, or for another control, does not count', () => {
    expect(checks(run(evidence('evd_1', 'document', '2026-09-01T00:00:00.001Z')))).toEqual([['ctl_1', 'evidence_missing', 'low']]);
    expect(checks(run(evidence('evd_1', 'document', daysBefore(1), null, ['ctl_2'])))).toEqual([['ctl_1', 'evidence_missing', 'low']]);
  });

  it('one current item is enough, beside stale ones', () => {
    expect(run(evidence('evd_1', 'log', daysBefore(400)), evidence('evd_2', 'log', daysBefore(10)))).toEqual([]);
  });

  it('an in-force obligation with only stale evidence is unmet, and says evidence is present', () => {
    const fs = evaluate(
      inputs({
        controls: [{ id: 'ctl_1', title: 't', clauseRefs: ['art-50'] }],
        obligations: [obligation('AIA-OBL-50', 'art-50')],
        evidence: [evidence('evd_1', 'log', daysBefore(100))],
      }),
      rules,
    );
    expect(checks(fs)).toEqual([
      ['ctl_1', 'evidence_stale', 'medium'],
      ['ctl_1', 'obligation_unmet', 'medium'],
    ]);
    expect(fs[1]?.facts).toMatchObject({ tier: 'in_force', unmet: ['AIA-OBL-50'], evidencePresent: true });
  });
});

describe('evaluate: attestations (prohibited and high-risk tiers only)', () => {
  const highRisk = (attestedAt: string[]) =>
    evaluate(
      inputs({
        controls: [{ id: 'ctl_1', title: 't', clauseRefs: ['art-9'] }],
        obligations: [obligation('AIA-OBL-9', 'art-9')],
        evidence: [evidence('evd_1', 'document', daysBefore(1))],
        attestations: attestedAt.map((a, i) => ({ id: `aat_${i}`, controlId: 'ctl_1', attestedAt: a })),
      }),
      rules,
    );

  it('valid for 365 days; the 366th day it is expired', () => {
    expect(highRisk([daysBefore(365)])).toEqual([]);
    const expired = highRisk([daysBefore(366)]);
    expect(checks(expired)).toEqual([['ctl_1', 'attestation_expired', 'low']]);
    expect(expired[0]?.facts).toMatchObject({ validityDays: 365 });
  });

  it('missing: medium at high-risk tier', () => {
    expect(checks(highRisk([]))).toEqual([['ctl_1', 'attestation_missing', 'medium']]);
  });

  it('the newest attestation decides; one made after asOf does not count', () => {
    expect(highRisk([daysBefore(500), daysBefore(10)])).toEqual([]);
    expect(checks(highRisk(['2026-09-02T00:00:00.000Z']))).toEqual([['ctl_1', 'attestation_missing', 'medium']]);
  });

  it('an in-force control without attestation raises nothing about it', () => {
    const fs = evaluate(
      inputs({
        controls: [{ id: 'ctl_1', title: 't', clauseRefs: ['art-50'] }],
        obligations: [obligation('AIA-OBL-50', 'art-50')],
        evidence: [evidence('evd_1', 'document', daysBefore(1))],
      }),
      rules,
    );
    expect(fs).toEqual([]);
  });
});

describe('evaluate: requirements of the latest approved gap analysis', () => {
  const gap = (requirements: { controlId: string; status: string }[]) => ({
    assessmentId: 'asm_1',
    systemId: 'sys_1',
    dictionaryVersion: 'eu-ai-act@1.0.0',
    approvedAt: daysBefore(3),
    requirements,
  });
  const ev = [evidence('evd_1', 'policy', daysBefore(1))];
  const onlyRequirements = (fs: EvaluatedFinding[]) => fs.filter((f) => f.check === 'requirement_not_met');

  it('non-compliant: a finding at the tier severity, citing the assessment', () => {
    const fs = evaluate(inputs({ evidence: ev, gapAnalysis: gap([{ controlId: 'ctl_1', status: 'non_compliant' }]) }), rules);
    expect(checks(fs)).toEqual([['ctl_1', 'requirement_not_met', 'low']]);
    expect(fs[0]).toMatchObject({
      title: 'The latest approved gap analysis found control ctl_1 (Control one) non-compliant.',
      facts: {
        tier: 'not_in_force',
        requirement: 'non_compliant',
        assessment: { id: 'asm_1', approvedAt: daysBefore(3), systemId: 'sys_1', dictionaryVersion: 'eu-ai-act@1.0.0' },
        source: 'gap-analysis:asm_1',
      },
    });
  });

  it('partially compliant is one step lower than non-compliant in each tier that has one', () => {
    const at = (clauseRef: string, status: string) =>
      onlyRequirements(
        evaluate(
          inputs({
            controls: [{ id: 'ctl_1', title: 'Control one', clauseRefs: [clauseRef] }],
            obligations: [obligation('OBL-1', clauseRef)],
            evidence: ev,
            gapAnalysis: gap([{ controlId: 'ctl_1', status }]),
          }),
          rules,
        ),
      ).map((f) => [f.facts.tier, f.severity]);
    expect(at('art-5-1-c', 'non_compliant')).toEqual([['prohibited', 'critical']]);
    expect(at('art-5-1-c', 'partially_compliant')).toEqual([['prohibited', 'high']]);
    expect(at('art-9-1', 'non_compliant')).toEqual([['high_risk', 'high']]);
    expect(at('art-9-1', 'partially_compliant')).toEqual([['high_risk', 'medium']]);
    expect(at('art-4', 'non_compliant')).toEqual([['in_force', 'medium']]);
    expect(at('art-4', 'partially_compliant')).toEqual([['in_force', 'low']]);
  });

  it('compliant, not applicable, unassessed, or no gap analysis (or inputs from before the check): nothing', () => {
    for (const status of ['compliant', 'not_applicable']) {
      expect(onlyRequirements(evaluate(inputs({ evidence: ev, gapAnalysis: gap([{ controlId: 'ctl_1', status }]) }), rules))).toEqual([]);
    }
    expect(onlyRequirements(evaluate(inputs({ gapAnalysis: gap([{ controlId: 'ctl_9', status: 'non_compliant' }]) }), rules))).toEqual([]);
    expect(onlyRequirements(evaluate(inputs({ gapAnalysis: null }), rules))).toEqual([]);
    expect(onlyRequirements(evaluate(inputs({}), rules))).toEqual([]);
  });

  it('every tier has a partial severity no higher than the non-compliant one', () => {
    const order = ['critical', 'high', 'medium', 'low'];
    for (const t of rules.tiers) {
      const full = rules.severities.requirement_not_met[t.id] ?? null;
      const partial = rules.partiallyCompliantSeverities[t.id] ?? null;
      expect(t.id in rules.partiallyCompliantSeverities).toBe(true);
      if (partial !== null) expect(order.indexOf(partial)).toBeGreaterThanOrEqual(order.indexOf(full as string));
    }
  });
});

describe('evaluate: output', () => {
  it('sorts by control id whatever the input order, and is deterministic', () => {
    const i = inputs({
      controls: [
        { id: 'ctl_b', title: 'B', clauseRefs: [] },
        { id: 'ctl_a', title: 'A', clauseRefs: [] },
      ],
    });
    const fs = evaluate(i, rules);
    expect(fs.map((f) => f.controlId)).toEqual(['ctl_a', 'ctl_b']);
    expect(JSON.stringify(evaluate(i, rules))).toBe(JSON.stringify(fs));
  });

  it('no controls, no findings', () => {
    expect(evaluate(inputs({ controls: [] }), rules)).toEqual([]);
  });
});

describe('countsOf, findingsHash, estimateCompletion', () => {
  const f = (controlId: string, check: EvaluatedFinding['check'], severity: EvaluatedFinding['severity']) => ({
    controlId,
    check,
    severity,
    facts: { tier: 'in_force' },
  });

  it('counts controls passed, findings by severity and by check', () => {
    expect(
      countsOf(3, [
        f('ctl_1', 'evidence_missing', 'medium'),
        f('ctl_1', 'obligation_unmet', 'medium'),
        f('ctl_2', 'attestation_expired', 'low'),
      ]),
    ).toEqual({
      controls: 3,
      controlsPassed: 1,
      findings: 3,
      bySeverity: { critical: 0, high: 0, medium: 2, low: 1 },
      byCheck: { evidence_missing: 1, obligation_unmet: 1, attestation_expired: 1 },
    });
    expect(countsOf(0, [])).toEqual({
      controls: 0,
      controlsPassed: 0,
      findings: 0,
      bySeverity: { critical: 0, high: 0, medium: 0, low: 0 },
      byCheck: {},
    });
  });

  it('the hash covers what was found, not its order or title', () => {
    const a = f('ctl_1', 'evidence_missing', 'medium');
    const b = f('ctl_2', 'evidence_stale', 'low');
    expect(findingsHash([a, b])).toBe(findingsHash([b, a]));
    expect(findingsHash([{ ...a, title: 'x' } as EvaluatedFinding, b])).toBe(findingsHash([a, b]));
    expect(findingsHash([a, { ...b, severity: 'high' }])).not.toBe(findingsHash([a, b]));
    expect(findingsHash([a, { ...b, facts: { tier: 'high_risk' } }])).not.toBe(findingsHash([a, b]));
    expect(findingsHash([])).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('estimates 5 s plus 0.2 s per control', () => {
    const start = new Date('2026-09-01T00:00:00.000Z');
    expect(estimateCompletion(start, 0, rules).toISOString()).toBe('2026-09-01T00:00:05.000Z');
    expect(estimateCompletion(start, 10, rules).toISOString()).toBe('2026-09-01T00:00:07.000Z');
    expect(estimateCompletion(start, 1, rules).toISOString()).toBe('2026-09-01T00:00:05.200Z');
  });
});
