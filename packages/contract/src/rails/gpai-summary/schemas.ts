import { z } from 'zod';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import {
  CREATED_BY_KEY_DESCRIPTION,
  created,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
} from '../../shared/records.ts';
import {
  CREATE_SUMMARY_EXAMPLE,
  EXAMPLE_SUMMARY,
  MODEL_EXAMPLE,
  PROVIDER_EXAMPLE,
  SourceType,
  SummaryId,
  TRAINING_DATA_EXAMPLE,
} from './fields.ts';

/** The gpai summary rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a record of the rail (the description names the summary as its example). */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.gpai_summary.summary');
/** `createdBy` and `createdAt` of the records added to a summary. */
const addedStamps = () => created(CREATED_BY_KEY_DESCRIPTION);

/** The example stamps of a record added to a summary (such records do not change). */
const EXAMPLE_ADDED = { createdBy: EXAMPLE_KEY, createdAt: EXAMPLE_AT };

export const GPAI_MODALITIES = ['text', 'image', 'audio', 'video', 'other'] as const;
export const GPAI_OPT_OUT_METHODS = ['robots_txt', 'tdm_rep', 'metadata', 'other'] as const;
/** Art. 51(2) AI Act: a model trained with more than this many FLOPs is presumed to have high-impact capabilities. */
export const GPAI_SYSTEMIC_RISK_FLOPS = 1e25;

const Modality = z.enum(GPAI_MODALITIES).meta({ description: 'Modality of the training data (template section 1.3).' });
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
