import { z } from 'zod';
import { type AgentSpec, agentSpec } from './spec.ts';

/**
 * Data, risk and search agents: the risk officer over the risk register, the data classifier,
 * mapper and DSAR handler over the privacy rails, the analytics, bias, red-team, explainability
 * and vendor agents, and three search facades over the one search engine.
 */

const ALL31 = ['all31'] as const;
const BOTH = ['core14', 'all31'] as const;

const EXAMPLE_AT = '2026-11-20T09:00:00.000Z';
const Iso = z.string().meta({ description: 'An ISO 8601 UTC timestamp.' });
const CalendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const Clause = z
  .object({
    ref: z.string().meta({ description: 'Clause reference within the dictionary (`art-10-2`).' }),
    title: z.string().meta({ description: 'Title of the clause as the dictionary gives it.' }),
  })
  .meta({ description: 'A clause of a framework dictionary that the answer cites.' });

// ---------------------------------------------------------------- risk-officer

const RiskBand = z.enum(['low', 'medium', 'high', 'critical']);
const riskOfficerExample = {
  asOf: EXAMPLE_AT,
  appetite: 9,
  summary: {
    risks: 1,
    open: 1,
    inherent: { low: 0, medium: 0, high: 0, critical: 1 },
    residual: { low: 0, medium: 0, high: 1, critical: 0 },
    aboveAppetite: 1,
  },
  topRisks: [
    {
      rank: 1,
      riskId: 'rsk_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      title: 'Biased scoring',
      domain: 'ai',
      inherent: { likelihood: 4, impact: 5, score: 20, band: 'critical' },
      residual: { likelihood: 2, impact: 5, score: 10, band: 'high' },
      controlEffectiveness: 0.5,
      priority: 10,
      plan: {
        option: 'mitigate',
        source: 'planned',
        treatmentId: 'rtr_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        description: 'Add a human review of declined applications.',
        projected: { likelihood: 1, impact: 5, score: 5, band: 'medium' },
        withinAppetite: true,
        ownerId: null,
        targetDate: '2026-12-20',
        steps: ['Confirm the owner of the risk.', 'Implement: Add a human review of declined applications.'],
      },
    },
  ],
  untreatable: [],
};

const Point = z
  .object({
    likelihood: z.int().meta({ description: 'Likelihood on the 1 to 5 scale.' }),
    impact: z.int().meta({ description: 'Impact on the 1 to 5 scale.' }),
    score: z.int().meta({ description: 'Likelihood x impact, 1 to 25.' }),
    band: RiskBand.meta({ description: 'Rating band of the score (low < 5, medium < 10, high < 17, critical).' }),
  })
  .meta({ description: 'A point of the 5x5 matrix.' });
const BandCounts = z
  .object({
    low: z.int().meta({ description: 'Number of risks whose score is in the low band (1 to 4).' }),
    medium: z.int().meta({ description: 'Number of risks whose score is in the medium band (5 to 9).' }),
    high: z.int().meta({ description: 'Number of risks whose score is in the high band (10 to 16).' }),
    critical: z.int().meta({ description: 'Number of risks whose score is in the critical band (17 to 25).' }),
  })
  .meta({ description: 'Number of risks in each rating band.' });

const riskOfficer = agentSpec({
  slug: 'risk-officer',
  title: 'Risk officer',
  purpose:
    'Reads the risk register, recomputes each risk on the 5x5 matrix (inherent, and residual after the implemented treatments), counts the register per band and ranks the treatable risks above appetite with a drafted treatment plan for each.',
  group: 'advisory',
  groupReason: 'It ranks risks by priority and recommends treatments, a judgement the risk owner weighs.',
  catalogues: ALL31,
  input: z
    .strictObject({
      limit: z.int().min(1).max(50).optional().meta({ description: 'How many treatable risks to return, 1 to 50; 5 when absent.' }),
    })
    .meta({ id: 'AgentRiskOfficerInput', examples: [{ limit: 5 }, { limit: 10 }] }),
  output: z
    .object({
      asOf: Iso.meta({ description: 'When the register was read; target dates count from it.' }),
      appetite: z.int().meta({ description: 'Residual score above which a risk needs treatment (the rules’ risk appetite).' }),
      summary: z
        .object({
          risks: z.int().meta({ description: 'Risks in the register.' }),
          open: z.int().meta({ description: 'Risks that are neither accepted nor closed.' }),
          inherent: BandCounts.meta({ description: 'Risks per band of their inherent score.' }),
          residual: BandCounts.meta({ description: 'Risks per band of their residual score.' }),
          aboveAppetite: z.int().meta({ description: 'Open risks whose residual score is above the appetite.' }),
        })
        .meta({ description: 'The register in numbers.' }),
      topRisks: z
        .array(
          z.object({
            rank: z.int().meta({ description: 'Position, 1 first.' }),
            riskId: z.string().meta({ description: 'Id of the risk.' }),
            title: z.string().meta({ description: 'Title of the risk.' }),
            domain: z.string().meta({ description: 'Domain of the risk.' }),
            inherent: Point.meta({ description: 'The risk before any treatment.' }),
            residual: Point.meta({ description: 'The risk after its implemented treatments, applied in the order they were implemented.' }),
            controlEffectiveness: z
              .number()
              .meta({ description: 'Share of the inherent score the implemented treatments removed, 0 to 1.' }),
            priority: z.number().meta({ description: 'Ranking value: residual score weighted by the domain weight of the rules.' }),
            plan: z
              .object({
                option: z.enum(['mitigate', 'transfer', 'avoid']).meta({ description: 'The treatment type proposed.' }),
                source: z.enum(['planned', 'catalogue']).meta({
                  description: '`planned`: a treatment already planned on the risk; `catalogue`: an option of the rules for its domain.',
                }),
                treatmentId: z.string().nullable().meta({ description: 'Id of the planned treatment, null for a catalogue option.' }),
                description: z.string().meta({ description: 'What the treatment does.' }),
                projected: Point.meta({ description: 'The residual once the treatment is implemented.' }),
                withinAppetite: z.boolean().meta({ description: 'Whether the projected residual is at or below the appetite.' }),
                ownerId: z.string().nullable().meta({ description: 'Accountable owner of the risk, null when none is named.' }),
                targetDate: CalendarDate.meta({
                  description: 'Date by which the treatment should be implemented, by the band of the residual.',
                }),
                steps: z.array(z.string()).meta({ description: 'The plan, step by step.' }),
              })
              .meta({ description: 'The drafted treatment plan: the option that lowers the residual most.' }),
          }),
        )
        .meta({ description: 'The treatable risks ranked: open, residual above appetite and a treatment option that lowers it.' }),
      untreatable: z
        .array(
          z.object({
            riskId: z.string().meta({ description: 'Id of the risk (`rsk_...`).' }),
            reason: z.string().meta({
              description:
                'Why it is untreatable: neither a treatment planned on the risk nor a catalogue option of the rules for its domain lowers its residual score.',
            }),
          }),
        )
        .meta({ description: 'Open risks above appetite for which no option lowers the residual, with the reason.' }),
    })
    .meta({ id: 'AgentRiskOfficerOutput', examples: [riskOfficerExample] }),
});

// ---------------------------------------------------------------- data-classifier

const DataLevel = z.enum(['public', 'internal', 'confidential', 'restricted', 'regulated']);
const dataClassifierExample = {
  jurisdiction: 'eu',
  fields: [
    {
      name: 'diagnosis_code',
      level: 'regulated',
      categories: ['health'],
      matched: ['health: name matches "diagnos"'],
      specialCategory: true,
      specialCategoryBasis: 'GDPR Art. 9(1)',
      retentionFloorDays: 3650,
      lawfulBasis: 'GDPR Art. 6(1)(c) legal obligation with an Art. 9(2)(h) condition (health or social care)',
    },
  ],
  overall: {
    level: 'regulated',
    specialCategory: true,
    retentionFloorDays: 3650,
    lawfulBasis: 'GDPR Art. 6(1)(c) legal obligation with an Art. 9(2)(h) condition (health or social care)',
    counts: { public: 0, internal: 0, confidential: 0, restricted: 0, regulated: 1 },
  },
  handling: ['Encrypt at rest and in transit; access on a need-to-know basis with logging.'],
};
const ClassifiedField = z.object({
  name: z.string().meta({ description: 'Name of the field (or `dataset` for a dataset description).' }),
  level: DataLevel.meta({ description: 'Classification level: public, internal, confidential, restricted or regulated.' }),
  categories: z.array(z.string()).meta({ description: 'Data categories the rules recognised in the field.' }),
  matched: z.array(z.string()).meta({ description: 'Why: each rule that matched and on what.' }),
  specialCategory: z.boolean().meta({ description: 'Whether the field holds special-category data (GDPR Art. 9).' }),
  specialCategoryBasis: z.string().nullable().meta({ description: 'The provision that makes it special, null when it is not.' }),
  retentionFloorDays: z
    .int()
    .meta({ description: 'Minimum retention the rules attach to the most demanding category, in days (0: none).' }),
  lawfulBasis: z.string().meta({ description: 'Recommended lawful basis for processing the field.' }),
});
const dataClassifier = agentSpec({
  slug: 'data-classifier',
  title: 'Data classifier',
  purpose:
    'Applies the five-level data-classification dictionary (public, internal, confidential, restricted, regulated) to fields or a dataset description, flags GDPR Art. 9 special-category data and recommends a retention floor and a lawful basis per field and overall.',
  group: 'deterministic',
  groupReason: 'The level of each field is the consequence of the dictionary’s pattern rules.',
  catalogues: ALL31,
  input: z
    .strictObject({
      fields: z
        .array(
          z.strictObject({
            name: z.string().min(1).max(200).meta({ description: 'Name of the field (`email`, `date_of_birth`).' }),
            description: z.string().max(2000).optional().meta({ description: 'What the field holds, in words.' }),
            sample: z.string().max(500).optional().meta({ description: 'A sample value, used for pattern matching only.' }),
          }),
        )
        .min(1)
        .max(500)
        .optional()
        .meta({ description: 'The fields to classify; either this or `datasetDescription`.' }),
      datasetDescription: z
        .string()
        .min(1)
        .max(5000)
        .optional()
        .meta({ description: 'A description of a whole dataset, classified as one field named `dataset`.' }),
      jurisdiction: z
        .string()
        .min(2)
        .max(10)
        .optional()
        .meta({ description: 'Jurisdiction whose rules apply (`eu`, `gb`, `us-ca`, `br`, `in`); `eu` when absent.' }),
    })
    .meta({
      id: 'AgentDataClassifierInput',
      examples: [
        {
          fields: [
            { name: 'email', sample: 'ana@example.com' },
            { name: 'diagnosis_code', description: 'ICD-10 diagnosis of the patient' },
          ],
        },
        { datasetDescription: 'Payroll export with salaries, bank account numbers and trade union membership', jurisdiction: 'eu' },
      ],
    }),
  output: z
    .object({
      jurisdiction: z.string().meta({ description: 'Jurisdiction whose rules were applied.' }),
      fields: z.array(ClassifiedField).meta({ description: 'Each field with its level, categories and recommendations, in input order.' }),
      overall: z
        .object({
          level: DataLevel.meta({ description: 'The highest level of any field.' }),
          specialCategory: z.boolean().meta({ description: 'Whether any field holds special-category data.' }),
          retentionFloorDays: z.int().meta({ description: 'The longest retention floor of any field.' }),
          lawfulBasis: z
            .string()
            .meta({ description: 'Lawful basis recommended for the dataset as a whole (that of its highest-level field).' }),
          counts: z
            .object({
              public: z.int().meta({ description: 'Number of fields classified `public`.' }),
              internal: z.int().meta({ description: 'Number of fields classified `internal`.' }),
              confidential: z.int().meta({ description: 'Number of fields classified `confidential`.' }),
              restricted: z.int().meta({ description: 'Number of fields classified `restricted`.' }),
              regulated: z.int().meta({ description: 'Number of fields classified `regulated`.' }),
            })
            .meta({ description: 'Fields per level.' }),
        })
        .meta({ description: 'The dataset as a whole.' }),
      handling: z.array(z.string()).meta({ description: 'Handling requirements of the overall level, from the dictionary.' }),
    })
    .meta({ id: 'AgentDataClassifierOutput', examples: [dataClassifierExample] }),
});

// ---------------------------------------------------------------- data-mapper

const dataMapperExample = {
  homeRegion: 'eu',
  stores: 1,
  hotspots: [
    {
      rank: 1,
      storeId: 'dst_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      name: 'Customer CRM',
      region: 'eu',
      level: 'confidential',
      categories: ['contact', 'purchase-history'],
      volume: 'medium',
      subjectTypes: ['customer', 'prospect'],
      risk: 12,
    },
  ],
  edges: [],
  crossBorder: [],
  concentration: [{ category: 'contact', stores: 1, storeIds: ['dst_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] }],
};
const dataMapper = agentSpec({
  slug: 'data-mapper',
  title: 'Data mapper',
  purpose:
    'Builds the data-concentration and flow map of the tenant from its declared data stores, its sub-processors and the flows given: hot spots weighted by classification, volume and kinds of subjects, store-to-store edges, and cross-border transfers flagged.',
  group: 'deterministic',
  groupReason: 'The map and its weights follow from the declared stores and flows by fixed rules.',
  catalogues: ALL31,
  input: z
    .strictObject({
      stores: z
        .array(
          z.strictObject({
            storeId: z.string().min(1).meta({ description: 'Id of a declared data store (`dst_...`).' }),
            region: z
              .string()
              .min(2)
              .max(20)
              .optional()
              .meta({ description: 'Where the store is hosted (`eu`, `us`, `eu/de`); the tenant’s region when absent.' }),
            volume: z
              .enum(['low', 'medium', 'high'])
              .optional()
              .meta({ description: 'How many records it holds, roughly; by the kind of store when absent.' }),
          }),
        )
        .max(200)
        .optional()
        .meta({ description: 'Facts about declared stores that the store records do not carry.' }),
      flows: z
        .array(
          z.strictObject({
            from: z.string().min(1).meta({ description: 'Id of the store (`dst_...`) or sub-processor (`sbp_...`) the data leaves.' }),
            to: z.string().min(1).meta({ description: 'Id of the store or sub-processor the data reaches.' }),
            categories: z
              .array(z.string())
              .max(50)
              .optional()
              .meta({ description: 'Categories that flow; those both ends share when absent.' }),
          }),
        )
        .max(500)
        .optional()
        .meta({ description: 'Declared flows between stores and sub-processors.' }),
    })
    .meta({
      id: 'AgentDataMapperInput',
      examples: [{}, { flows: [{ from: 'dst_01JD3Z8W2M6Q4X9V7K5T1B0N3R', to: 'sbp_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }] }],
    }),
  output: z
    .object({
      homeRegion: z.string().meta({ description: 'Region of the tenant; stores with no region given are placed there.' }),
      stores: z.int().meta({ description: 'Declared data stores read.' }),
      hotspots: z
        .array(
          z.object({
            rank: z.int().meta({ description: 'Position by risk weight, 1 for the highest.' }),
            storeId: z.string().meta({ description: 'Id of the declared data store (`dst_...`).' }),
            name: z.string().meta({ description: 'Name of the data store as declared.' }),
            region: z
              .string()
              .meta({ description: 'Region where the store is hosted: the one given in the input, else the tenant’s home region.' }),
            level: DataLevel.meta({ description: 'Classification of the most sensitive category the store holds.' }),
            categories: z.array(z.string()).meta({ description: 'Data categories the store holds, sorted.' }),
            volume: z.enum(['low', 'medium', 'high']).meta({
              description:
                'Rough number of records the store holds: as given in the input, else by the rules’ default for its kind of store.',
            }),
            subjectTypes: z
              .array(z.string())
              .meta({ description: 'Kinds of data subject whose data the store holds (`customer`, `employee`), sorted.' }),
            risk: z.number().meta({ description: 'Level weight x volume weight x subject weight, by the rules.' }),
          }),
        )
        .meta({ description: 'Stores ranked by risk weight, highest first.' }),
      edges: z
        .array(
          z.object({
            from: z.string().meta({ description: 'Id of the store (`dst_...`) or sub-processor (`sbp_...`) the data leaves.' }),
            to: z.string().meta({ description: 'Id of the store or sub-processor the data reaches.' }),
            origin: z.enum(['declared', 'inferred']).meta({
              description:
                '`declared` in the input, or `inferred` by the kind rules (a backup or warehouse fed by stores sharing categories).',
            }),
            categories: z.array(z.string()).meta({
              description:
                'Data categories that flow, sorted: those given for a declared flow (else the source’s categories the destination store also holds), or those both stores share for an inferred one.',
            }),
            fromRegion: z
              .string()
              .meta({ description: 'Region of the source: the store’s region, the sub-processor’s region, or the tenant’s home region.' }),
            toRegion: z.string().meta({
              description: 'Region of the destination: the store’s region, the sub-processor’s region, or the tenant’s home region.',
            }),
            crossBorder: z.boolean().meta({
              description:
                'Whether the two regions lie in different jurisdictions (their first segment: `eu/de` and `eu/fr` do not cross).',
            }),
          }),
        )
        .meta({ description: 'Store-to-store (and store-to-sub-processor) flow edges, sorted.' }),
      crossBorder: z
        .array(
          z.object({
            from: z.string().meta({ description: 'Id of the store (`dst_...`) or sub-processor (`sbp_...`) the data leaves.' }),
            to: z.string().meta({ description: 'Id of the store or sub-processor the data reaches.' }),
            fromRegion: z.string().meta({ description: 'Region of the source, whose jurisdiction’s law governs the transfer.' }),
            toRegion: z.string().meta({ description: 'Region of the destination, in another jurisdiction.' }),
            mechanism: z.string().meta({ description: 'The transfer mechanism the rules require for the destination.' }),
          }),
        )
        .meta({ description: 'Edges that leave the jurisdiction of their origin, with the transfer mechanism needed.' }),
      concentration: z
        .array(
          z.object({
            category: z.string().meta({ description: 'The data category.' }),
            stores: z.int().meta({ description: 'Number of declared stores holding the category.' }),
            storeIds: z.array(z.string()).meta({ description: 'Ids of the stores holding the category, in id order.' }),
          }),
        )
        .meta({ description: 'Per data category, the stores holding it, most widespread first.' }),
    })
    .meta({ id: 'AgentDataMapperOutput', examples: [dataMapperExample] }),
});

// ---------------------------------------------------------------- dsar-handler

const DsarRegimeId = z.enum(['gdpr', 'uk-gdpr', 'ccpa', 'lgpd', 'dpdp']);
const dsarHandlerExample = {
  requestId: null,
  regime: 'gdpr',
  regulator: 'EU/EEA supervisory authority (lead data protection authority)',
  kind: 'access',
  kindSource: 'GDPR Art. 15',
  receivedAt: '2025-01-31T09:00:00.000Z',
  sla: {
    dueDate: '2025-02-28',
    rule: 'Without undue delay and in any event within one month of receipt of the request.',
    source: 'GDPR Art. 12(3)',
    extendedDueDate: null,
    extensionAvailable: '2 months',
    receiptConfirmationDate: null,
    daysLeft: -600,
    state: 'overdue',
  },
  priority: 'urgent',
  stores: [],
  packet: { title: 'Response to a data-subject request under the GDPR', source: 'GDPR Art. 12(1), Art. 15(1)-(3)', sections: [] },
  signOff: { required: true, role: 'data protection officer', reason: 'Every response is released by a person.' },
  nextSteps: ['Verify the identity of the data subject.'],
};
const dsarHandler = agentSpec({
  slug: 'dsar-handler',
  title: 'DSAR handler',
  purpose:
    'Triages a data-subject request by regime (GDPR, UK GDPR, CCPA, LGPD, DPDP): computes its statutory due date and state, enumerates the declared stores to search, outlines the response packet and routes it for human sign-off.',
  group: 'deterministic',
  groupReason: 'The due date, the stores and the packet outline follow from the statutory rules and the declared stores.',
  catalogues: ALL31,
  input: z
    .strictObject({
      requestId: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'Id of a recorded request (`dsr_...`); or give `jurisdiction`, `receivedAt` and `kind`.' }),
      jurisdiction: DsarRegimeId.optional().meta({ description: 'Regime of a request not yet recorded.' }),
      receivedAt: z.iso.datetime().optional().meta({ description: 'When the request was received (ISO 8601).' }),
      kind: z
        .enum(['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection', 'opt-out', 'limit-use', 'grievance'])
        .optional()
        .meta({ description: 'What the subject asks for.' }),
      subjectType: z
        .string()
        .min(1)
        .max(40)
        .optional()
        .meta({ description: 'Kind of data subject (`customer`, `employee`) for a request not yet recorded; `customer` when absent.' }),
    })
    .meta({
      id: 'AgentDsarHandlerInput',
      examples: [
        { jurisdiction: 'gdpr', receivedAt: '2025-01-31T09:00:00.000Z', kind: 'access' },
        { requestId: 'dsr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
      ],
    }),
  output: z
    .object({
      requestId: z.string().nullable().meta({ description: 'The recorded request, null for a hypothetical one.' }),
      regime: DsarRegimeId.meta({ description: 'The regime the request falls under.' }),
      regulator: z.string().meta({ description: 'The regulator of the regime.' }),
      kind: z.string().meta({ description: 'The kind of request.' }),
      kindSource: z.string().meta({ description: 'The provision granting that right.' }),
      receivedAt: Iso.meta({ description: 'When the request was received.' }),
      sla: z
        .object({
          dueDate: CalendarDate.meta({ description: 'Statutory due date (end of that day, UTC).' }),
          rule: z.string().meta({ description: 'The statutory deadline rule in words, as the regime’s rules state it.' }),
          source: z.string().meta({ description: 'The provision that sets the deadline (`GDPR Art. 12(3)`).' }),
          extendedDueDate: CalendarDate.nullable().meta({ description: 'Due date after the extension, when the request was extended.' }),
          extensionAvailable: z.string().nullable().meta({ description: 'The extension the regime allows, null when none.' }),
          receiptConfirmationDate: CalendarDate.nullable().meta({
            description: 'Date by which receipt must be confirmed, when the regime requires it.',
          }),
          daysLeft: z.int().meta({ description: 'Days from the invocation date to the effective due date (negative: late).' }),
          state: z.enum(['on_track', 'at_risk', 'overdue', 'closed']).meta({
            description:
              'State of the clock: `closed` once the request is fulfilled or rejected, `overdue` when the effective due date has passed, `at_risk` within the regime’s at-risk days of it, `on_track` otherwise.',
          }),
        })
        .meta({ description: 'The statutory clock.' }),
      priority: z.enum(['normal', 'high', 'urgent']).meta({ description: 'Triage priority by the state of the clock.' }),
      stores: z
        .array(
          z.object({
            storeId: z.string().meta({ description: 'Id of the declared data store (`dst_...`).' }),
            name: z.string().meta({ description: 'Name of the data store.' }),
            system: z.string().meta({ description: 'The system the store lives in, as declared.' }),
            categories: z.array(z.string()).meta({ description: 'Data categories the store holds.' }),
            action: z.string().meta({ description: 'What to do in the store for this kind of request.' }),
          }),
        )
        .meta({ description: 'Declared stores holding data of the subject’s type, and what to do in each for this kind of request.' }),
      packet: z
        .object({
          title: z.string().meta({ description: 'Title of the response the regime requires.' }),
          source: z.string().meta({ description: 'The provisions that set what the response must contain.' }),
          sections: z
            .array(
              z.object({
                heading: z.string().meta({ description: 'Heading of the section.' }),
                content: z.string().meta({ description: 'Drafted content of the section, to be completed by the reviewer.' }),
              }),
            )
            .meta({
              description: 'Sections of the response: the request first, then one per item the regime requires the response to include.',
            }),
        })
        .meta({ description: 'Outline of the response packet the regime requires.' }),
      signOff: z
        .object({
          required: z.boolean().meta({ description: 'Whether a person must sign the response off; always true.' }),
          role: z.string().meta({ description: 'Role that signs the response off under the regime (`data protection officer`).' }),
          reason: z.string().meta({ description: 'Why a person must check the response before it is sent.' }),
        })
        .meta({ description: 'Who must sign the response off before it is sent; never sent automatically.' }),
      nextSteps: z.array(z.string()).meta({ description: 'What to do next, by the state of the request.' }),
    })
    .meta({ id: 'AgentDsarHandlerOutput', examples: [dsarHandlerExample] }),
});

// ---------------------------------------------------------------- analytics-insight

const analyticsExample = {
  window: { from: '2026-10-22', to: '2026-11-20', days: 30 },
  events: 42,
  kinds: [{ kind: 'evidence.uploaded', total: 12, perDay: 0.4, slope: 0.05, trend: 'rising' }],
  anomalies: [{ kind: 'evidence.uploaded', date: '2026-11-19', count: 9, mean: 0.3, stddev: 1.6, z: 5.4 }],
  overBudget: { events: 1, share: 0.0238, byKind: [{ kind: 'incident.opened', count: 1 }] },
  drifts: { open: 0, top: [] },
  insights: ['evidence.uploaded: 9 events on 2026-11-19, z = 5.4 against the window.'],
};
const analyticsInsight = agentSpec({
  slug: 'analytics-insight',
  title: 'Analytics insight',
  purpose:
    'Surfaces drift, anomalies and KPI trends from the event index over a window: events per kind per day, z-score anomalies, trend slopes, latency over budget and the open drifts of reconciliation.',
  group: 'advisory',
  groupReason: 'It scores and ranks signals (anomalies, trends, drifts) for a person to investigate.',
  catalogues: BOTH,
  input: z
    .strictObject({
      days: z.int().min(1).max(90).optional().meta({ description: 'Length of the window ending today, 1 to 90 days; 30 when absent.' }),
    })
    .meta({ id: 'AgentAnalyticsInsightInput', examples: [{ days: 30 }, { days: 7 }] }),
  output: z
    .object({
      window: z
        .object({
          from: CalendarDate.meta({ description: 'First day of the window (YYYY-MM-DD, UTC).' }),
          to: CalendarDate.meta({ description: 'Last day of the window: the day of the invocation (YYYY-MM-DD, UTC).' }),
          days: z.int().meta({ description: 'Number of days in the window, 1 to 90.' }),
        })
        .meta({ description: 'The window read, both days included.' }),
      events: z.int().meta({ description: 'Events of the tenant in the window.' }),
      kinds: z
        .array(
          z.object({
            kind: z.string().meta({ description: 'Event kind (`evidence.uploaded`).' }),
            total: z.int().meta({ description: 'Events of the kind in the window.' }),
            perDay: z.number().meta({ description: 'Mean number of events of the kind per day over the window, to 4 decimals.' }),
            slope: z.number().meta({ description: 'Least-squares slope of the daily counts, events per day per day.' }),
            trend: z.enum(['rising', 'falling', 'flat']).meta({
              description:
                '`rising` or `falling` when slope × days / daily mean is beyond the rules’ threshold of 0.5 in that direction, `flat` otherwise.',
            }),
          }),
        )
        .meta({ description: 'Per event kind: total, daily mean and trend, busiest first.' }),
      anomalies: z
        .array(
          z.object({
            kind: z.string().meta({ description: 'Event kind.' }),
            date: CalendarDate.meta({ description: 'The anomalous day (YYYY-MM-DD, UTC).' }),
            count: z.int().meta({ description: 'Events of the kind on that day (at least 3).' }),
            mean: z.number().meta({ description: 'Mean daily count of the kind over the window, to 4 decimals.' }),
            stddev: z
              .number()
              .meta({ description: 'Population standard deviation of the daily counts of the kind over the window, to 4 decimals.' }),
            z: z
              .number()
              .meta({ description: 'z-score of the day, (count − mean) / stddev, to 4 decimals; at least the rules’ threshold of 3.' }),
          }),
        )
        .meta({ description: 'Days whose count of a kind is above the z-score threshold of the rules, strongest first.' }),
      overBudget: z
        .object({
          events: z.int().meta({ description: 'Events in the window whose latency exceeded their budget.' }),
          share: z.number().meta({ description: 'Share of the window’s events that were over budget, 0 to 1, to 4 decimals.' }),
          byKind: z
            .array(
              z.object({
                kind: z.string().meta({ description: 'Event kind.' }),
                count: z.int().meta({ description: 'Events of the kind over budget in the window.' }),
              }),
            )
            .meta({ description: 'Over-budget events per kind, most first.' }),
        })
        .meta({ description: 'Events whose latency exceeded their budget.' }),
      drifts: z
        .object({
          open: z.int().meta({ description: 'Number of open drift findings of the tenant (whatever the window).' }),
          top: z
            .array(
              z.object({
                id: z.string().meta({ description: 'Id of the drift finding.' }),
                check: z.string().meta({ description: 'The reconciliation check that found the drift.' }),
                type: z.string().meta({ description: 'Type of drift the check reported.' }),
                subject: z.string().meta({ description: 'What drifted: the record or setting the finding concerns.' }),
                ageDays: z.int().meta({ description: 'Whole days since the drift was first seen, 0 or more.' }),
              }),
            )
            .meta({ description: 'The oldest open drift findings, at most 10, oldest first.' }),
        })
        .meta({ description: 'Open drift findings of reconciliation, oldest first.' }),
      insights: z.array(z.string()).meta({ description: 'The signals above in sentences, most important first.' }),
    })
    .meta({ id: 'AgentAnalyticsInsightOutput', examples: [analyticsExample] }),
});

// ---------------------------------------------------------------- bias-evaluator

const biasExample = {
  protectedAttribute: 'sex',
  referenceGroup: 'male',
  groups: [
    { name: 'male', total: 100, selected: 80, selectionRate: 0.8, impactRatio: 1, truePositiveRate: null, flags: [] },
    { name: 'female', total: 100, selected: 60, selectionRate: 0.6, impactRatio: 0.75, truePositiveRate: null, flags: ['four_fifths'] },
  ],
  metrics: { demographicParityDifference: 0.2, disparateImpactRatio: 0.75, equalOpportunityDifference: null },
  findings: [{ metric: 'disparate_impact_ratio', value: 0.75, threshold: 0.8, flagged: true }],
  verdict: 'flagged',
  citations: [{ ref: 'art-10-2', title: 'Data governance practices' }],
  summary: 'Selection rates by sex differ: female is selected at 0.6, 75% of the rate of male (0.8).',
};
const biasEvaluator = agentSpec({
  slug: 'bias-evaluator',
  title: 'Bias evaluator',
  purpose:
    'Computes fairness metrics from per-group outcome counts (selection rates, demographic parity difference, disparate impact ratio under the four-fifths rule, equal opportunity difference), flags them against the rules’ thresholds and writes a summary citing the EU AI Act.',
  group: 'deterministic',
  groupReason: 'The metrics are arithmetic on the counts and the flags are fixed thresholds.',
  catalogues: ALL31,
  input: z
    .strictObject({
      protectedAttribute: z.string().min(1).max(100).meta({ description: 'The attribute the groups split on (`sex`, `age_band`).' }),
      groups: z
        .array(
          z.strictObject({
            name: z.string().min(1).max(100).meta({ description: 'Name of the group.' }),
            selected: z.int().min(0).meta({ description: 'Members of the group with the favourable outcome.' }),
            total: z.int().min(1).meta({ description: 'Members of the group evaluated.' }),
            truePositives: z.int().min(0).optional().meta({ description: 'Qualified members who got the favourable outcome.' }),
            positives: z.int().min(0).optional().meta({ description: 'Qualified members (ground truth positives).' }),
          }),
        )
        .min(2)
        .max(50)
        .meta({ description: 'Outcome counts per group, at least two groups.' }),
    })
    .meta({
      id: 'AgentBiasEvaluatorInput',
      examples: [
        {
          protectedAttribute: 'sex',
          groups: [
            { name: 'male', selected: 80, total: 100 },
            { name: 'female', selected: 60, total: 100 },
          ],
        },
      ],
    }),
  output: z
    .object({
      protectedAttribute: z.string().meta({ description: 'The attribute the groups split on, as given.' }),
      referenceGroup: z.string().meta({ description: 'The group with the highest selection rate, against which ratios are taken.' }),
      groups: z
        .array(
          z.object({
            name: z.string().meta({ description: 'Name of the group.' }),
            total: z.int().meta({ description: 'Members of the group evaluated.' }),
            selected: z.int().meta({ description: 'Members of the group with the favourable outcome.' }),
            selectionRate: z.number().meta({ description: 'Selected over total, 0 to 1, to 4 decimals.' }),
            impactRatio: z.number().meta({ description: 'Selection rate over the reference group’s.' }),
            truePositiveRate: z.number().nullable().meta({
              description: 'True positives over positives, 0 to 1, to 4 decimals; null when they were not given or positives is 0.',
            }),
            flags: z.array(z.string()).meta({
              description:
                '`four_fifths` when the impact ratio is below 0.8; `parity` when the selection rate is more than 0.1 below the reference group’s.',
            }),
          }),
        )
        .meta({ description: 'Each group with its rates and flags, in input order.' }),
      metrics: z
        .object({
          demographicParityDifference: z.number().meta({ description: 'Highest minus lowest selection rate.' }),
          disparateImpactRatio: z.number().meta({ description: 'Lowest over highest selection rate.' }),
          equalOpportunityDifference: z
            .number()
            .nullable()
            .meta({ description: 'Highest minus lowest true positive rate; null without truePositives and positives.' }),
        })
        .meta({ description: 'The fairness metrics.' }),
      findings: z
        .array(
          z.object({
            metric: z.string().meta({
              description: 'The metric: `disparate_impact_ratio`, `demographic_parity_difference` or `equal_opportunity_difference`.',
            }),
            value: z.number().nullable().meta({
              description:
                'Value of the metric, to 4 decimals; null for the equal opportunity difference when true positives and positives were not given for every group.',
            }),
            threshold: z.number().meta({
              description: 'Threshold of the rules: the minimum 0.8 for the disparate impact ratio, the maximum 0.1 for each difference.',
            }),
            flagged: z
              .boolean()
              .meta({ description: 'Whether the value crosses the threshold (a ratio below it, a difference above it).' }),
          }),
        )
        .meta({ description: 'Each metric against its threshold.' }),
      verdict: z.enum(['pass', 'flagged']).meta({ description: '`flagged` when any finding is flagged, `pass` otherwise.' }),
      citations: z.array(Clause).meta({ description: 'Clauses of the EU AI Act the summary cites.' }),
      summary: z.string().meta({ description: 'The evaluation in prose, for a reviewer.' }),
    })
    .meta({ id: 'AgentBiasEvaluatorOutput', examples: [biasExample] }),
});

// ---------------------------------------------------------------- red-team-attacker

const redTeamExample = {
  runId: 'rtr_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
  status: 'completed',
  overall: 72.5,
  categories: [{ category: 'prompt_injection', score: 50, probes: 4, passed: 2, failed: 2, errored: 0, rank: 1, grade: 'weak' }],
  weakest: ['prompt_injection'],
  retestPlan: [{ order: 1, probeId: 'pi-001', category: 'prompt_injection', severity: 'critical', reason: 'failed' }],
  summary: 'Robustness 72.5 of 100; weakest category prompt_injection at 50.',
};
const redTeamAttacker = agentSpec({
  slug: 'red-team-attacker',
  title: 'Red-team attacker',
  purpose:
    'Reads a red-team run and its results, reports the severity-weighted robustness score per category as the red-team rail scores it, ranks the weakest categories and plans which probes to rerun first.',
  group: 'advisory',
  groupReason: 'It ranks weaknesses and prioritises retests, a judgement the security team weighs.',
  catalogues: ALL31,
  input: z
    .strictObject({
      runId: z.string().min(1).optional().meta({ description: 'Id of a red-team run; the latest run of the tenant when absent.' }),
    })
    .meta({ id: 'AgentRedTeamAttackerInput', examples: [{}, { runId: 'rtr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }] }),
  output: z
    .object({
      runId: z.string().nullable().meta({ description: 'The run read, null when the tenant has none.' }),
      status: z.string().nullable().meta({ description: 'State of the run.' }),
      overall: z
        .number()
        .nullable()
        .meta({ description: 'Severity-weighted pass rate of the run, 0 to 100; null when nothing was judged.' }),
      categories: z
        .array(
          z.object({
            category: z.string().meta({ description: 'Probe category (`prompt_injection`).' }),
            score: z.number().nullable().meta({
              description:
                'Severity-weighted pass rate of the judged probes of the category, 0 to 100 to one decimal; null when none was judged.',
            }),
            probes: z.int().meta({ description: 'Results recorded for the category in the run.' }),
            passed: z.int().meta({ description: 'Probes of the category judged passed.' }),
            failed: z.int().meta({ description: 'Probes of the category judged failed.' }),
            errored: z.int().meta({ description: 'Probes of the category that errored and were not judged.' }),
            rank: z.int().meta({ description: 'Weakest first.' }),
            grade: z.enum(['strong', 'adequate', 'weak', 'untested']).meta({
              description: '`strong` for a score of 90 or more, `adequate` from 70, `weak` below 70, `untested` without a score.',
            }),
          }),
        )
        .meta({ description: 'Categories of the run, weakest first.' }),
      weakest: z.array(z.string()).meta({ description: 'Categories graded weak, weakest first.' }),
      retestPlan: z
        .array(
          z.object({
            order: z.int().meta({ description: 'Position in the retest order, 1 first.' }),
            probeId: z.string().meta({ description: 'Id of the probe in the red-team corpus.' }),
            category: z.string().meta({ description: 'Category of the probe.' }),
            severity: z.string().meta({ description: 'Severity of the probe in the corpus (`critical`, `high`, ...).' }),
            reason: z.string().meta({
              description:
                'Why it is rerun: `failed`, `errored` (not judged) or `not_run` (a probe of the run’s categories without a result).',
            }),
          }),
        )
        .meta({ description: 'Probes to rerun first: failed and errored probes by severity and category weakness.' }),
      summary: z.string().meta({
        description: 'The run’s robustness and weakest categories in one sentence, or how to queue a run when the tenant has none.',
      }),
    })
    .meta({ id: 'AgentRedTeamAttackerOutput', examples: [redTeamExample] }),
});

// ---------------------------------------------------------------- explainability-narrator

const explainExample = {
  method: 'shap',
  methodLabel: 'SHAP values',
  prediction: 0.82,
  baseline: 0.4,
  explainedDelta: 0.42,
  features: [
    {
      rank: 1,
      feature: 'income',
      value: 0.3,
      share: 0.6,
      direction: 'raises',
      sentence: 'income raises the prediction by 0.3 (60% of the attribution).',
    },
  ],
  narrative: 'Using SHAP values, the prediction of 0.82 against a baseline of 0.4 is driven mainly by income.',
  citations: [{ ref: 'art-13', title: 'Transparency and provision of information to deployers' }],
};
const explainabilityNarrator = agentSpec({
  slug: 'explainability-narrator',
  title: 'Explainability narrator',
  purpose:
    'Turns SHAP, LIME or integrated-gradients attributions into auditor-readable prose: ranks features by absolute attribution, computes their shares and direction and cites the EU AI Act’s transparency and explanation clauses.',
  group: 'deterministic',
  groupReason: 'The ranking, shares and prose follow from the attributions and fixed templates.',
  catalogues: ALL31,
  input: z
    .strictObject({
      method: z.enum(['shap', 'lime', 'ig']).meta({ description: 'Attribution method: SHAP, LIME or integrated gradients.' }),
      prediction: z.number().meta({ description: 'The model output explained.' }),
      baseline: z.number().optional().meta({ description: 'The reference output (expected value) the attributions are relative to.' }),
      attributions: z
        .array(
          z.strictObject({
            feature: z.string().min(1).max(200).meta({ description: 'Name of the feature.' }),
            value: z.number().meta({
              description: 'Signed attribution of the feature: its contribution to the prediction, in the units of the model output.',
            }),
          }),
        )
        .min(1)
        .max(500)
        .meta({ description: 'Attribution of each feature.' }),
    })
    .meta({
      id: 'AgentExplainabilityNarratorInput',
      examples: [
        {
          method: 'shap',
          prediction: 0.82,
          baseline: 0.4,
          attributions: [
            { feature: 'income', value: 0.3 },
            { feature: 'debt_ratio', value: -0.1 },
            { feature: 'tenure_months', value: 0.1 },
          ],
        },
      ],
    }),
  output: z
    .object({
      method: z.enum(['shap', 'lime', 'ig']).meta({ description: 'Attribution method, as given.' }),
      methodLabel: z.string().meta({ description: 'Readable name of the method (`SHAP values`).' }),
      prediction: z.number().meta({ description: 'The model output explained, as given.' }),
      baseline: z.number().nullable().meta({ description: 'The reference output, as given; null when none was.' }),
      explainedDelta: z.number().meta({ description: 'Sum of the attributions.' }),
      features: z
        .array(
          z.object({
            rank: z.int().meta({ description: 'Position by absolute attribution, 1 for the largest.' }),
            feature: z.string().meta({ description: 'Name of the feature.' }),
            value: z.number().meta({ description: 'Signed attribution of the feature, as given.' }),
            share: z.number().meta({ description: '|value| over the sum of |values|, 0 to 1.' }),
            direction: z.enum(['raises', 'lowers', 'neutral']).meta({
              description:
                '`raises` for a positive attribution, `lowers` for a negative one, `neutral` when it is zero or under 1% of the total absolute attribution.',
            }),
            sentence: z.string().meta({ description: 'The feature’s effect in one sentence.' }),
          }),
        )
        .meta({ description: 'Features by absolute attribution, largest first (at most the rules’ limit).' }),
      narrative: z.string().meta({ description: 'The explanation in prose for an auditor or the affected person.' }),
      citations: z.array(Clause).meta({ description: 'Clauses of the EU AI Act the narrative cites (Art. 13 and Art. 86).' }),
    })
    .meta({ id: 'AgentExplainabilityNarratorOutput', examples: [explainExample] }),
});

// ---------------------------------------------------------------- vendor-prefill-bot

const vendorExample = {
  vendorId: null,
  answered: 1,
  unanswered: 0,
  coverage: 1,
  answers: [
    {
      questionId: 'q1',
      status: 'answered',
      answer: 'Yes. Supported by: Access control policy (collected 2026-10-01).',
      controls: ['ISO27-A.5.15'],
      evidence: [{ evidenceId: 'evd_01JD3Z8W2M6Q4X9V7K5T1B0N3R', title: 'Access control policy', match: 'control' }],
      confidence: 'high',
    },
  ],
  gaps: [],
};
const vendorPrefillBot = agentSpec({
  slug: 'vendor-prefill-bot',
  title: 'Vendor questionnaire pre-fill',
  purpose:
    'Pre-fills a security or privacy questionnaire from the tenant’s evidence: matches each question to evidence by control reference and keywords, drafts the answer citing the evidence and returns the gap list of questions it could not answer.',
  group: 'deterministic',
  groupReason: 'Each answer is the evidence that the matching rules find for the question.',
  catalogues: ALL31,
  input: z
    .strictObject({
      vendorId: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'The vendor (`ven_...`) the questionnaire concerns, when it is one of the tenant’s.' }),
      questionnaire: z
        .array(
          z.strictObject({
            id: z.string().min(1).max(100).meta({ description: 'Id of the question in the questionnaire.' }),
            question: z.string().min(1).max(2000).meta({ description: 'Text of the question.' }),
            control: z.string().min(1).max(64).optional().meta({ description: 'Control the question maps to (`ISO27-A.5.15`).' }),
          }),
        )
        .min(1)
        .max(300)
        .optional()
        .meta({ description: 'The questions to pre-fill; either this or `template`.' }),
      template: z.enum(['baseline']).optional().meta({
        description:
          'A questionnaire of the rules to use instead of `questionnaire`: `baseline` covers security, privacy, resilience and compliance.',
      }),
    })
    .meta({
      id: 'AgentVendorPrefillBotInput',
      examples: [{ questionnaire: [{ id: 'q1', question: 'Do you encrypt customer data at rest?' }] }, { template: 'baseline' }],
    }),
  output: z
    .object({
      vendorId: z.string().nullable().meta({ description: 'The vendor the questionnaire concerns, null when none was given.' }),
      answered: z.int().meta({ description: 'Questions with the status `answered`.' }),
      unanswered: z.int().meta({ description: 'Questions not answered: those `partial` or `unanswered`.' }),
      coverage: z.number().meta({ description: 'Share of questions answered, 0 to 1.' }),
      answers: z
        .array(
          z.object({
            questionId: z.string().meta({ description: 'Id of the question in the questionnaire.' }),
            status: z.enum(['answered', 'partial', 'unanswered']).meta({
              description:
                '`answered` when valid (unexpired) evidence supports it, `partial` when only expired evidence matches, `unanswered` when no evidence matches.',
            }),
            answer: z.string().nullable().meta({ description: 'The drafted answer, null when nothing supports one.' }),
            controls: z.array(z.string()).meta({
              description:
                'Controls the answer bears on: the question’s own control and those the supporting valid evidence cites, sorted.',
            }),
            evidence: z
              .array(
                z.object({
                  evidenceId: z.string().meta({ description: 'Id of the evidence (`evd_...`).' }),
                  title: z.string().meta({ description: 'Title of the evidence.' }),
                  match: z.enum(['control', 'keyword']).meta({
                    description:
                      '`control` when the evidence cites the question’s control, `keyword` when it shares enough keywords with the question.',
                  }),
                }),
              )
              .meta({
                description: 'Evidence matched to the question, valid or expired: control matches first, then keyword matches by hits.',
              }),
            confidence: z.enum(['high', 'medium', 'low', 'none']).meta({
              description:
                '`high` with valid evidence citing the control, `medium` with valid keyword matches only, `low` with only expired evidence, `none` without a match.',
            }),
          }),
        )
        .meta({ description: 'One drafted answer per question, in questionnaire order.' }),
      gaps: z
        .array(
          z.object({
            questionId: z.string().meta({ description: 'Id of the question in the questionnaire.' }),
            question: z.string().meta({ description: 'Text of the question.' }),
            reason: z.string().meta({
              description: 'Why it is listed: no matching evidence, only expired evidence, or keyword matches only that need confirming.',
            }),
          }),
        )
        .meta({ description: 'Questions left without an answer or with a partial one, and why.' }),
    })
    .meta({ id: 'AgentVendorPrefillBotOutput', examples: [vendorExample] }),
});

// ---------------------------------------------------------------- search facades

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

const searchFacade = (slug: string, title: string, purpose: string, name: string, example: string) =>
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

export const groupBAgents = {
  riskOfficer,
  dataClassifier,
  dataMapper,
  dsarHandler,
  analyticsInsight,
  biasEvaluator,
  redTeamAttacker,
  explainabilityNarrator,
  vendorPrefillBot,
  svcSearch: searchFacade(
    'svc-search',
    'Search',
    'Cross-rail search: translates a natural-language query into BM25 terms and facet filters, runs it on the search engine over dictionaries and the tenant’s records and returns ranked hits with the parsed query.',
    'SvcSearch',
    'risk management controls of the ai act',
  ),
  alt1Search: searchFacade(
    'alt1-search',
    'Search (evidence surface)',
    'Search facade of the evidence surface over the same engine: its preset favours the tenant’s evidence, findings and policies.',
    'Alt1Search',
    'access control evidence',
  ),
  alt2Search: searchFacade(
    'alt2-search',
    'Search (dictionary surface)',
    'Search facade of the dictionary surface over the same engine: its preset favours clauses, controls and glossary terms.',
    'Alt2Search',
    'human oversight',
  ),
} as const satisfies Record<string, AgentSpec>;
