import { z } from 'zod';
import { exampleId } from '../../../shared/records.ts';
import { type AgentSpec, agentSpec } from './spec.ts';

/**
 * What several agents' declarations share: the catalogue lists, the example constants, the schema
 * fragments reused across agents, the drafted-section shape of the authoring agents, the search
 * facades' input and output, and the report composer's facades and presets.
 */

// ---------------------------------------------------------------- catalogues and examples

/** The agent is named by the 31-agent list only. */
export const ALL31 = ['all31'] as const;
/** The agent is named by the 14-agent list only. */
export const CORE14 = ['core14'] as const;
/** The agent is named by both lists. */
export const BOTH = ['core14', 'all31'] as const;

export const EXAMPLE_AT = '2026-11-20T09:00:00.000Z';
/** The id of the examples' records, with the prefix of their kind (`rsk_01JD...`): the rails' example ids. */
export { exampleId };
/** The AI system of the authoring agents' examples. */
export const EXAMPLE_SYSTEM = 'sys_credit_scoring';

// ---------------------------------------------------------------- schema fragments

export const d = (description: string) => ({ description });
/** A non-empty trimmed string of at most `max` characters. */
export const Label = (max: number, description: string) => z.string().trim().min(1).max(max).meta({ description });
/** An id given in a request. */
export const Id = (description: string) => Label(200, description);
export const Timestamp = z.iso.datetime();
export const Iso = z.string().meta({ description: 'An ISO 8601 UTC timestamp.' });
export const CalendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const Rank = z.int().meta(d('Position, 1 first.'));
/** A ranked list: each entry has its `rank`, then the fields given. */
export const rankedList = <const S extends z.core.$ZodLooseShape>(fields: S) => z.array(z.object({ rank: Rank, ...fields }));
export const Clause = z
  .object({
    ref: z.string().meta({ description: 'Clause reference within the dictionary (`art-10-2`).' }),
    title: z.string().meta({ description: 'Title of the clause as the dictionary gives it.' }),
  })
  .meta({ description: 'A clause of a framework dictionary that the answer cites.' });
export const DataLevel = z.enum(['public', 'internal', 'confidential', 'restricted', 'regulated']);

// ---------------------------------------------------------------- drafted documents (fria, conformity-guide, gpai-docs)

export const Source = z
  .object({
    type: z.string().meta(d('Kind of record the content came from (`evidence`, `risk`, `assessment`, `profile`, ...).')),
    id: z.string().meta(d('Id of that record.')),
  })
  .meta(d('A record a section or an item was filled from.'));
const SectionStatus = z
  .enum(['filled', 'partial', 'missing'])
  .meta(d('Whether the records fill the section wholly, in part, or not at all.'));
export const Section = z.object({
  id: z.string().meta(d('Stable id of the section.')),
  ref: z.string().meta(d('Provision the section answers.')),
  title: z.string().meta(d('Title of the section.')),
  status: SectionStatus,
  content: z.array(z.string()).meta(d('Lines drafted from the records, in order; empty when the section is missing.')),
  sources: z.array(Source).meta(d('Records the lines were drafted from.')),
  hint: z.string().meta(d('What to record to complete the section.')),
});

/** The input of an agent that reads one AI system's records. */
export const SystemInput = (id: string) =>
  z
    .strictObject({ systemId: Id('The AI system: the `systemId` of its disclosure profile, assessments, evidence or RACI assignments.') })
    .meta({ id, examples: [{ systemId: EXAMPLE_SYSTEM }] });

// ---------------------------------------------------------------- search facades (svc-search, alt1-search, alt2-search)

const searchInput = (id: string, example: string) =>
  z
    .strictObject({
      query: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .meta({ description: 'What to look for, in natural language (`evidence older than 90 days`).' }),
      kinds: z
        .array(z.string().min(1).max(40))
        .min(1)
        .max(20)
        .optional()
        .meta({ description: 'Kinds of record to search (ids of `GET /v1/search/kinds`); the facade’s preset when absent.' }),
      limit: z.int().min(1).max(50).optional().meta({ description: 'Hits to return, 1 to 50; the facade’s preset when absent.' }),
    })
    .meta({ id, examples: [{ query: example }, { query: 'evidence older than 90 days', limit: 10 }] });

const searchOutputExample = {
  parsed: {
    terms: 'risk management',
    kinds: ['control', 'clause'],
    filters: { framework: ['eu-ai-act'] },
    dateFilter: null,
    matched: ['framework: "ai act" -> eu-ai-act'],
  },
  total: 1,
  hits: [
    {
      rank: 1,
      kind: 'control',
      id: 'eu-ai-act@1.0.0/AIA-RMS-01',
      title: 'Risk management system',
      score: 12.5,
      engineScore: 12.5,
      snippet: null,
      fields: { framework: ['eu-ai-act'] },
    },
  ],
};
const searchOutput = (id: string) =>
  z
    .object({
      parsed: z
        .object({
          terms: z.string().meta({ description: 'The BM25 terms sent to the engine (the query without the words turned into filters).' }),
          kinds: z.array(z.string()).meta({ description: 'Kinds searched.' }),
          filters: z.record(z.string(), z.array(z.string())).meta({ description: 'Facet filters read from the query.' }),
          dateFilter: z
            .object({
              field: z.string().meta({
                description: 'The date fields the condition applies to, as `kind.field` pairs joined by commas (`evidence.collectedAt`).',
              }),
              before: CalendarDate.nullable().meta({
                description: 'Hits dated before this day match (YYYY-MM-DD); null when the query sets no upper bound.',
              }),
              after: CalendarDate.nullable().meta({
                description: 'Hits dated on or after this day match (YYYY-MM-DD); null when the query sets no lower bound.',
              }),
            })
            .nullable()
            .meta({ description: 'A date condition read from the query (`older than 90 days`), applied to the hits.' }),
          matched: z.array(z.string()).meta({ description: 'Which rule turned which words into a kind or a filter.' }),
        })
        .meta({ description: 'How the query was understood.' }),
      total: z.int().meta({ description: 'Hits after the filters, before the limit.' }),
      hits: z
        .array(
          z.object({
            rank: z.int().meta({ description: 'Position after the date condition and the boosts, 1 first.' }),
            kind: z.string().meta({ description: 'Kind of record (`control`, `evidence`).' }),
            id: z.string().meta({
              description: 'Id of the record: a dictionary reference (`eu-ai-act@1.0.0/AIA-RMS-01`) or the id of the tenant’s record.',
            }),
            title: z.string().meta({ description: 'Title of the record.' }),
            score: z.number().meta({ description: 'Engine score times the facade’s boost for the kind.' }),
            engineScore: z.number().meta({ description: 'BM25 score of the engine.' }),
            snippet: z.string().nullable().meta({
              description: 'Up to 200 characters of the record’s text around the first matched term; null when the record has no text.',
            }),
            fields: z
              .record(z.string(), z.unknown())
              .meta({ description: 'Facet and date fields of the record as the engine indexes them (`framework`, `collectedAt`).' }),
          }),
        )
        .meta({ description: 'Ranked hits.' }),
    })
    .meta({ id, examples: [searchOutputExample] });

export const searchFacade = (slug: string, title: string, purpose: string, name: string, example: string) =>
  agentSpec({
    slug,
    title,
    purpose,
    group: 'deterministic',
    groupReason: 'The query is translated by fixed rules and ranked by the one lexical engine.',
    catalogues: ALL31,
    input: searchInput(`Agent${name}Input`, example),
    output: searchOutput(`Agent${name}Output`),
  });

// ---------------------------------------------------------------- report composer (stakeholder-report and its facades)

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

/** Every report type. */
export const ALL_TYPES = [...STAKEHOLDER_REPORT_TYPE_IDS];

export const TemplateId = z.enum(STAKEHOLDER_REPORT_TYPE_IDS);
export const SystemId = z
  .string()
  .min(1)
  .max(200)
  .meta({
    description:
      'Identifier of the AI system the report concerns, as the tenant names it in its assessments, evidence, findings or disclosure profile. Required by the regulator report; the others cover the whole organisation without it.',
    examples: ['sys_credit_scoring_v2'],
  });
export const EngagementId = z
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
const ReportSection = z
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

export const reportFields = {
  template: TemplateId.meta({ description: 'The report type composed.' }),
  title: z.string().meta({ description: 'Title of the report.' }),
  audience: z.string().meta({ description: 'Who the report is written for.' }),
  templateId: z.string().meta({ description: 'Id of the PDF template the reporting rail renders this type with.' }),
  tenantId: z.string().meta({ description: 'The tenant whose records the report is composed from.' }),
  systemId: z.string().nullable().meta({ description: 'The AI system the report concerns; null for an organisation-wide report.' }),
  asOf: Timestamp.meta({ description: 'The moment the records were read; every date comparison of the report is made against it.' }),
  sections: z.array(ReportSection).meta({ description: 'The sections of the report, in the order of the type’s recipe.' }),
  recommendedReviewers: z.array(z.string()).meta({ description: 'Roles that should review the draft before anyone publishes it.' }),
  draft: z.literal(true).meta({ description: 'Always true: the agent composes a draft and never publishes it.' }),
  preset: Preset,
};

export type TypeId = (typeof STAKEHOLDER_REPORT_TYPE_IDS)[number];

/** One illustrative report per type a preset composes by default. */
const EXAMPLE_REPORTS: Partial<
  Record<TypeId, { title: string; audience: string; reviewers: string[]; section: z.infer<typeof ReportSection> }>
> = {
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

export const exampleReport = (preset: z.infer<typeof Preset>) => {
  const e = EXAMPLE_REPORTS[preset.defaultType] ?? (EXAMPLE_REPORTS.board as NonNullable<(typeof EXAMPLE_REPORTS)['board']>);
  return {
    template: preset.defaultType,
    title: e.title,
    audience: e.audience,
    templateId: `pdf/${preset.defaultType}@1`,
    tenantId: exampleId('ten'),
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

export interface FacadeDef {
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
function facadeSpec<const S extends z.core.$ZodLooseShape>(def: FacadeDef, shape: (template: z.ZodOptional<typeof TemplateId>) => S) {
  const preset = { id: def.slug, allowedTypes: def.allowedTypes, defaultType: def.defaultType, blocks: def.blocks };
  const template = TemplateId.optional().meta({
    description: `The report type to compose, one of ${def.allowedTypes.map((t) => `\`${t}\``).join(', ')}; \`${def.defaultType}\` when absent. A type outside these is refused with 422.`,
  });
  const example = exampleReport(preset);
  return agentSpec({
    slug: def.slug,
    title: def.title,
    purpose: def.purpose,
    group: 'deterministic',
    groupReason: GROUP_REASON,
    catalogues: def.catalogues,
    input: z.strictObject(shape(template)).meta({ id: `Agent${def.name}Input`, examples: [{}, { template: def.defaultType }] }),
    output: z.object(reportFields).meta({ id: `Agent${def.name}Output`, examples: [example] }),
  });
}

/** A facade over the tenant's records or one system. */
function facade(def: FacadeDef) {
  return facadeSpec(def, (template) => ({ template, systemId: SystemId.optional() }));
}

/** A facade that may narrow its report to one engagement. */
function engagementFacade(def: FacadeDef) {
  return facadeSpec(def, (template) => ({ template, systemId: SystemId.optional(), engagementId: EngagementId.optional() }));
}

/** The facades' definitions, by spec: `reportingPresets` reads them. */
const FACADES = new WeakMap<object, FacadeDef>();
/** Registers a facade's definition (its preset is read by the server's rules) and returns its spec. */
export function withPreset(def: FacadeDef) {
  const spec = facade(def);
  FACADES.set(spec, def);
  return spec;
}
export function withEngagementPreset(def: FacadeDef) {
  const spec = engagementFacade(def);
  FACADES.set(spec, def);
  return spec;
}

export interface ReportingPreset {
  allowedTypes: TypeId[];
  defaultType: TypeId;
  /** Recipe blocks the facade keeps; null keeps every section. */
  blocks: string[] | null;
}

/** The presets of the facades among `specs`, by slug, in the order of `specs`. */
export function reportingPresets(specs: Record<string, AgentSpec>): Record<string, ReportingPreset> {
  return Object.fromEntries(
    Object.values(specs).flatMap((spec) => {
      const def = FACADES.get(spec);
      return def
        ? [[def.slug, { allowedTypes: [...def.allowedTypes], defaultType: def.defaultType, blocks: def.blocks ? [...def.blocks] : null }]]
        : [];
    }),
  );
}
