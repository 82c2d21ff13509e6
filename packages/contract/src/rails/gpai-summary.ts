import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { railRouter, resource } from '../resource.ts';
import {
  CREATED_BY_KEY_DESCRIPTION,
  created,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
} from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The gpai_summary rail (`/v1/gpai-summary`, growth): the public summary of the content used to
 * train a general-purpose AI model (EU AI Act Art. 53(1)(d)), following the sections of the
 * Commission's template (kept as data with its source: `content/gpai-summary/template.json`),
 * the data sources it lists, the provider's copyright policy (Art. 53(1)(c)) and the energy and
 * compute disclosure (Annex XI, Section 1, point 2(d) and (e)), with the Art. 51(2) presumption of
 * systemic risk computed from the compute. A summary is published only when every required
 * section of the template is filled from the records; changing a published one opens a new version.
 */

/** The `object` field of a record of the rail (the description names the summary as its example). */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.gpai_summary.summary');
/** `createdBy` and `createdAt` of the records added to a summary. */
const addedStamps = () => created(CREATED_BY_KEY_DESCRIPTION);

const EXAMPLE_SUMMARY = exampleId('gps');
/** The example stamps of a record added to a summary (such records do not change). */
const EXAMPLE_ADDED = { createdBy: EXAMPLE_KEY, createdAt: EXAMPLE_AT };

export const GPAI_MODALITIES = ['text', 'image', 'audio', 'video', 'other'] as const;
export const GPAI_SOURCE_TYPES = [
  'public_dataset',
  'private_licensed',
  'private_other',
  'crawled',
  'user_data',
  'synthetic',
  'other',
] as const;
export const GPAI_OPT_OUT_METHODS = ['robots_txt', 'tdm_rep', 'metadata', 'other'] as const;
/** Art. 51(2) AI Act: a model trained with more than this many FLOPs is presumed to have high-impact capabilities. */
export const GPAI_SYSTEMIC_RISK_FLOPS = 1e25;

const SummaryId = prefixedId('gps', EXAMPLE_SUMMARY);
const Modality = z.enum(GPAI_MODALITIES).meta({ description: 'Modality of the training data (template section 1.3).' });
const SourceType = z.enum(GPAI_SOURCE_TYPES).meta({
  description:
    'Category of the template’s section 2: `public_dataset` (2.1), `private_licensed` (2.2, licensed from rightsholders), `private_other` (2.2, other private datasets from third parties), `crawled` (2.3, crawled and scraped online), `user_data` (2.4), `synthetic` (2.5), `other` (2.6).',
});
const Day = z.iso.date().meta({ description: 'Calendar date (YYYY-MM-DD).' });
const Text = (description: string, max = 4000) => z.string().trim().min(1).max(max).meta({ description });

// ---------------------------------------------------------------- template

/** The template's first section, which the examples show. */
const PROVIDER_SECTION = { id: 'general.provider', number: '1.1', title: 'Provider identification' };
const PROVIDER_SECTION_SOURCE = 'Commission template (July 2025), section 1.1';

export const GpaiTemplateSection = z
  .object({
    id: z.string().meta({ description: 'Section id (`general.provider`, `sources.crawled`, `processing.tdm-opt-out`).' }),
    number: z.string().meta({ description: 'Number of the section in the template (`1.1`, `2.3`).' }),
    title: z.string().meta({ description: 'Title of the section.' }),
    content: z.string().meta({ description: 'What the section asks the provider to state.' }),
    source: z.string().meta({ description: 'Where the section comes from (template, AI Act article).' }),
    required: z.boolean().meta({ description: 'True when a summary cannot be published without it.' }),
    filledBy: z.string().meta({
      description:
        'Which records fill it: `summary.provider`, `summary.model`, `summary.modalities`, `summary.illegal-content`, `data-sources`, `data-sources:<type>`, `copyright-policy`.',
    }),
  })
  .meta({ id: 'GpaiTemplateSection', description: 'One section of the Commission’s template for the summary of training content.' });

export const GpaiTemplate = z
  .object({
    object: objectOf('svc.gpai_summary.template'),
    version: z.string().meta({ description: 'Version of the template data (`gpai-summary/template@1.0.0`).' }),
    title: z.string().meta({ description: 'Title of the template.' }),
    publisher: z.string().meta({ description: 'Who published the template.' }),
    published: z.string().meta({ description: 'When the template was published (month and year).' }),
    legalBasis: z.string().meta({ description: 'The provision the summary fulfils.' }),
    sections: z.array(GpaiTemplateSection).meta({ description: 'The sections, in the template’s order.' }),
  })
  .meta({
    id: 'GpaiTemplate',
    examples: [
      {
        object: 'svc.gpai_summary.template',
        version: 'gpai-summary/template@1.0.0',
        title: 'Template for the public summary of training content for general-purpose AI models',
        publisher: 'European Commission (AI Office)',
        published: 'July 2025',
        legalBasis: 'Regulation (EU) 2024/1689 (AI Act) Art. 53(1)(d)',
        sections: [
          {
            ...PROVIDER_SECTION,
            content: 'Name and contact details of the provider.',
            source: PROVIDER_SECTION_SOURCE,
            required: true,
            filledBy: 'summary.provider',
          },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- summaries

export const TrainingDataSize = z
  .object({
    modality: Modality,
    sizeRange: Text(
      'Size of the training data of this modality, as the range the template offers for it (`1 billion to 10 trillion tokens`).',
      200,
    ),
  })
  .meta({ id: 'GpaiTrainingDataSize', description: 'Overall size of the training data of one modality (template section 1.3).' });

const Provider = z
  .object({
    name: Text('Name of the provider placing the model on the market.', 200),
    contact: Text('Contact of the provider for this summary (address, email or URL).', 500),
  })
  .meta({ id: 'GpaiProvider', description: 'Provider identification (template section 1.1).' });

/** The example summary's model and provider, and what it says of the training data. */
const PROVIDER_EXAMPLE = { name: 'Acme AI SAS', contact: 'ai-office@acme.example' };
const MODEL_EXAMPLE = { modelName: 'Aurora', modelVersion: '2.1', provider: PROVIDER_EXAMPLE };
const TRAINING_DATA_EXAMPLE = {
  modalities: ['text'],
  trainingDataSize: [{ modality: 'text', sizeRange: '1 billion to 10 trillion tokens' }],
};
const CREATE_SUMMARY_EXAMPLE = { ...MODEL_EXAMPLE, ...TRAINING_DATA_EXAMPLE };

export const GpaiSummary = z
  .object({
    object: objectOf('svc.gpai_summary.summary'),
    id: SummaryId,
    modelName: z.string().meta({ description: 'Name of the model (template section 1.2).' }),
    modelVersion: z.string().meta({ description: 'Version of the model the summary covers.' }),
    provider: Provider,
    placedOnMarketAt: Day.nullable().meta({ description: 'When the model was (or will be) placed on the EU market, when known.' }),
    modalities: z.array(Modality).meta({ description: 'Modalities of the training data.' }),
    trainingDataSize: z.array(TrainingDataSize).meta({ description: 'Size range of the training data per modality.' }),
    illegalContentMeasures: z
      .string()
      .nullable()
      .meta({ description: 'Measures taken to remove illegal content from the training data (template section 3.2); null until stated.' }),
    status: z.enum(['draft', 'published']).meta({
      description:
        '`draft` while being written; `published` once complete and published. A change to a published summary opens the next version as a draft.',
    }),
    version: z
      .int()
      .min(1)
      .meta({ description: 'Version being written or published: 1, then one more for each change after a publication.' }),
    publishedVersion: z.int().min(1).nullable().meta({ description: 'Last published version; null before the first publication.' }),
    publishedAt: Timestamp.nullable().meta({ description: 'When the last version was published.' }),
    ...stamps('When the record last changed.', CREATED_BY_KEY_DESCRIPTION),
  })
  .meta({
    id: 'GpaiSummary',
    examples: [
      {
        object: 'svc.gpai_summary.summary',
        id: EXAMPLE_SUMMARY,
        ...MODEL_EXAMPLE,
        placedOnMarketAt: '2026-09-01',
        ...TRAINING_DATA_EXAMPLE,
        illegalContentMeasures: null,
        status: 'draft',
        version: 1,
        publishedVersion: null,
        publishedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateGpaiSummaryBody = z
  .strictObject({
    modelName: Text('Name of the model; with `modelVersion`, unique within the tenant.', 200),
    modelVersion: Text('Version of the model.', 100),
    provider: Provider,
    placedOnMarketAt: Day.optional(),
    modalities: z
      .array(Modality)
      .min(1)
      .max(GPAI_MODALITIES.length)
      .optional()
      .meta({ description: 'Modalities of the training data, each once.' }),
    trainingDataSize: z.array(TrainingDataSize).max(GPAI_MODALITIES.length).optional().meta({
      description: 'Size range per modality; each modality named here must be among `modalities`.',
    }),
    illegalContentMeasures: Text('Measures taken to remove illegal content (template section 3.2).').optional(),
  })
  .meta({
    id: 'CreateGpaiSummaryRequest',
    examples: [CREATE_SUMMARY_EXAMPLE],
  });

export const gpaiSummaries = resource({
  rail: 'gpai_summary',
  path: 'summaries',
  name: 'summary',
  label: { one: 'summary', many: 'summaries' },
  idPrefix: 'gps',
  record: GpaiSummary,
  statusField: 'status',
  filters: {
    status: z.enum(['draft', 'published']).optional().meta({ description: 'Only summaries in this status.' }),
    modelName: z.string().min(1).max(200).optional().meta({ description: 'Only summaries of the model of this name.' }),
  },
  create: {
    body: CreateGpaiSummaryBody,
    action: 'gpai_summary.created',
    fixture: { ...CREATE_SUMMARY_EXAMPLE, modelName: 'Aurora {{unique}}' },
    summary: 'Start a training-content summary',
    description:
      'Starts the public summary of the training content of one model version (AI Act Art. 53(1)(d)) as a draft, version 1. 409 when the tenant has a summary of that model name and version.',
    eventSummary: 'A training-content summary was started.',
  },
});

export const UpdateGpaiSummaryBody = z
  .strictObject({
    provider: Provider.optional(),
    placedOnMarketAt: Day.optional(),
    modalities: z.array(Modality).min(1).max(GPAI_MODALITIES.length).optional().meta({ description: 'Replaces the modalities.' }),
    trainingDataSize: z.array(TrainingDataSize).max(GPAI_MODALITIES.length).optional().meta({ description: 'Replaces the size ranges.' }),
    illegalContentMeasures: Text('Measures taken to remove illegal content (template section 3.2).').optional(),
  })
  .meta({
    id: 'UpdateGpaiSummaryRequest',
    examples: [
      { illegalContentMeasures: 'Filtered against the hash lists of known child sexual abuse material and removed flagged URLs.' },
    ],
  });

export const GpaiDocumentSection = z
  .object({
    id: z.string().meta({ description: 'Section id of the template.' }),
    number: z.string().meta({ description: 'Number of the section in the template.' }),
    title: z.string().meta({ description: 'Title of the section.' }),
    required: z.boolean().meta({ description: 'True when the section must be filled before publication.' }),
    filled: z.boolean().meta({ description: 'True when the records fill the section.' }),
    content: z.unknown().meta({ description: 'What the records say for this section (summary fields, data sources, policy).' }),
    source: z.string().meta({ description: 'Where the section comes from.' }),
  })
  .meta({ id: 'GpaiDocumentSection', description: 'One section of the summary as filled from the records.' });

export const GpaiDocument = z
  .object({
    object: objectOf('svc.gpai_summary.document'),
    summaryId: SummaryId,
    version: z.int().min(1).meta({ description: 'Version of the summary the document shows.' }),
    templateVersion: z.string().meta({ description: 'Version of the template data the sections come from.' }),
    complete: z.boolean().meta({ description: 'True when every required section is filled: the summary can be published.' }),
    missing: z.array(z.string()).meta({ description: 'Ids of the required sections not filled yet.' }),
    sections: z.array(GpaiDocumentSection).meta({ description: 'Every section of the template, in order.' }),
    systemicRiskPresumed: z.boolean().nullable().meta({
      description: 'Art. 51(2) presumption from the latest energy disclosure (compute above 10^25 FLOPs); null without a disclosure.',
    }),
    generatedAt: Timestamp.meta({ description: 'When the document was assembled.' }),
  })
  .meta({
    id: 'GpaiDocument',
    examples: [
      {
        object: 'svc.gpai_summary.document',
        summaryId: EXAMPLE_SUMMARY,
        version: 1,
        templateVersion: 'gpai-summary/template@1.0.0',
        complete: false,
        missing: ['processing.tdm-opt-out'],
        sections: [
          {
            ...PROVIDER_SECTION,
            required: true,
            filled: true,
            content: PROVIDER_EXAMPLE,
            source: PROVIDER_SECTION_SOURCE,
          },
        ],
        systemicRiskPresumed: null,
        generatedAt: EXAMPLE_AT,
      },
    ],
  });

export const GpaiSummaryVersion = z
  .object({
    object: objectOf('svc.gpai_summary.version'),
    summaryId: SummaryId,
    version: z.int().min(1).meta({ description: 'The published version.' }),
    publishedAt: Timestamp.meta({ description: 'When it was published.' }),
    publishedBy: z.string().meta({ description: 'Key that published it.' }),
    document: GpaiDocument.meta({ description: 'The document as published (frozen).' }),
  })
  .meta({ id: 'GpaiSummaryVersion', description: 'A published version of a summary, as it was published.' });

// ---------------------------------------------------------------- data sources

export const GpaiCrawler = z
  .object({
    name: Text('Name of the crawler.', 200),
    userAgent: Text('User agent it announces.', 500).optional(),
    respectsRobotsTxt: z.boolean().meta({ description: 'True when it honours robots.txt reservations.' }),
    purpose: Text('What it collected for.', 1000).optional(),
  })
  .meta({ id: 'GpaiCrawler', description: 'The crawler of crawled data (template section 2.3).' });

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/)
  .meta({ description: 'A domain name (`example.org`).' });

/** The example data source (its create request and its record), a web crawl. */
const DATA_SOURCE_EXAMPLE = {
  summaryId: EXAMPLE_SUMMARY,
  type: 'crawled',
  name: 'Acme web crawl 2025',
  description: 'Public web pages in 24 EU languages.',
  size: '2 trillion tokens',
  collectedFrom: '2025-01-01',
  collectedTo: '2025-06-30',
};
const CRAWL_EXAMPLE = {
  crawler: { name: 'AcmeBot', userAgent: 'AcmeBot/1.0', respectsRobotsTxt: true },
  topDomains: ['wikipedia.org', 'europa.eu'],
};

export const GpaiDataSource = z
  .object({
    object: objectOf('svc.gpai_summary.data_source'),
    id: prefixedId('gds', exampleId('gds')),
    summaryId: SummaryId,
    type: SourceType,
    name: z.string().meta({ description: 'Name of the dataset or source.' }),
    description: z.string().meta({ description: 'What it contains.' }),
    size: z.string().nullable().meta({ description: 'Its size in words (`120 billion tokens`), when given.' }),
    collectedFrom: Day.nullable().meta({ description: 'Start of the collection period, when given.' }),
    collectedTo: Day.nullable().meta({ description: 'End of the collection period, when given.' }),
    licence: z.string().nullable().meta({ description: 'Licence under which it is used, when given.' }),
    crawler: GpaiCrawler.nullable().meta({ description: 'The crawler, for crawled data; null otherwise.' }),
    topDomains: z
      .array(z.string())
      .meta({ description: 'Most relevant domains it was collected from, for crawled data; empty otherwise.' }),
    summaryVersion: z.int().min(1).meta({ description: 'Version of the summary it was added to.' }),
    ...addedStamps(),
  })
  .meta({
    id: 'GpaiDataSource',
    examples: [
      {
        object: 'svc.gpai_summary.data_source',
        id: exampleId('gds'),
        ...DATA_SOURCE_EXAMPLE,
        licence: null,
        ...CRAWL_EXAMPLE,
        summaryVersion: 1,
        ...EXAMPLE_ADDED,
      },
    ],
  });

export const CreateGpaiDataSourceBody = z
  .strictObject({
    summaryId: SummaryId,
    type: SourceType,
    name: Text('Name of the dataset or source.', 200),
    description: Text('What it contains.'),
    size: Text('Its size in words.', 200).optional(),
    collectedFrom: Day.optional(),
    collectedTo: Day.optional(),
    licence: Text('Licence under which it is used.', 500).optional(),
    crawler: GpaiCrawler.optional().meta({ description: 'The crawler: required for `crawled`, refused for other types.' }),
    topDomains: z.array(Domain).max(1000).optional().meta({
      description:
        'Most relevant domains (the template asks for the top domains by size): at least one for `crawled`, refused for other types.',
    }),
  })
  .meta({
    id: 'CreateGpaiDataSourceRequest',
    examples: [{ ...DATA_SOURCE_EXAMPLE, ...CRAWL_EXAMPLE }],
  });

const summarySetup = [
  {
    method: 'POST' as const,
    path: '/v1/gpai-summary/summaries',
    body: {
      modelName: 'Setup model {{unique}}',
      modelVersion: '1.0',
      provider: PROVIDER_EXAMPLE,
      modalities: ['text'],
    },
    as: 'summary',
  },
];

export const gpaiDataSources = resource({
  rail: 'gpai_summary',
  path: 'data-sources',
  name: 'data_source',
  label: { one: 'data source', many: 'data sources' },
  idPrefix: 'gds',
  record: GpaiDataSource,
  filters: {
    summaryId: SummaryId.optional().meta({ description: 'Only data sources of this summary.' }),
    type: SourceType.optional().meta({ description: 'Only data sources of this category.' }),
  },
  setup: summarySetup,
  create: {
    body: CreateGpaiDataSourceBody,
    action: 'gpai_summary.data_source_added',
    fixture: {
      summaryId: '{{summary.id}}',
      type: 'crawled',
      name: 'Acme web crawl 2025',
      description: 'Public web pages in 24 EU languages.',
      crawler: { name: 'AcmeBot', respectsRobotsTxt: true },
      topDomains: ['wikipedia.org'],
    },
    summary: 'Add a data source to a summary',
    description:
      'Lists a source of training data under its template category. Crawled data needs its crawler and at least one domain; other types take neither (422). The summary must be a draft (409 on a published one: change it first, which opens the next version).',
    eventSummary: 'A data source was added to a training-content summary.',
  },
});

// ---------------------------------------------------------------- copyright policy

const OptOutMethod = z.enum(GPAI_OPT_OUT_METHODS).meta({
  description:
    'How reservations of rights (Art. 4(3) Directive (EU) 2019/790) are honoured: `robots_txt` (Robots Exclusion Protocol), `tdm_rep` (W3C TDM Reservation Protocol), `metadata` (other machine-readable metadata), `other`.',
});

/** What the example copyright policy says (its create request and its record). */
const COPYRIGHT_POLICY_EXAMPLE = {
  optOutMethods: ['robots_txt', 'tdm_rep'],
  description: 'AcmeBot honours robots.txt and TDMRep reservations at crawl time and drops reserved pages.',
  complaintContact: 'copyright@acme.example',
  policyUrl: 'https://acme.example/copyright-policy',
  effectiveFrom: '2025-08-02',
};

export const GpaiCopyrightPolicy = z
  .object({
    object: objectOf('svc.gpai_summary.copyright_policy'),
    id: prefixedId('gcp', exampleId('gcp')),
    summaryId: SummaryId,
    version: z.int().min(1).meta({ description: 'Version of the policy for this summary: 1, 2, ...; the newest applies.' }),
    optOutMethods: z.array(OptOutMethod).meta({ description: 'How reservations of rights are identified and honoured.' }),
    description: z.string().meta({ description: 'The policy in words.' }),
    complaintContact: z.string().meta({ description: 'Where rightsholders send complaints (email or URL).' }),
    policyUrl: z.string().nullable().meta({ description: 'Where the policy is published, when given.' }),
    effectiveFrom: Day.meta({ description: 'From when the policy applies.' }),
    source: z.string().meta({ description: 'The provision the policy fulfils.' }),
    ...addedStamps(),
  })
  .meta({
    id: 'GpaiCopyrightPolicy',
    examples: [
      {
        object: 'svc.gpai_summary.copyright_policy',
        id: exampleId('gcp'),
        summaryId: EXAMPLE_SUMMARY,
        version: 1,
        ...COPYRIGHT_POLICY_EXAMPLE,
        source: 'Regulation (EU) 2024/1689 Art. 53(1)(c)',
        ...EXAMPLE_ADDED,
      },
    ],
  });

export const CreateGpaiCopyrightPolicyBody = z
  .strictObject({
    summaryId: SummaryId,
    optOutMethods: z
      .array(OptOutMethod)
      .min(1)
      .max(GPAI_OPT_OUT_METHODS.length)
      .meta({ description: 'How reservations are honoured, each once.' }),
    description: Text('The policy in words.'),
    complaintContact: Text('Where rightsholders send complaints (email or URL).', 500),
    policyUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .optional()
      .meta({ description: 'Where the policy is published (https).' }),
    effectiveFrom: Day.optional().meta({ description: 'From when the policy applies; today when absent.' }),
  })
  .meta({
    id: 'CreateGpaiCopyrightPolicyRequest',
    examples: [
      {
        summaryId: EXAMPLE_SUMMARY,
        ...COPYRIGHT_POLICY_EXAMPLE,
      },
    ],
  });

export const gpaiCopyrightPolicies = resource({
  rail: 'gpai_summary',
  path: 'copyright-policy',
  name: 'copyright_policy',
  label: { one: 'copyright policy', many: 'copyright policies' },
  idPrefix: 'gcp',
  record: GpaiCopyrightPolicy,
  filters: { summaryId: SummaryId.optional().meta({ description: 'Only policies of this summary.' }) },
  setup: summarySetup,
  create: {
    body: CreateGpaiCopyrightPolicyBody,
    action: 'gpai_summary.copyright_policy_set',
    fixture: {
      summaryId: '{{summary.id}}',
      optOutMethods: ['robots_txt'],
      description: 'Reservations in robots.txt are honoured at crawl time.',
      complaintContact: 'copyright@acme.example',
    },
    summary: 'Set the copyright policy of a summary',
    description:
      'Records the provider’s policy to comply with Union copyright law (AI Act Art. 53(1)(c)): how reservations of rights are honoured and where complaints go. Each new policy of a summary is its next version. The summary must be a draft (409 otherwise).',
    eventSummary: 'A copyright policy was set for a training-content summary.',
  },
});

// ---------------------------------------------------------------- energy disclosure

const EnergyBasis = z.enum(['measured', 'estimated', 'unknown']).meta({
  description:
    '`measured` or `estimated` energy (Annex XI 1.2(e): known or estimated); `unknown`, in which case the estimate may rest on the compute used (the value stays null).',
});

/** What the example energy disclosure states (its create request and its record). */
const ENERGY_EXAMPLE = {
  energyMwh: 1250.5,
  energyBasis: 'estimated',
  method: 'GPU-hours times measured board power times a PUE of 1.2',
  computeFlops: 3.8e24,
  trainingTimeHours: 2160,
};

export const GpaiEnergyDisclosure = z
  .object({
    object: objectOf('svc.gpai_summary.energy_disclosure'),
    id: prefixedId('gen', exampleId('gen')),
    summaryId: SummaryId,
    energyMwh: z.number().nullable().meta({ description: 'Energy consumed in training, in MWh; null when unknown.' }),
    energyBasis: EnergyBasis,
    method: z.string().meta({ description: 'How the energy was measured or estimated.' }),
    computeFlops: z.number().meta({ description: 'Cumulative compute used for training, in floating-point operations.' }),
    trainingTimeHours: z.number().nullable().meta({ description: 'Training time in hours, when given.' }),
    systemicRiskPresumed: z.boolean().meta({
      description:
        'Computed: true when `computeFlops` exceeds 10^25, the Art. 51(2) presumption of high-impact capabilities (systemic risk).',
    }),
    thresholdFlops: z.number().meta({ description: 'The Art. 51(2) threshold the flag is computed against (10^25).' }),
    sources: z.array(z.string()).meta({ description: 'Provisions behind the disclosure and the flag.' }),
    ...addedStamps(),
  })
  .meta({
    id: 'GpaiEnergyDisclosure',
    examples: [
      {
        object: 'svc.gpai_summary.energy_disclosure',
        id: exampleId('gen'),
        summaryId: EXAMPLE_SUMMARY,
        ...ENERGY_EXAMPLE,
        systemicRiskPresumed: false,
        thresholdFlops: 1e25,
        sources: ['Regulation (EU) 2024/1689 Annex XI Section 1 point 2(d) and (e)', 'Regulation (EU) 2024/1689 Art. 51(2)'],
        ...EXAMPLE_ADDED,
      },
    ],
  });

export const CreateGpaiEnergyDisclosureBody = z
  .strictObject({
    summaryId: SummaryId,
    energyMwh: z
      .number()
      .min(0)
      .max(1e9)
      .optional()
      .meta({ description: 'Energy consumed in training, in MWh; required unless `energyBasis` is `unknown`, refused then.' }),
    energyBasis: EnergyBasis,
    method: Text('How the energy was measured or estimated (or, when unknown, how compute stands in for it).', 2000),
    computeFlops: z.number().positive().max(1e35).meta({ description: 'Cumulative training compute in FLOPs (`3.8e24`).' }),
    trainingTimeHours: z.number().positive().max(1e7).optional().meta({ description: 'Training time in hours.' }),
  })
  .meta({
    id: 'CreateGpaiEnergyDisclosureRequest',
    examples: [
      {
        summaryId: EXAMPLE_SUMMARY,
        ...ENERGY_EXAMPLE,
      },
    ],
  });

export const gpaiEnergyDisclosures = resource({
  rail: 'gpai_summary',
  path: 'energy-disclosure',
  name: 'energy_disclosure',
  label: { one: 'energy disclosure', many: 'energy disclosures' },
  idPrefix: 'gen',
  record: GpaiEnergyDisclosure,
  filters: { summaryId: SummaryId.optional().meta({ description: 'Only disclosures of this summary.' }) },
  setup: summarySetup,
  create: {
    body: CreateGpaiEnergyDisclosureBody,
    action: 'gpai_summary.energy_disclosed',
    fixture: {
      summaryId: '{{summary.id}}',
      energyMwh: 10,
      energyBasis: 'measured',
      method: 'Metered at the data centre',
      computeFlops: 1e23,
    },
    summary: 'Disclose training energy and compute',
    description:
      'Records the energy consumed in training (known or estimated) and the compute used (Annex XI Section 1 point 2(d) and (e)); the Art. 51(2) presumption of systemic risk is computed from the compute (above 10^25 FLOPs). The newest disclosure of a summary applies. The summary must be a draft (409 otherwise).',
    eventSummary: 'Training energy and compute were disclosed for a training-content summary.',
  },
});

// ---------------------------------------------------------------- router

const SummaryParams = z.object({ id: SummaryId });
const read = meta({ auth: 'tenant', rail: 'gpai_summary', permission: 'gpai_summary:read', mutating: false });
const write = meta({ auth: 'tenant', rail: 'gpai_summary', permission: 'gpai_summary:write', mutating: true });
const approve = meta({ auth: 'tenant', rail: 'gpai_summary', permission: 'gpai_summary:approve', mutating: true });

export const gpaiSummaryRouter = railRouter('gpai_summary', {
  template: {
    method: 'GET',
    path: '/template',
    responses: { 200: GpaiTemplate },
    summary: 'The Commission’s template for the summary',
    description:
      'The sections of the Commission’s public template for the summary of training content (AI Act Art. 53(1)(d)), each with its source, whether it is required and which records fill it. Read from the shipped data file.',
    metadata: read,
  },
  summaries: gpaiSummaries.routes,
  updateSummary: {
    method: 'PATCH',
    path: '/summaries/:id',
    pathParams: SummaryParams,
    body: UpdateGpaiSummaryBody,
    responses: { 200: GpaiSummary },
    summary: 'Change a summary',
    description:
      'Sets general information of the summary. A draft changes in place; a published summary opens its next version as a draft (`version` + 1, the published version stays readable under versions). Needs `gpai_summary:write`; audited and emitted as `gpai_summary.updated`.',
    metadata: meta({ ...write, audit: 'gpai_summary.updated' }),
  },
  publishSummary: {
    method: 'POST',
    path: '/summaries/:id/publish',
    pathParams: SummaryParams,
    body: z
      .strictObject({ reason: z.string().min(1).max(1000).optional().meta({ description: 'Why; kept in the audit event.' }) })
      .optional()
      .meta({ description: 'Optional reason.' }),
    responses: { 200: GpaiSummary },
    summary: 'Publish a summary',
    description:
      'Publishes the draft version when every required section of the template is filled from the records: otherwise 422 `validation_failed` listing each missing section in `details` (`sections.<id>`). A published summary: 409. The document as published is kept under versions. Needs `gpai_summary:approve`; audited and emitted as `gpai_summary.published`.',
    metadata: meta({ ...approve, audit: 'gpai_summary.published', stateful: true }),
  },
  document: {
    method: 'GET',
    path: '/summaries/:id/document',
    pathParams: SummaryParams,
    responses: { 200: GpaiDocument },
    summary: 'The summary as a document, section by section',
    description:
      'Assembles the summary following the template’s sections from the records (summary, data sources, newest copyright policy and energy disclosure), with which required sections are still missing.',
    metadata: read,
  },
  versions: {
    method: 'GET',
    path: '/summaries/:id/versions',
    pathParams: SummaryParams,
    query: PaginationQuery,
    responses: { 200: listOf(GpaiSummaryVersion) },
    summary: 'Published versions of a summary',
    description: 'Every published version with its frozen document, newest first, cursor-paginated.',
    metadata: read,
  },
  dataSources: gpaiDataSources.routes,
  copyrightPolicies: gpaiCopyrightPolicies.routes,
  energyDisclosures: gpaiEnergyDisclosures.routes,
});

/** Event types the gpai_summary rail emits. */
export const gpaiSummaryEvents: ReturnType<typeof eventType>[] = [
  ...gpaiSummaries.events,
  ...gpaiDataSources.events,
  ...gpaiCopyrightPolicies.events,
  ...gpaiEnergyDisclosures.events,
  eventType('gpai_summary.updated', 'A training-content summary changed (a published one opened its next version).', GpaiSummary),
  eventType(
    'gpai_summary.published',
    'A training-content summary was published, every required section of the template filled.',
    GpaiSummary,
  ),
];
