import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { CREATE_SUMMARY_EXAMPLE, PROVIDER_EXAMPLE, SourceType, SummaryId } from './fields.ts';
import {
  CreateGpaiCopyrightPolicyBody,
  CreateGpaiDataSourceBody,
  CreateGpaiEnergyDisclosureBody,
  CreateGpaiSummaryBody,
  GpaiCopyrightPolicy,
  GpaiDataSource,
  GpaiDocument,
  GpaiEnergyDisclosure,
  GpaiSummary,
  GpaiSummaryVersion,
  GpaiTemplate,
  UpdateGpaiSummaryBody,
} from './schemas.ts';

/** The gpai summary rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- summaries

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
  transitions: {
    update: {
      from: ['draft', 'published'],
      method: 'PATCH',
      body: UpdateGpaiSummaryBody,
      action: 'gpai_summary.updated',
      summary: 'Change a summary',
      description:
        'Sets general information of the summary; 422 when no field is given. A draft changes in place; a published summary opens its next version as a draft (`version` + 1, the published version stays readable under versions).',
      eventSummary: 'A training-content summary changed (a published one opened its next version).',
    },
    publish: {
      from: ['draft'],
      to: 'published',
      action: 'gpai_summary.published',
      stateful: true,
      summary: 'Publish a summary',
      description:
        'Publishes the draft version when every required section of the template is filled from the records: otherwise 422 `validation_failed` listing each missing section in `details` (`sections.<id>`). The document as published is kept under versions.',
      eventSummary: 'A training-content summary was published, every required section of the template filled.',
    },
  },
});

// ---------------------------------------------------------------- data sources

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
const BySummary = { pathParams: SummaryParams };
const { read } = policyOf('gpai_summary');

/** The summary's change and publication keep the keys the SDK has always had, beside its collection. */
const { update: updateSummary, publish: publishSummary, ...summaryRoutes } = gpaiSummaries.routes;

export const gpaiSummaryRouter = railRouter('gpai_summary', {
  template: get('/template', {}, GpaiTemplate, read).doc(
    'The Commission’s template for the summary',
    'The sections of the Commission’s public template for the summary of training content (AI Act Art. 53(1)(d)), each with its source, whether it is required and which records fill it. Read from the shipped data file.',
  ),
  summaries: summaryRoutes,
  updateSummary,
  publishSummary,
  document: get('/summaries/:id/document', BySummary, GpaiDocument, read).doc(
    'The summary as a document, section by section',
    'Assembles the summary following the template’s sections from the records (summary, data sources, newest copyright policy and energy disclosure), with which required sections are still missing.',
  ),
  versions: get('/summaries/:id/versions', { ...BySummary, query: PaginationQuery }, listOf(GpaiSummaryVersion), read).doc(
    'Published versions of a summary',
    'Every published version with its frozen document, newest first, cursor-paginated.',
  ),
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
];
