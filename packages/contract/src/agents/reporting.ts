import { z } from 'zod';
import { type AgentSpec, agentSpec } from './spec.ts';

/**
 * The report composer and its facades. One engine composes the 13 stakeholder report types from
 * the tenant's records; `stakeholder-report` picks the type from words describing the reader, and
 * each facade is a preset over the same engine: the types it offers, the one it uses when none is
 * asked for, and the sections it keeps. Every report is a draft with its recommended reviewers;
 * no agent publishes one.
 */

/** The 13 stakeholder report types, as `GET /v1/reports/types` lists them. */
export const STAKEHOLDER_REPORT_TYPE_IDS = [
  'regulator',
  'board',
  'shariah-board',
  'audit-committee',
  'partner',
  'investor',
  'customer',
  'internal',
  'engineer',
  'executive',
  'consultant',
  'trainer',
  'partner-program',
] as const;

const ALL31 = ['all31'] as const;
const BOTH = ['core14', 'all31'] as const;
const EXAMPLE_AT = '2026-11-20T09:00:00.000Z';
const EXAMPLE_TENANT = 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R';

const TemplateId = z.enum(STAKEHOLDER_REPORT_TYPE_IDS);
const SystemId = z
  .string()
  .min(1)
  .max(200)
  .meta({
    description:
      'Identifier of the AI system the report concerns, as the tenant names it in its assessments, evidence, findings or disclosure profile. Required by the regulator report; the others cover the whole organisation without it.',
    examples: ['sys_credit_scoring_v2'],
  });
const EngagementId = z
  .string()
  .min(1)
  .max(100)
  .meta({
    description: 'Id of one marketplace engagement to report on; without it the report covers every engagement.',
    examples: ['eng_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
  });

const Table = z
  .object({
    columns: z.array(z.string()).meta({ description: 'Column headings, in order.' }),
    rows: z.array(z.array(z.string())).meta({ description: 'Rows of cells, each as text, in the order the section presents them.' }),
  })
  .meta({ description: 'A table of the tenant’s records as the section presents them.' });
const Section = z
  .object({
    heading: z.string().meta({ description: 'Heading of the section.' }),
    block: z.string().meta({ description: 'The part of the report recipe that computed the section (`posture`, `topRisks`, ...).' }),
    paragraphs: z.array(z.string()).meta({ description: 'Paragraphs of the section: its introduction, then what the records show.' }),
    table: Table.optional().meta({ description: 'The section’s table; absent when the records give it no rows.' }),
  })
  .meta({ description: 'One titled section of the composed report.' });
const Preset = z
  .object({
    id: z.string().meta({ description: 'Id of the preset the agent applied (its slug).' }),
    allowedTypes: z.array(TemplateId).meta({ description: 'Report types this agent composes.' }),
    defaultType: TemplateId.meta({ description: 'The type it composes when the request names none.' }),
    blocks: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The recipe blocks the preset keeps, in the recipe’s order; null when it keeps every section of the type.' }),
  })
  .meta({ description: 'The preset of the agent over the report engine.' });

const reportFields = {
  template: TemplateId.meta({ description: 'The report type composed.' }),
  title: z.string().meta({ description: 'Title of the report.' }),
  audience: z.string().meta({ description: 'Who the report is written for.' }),
  templateId: z.string().meta({ description: 'Id of the PDF template the reporting rail renders this type with.' }),
  tenantId: z.string().meta({ description: 'The tenant whose records the report is composed from.' }),
  systemId: z.string().nullable().meta({ description: 'The AI system the report concerns; null for an organisation-wide report.' }),
  asOf: z.iso.datetime().meta({ description: 'The moment the records were read; every date comparison of the report is made against it.' }),
  sections: z.array(Section).meta({ description: 'The sections of the report, in the order of the type’s recipe.' }),
  recommendedReviewers: z.array(z.string()).meta({ description: 'Roles that should review the draft before anyone publishes it.' }),
  draft: z.literal(true).meta({ description: 'Always true: the agent composes a draft and never publishes it.' }),
  preset: Preset,
};

type TypeId = (typeof STAKEHOLDER_REPORT_TYPE_IDS)[number];

/** One illustrative report per type a preset composes by default. */
const EXAMPLE_REPORTS: Partial<Record<TypeId, { title: string; audience: string; reviewers: string[]; section: z.infer<typeof Section> }>> =
  {
    board: {
      title: 'Board compliance and risk report',
      audience: 'Board of directors',
      reviewers: ['chief-risk-officer', 'company-secretary', 'chief-executive-officer'],
      section: {
        heading: 'Top risks',
        block: 'topRisks',
        paragraphs: ['The risks of the register with the highest residual score.'],
        table: {
          columns: ['Risk', 'Domain', 'Inherent', 'Residual', 'Rating', 'Status'],
          rows: [['Biased scoring', 'ai', '20', '20', 'critical', 'open']],
        },
      },
    },
    executive: {
      title: 'Executive one-page summary',
      audience: 'Executive leadership',
      reviewers: ['chief-executive-officer', 'chief-risk-officer'],
      section: {
        heading: 'Key indicators',
        block: 'kpis',
        paragraphs: ['The indicators of the compliance programme on the report date.'],
        table: {
          columns: ['Indicator', 'Value'],
          rows: [
            ['Compliance posture', '12.5%'],
            ['Open findings', '3'],
          ],
        },
      },
    },
    internal: {
      title: 'Internal compliance status report',
      audience: 'Compliance, risk and privacy teams',
      reviewers: ['compliance-officer'],
      section: {
        heading: 'Records at a glance',
        block: 'overview',
        paragraphs: ['How many records of each kind the organisation keeps.'],
        table: {
          columns: ['Records', 'Count'],
          rows: [
            ['Evidence items', '14'],
            ['Risks', '6'],
          ],
        },
      },
    },
    'partner-program': {
      title: 'Partner-program report',
      audience: 'Partner-program managers and partners',
      reviewers: ['partner-program-manager', 'finance-controller'],
      section: {
        heading: 'Client rollups',
        block: 'clientRollups',
        paragraphs: ['Each client system rolled up from its assessments, evidence and findings.'],
        table: {
          columns: ['System', 'Assessments', 'Avg completion', 'Evidence', 'Open findings'],
          rows: [['sys_credit_scoring_v2', '1', '42.9%', '3', '1']],
        },
      },
    },
    consultant: {
      title: 'Consultant engagement report',
      audience: 'External consultants engaged by the organisation',
      reviewers: ['engagement-lead', 'compliance-officer'],
      section: {
        heading: 'Engagements',
        block: 'engagements',
        paragraphs: ['Each engagement of an advisory firm, with its status.', '1 engagement(s) on record.'],
        table: {
          columns: ['Engagement', 'Firm', 'Listing', 'Status', 'Since', 'Ended'],
          rows: [
            [
              'eng_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
              'frm_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
              'lst_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
              'active',
              '2026-10-01',
              'ongoing',
            ],
          ],
        },
      },
    },
    trainer: {
      title: 'Training cohort and curriculum report',
      audience: 'Trainers and training providers',
      reviewers: ['training-lead', 'human-resources'],
      section: {
        heading: 'Attestations of training credit',
        block: 'trainingAttestations',
        paragraphs: ['Each completion with its signed certificate, which attests the credit.'],
        table: {
          columns: ['Person', 'Module', 'Completed', 'Score', 'Certificate', 'Valid until'],
          rows: [['Ines Duarte', 'AI literacy basics', '2026-11-02', '92', 'crt_01JD3Z8W2M6Q4X9V7K5T1B0N3R', '2027-11-02']],
        },
      },
    },
  };

const exampleReport = (preset: z.infer<typeof Preset>) => {
  const e = EXAMPLE_REPORTS[preset.defaultType] ?? (EXAMPLE_REPORTS.board as NonNullable<(typeof EXAMPLE_REPORTS)['board']>);
  return {
    template: preset.defaultType,
    title: e.title,
    audience: e.audience,
    templateId: `pdf/${preset.defaultType}@1`,
    tenantId: EXAMPLE_TENANT,
    systemId: null,
    asOf: EXAMPLE_AT,
    sections: [e.section],
    recommendedReviewers: e.reviewers,
    draft: true as const,
    preset,
  };
};

const GROUP_REASON =
  'The report is assembled from the tenant’s records by a fixed recipe per report type: the same records and rules give the same sections, figures and reviewers.';

interface FacadeDef {
  slug: string;
  name: string;
  title: string;
  purpose: string;
  allowedTypes: TypeId[];
  defaultType: TypeId;
  blocks: string[] | null;
  engagement: boolean;
  catalogues: readonly ('core14' | 'all31')[];
}

/** A facade's spec: the same output shape, its own preset in the examples, the input shape given. */
function facadeSpec<const S extends z.core.$ZodLooseShape>(d: FacadeDef, shape: (template: z.ZodOptional<typeof TemplateId>) => S) {
  const preset = { id: d.slug, allowedTypes: d.allowedTypes, defaultType: d.defaultType, blocks: d.blocks };
  const template = TemplateId.optional().meta({
    description: `The report type to compose, one of ${d.allowedTypes.map((t) => `\`${t}\``).join(', ')}; \`${d.defaultType}\` when absent. A type outside these is refused with 422.`,
  });
  const example = exampleReport(preset);
  return agentSpec({
    slug: d.slug,
    title: d.title,
    purpose: d.purpose,
    group: 'deterministic',
    groupReason: GROUP_REASON,
    catalogues: d.catalogues,
    input: z.strictObject(shape(template)).meta({ id: `Agent${d.name}Input`, examples: [{}, { template: d.defaultType }] }),
    output: z.object(reportFields).meta({ id: `Agent${d.name}Output`, examples: [example] }),
  });
}

/** A facade over the tenant's records or one system. */
function facade(d: FacadeDef) {
  return facadeSpec(d, (template) => ({ template, systemId: SystemId.optional() }));
}

/** A facade that may narrow its report to one engagement. */
function engagementFacade(d: FacadeDef) {
  return facadeSpec(d, (template) => ({ template, systemId: SystemId.optional(), engagementId: EngagementId.optional() }));
}

const ALL_TYPES = [...STAKEHOLDER_REPORT_TYPE_IDS];

const stakeholderPreset = { id: 'stakeholder-report', allowedTypes: ALL_TYPES, defaultType: 'internal' as const, blocks: null };
const stakeholderReport = agentSpec({
  slug: 'stakeholder-report',
  title: 'Stakeholder report composer',
  purpose:
    'Reads who the report is for in plain words (`our board`, `the market-surveillance authority`, `Shariah supervisory board`), picks the matching one of the 13 report types by its keyword rules, and composes that report from the tenant’s records as a draft with its recommended reviewers.',
  group: 'deterministic',
  groupReason: 'The type follows from keyword rules applied to the words given, and the report from a fixed recipe applied to the records.',
  catalogues: BOTH,
  input: z
    .strictObject({
      stakeholder: z.string().trim().min(1).max(200).meta({
        description:
          'Who will read the report, in plain words (`board of directors`, `our auditors’ committee`, `a prospective customer`).',
      }),
      systemId: SystemId.optional(),
    })
    .meta({
      id: 'AgentStakeholderReportInput',
      examples: [
        { stakeholder: 'board of directors' },
        { stakeholder: 'market surveillance authority', systemId: 'sys_credit_scoring_v2' },
      ],
    }),
  output: z
    .object({
      ...reportFields,
      selection: z
        .object({
          stakeholder: z.string().meta({ description: 'The words given.' }),
          type: TemplateId.meta({ description: 'The report type they map to.' }),
          matchedKeywords: z.array(z.string()).meta({ description: 'The keywords of that type found in the words, longest first.' }),
        })
        .meta({ description: 'How the report type was chosen.' }),
    })
    .meta({
      id: 'AgentStakeholderReportOutput',
      examples: [
        {
          ...exampleReport({ ...stakeholderPreset, defaultType: 'board' }),
          preset: stakeholderPreset,
          selection: { stakeholder: 'board of directors', type: 'board', matchedKeywords: ['board of directors', 'board'] },
        },
      ],
    }),
});

const FACADES: FacadeDef[] = [];
/** Registers a facade's definition (its preset is read by the server's rules) and returns its spec. */
function withPreset(d: FacadeDef) {
  FACADES.push(d);
  return facade(d);
}
function withEngagementPreset(d: FacadeDef) {
  FACADES.push(d);
  return engagementFacade(d);
}

export const reportingAgents = {
  stakeholderReport,
  svcReporting: withPreset({
    slug: 'svc-reporting',
    name: 'SvcReporting',
    title: 'Stakeholder reporting',
    purpose:
      'Composes a stakeholder-shaped report (regulator, board, Shariah board, audit committee, partner, investor, customer or internal) from the tenant’s records; never publishes, always returns a draft with its recommended reviewers.',
    allowedTypes: ['regulator', 'board', 'shariah-board', 'audit-committee', 'partner', 'investor', 'customer', 'internal'],
    defaultType: 'board',
    blocks: null,
    engagement: false,
    catalogues: ALL31,
  }),
  alt1Reporting: withPreset({
    slug: 'alt1-reporting',
    name: 'Alt1Reporting',
    title: 'Engineer and executive reporting',
    purpose:
      'Composes the engineer report (controls and evidence gaps per system, technical tasks) or the executive one-page summary of key indicators from the tenant’s records, as a draft.',
    allowedTypes: ['engineer', 'executive'],
    defaultType: 'executive',
    blocks: null,
    engagement: false,
    catalogues: ALL31,
  }),
  alt2Reporting: withEngagementPreset({
    slug: 'alt2-reporting',
    name: 'Alt2Reporting',
    title: 'Report composer (all types)',
    purpose: 'Composes any of the 13 stakeholder report types from the tenant’s records, as a draft with its recommended reviewers.',
    allowedTypes: ALL_TYPES,
    defaultType: 'internal',
    blocks: null,
    engagement: true,
    catalogues: ALL31,
  }),
  svcPartnerReporting: withEngagementPreset({
    slug: 'svc-partner-reporting',
    name: 'SvcPartnerReporting',
    title: 'Partner-program reporting',
    purpose:
      'Composes the partner-program report: client rollups per system, the partner’s revenue share per engagement, joint-customer status and the white-label evidence pack list; never publishes.',
    allowedTypes: ['partner-program'],
    defaultType: 'partner-program',
    blocks: null,
    engagement: true,
    catalogues: ALL31,
  }),
  svcConsultantReporting: withEngagementPreset({
    slug: 'svc-consultant-reporting',
    name: 'SvcConsultantReporting',
    title: 'Consultant engagement reporting',
    purpose:
      'Composes the consultant report per engagement: the engagement, the open findings the firm works on and the posture it reads, as a draft.',
    allowedTypes: ['consultant'],
    defaultType: 'consultant',
    blocks: null,
    engagement: true,
    catalogues: ALL31,
  }),
  svcTrainerReporting: withPreset({
    slug: 'svc-trainer-reporting',
    name: 'SvcTrainerReporting',
    title: 'Trainer reporting',
    purpose:
      'Composes the trainer report: the curriculum, completion per module across the cohort, and the attestations of training credit with their certificates, as a draft.',
    allowedTypes: ['trainer'],
    defaultType: 'trainer',
    blocks: null,
    engagement: false,
    catalogues: ALL31,
  }),
  alt1PartnerReporting: withEngagementPreset({
    slug: 'alt1-partner-reporting',
    name: 'Alt1PartnerReporting',
    title: 'Partner reporting (partner-facing)',
    purpose:
      'The partner-facing surface of partner reporting: client rollups, joint-customer status and the white-label evidence pack of the partner or partner-program report, without the revenue figures.',
    allowedTypes: ['partner-program', 'partner'],
    defaultType: 'partner-program',
    blocks: ['clientRollups', 'jointCustomers', 'evidencePack'],
    engagement: true,
    catalogues: ALL31,
  }),
  alt1TrainerReporting: withPreset({
    slug: 'alt1-trainer-reporting',
    name: 'Alt1TrainerReporting',
    title: 'Trainer reporting (credit attestations)',
    purpose:
      'The attestation surface of trainer reporting: completion per module and the attestations of training credit, without the curriculum.',
    allowedTypes: ['trainer'],
    defaultType: 'trainer',
    blocks: ['trainingCompletion', 'trainingAttestations'],
    engagement: false,
    catalogues: ALL31,
  }),
} as const satisfies Record<string, AgentSpec>;

export interface ReportingPreset {
  allowedTypes: TypeId[];
  defaultType: TypeId;
  /** Recipe blocks the facade keeps; null keeps every section. */
  blocks: string[] | null;
}

/** The facades' presets by slug: the server's rules apply these, the specs above describe them. */
export const REPORTING_PRESETS: Readonly<Record<string, ReportingPreset>> = Object.fromEntries(
  FACADES.map((d) => [d.slug, { allowedTypes: [...d.allowedTypes], defaultType: d.defaultType, blocks: d.blocks ? [...d.blocks] : null }]),
);
