import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import type { ReportCatalogue, ReportParameters } from './catalogue.ts';
import { type ComposedReport, composeReport, REPORT_TYPES } from './compose.ts';
import type { ReportFacts, ReportFactsData } from './facts.ts';

/**
 * The composition: recipe + facts -> report, over a catalogue built here (and, last, the shipped
 * one). No server, no database.
 */

const AS_OF = '2026-03-15T12:00:00.000Z';

const P: ReportParameters = {
  topRisks: 2,
  trendMonths: 2,
  decisionResidualScore: 15,
  decisionFindingSeverities: ['critical'],
  certificationExpiringDays: 30,
  effectiveness: { effectiveMinEvidence: 1, ineffectiveOpenFindings: 1 },
  severityOrder: ['critical', 'high', 'medium', 'low'],
  maxRows: 50,
  classification: [{ when: 'always', label: 'Unplaced' }],
  shariahFraming: ['Framing.'],
};

const CATALOGUE: ReportCatalogue = {
  version: '0.0.1',
  description: 'A two-type catalogue for the unit tests.',
  types: [
    {
      id: 'board',
      title: 'Board report',
      audience: 'The board',
      templateId: 'pdf/board@1',
      requiredInputs: [],
      reviewers: ['owner', 'admin'],
      sections: [
        { heading: 'Where we stand', block: 'posture', intro: 'Posture intro.' },
        { heading: 'Framing', block: 'shariahFraming', intro: 'Framing intro.' },
        { heading: 'Top risks', block: 'topRisks', intro: 'Risks intro.' },
      ],
    },
    {
      id: 'executive',
      title: 'Executive summary',
      audience: 'Executives',
      templateId: 'pdf/executive@1',
      requiredInputs: [],
      reviewers: ['owner'],
      sections: [{ heading: 'Indicators', block: 'kpis', intro: 'KPI intro.' }],
    },
  ],
  parameters: P,
};

const FACTS: ReportFactsData = {
  asOf: AS_OF,
  tenantId: 'ten_unit',
  systemId: null,
  engagementId: null,
  system: null,
  systemIds: [],
  frameworks: [{ id: 'fw1', title: 'Framework One', versionKey: 'fw1@1', controlCount: 2 }],
  controls: [{ id: 'c1', frameworkId: 'fw1', title: 'Control 1', clauseRefs: ['art-1'] }],
  evidence: [
    {
      id: 'evd_1',
      title: 'Policy',
      kind: 'policy',
      systemId: null,
      controlIds: ['c1'],
      collectedAt: '2026-01-05T00:00:00.000Z',
      expiresAt: null,
      sha256: true,
    },
  ],
  findings: [],
  assessments: [],
  obligations: [],
  risks: [
    {
      id: 'rsk_1',
      title: 'Model drift',
      domain: 'ai',
      status: 'open',
      inherentScore: 20,
      residualScore: 12,
      residualRating: 'medium',
      controlIds: [],
      plannedTreatments: 0,
      signedOff: false,
      createdAt: '2026-02-01T00:00:00.000Z',
    },
  ],
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
};
const facts = FACTS as unknown as ReportFacts;

describe('composeReport', () => {
  it('puts each recipe section’s heading and introduction over what its block computed, in recipe order', () => {
    const r = composeReport('board', facts, CATALOGUE);
    expect(r.sections).toEqual([
      {
        heading: 'Where we stand',
        block: 'posture',
        paragraphs: ['Posture intro.', 'Overall posture: 50% of 2 controls have current evidence.'],
        table: { columns: ['Framework', 'Controls', 'With evidence', 'Posture'], rows: [['Framework One', '2', '1', '50%']] },
      },
      { heading: 'Framing', block: 'shariahFraming', paragraphs: ['Framing intro.', 'Framing.'] },
      {
        heading: 'Top risks',
        block: 'topRisks',
        paragraphs: ['Risks intro.'],
        table: {
          columns: ['Risk', 'Domain', 'Inherent', 'Residual', 'Rating', 'Status'],
          rows: [['Model drift', 'ai', '20', '12', 'medium', 'open']],
        },
      },
    ]);
  });

  it('lays out the report and its sections in a fixed key order, with no table key on a section without one', () => {
    const r = composeReport('board', facts, CATALOGUE);
    expect(Object.keys(r)).toEqual([
      'template',
      'templateId',
      'title',
      'audience',
      'tenantId',
      'systemId',
      'asOf',
      'sections',
      'recommendedReviewers',
      'draft',
    ]);
    expect(r).toMatchObject({
      template: 'board',
      templateId: 'pdf/board@1',
      title: 'Board report',
      audience: 'The board',
      tenantId: 'ten_unit',
      systemId: null,
      asOf: AS_OF,
      recommendedReviewers: ['owner', 'admin'],
      draft: true,
    });
    expect(r.sections.map((s) => Object.keys(s))).toEqual([
      ['heading', 'block', 'paragraphs', 'table'],
      ['heading', 'block', 'paragraphs'],
      ['heading', 'block', 'paragraphs', 'table'],
    ]);
  });

  it('is pure: the same facts give the same bytes, the facts and the recipe are left as they were', () => {
    const before = JSON.stringify([FACTS, CATALOGUE]);
    const a = composeReport('board', facts, CATALOGUE);
    const b = composeReport('board', facts, CATALOGUE);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify([FACTS, CATALOGUE])).toBe(before);
    // The reviewers are a copy: a caller editing the report does not edit the recipe.
    a.recommendedReviewers.push('someone');
    expect(CATALOGUE.types[0]?.reviewers).toEqual(['owner', 'admin']);
  });

  it('takes the rules as a catalogue or as { catalogue, blocks }, keeping the named blocks in recipe order', () => {
    const kept = composeReport('board', facts, { catalogue: CATALOGUE, blocks: ['topRisks', 'posture'] });
    expect(kept.sections.map((s) => s.block)).toEqual(['posture', 'topRisks']);
    expect(composeReport('board', facts, { catalogue: CATALOGUE, blocks: [] }).sections).toEqual([]);
    expect(JSON.stringify(composeReport('board', facts, { catalogue: CATALOGUE }))).toBe(
      JSON.stringify(composeReport('board', facts, CATALOGUE)),
    );
  });

  it('refuses a template the catalogue does not have, naming the field', () => {
    let error: unknown;
    try {
      composeReport('newsletter', facts, CATALOGUE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'validation_failed',
      message: 'Report template newsletter is not one of the 2 report types.',
      details: [{ field: 'template', issue: 'invalid_value', message: 'Report template newsletter is not one of the 2 report types.' }],
    });
  });

  it('reports the facts’ system, and null when the facts name none', () => {
    const r = composeReport(
      'executive',
      { ...FACTS, systemId: 'sys_1', system: { id: 'sys_1', profile: null } } as unknown as ReportFacts,
      CATALOGUE,
    );
    expect(r.systemId).toBe('sys_1');
    const { systemId: _omitted, ...withoutSystem } = FACTS;
    expect(composeReport('executive', withoutSystem as unknown as ReportFacts, CATALOGUE).systemId).toBeNull();
  });

  it('uses the shipped catalogue when no rules are given: 15 types, each composing an empty tenant', () => {
    expect(REPORT_TYPES).toHaveLength(15);
    const emptyTenant = {
      ...FACTS,
      frameworks: [],
      controls: [],
      evidence: [],
      risks: [],
    } as unknown as ReportFacts;
    for (const t of REPORT_TYPES) {
      const r: ComposedReport = composeReport(t.id, emptyTenant);
      expect(r.templateId).toBe(t.templateId);
      expect(r.recommendedReviewers).toEqual(t.reviewers);
      expect(r.sections.length, t.id).toBeGreaterThan(0);
      for (const s of r.sections)
        if (s.table) for (const row of s.table.rows) expect(row.length, `${t.id}/${s.block}`).toBe(s.table.columns.length);
    }
    expect(composeReport('executive', emptyTenant).sections.map((s) => s.block)).toEqual(['kpis']);
  });
});
