import { REPORTING_PRESETS, STAKEHOLDER_REPORT_TYPE_IDS } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectReportType } from '../packages/server/src/agents/defs/reporting.ts';
import {
  type ComposedReport,
  composeReport,
  REPORT_TYPES,
  type ReportFacts,
  type ReportFactsData,
} from '../packages/server/src/rails/reporting/compose.ts';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { section } from './support/reports.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The report engine and its nine agents: the 13 stakeholder types composed from a fixture of
 * facts (pure, no server), then every facade through HTTP over records created with the API:
 * its preset, its refusal of a type outside it (422), the stakeholder words mapped to a type,
 * and each decision replaying to its hash.
 */

const AS_OF = '2026-11-20T09:00:00.000Z';

/** A tenant's records as gather reads them, hand-made so that every figure below can be worked by hand. */
const FACTS: ReportFactsData = {
  asOf: AS_OF,
  tenantId: 'ten_fixture',
  systemId: null,
  engagementId: null,
  system: null,
  systemIds: ['sys_credit'],
  frameworks: [{ id: 'eu-ai-act', title: 'EU AI Act', versionKey: 'eu-ai-act@1.0.0', controlCount: 4 }],
  controls: [
    { id: 'AIA-CLS-01', frameworkId: 'eu-ai-act', title: 'AI system inventory', clauseRefs: ['art-3'] },
    { id: 'AIA-RMS-01', frameworkId: 'eu-ai-act', title: 'Risk-management system', clauseRefs: ['art-9'] },
  ],
  evidence: [
    {
      id: 'evd_1',
      title: 'Inventory export Q3',
      kind: 'document',
      systemId: 'sys_credit',
      controlIds: ['AIA-CLS-01'],
      collectedAt: '2026-10-05T00:00:00.000Z',
      expiresAt: null,
      sha256: true,
    },
    {
      id: 'evd_2',
      title: 'Old risk procedure',
      kind: 'policy',
      systemId: null,
      controlIds: ['AIA-RMS-01'],
      collectedAt: '2025-01-05T00:00:00.000Z',
      expiresAt: '2026-01-01T00:00:00.000Z',
      sha256: false,
    },
  ],
  findings: [
    {
      id: 'fnd_1',
      title: 'Risk register stale',
      severity: 'high',
      status: 'open',
      controlId: 'AIA-RMS-01',
      systemId: 'sys_credit',
      createdAt: '2026-11-02T00:00:00.000Z',
      closedAt: null,
    },
  ],
  assessments: [
    {
      id: 'asm_1',
      type: 'fria',
      systemId: 'sys_credit',
      title: null,
      status: 'in_progress',
      completion: 0.5,
      createdAt: '2026-09-01T00:00:00.000Z',
    },
  ],
  obligations: [
    {
      id: 'obl_1',
      frameworkId: 'eu-ai-act',
      clauseRef: 'art-9',
      title: 'Establish a risk-management system',
      status: 'open',
      dueDate: '2026-08-02T00:00:00.000Z',
    },
  ],
  risks: [
    {
      id: 'rsk_1',
      title: 'Biased credit scoring',
      domain: 'ai',
      status: 'open',
      inherentScore: 20,
      residualScore: 16,
      residualRating: 'high',
      controlIds: ['AIA-RMS-01'],
      plannedTreatments: 1,
      signedOff: false,
      createdAt: '2026-10-10T00:00:00.000Z',
    },
    {
      id: 'rsk_2',
      title: 'Vendor outage',
      domain: 'third-party',
      status: 'open',
      inherentScore: 6,
      residualScore: 6,
      residualRating: 'medium',
      controlIds: [],
      plannedTreatments: 0,
      signedOff: true,
      createdAt: '2026-11-10T00:00:00.000Z',
    },
  ],
  signOffs: [
    { id: 'rso_1', riskId: 'rsk_2', signerId: 'usr_owner', statement: 'Accepted', residualScore: 6, createdAt: '2026-11-11T00:00:00.000Z' },
  ],
  attestations: [],
  incidents: [
    { id: 'inc_1', title: 'Scoring outage', status: 'open', regimes: ['gdpr'], knownAt: '2026-11-15T00:00:00.000Z', closedAt: null },
  ],
  dsars: [
    {
      id: 'dsr_1',
      regime: 'gdpr',
      kind: 'access',
      status: 'received',
      receivedAt: '2026-09-01T00:00:00.000Z',
      dueDate: '2026-10-01',
      closedAt: null,
    },
  ],
  vendors: [{ id: 'vnd_1', name: 'ScoreCloud', criticality: 'high', status: 'active', riskScore: 42, dataAccess: ['personal'] }],
  certifications: [
    {
      id: 'crt_1',
      name: 'ISO/IEC 27001:2022',
      issuer: 'BSI',
      validFrom: '2026-01-01T00:00:00.000Z',
      validUntil: '2026-12-31T00:00:00.000Z',
    },
  ],
  subProcessors: [{ id: 'sub_1', name: 'Hetzner', purpose: 'Hosting', region: 'EU/DE' }],
  engagements: [
    {
      id: 'eng_1',
      listingId: 'lst_1',
      firmId: 'frm_1',
      shareRateBps: 1500,
      status: 'active',
      createdAt: '2026-10-01T00:00:00.000Z',
      endedAt: null,
    },
  ],
  trainingModules: [
    { id: 'trm_1', title: 'AI literacy basics', requiredForRoleIds: ['rol_1'], validityDays: 365, frameworkRefs: ['eu-ai-act art-4'] },
  ],
  trainingRecords: [
    {
      id: 'trr_1',
      moduleId: 'trm_1',
      userId: 'usr_1',
      userName: 'Ines Duarte',
      moduleTitle: 'AI literacy basics',
      completedAt: '2026-11-02T00:00:00.000Z',
      score: 92,
      expiresAt: '2027-11-02T00:00:00.000Z',
      certificateId: 'cert_1',
    },
  ],
  agentDecisions: [{ agent: 'classifier', count: 3 }],
};
const facts = FACTS as unknown as ReportFacts;

const cells = (r: ComposedReport) => JSON.stringify(r.sections);

describe('the engine (pure)', () => {
  it('lists the 13 stakeholder types, as the contract names them, then the two assessment documents, each with a template, reviewers and inputs', () => {
    expect(REPORT_TYPES.map((t) => t.id)).toEqual([...STAKEHOLDER_REPORT_TYPE_IDS, 'fria', 'dpia']);
    for (const t of REPORT_TYPES) {
      expect(t.templateId).toBe(`pdf/${t.id}@1`);
      expect(t.reviewers.length).toBeGreaterThan(0);
    }
    expect(REPORT_TYPES.find((t) => t.id === 'regulator')?.requiredInputs).toEqual(['systemId']);
  });

  it('composes every type from the facts, with the tenant’s data in its sections, as a draft with the type’s reviewers', () => {
    // One record of the fixture that each type must show, proving its sections read the facts.
    const expected: Record<string, string> = {
      regulator: 'Inventory export Q3',
      board: 'Biased credit scoring',
      'shariah-board': 'ScoreCloud',
      'audit-committee': 'Risk register stale',
      partner: 'sys_credit',
      investor: 'Open risks rated high',
      customer: 'Hetzner',
      internal: 'dsr_1',
      engineer: 'Remediate finding fnd_1',
      executive: 'Biased credit scoring (16)',
      consultant: 'eng_1',
      trainer: 'cert_1',
      'partner-program': '15.00%',
    };
    // The stakeholder types (the assessment documents render an assessment: test/report-assessment-document.test.ts).
    for (const t of REPORT_TYPES.filter((x) => x.id in expected)) {
      const r = composeReport(t.id, facts);
      expect(r).toMatchObject({
        template: t.id,
        templateId: t.templateId,
        tenantId: 'ten_fixture',
        asOf: AS_OF,
        draft: true,
        recommendedReviewers: t.reviewers,
      });
      expect(r.sections.length, t.id).toBeGreaterThan(0);
      for (const s of r.sections)
        if (s.table) for (const row of s.table.rows) expect(row.length, `${t.id}/${s.block}`).toBe(s.table.columns.length);
      expect(cells(r), t.id).toContain(expected[t.id]);
      // Pure: the same facts give the same bytes.
      expect(JSON.stringify(composeReport(t.id, facts))).toBe(JSON.stringify(r));
    }
  });

  it('computes the figures: posture, ranking, trends, overdue clocks, effectiveness, classification', () => {
    const board = composeReport('board', facts);
    // evd_2 expired on 2026-01-01: only AIA-CLS-01 of the 4 controls has current evidence.
    expect(section(board, 'posture').table?.rows).toEqual([['EU AI Act', '4', '1', '25%']]);
    expect(section(board, 'topRisks').table?.rows.map((r) => r[0])).toEqual(['Biased credit scoring', 'Vendor outage']);
    const trends = section(board, 'trends').table;
    expect(trends?.columns).toEqual(['Measure', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']);
    expect(trends?.rows.find((r) => r[0] === 'Risks registered')).toEqual(['Risks registered', '0', '0', '0', '0', '1', '1']);
    const decisions = section(board, 'decisionsNeeded').table?.rows ?? [];
    // Residual 16 >= 15 and not signed off; a high finding; the request due 2026-10-01; the open
    // incident; the certificate ending 2026-12-31, 41 days after the report date (window 60).
    expect(decisions.map((r) => r[0])).toEqual([
      'Accept or treat risk',
      'Resource remediation',
      'Escalate overdue request',
      'Oversee open incident',
      'Renew certification',
    ]);
    const audit = composeReport('audit-committee', facts);
    expect(section(audit, 'controlEffectiveness').table?.rows.map((r) => [r[0], r[5]])).toEqual([
      ['AIA-CLS-01', 'effective'],
      ['AIA-RMS-01', 'ineffective'],
    ]);
    const regulator = composeReport('regulator', {
      ...FACTS,
      systemId: 'sys_credit',
      system: { id: 'sys_credit', profile: null },
    } as unknown as ReportFacts);
    expect(section(regulator, 'classification').paragraphs).toContain(
      'Classification: High-risk AI system (a fundamental-rights impact assessment is on record).',
    );
    expect(section(regulator, 'obligationsEvidence').table?.rows).toEqual([
      ['eu-ai-act art-3', 'none recorded', 'Inventory export Q3 (2026-10-05)', 'supported'],
      ['eu-ai-act art-9', 'Establish a risk-management system (open, due 2026-08-02)', 'Old risk procedure (2025-01-05)', 'supported'],
    ]);
    const exec = composeReport('executive', facts);
    expect(section(exec, 'kpis').table?.rows[0]).toEqual(['Compliance posture', '25%']);
  });

  it('keeps only the blocks a preset asks for, and refuses an unknown type', () => {
    const r = composeReport('trainer', facts, { blocks: ['trainingAttestations'] });
    expect(r.sections.map((s) => s.block)).toEqual(['trainingAttestations']);
    expect(() => composeReport('newsletter', facts)).toThrow(/newsletter/);
  });

  it('maps stakeholder words to a type, the most specific keyword winning', () => {
    const kw = (s: string) =>
      selectReportType(s, [
        { type: 'board', keywords: ['board', 'board of directors'] },
        { type: 'shariah-board', keywords: ['shariah supervisory board', 'shariah'] },
        { type: 'audit-committee', keywords: ['audit committee'] },
      ])?.type;
    expect(kw('Our Board of Directors')).toBe('board');
    expect(kw('the Shariah Supervisory Board')).toBe('shariah-board');
    expect(kw('audit committee of the board')).toBe('audit-committee');
    expect(kw('the cat')).toBeUndefined();
  });
});

describe('the reporting agents (HTTP)', () => {
  let ts: TestServer;
  let t: TenantFixture;
  let other: TenantFixture;
  const decisionIds: string[] = [];

  const invoke = async (slug: string, body: unknown) => {
    const r = await t.call('POST', `/v1/agents/${slug}/invoke`, { body });
    if (r.status === 200) decisionIds.push(r.body.decisionId);
    return r;
  };
  const ok = async (slug: string, body: unknown) => {
    const r = await invoke(slug, body);
    expect(r.status, `${slug} ${JSON.stringify(r.body)}`).toBe(200);
    expect(r.body).toMatchObject({ object: 'svc.agents.decision', agent: slug, draft: true });
    return r.body as ComposedReport & {
      preset: { id: string; allowedTypes: string[]; defaultType: string; blocks: string[] | null };
      [k: string]: unknown;
    };
  };

  beforeAll(async () => {
    ts = await startTestServer();
    [t, other] = await Promise.all([createTenant(ts, { tier: 'growth' }), createTenant(ts, { tier: 'growth' })]);
    expect([200, 201]).toContain((await t.call('POST', '/v1/frameworks/eu-ai-act/activate')).status);
    const created = await Promise.all([
      t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 'sys_credit', jurisdiction: 'eu/de' } }),
      t.call('POST', '/v1/compliance/evidence', {
        body: {
          title: 'Inventory export Q3',
          kind: 'document',
          controlIds: ['AIA-CLS-01'],
          systemId: 'sys_credit',
          collectedAt: '2026-10-05T00:00:00Z',
        },
      }),
      t.call('POST', '/v1/risk-register/risks', {
        body: { title: 'Biased credit scoring', domain: 'ai', inherentLikelihood: 4, inherentImpact: 4 },
      }),
      t.call('POST', '/v1/self-audit/findings', {
        body: { title: 'Risk register stale', severity: 'high', controlId: 'AIA-CLS-02', systemId: 'sys_credit' },
      }),
      other.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_elsewhere', jurisdiction: 'eu/de' } }),
    ]);
    for (const c of created) expect(c.status, JSON.stringify(c.body)).toBe(201);
  }, 120_000);
  afterAll(() => ts?.close());

  it('svc-reporting answers its preset (board by default) from the tenant’s records, and changes when they do', async () => {
    const r = await ok('svc-reporting', {});
    expect(r.template).toBe('board');
    expect(r.preset).toEqual({ id: 'svc-reporting', ...REPORTING_PRESETS['svc-reporting'] });
    expect(r.recommendedReviewers).toEqual(REPORT_TYPES.find((x) => x.id === 'board')?.reviewers);
    expect(section(r, 'topRisks').table?.rows).toEqual([['Biased credit scoring', 'ai', '16', '16', 'high', 'open']]);
    // 1 of the Act's controls has evidence.
    expect(section(r, 'posture').table?.rows[0]?.slice(2)).toEqual(['1', expect.stringMatching(/%$/)]);
    const worse = await t.call('POST', '/v1/risk-register/risks', {
      body: { title: 'Model drift', domain: 'ai', inherentLikelihood: 5, inherentImpact: 5 },
    });
    expect(worse.status).toBe(201);
    const again = await ok('svc-reporting', { template: 'board' });
    expect(section(again, 'topRisks').table?.rows.map((row) => [row[0], row[3]])).toEqual([
      ['Model drift', '25'],
      ['Biased credit scoring', '16'],
    ]);
  });

  it('composes the regulator report for a system of the tenant; needs systemId; 404 for another tenant’s system', async () => {
    const r = await ok('svc-reporting', { template: 'regulator', systemId: 'sys_credit' });
    expect(r.systemId).toBe('sys_credit');
    expect(section(r, 'classification').paragraphs).toContain(
      'Classification: High-risk AI system (a fundamental-rights impact assessment is on record).',
    );
    expect(JSON.stringify(section(r, 'obligationsEvidence').table?.rows)).toContain('Inventory export Q3 (2026-10-05)');
    const missing = expectEnvelope(await invoke('svc-reporting', { template: 'regulator' }), 422, 'validation_failed');
    expect(missing.details[0].field).toBe('systemId');
    expectEnvelope(await invoke('svc-reporting', { template: 'regulator', systemId: 'sys_elsewhere' }), 404, 'not_found');
  });

  it('each facade answers its preset and refuses a type outside it with 422 naming it', async () => {
    const cases: [string, string, string][] = [
      ['alt1-reporting', 'executive', 'board'],
      ['alt2-reporting', 'internal', 'nonsense'],
      ['svc-partner-reporting', 'partner-program', 'partner'],
      ['svc-consultant-reporting', 'consultant', 'trainer'],
      ['svc-trainer-reporting', 'trainer', 'consultant'],
      ['alt1-partner-reporting', 'partner-program', 'board'],
      ['alt1-trainer-reporting', 'trainer', 'investor'],
    ];
    for (const [slug, type, outside] of cases) {
      const r = await ok(slug, {});
      expect(r.template, slug).toBe(type);
      expect(r.preset, slug).toEqual({ id: slug, ...REPORTING_PRESETS[slug] });
      if (r.preset.blocks)
        expect(
          r.sections.map((s) => s.block),
          slug,
        ).toEqual(r.preset.blocks);
      const refused = expectEnvelope(await invoke(slug, { template: outside }), 422, 'validation_failed');
      expect(refused.details[0].field, slug).toBe('template');
      if (outside !== 'nonsense') expect(refused.message, slug).toContain(outside);
    }
    const engineer = await ok('alt1-reporting', { template: 'engineer' });
    expect(JSON.stringify(section(engineer, 'technicalTasks').table?.rows)).toContain('Risk register stale');
    const customer = await ok('alt2-reporting', { template: 'customer' });
    expect(customer.sections.map((s) => s.block)).toEqual(['posture', 'certifications', 'subProcessors']);
    const partner = await ok('alt1-partner-reporting', { template: 'partner' });
    expect(section(partner, 'clientRollups').table?.rows).toEqual([['sys_credit', '1', '0%', '1', '1']]);
    expectEnvelope(await invoke('svc-consultant-reporting', { engagementId: 'eng_missing' }), 404, 'not_found');
  });

  it('stakeholder-report picks the type from the words and composes it', async () => {
    const r = await ok('stakeholder-report', { stakeholder: 'our Shariah supervisory board' });
    expect(r.template).toBe('shariah-board');
    expect(r.selection).toEqual({
      stakeholder: 'our Shariah supervisory board',
      type: 'shariah-board',
      matchedKeywords: ['shariah supervisory board', 'shariah'],
    });
    expect(section(r, 'shariahFraming').paragraphs.join(' ')).toContain('AAOIFI');
    expect((await ok('stakeholder-report', { stakeholder: 'Audit committee of the board' })).template).toBe('audit-committee');
    const exec = await ok('stakeholder-report', { stakeholder: 'the CEO' });
    expect(exec.template).toBe('executive');
    expect(section(exec, 'kpis').table?.rows.find((row) => row[0] === 'Highest residual risk')?.[1]).toBe('Model drift (25)');
    expect(expectEnvelope(await invoke('stakeholder-report', { stakeholder: 'the cat' }), 422, 'validation_failed').details[0].field).toBe(
      'stakeholder',
    );
    expect(expectEnvelope(await invoke('stakeholder-report', {}), 422, 'validation_failed').details[0].field).toBe('stakeholder');
    expect(
      expectEnvelope(await invoke('stakeholder-report', { stakeholder: 'market surveillance authority' }), 422, 'validation_failed')
        .details[0].field,
    ).toBe('systemId');
  });

  it('every decision replays to its hash', async () => {
    expect(decisionIds.length).toBeGreaterThan(10);
    for (const id of decisionIds) {
      const res = await t.call('GET', `/v1/agents/decisions/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.replay, id).toMatchObject({ reproduced: true, intact: true, divergences: [] });
    }
  });
});
