import { describe, expect, it } from 'vitest';
import { BLOCK_BUILDERS, type Built, blockContext } from './blocks.ts';
import type { ReportBlock, ReportParameters } from './catalogue.ts';
import type { FactEvidence, FactFinding, FactRisk, ReportFactsData } from './facts.ts';

/**
 * The block builders, from hand-built facts to hand-worked blocks: no server, no database, no
 * content folder (the parameters are built here, not read from content/reports/types.json).
 */

const AS_OF = '2026-03-15T12:00:00.000Z';

const P: ReportParameters = {
  topRisks: 3,
  trendMonths: 3,
  decisionResidualScore: 15,
  decisionFindingSeverities: ['critical', 'high'],
  certificationExpiringDays: 30,
  effectiveness: { effectiveMinEvidence: 2, ineffectiveOpenFindings: 1 },
  severityOrder: ['critical', 'high', 'medium', 'low'],
  maxRows: 50,
  classification: [
    { when: 'generalPurposeModel', label: 'GPAI' },
    { when: 'friaAssessment', label: 'FRIA' },
    { when: 'conformityAssessment', label: 'CONFORMITY' },
    { when: 'transparencyFlag', label: 'TRANSPARENCY' },
    { when: 'always', label: 'UNPLACED' },
  ],
  shariahFraming: ['Framing one.', 'Framing two.'],
};

/** A tenant with no records, the report date AS_OF, no system and no engagement named. */
const empty = (over: Partial<ReportFactsData> = {}): ReportFactsData => ({
  asOf: AS_OF,
  tenantId: 'ten_unit',
  systemId: null,
  engagementId: null,
  system: null,
  systemIds: [],
  frameworks: [],
  controls: [],
  evidence: [],
  findings: [],
  assessments: [],
  obligations: [],
  risks: [],
  signOffs: [],
  attestations: [],
  incidents: [],
  dsars: [],
  vendors: [],
  certifications: [],
  subProcessors: [],
  engagements: [],
  trainingModules: [],
  trainingRecords: [],
  agentDecisions: null,
  ...over,
});

const risk = (id: string, residualScore: number, inherentScore: number, over: Partial<FactRisk> = {}): FactRisk => ({
  id,
  title: `Risk ${id}`,
  domain: 'ai',
  status: 'open',
  inherentScore,
  residualScore,
  residualRating: residualScore >= 15 ? 'high' : 'medium',
  controlIds: [],
  plannedTreatments: 0,
  signedOff: false,
  createdAt: '2026-01-10T00:00:00.000Z',
  ...over,
});
const evidence = (id: string, controlIds: string[], expiresAt: string | null, over: Partial<FactEvidence> = {}): FactEvidence => ({
  id,
  title: `Evidence ${id}`,
  kind: 'document',
  systemId: null,
  controlIds,
  collectedAt: '2026-01-05T00:00:00.000Z',
  expiresAt,
  sha256: true,
  ...over,
});
const finding = (id: string, severity: string, status: string, over: Partial<FactFinding> = {}): FactFinding => ({
  id,
  title: `Finding ${id}`,
  severity,
  status,
  controlId: null,
  systemId: null,
  createdAt: '2026-03-02T00:00:00.000Z',
  closedAt: null,
  ...over,
});

const build = (block: ReportBlock, f: ReportFactsData, p: ReportParameters = P): Built => BLOCK_BUILDERS[block](blockContext(f, p));
const rowsOf = (b: Built): string[][] => b.table?.rows ?? [];

describe('top risks: the ranking', () => {
  // Open risks by residual score, then inherent score, then id; a closed risk is not ranked.
  const risks = [
    risk('rsk_a', 12, 20),
    risk('rsk_b', 16, 16),
    risk('rsk_c', 12, 25),
    risk('rsk_d', 25, 25, { status: 'closed' }),
    risk('rsk_e', 12, 20),
    risk('rsk_f', 4, 9),
  ];

  it('ranks by residual, then inherent, then id, and keeps the first `topRisks`', () => {
    expect(rowsOf(build('topRisks', empty({ risks })))).toEqual([
      ['Risk rsk_b', 'ai', '16', '16', 'high', 'open'],
      ['Risk rsk_c', 'ai', '25', '12', 'medium', 'open'],
      ['Risk rsk_a', 'ai', '20', '12', 'medium', 'open'],
    ]);
  });

  it('breaks a full tie (same residual, same inherent) by id, whatever the order of the facts', () => {
    const all = build('topRisks', empty({ risks: [...risks].reverse() }), { ...P, topRisks: 10 });
    expect(rowsOf(all).map((r) => r[0])).toEqual(['Risk rsk_b', 'Risk rsk_c', 'Risk rsk_a', 'Risk rsk_e', 'Risk rsk_f']);
  });

  it('names the highest residual risk and counts those at or above the decision threshold in the KPIs', () => {
    const kpis = Object.fromEntries(rowsOf(build('kpis', empty({ risks }))));
    expect(kpis['Highest residual risk']).toBe('Risk rsk_b (16)');
    expect(kpis['Open risks at or above decision threshold']).toBe('1');
    const lower = Object.fromEntries(rowsOf(build('kpis', empty({ risks }), { ...P, decisionResidualScore: 12 })));
    expect(lower['Open risks at or above decision threshold']).toBe('4');
  });
});

describe('posture: the latest approved gap analysis counts as in the trust posture', () => {
  // fw1 has 4 controls: c1 and c2 evidenced; the gap analysis found c1 non-compliant (evidence or
  // not, failing), c3 partially compliant (half, without evidence), c4 compliant without evidence
  // (not met); c2 is met by its evidence. (1 + 0.5) / 4 = 37.5%; by evidence alone it was 50%.
  const gapAnalysis = {
    assessmentId: 'asm_gap',
    systemId: 'sys_1',
    approvedAt: '2026-03-01T09:00:00.000Z',
    statuses: { c1: 'non_compliant', c3: 'partially_compliant', c4: 'compliant' },
  };
  const base = {
    controls: [
      { id: 'c1', frameworkId: 'fw1', title: 'Control 1', clauseRefs: [] },
      { id: 'c2', frameworkId: 'fw1', title: 'Control 2', clauseRefs: [] },
    ],
    evidence: [evidence('evd_1', ['c1'], null), evidence('evd_2', ['c2'], null)],
  };
  const fw = { id: 'fw1', title: 'Framework One', versionKey: 'fw1@1', controlCount: 4 };

  it('without an approved gap analysis: the share of controls with current evidence, as before', () => {
    const posture = build('posture', empty({ ...base, frameworks: [{ ...fw, gapAnalysis: null }] }));
    expect(posture.paragraphs).toEqual(['Overall posture: 50% of 4 controls have current evidence.']);
    expect(rowsOf(posture)).toEqual([['Framework One', '4', '2', '50%']]);
  });

  it('with one: non-compliant failing, partially compliant half, compliant met only with evidence; the section says so', () => {
    const f = empty({ ...base, frameworks: [{ ...fw, gapAnalysis }] });
    const posture = build('posture', f);
    expect(rowsOf(posture)).toEqual([['Framework One', '4', '2', '37.5%']]);
    expect(posture.paragraphs).toEqual([
      'Posture counts a control as met when current evidence cites it; where the latest approved gap analysis of the framework assessed a control, its status decides: non-compliant counts as failing, partially compliant as half met, compliant as met when current evidence cites it.',
      'Overall posture: 37.5% of 4 controls (1 met, 1 partially compliant, 1 non-compliant; 2 with current evidence).',
      'Framework One: gap analysis asm_gap (AI system sys_1), approved 2026-03-01T09:00:00.000Z: 1 non-compliant, 1 partially compliant.',
    ]);
    expect(Object.fromEntries(rowsOf(build('kpis', f)).map(([k, v]) => [k, v]))['Compliance posture']).toBe('37.5%');
  });
});

describe('freshness: evidence current on the report date', () => {
  // Evidence is current while its expiry lies strictly after the report date.
  const facts = empty({
    frameworks: [
      { id: 'fw1', title: 'Framework One', versionKey: 'fw1@1', controlCount: 3 },
      { id: 'fw2', title: 'Framework Two', versionKey: 'fw2@1', controlCount: 0 },
    ],
    controls: [
      { id: 'c1', frameworkId: 'fw1', title: 'Control 1', clauseRefs: [] },
      { id: 'c2', frameworkId: 'fw1', title: 'Control 2', clauseRefs: [] },
      { id: 'c3', frameworkId: 'fw1', title: 'Control 3', clauseRefs: [] },
    ],
    evidence: [
      evidence('evd_1', ['c1'], AS_OF),
      evidence('evd_2', ['c2'], '2026-03-15T12:00:00.001Z'),
      evidence('evd_3', ['c3'], null, { sha256: false }),
    ],
  });

  it('counts a control evidenced only by evidence expiring after the report date (2 of 3 = 66.7%)', () => {
    const posture = build('posture', facts);
    expect(posture.paragraphs).toEqual(['Overall posture: 66.7% of 3 controls have current evidence.']);
    expect(rowsOf(posture)).toEqual([
      ['Framework One', '3', '2', '66.7%'],
      ['Framework Two', '0', '0', 'n/a'],
    ]);
  });

  it('marks evidence expiring on the report instant as expired in the pack, and asks for its refresh', () => {
    expect(rowsOf(build('evidencePack', facts)).map((r) => [r[0], r[4], r[5]])).toEqual([
      ['Evidence evd_1', 'expired', 'yes'],
      ['Evidence evd_2', 'current', 'yes'],
      ['Evidence evd_3', 'current', 'no'],
    ]);
    expect(rowsOf(build('technicalTasks', facts))).toEqual([['Refresh evidence evd_1', 'Evidence evd_1', 'expired', 'c1']]);
  });

  it('applies the same cut-off to certifications and training completions', () => {
    const f = empty({
      certifications: [
        { id: 'crt_1', name: 'Ends now', issuer: 'X', validFrom: '2025-01-01T00:00:00.000Z', validUntil: AS_OF },
        { id: 'crt_2', name: 'No end', issuer: 'Y', validFrom: '2025-01-01T00:00:00.000Z', validUntil: null },
      ],
      trainingModules: [{ id: 'trm_1', title: 'Module', requiredForRoleIds: [], validityDays: 365, frameworkRefs: [] }],
      trainingRecords: [
        {
          id: 'trr_1',
          moduleId: 'trm_1',
          userId: 'u1',
          userName: 'A',
          moduleTitle: 'Module',
          completedAt: '2025-03-15T12:00:00.000Z',
          score: 80,
          expiresAt: AS_OF,
          certificateId: 'c-1',
        },
        {
          id: 'trr_2',
          moduleId: 'trm_1',
          userId: 'u1',
          userName: 'A',
          moduleTitle: 'Module',
          completedAt: '2026-03-01T00:00:00.000Z',
          score: 95,
          expiresAt: null,
          certificateId: 'c-2',
        },
      ],
    });
    expect(rowsOf(build('certifications', f)).map((r) => r[4])).toEqual(['expired', 'valid']);
    const tc = build('trainingCompletion', f);
    // One person, two completions, one valid, average score (80 + 95) / 2 = 87.5, rounded 88.
    expect(rowsOf(tc)).toEqual([['Module', '1', '2', '1', '88']]);
    expect(tc.paragraphs).toEqual(['1 of 2 completion(s) are valid on the report date.']);
  });
});

describe('control effectiveness', () => {
  it('rates each cited control from its current evidence and open findings', () => {
    // effectiveMinEvidence 2, ineffectiveOpenFindings 1.
    const f = empty({
      controls: ['c1', 'c2', 'c3', 'c4'].map((id) => ({ id, frameworkId: 'fw1', title: `Control ${id}`, clauseRefs: [] })),
      evidence: [evidence('evd_1', ['c1', 'c2'], null), evidence('evd_2', ['c1', 'c2', 'c3'], null), evidence('evd_3', ['c4'], AS_OF)],
      findings: [
        finding('fnd_1', 'high', 'open', { controlId: 'c2' }),
        finding('fnd_2', 'low', 'in_progress', { controlId: 'c3' }),
        finding('fnd_3', 'low', 'closed', { controlId: 'c4' }),
      ],
    });
    expect(rowsOf(build('controlEffectiveness', f))).toEqual([
      ['c1', 'Control c1', 'fw1', '2', '0', 'effective'],
      ['c2', 'Control c2', 'fw1', '2', '1', 'partially effective'],
      ['c3', 'Control c3', 'fw1', '1', '1', 'ineffective'],
      ['c4', 'Control c4', 'fw1', '0', '0', 'not evidenced'],
    ]);
  });
});

describe('decisions needed', () => {
  it('lists, in order, unsigned risks at the threshold, severe findings, overdue requests, open incidents, expiring certifications', () => {
    const f = empty({
      risks: [
        risk('rsk_1', 15, 20),
        risk('rsk_2', 14, 20),
        risk('rsk_3', 20, 20, { signedOff: true }),
        risk('rsk_4', 15, 20, { status: 'closed' }),
      ],
      findings: [
        finding('fnd_a', 'high', 'open'),
        finding('fnd_b', 'critical', 'open'),
        finding('fnd_c', 'critical', 'closed'),
        finding('fnd_d', 'medium', 'open'),
        finding('fnd_0', 'critical', 'open', { createdAt: '2026-02-01T00:00:00.000Z' }),
      ],
      dsars: [
        // Due the day before the report date: overdue. Due on the report date: still on time.
        {
          id: 'dsr_1',
          regime: 'gdpr',
          kind: 'access',
          status: 'received',
          receivedAt: '2026-02-12T00:00:00.000Z',
          dueDate: '2026-03-14',
          closedAt: null,
        },
        {
          id: 'dsr_2',
          regime: 'gdpr',
          kind: 'access',
          status: 'received',
          receivedAt: '2026-02-13T00:00:00.000Z',
          dueDate: '2026-03-15',
          closedAt: null,
        },
        {
          id: 'dsr_3',
          regime: 'gdpr',
          kind: 'erasure',
          status: 'fulfilled',
          receivedAt: '2025-12-01T00:00:00.000Z',
          dueDate: '2026-01-01',
          closedAt: '2026-01-02T00:00:00.000Z',
        },
        {
          id: 'dsr_4',
          regime: 'other',
          kind: 'access',
          status: 'received',
          receivedAt: '2025-12-01T00:00:00.000Z',
          dueDate: null,
          closedAt: null,
        },
      ],
      incidents: [
        { id: 'inc_1', title: 'Outage', status: 'open', regimes: [], knownAt: '2026-03-10T08:00:00.000Z', closedAt: null },
        {
          id: 'inc_2',
          title: 'Old leak',
          status: 'closed',
          regimes: ['gdpr'],
          knownAt: '2025-03-10T08:00:00.000Z',
          closedAt: '2025-04-01T00:00:00.000Z',
        },
      ],
      certifications: [
        // The window is 30 days: up to 2026-04-14T12:00:00.000Z included.
        {
          id: 'crt_1',
          name: 'Ends at the horizon',
          issuer: 'X',
          validFrom: '2025-01-01T00:00:00.000Z',
          validUntil: '2026-04-14T12:00:00.000Z',
        },
        { id: 'crt_2', name: 'Ends after it', issuer: 'X', validFrom: '2025-01-01T00:00:00.000Z', validUntil: '2026-04-14T12:00:00.001Z' },
        { id: 'crt_3', name: 'Already ended', issuer: 'X', validFrom: '2025-01-01T00:00:00.000Z', validUntil: AS_OF },
        { id: 'crt_4', name: 'Never ends', issuer: 'X', validFrom: '2025-01-01T00:00:00.000Z', validUntil: null },
      ],
    });
    const decisions = build('decisionsNeeded', f);
    expect(rowsOf(decisions)).toEqual([
      ['Accept or treat risk', 'Risk rsk_1', 'residual 15 (high), not signed off'],
      ['Resource remediation', 'Finding fnd_0', 'critical finding open since 2026-02-01'],
      ['Resource remediation', 'Finding fnd_b', 'critical finding open since 2026-03-02'],
      ['Resource remediation', 'Finding fnd_a', 'high finding open since 2026-03-02'],
      ['Escalate overdue request', 'gdpr access request dsr_1', 'due 2026-03-14'],
      ['Oversee open incident', 'Outage', 'known since 2026-03-10 (no regime)'],
      ['Renew certification', 'Ends at the horizon', 'valid until 2026-04-14'],
    ]);
    expect(decisions.paragraphs).toEqual([]);
    const kpis = Object.fromEntries(rowsOf(build('kpis', f)));
    expect(kpis['Decisions waiting']).toBe('7');
    expect(kpis['Overdue data-subject requests']).toBe('1');
    expect(rowsOf(build('dsars', f)).map((r) => r[6])).toEqual(['overdue', 'on time', 'closed', 'on time']);
  });
});

describe('trends', () => {
  it('buckets the last `trendMonths` calendar months up to the report date, across a year boundary', () => {
    const f = empty({
      asOf: '2026-02-10T00:00:00.000Z',
      evidence: [
        evidence('evd_1', [], null, { collectedAt: '2025-12-31T23:59:59.999Z' }),
        evidence('evd_2', [], null, { collectedAt: '2026-01-01T00:00:00.000Z' }),
        evidence('evd_3', [], null, { collectedAt: '2025-11-30T00:00:00.000Z' }),
      ],
      findings: [finding('fnd_1', 'low', 'closed', { createdAt: '2026-02-01T00:00:00.000Z', closedAt: '2026-02-05T00:00:00.000Z' })],
    });
    const t = build('trends', f);
    expect(t.paragraphs).toEqual([]);
    expect(t.table).toEqual({
      columns: ['Measure', '2025-12', '2026-01', '2026-02'],
      rows: [
        ['Evidence collected', '1', '1', '0'],
        ['Findings raised', '0', '0', '1'],
        ['Findings closed', '0', '0', '1'],
        ['Risks registered', '0', '0', '0'],
        ['Incidents', '0', '0', '0'],
        ['Data-subject requests', '0', '0', '0'],
      ],
    });
  });
});

describe('obligations and evidence per clause', () => {
  it('joins obligations and evidence on framework and clause, sorted by clause key, and counts the gaps', () => {
    const f = empty({
      obligations: [
        { id: 'obl_1', frameworkId: 'fw1', clauseRef: 'art-9', title: 'Risk system', status: 'open', dueDate: '2026-08-02T00:00:00.000Z' },
        { id: 'obl_2', frameworkId: 'fw1', clauseRef: 'art-11', title: 'Tech docs', status: 'met', dueDate: '2026-08-02T00:00:00.000Z' },
      ],
      controls: [{ id: 'c1', frameworkId: 'fw1', title: 'Control 1', clauseRefs: ['art-9', 'art-10'] }],
      evidence: [evidence('evd_1', ['c1'], null, { title: 'Policy' })],
    });
    const b = build('obligationsEvidence', f);
    expect(b.paragraphs).toEqual(['2 of 3 clauses have evidence; 1 are gaps.']);
    expect(rowsOf(b)).toEqual([
      ['fw1 art-10', 'none recorded', 'Policy (2026-01-05)', 'supported'],
      ['fw1 art-11', 'Tech docs (met, due 2026-08-02)', 'no evidence', 'gap'],
      ['fw1 art-9', 'Risk system (open, due 2026-08-02)', 'Policy (2026-01-05)', 'supported'],
    ]);
  });
});

describe('technical tasks: urgency, then code-unit order on ties', () => {
  it('puts critical work first and orders equal urgencies by their text', () => {
    const f = empty({
      findings: [
        finding('fnd_t1', 'critical', 'open', { title: 'Crit', controlId: 'c1' }),
        finding('fnd_t2', 'high', 'open', { title: 'High one' }),
        finding('fnd_t3', 'medium', 'open', { title: 'Med' }),
        finding('fnd_t4', 'weird', 'open', { title: 'Odd' }),
        finding('fnd_t5', 'critical', 'closed', { title: 'Done' }),
      ],
      evidence: [evidence('evd_old', ['c1', 'c2'], '2026-01-01T00:00:00.000Z', { title: 'Old' })],
      risks: [
        risk('rsk_1', 9, 12, { title: 'R1', plannedTreatments: 1, controlIds: ['c2'] }),
        risk('rsk_2', 9, 12, { plannedTreatments: 2, status: 'closed' }),
        risk('rsk_3', 9, 12),
      ],
    });
    // Urgency: critical 0; high and expired evidence 1 ('Ref' < 'Rem'); medium and treatments 2
    // ('I' < 'R'); a severity outside the order ranks after all of them.
    expect(rowsOf(build('technicalTasks', f))).toEqual([
      ['Remediate finding fnd_t1', 'Crit', 'critical', 'c1'],
      ['Refresh evidence evd_old', 'Old', 'expired', 'c1, c2'],
      ['Remediate finding fnd_t2', 'High one', 'high', ''],
      ['Implement 1 treatment(s)', 'R1', 'residual 9', 'c2'],
      ['Remediate finding fnd_t3', 'Med', 'medium', ''],
      ['Remediate finding fnd_t4', 'Odd', 'weird', ''],
    ]);
  });
});

describe('classification', () => {
  const sys = (generalPurposeModel: boolean, transparencyFlags: string[]) => ({
    id: 'sys_1',
    profile: { name: 'S', purpose: 'P', provider: 'V', role: 'provider', model: null, generalPurposeModel, transparencyFlags },
  });
  const assessment = (type: string) => ({
    id: `asm_${type}`,
    type,
    systemId: 'sys_1',
    title: null,
    status: 'completed',
    completion: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const label = (f: ReportFactsData) => build('classification', f).paragraphs[0];

  it('applies the first rule that holds, in the catalogue order', () => {
    const base = { systemId: 'sys_1', systemIds: ['sys_1'] };
    expect(label(empty({ ...base, system: sys(true, []), assessments: [assessment('fria')] }))).toBe('Classification: GPAI.');
    expect(label(empty({ ...base, system: sys(false, ['deepFake']), assessments: [assessment('fria')] }))).toBe('Classification: FRIA.');
    expect(label(empty({ ...base, system: sys(false, ['deepFake']), assessments: [assessment('eu-conformity')] }))).toBe(
      'Classification: CONFORMITY.',
    );
    expect(label(empty({ ...base, system: sys(false, ['deepFake']) }))).toBe('Classification: TRANSPARENCY.');
    expect(label(empty({ ...base, system: { id: 'sys_1', profile: null } }))).toBe('Classification: UNPLACED.');
    const c = build('classification', empty({ ...base, system: sys(false, []), assessments: [assessment('fria')] }));
    expect(rowsOf(c)).toEqual([['asm_fria', 'fria', 'completed', '100%']]);
  });
});

describe('the system view', () => {
  it('keeps the system’s records and the organisation-wide ones when a system is named, all of them otherwise', () => {
    const f = empty({
      systemIds: ['sys_1', 'sys_2'],
      evidence: [
        evidence('evd_1', [], null, { systemId: 'sys_1' }),
        evidence('evd_2', [], null),
        evidence('evd_3', [], null, { systemId: 'sys_2' }),
      ],
      findings: [finding('fnd_1', 'low', 'open', { systemId: 'sys_2' }), finding('fnd_2', 'low', 'open')],
    });
    const all = blockContext(f, P);
    expect(all.view.evidence.map((e) => e.id)).toEqual(['evd_1', 'evd_2', 'evd_3']);
    expect(all.asOfMs).toBe(Date.parse(AS_OF));
    const one = blockContext({ ...f, systemId: 'sys_1', system: { id: 'sys_1', profile: null } }, P);
    expect(one.view.evidence.map((e) => e.id)).toEqual(['evd_1', 'evd_2']);
    expect(one.view.findings.map((x) => x.id)).toEqual(['fnd_2']);
    expect(rowsOf(build('system', { ...f, systemId: 'sys_1', system: { id: 'sys_1', profile: null } }))).toEqual([
      ['System id', 'sys_1'],
      ['Assessments', '0'],
      ['Evidence items', '1'],
    ]);
  });
});

describe('row limit', () => {
  it('keeps the first `maxRows` rows (vendors by risk score, ties by id) and says how many there were', () => {
    const vendor = (id: string, riskScore: number) => ({ id, name: id, criticality: 'high', status: 'active', riskScore, dataAccess: [] });
    const b = build('vendors', empty({ vendors: [vendor('vnd_b', 50), vendor('vnd_a', 50), vendor('vnd_c', 70)] }), { ...P, maxRows: 2 });
    expect(b.paragraphs).toEqual(['Showing the first 2 of 3 rows.']);
    expect(rowsOf(b).map((r) => r[0])).toEqual(['vnd_c', 'vnd_a']);
  });
});

describe('an empty tenant', () => {
  const f = empty();

  it('builds every block, each table as wide as its columns', () => {
    for (const block of Object.keys(BLOCK_BUILDERS) as ReportBlock[]) {
      const b = build(block, f);
      for (const row of rowsOf(b)) expect(row.length, block).toBe(b.table?.columns.length);
    }
  });

  it('says what is missing instead of an empty table', () => {
    expect(build('posture', f)).toEqual({ paragraphs: ['No framework is activated.'] });
    expect(build('posture', f)).not.toHaveProperty('table');
    expect(build('topRisks', f)).toEqual({ paragraphs: ['No open risk is on the register.'] });
    expect(build('decisionsNeeded', f)).toEqual({ paragraphs: ['No matter is waiting for a decision on the report date.'] });
    expect(build('obligationsEvidence', f)).toEqual({ paragraphs: ['No obligation or evidence is on record.'] });
    expect(build('system', f)).toEqual({
      paragraphs: ["No system was named: the report covers the organisation's 0 AI system(s): none on record."],
    });
    expect(build('agentDecisions', f)).toEqual({ paragraphs: ['Agent decisions are not recorded on this deployment.'] });
    expect(build('agentDecisions', empty({ agentDecisions: [] }))).toEqual({ paragraphs: ['No agent decision is on record.'] });
    expect(build('shariahFraming', f)).toEqual({ paragraphs: ['Framing one.', 'Framing two.'] });
  });

  it('reports n/a and zeros in the KPIs and the trends', () => {
    expect(rowsOf(build('kpis', f))).toEqual([
      ['Compliance posture', 'n/a'],
      ['Open risks at or above decision threshold', '0'],
      ['Highest residual risk', 'none'],
      ['Open findings', '0'],
      ['Open incidents', '0'],
      ['Overdue data-subject requests', '0'],
      ['Valid training completions', '0 of 0'],
      ['Decisions waiting', '0'],
    ]);
    expect(rowsOf(build('trends', f)).flatMap((r) => r.slice(1))).toEqual(Array(18).fill('0'));
    expect(build('trends', f).table?.columns).toEqual(['Measure', '2026-01', '2026-02', '2026-03']);
  });
});
