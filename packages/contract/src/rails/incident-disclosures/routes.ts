import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { Timestamp } from '../../shared/common.ts';
import { idParams } from '../../shared/records.ts';
import { CHANNEL_INPUT, DisclosureId, DisclosureStatus, EXAMPLE_STAGE, Regime } from './fields.ts';
import {
  CreateDisclosureBody,
  CreateDraftBody,
  CreateIncidentChannelBody,
  Disclosure,
  DisclosureDraft,
  DisclosureTimeline,
  IncidentChannel,
  IncidentSla,
  IncidentSlaBreach,
  RecordSubmissionBody,
  UpdateDisclosureBody,
} from './schemas.ts';

/** The incident disclosures rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- channels

export const incidentChannels = resource({
  rail: 'incident_disclosures',
  path: 'channels',
  name: 'channel',
  label: { one: 'channel', many: 'channels' },
  idPrefix: 'ich',
  record: IncidentChannel,
  filters: { regime: Regime.optional().meta({ description: 'Only channels of this regime.' }) },
  create: {
    body: CreateIncidentChannelBody,
    fixture: { ...CHANNEL_INPUT, name: 'CNIL {{unique}}' },
    summary: 'Register a regulator channel',
    description:
      'Registers the authority the tenant notifies under a regime, returned with the regime’s notification rules. 409 when a channel of that name exists for the regime.',
    eventSummary: 'A regulator channel was registered.',
  },
});

// ---------------------------------------------------------------- disclosures

export const incidentDisclosures = resource({
  rail: 'incident_disclosures',
  path: 'disclosures',
  name: 'disclosure',
  label: { one: 'disclosure', many: 'disclosures' },
  idPrefix: 'idc',
  record: Disclosure,
  statusField: 'status',
  filters: {
    status: DisclosureStatus.optional().meta({ description: 'Only disclosures in this status.' }),
    regime: Regime.optional().meta({ description: 'Only disclosures under this regime.' }),
  },
  filterFields: { regime: 'regimes[]' },
  create: {
    body: CreateDisclosureBody,
    action: 'incident.reported',
    summary: 'Open a disclosure',
    description:
      'Records an incident to disclose under the regimes given and computes every clock from `knownAt` (and `classifiedMajorAt` for DORA), with the legal source of each.',
    eventSummary: 'An incident was reported for disclosure; its clocks are running.',
  },
  transitions: {
    close: { from: ['open'], to: 'closed', action: 'incident.closed', summary: 'Close a disclosure' },
    reopen: { from: ['closed'], to: 'open', action: 'incident.reopened', summary: 'Reopen a disclosure' },
    update: {
      from: ['open'],
      method: 'PATCH',
      body: UpdateDisclosureBody,
      action: 'incident.updated',
      summary: 'Add facts to a disclosure',
      description:
        'Sets facts, factors or the DORA classification time; the clocks are recomputed (a death shortens the EU AI Act clock to 10 days).',
      eventSummary: 'Facts, factors or the classification of a disclosure changed; its clocks were recomputed.',
    },
    record_submission: {
      from: ['open'],
      path: 'submissions',
      body: RecordSubmissionBody,
      action: 'incident.disclosed',
      stateful: true,
      summary: 'Record a filing with an authority',
      description:
        'Records that a stage was filed. The stages that count from it (NIS2 final report, DORA intermediate and final reports) then run from the real filing time. 422 for a regime the disclosure is not under or a stage the regime does not have; 409 when the stage was filed already or when the stage it follows is not filed yet.',
      eventSummary: 'A stage of a disclosure was filed with an authority.',
    },
  },
});

const DisclosureParams = idParams('idc');
const { read } = policyOf('incident_disclosures');

// ---------------------------------------------------------------- drafts

export const disclosureDrafts = resource({
  rail: 'incident_disclosures',
  path: 'drafts',
  name: 'disclosure_draft',
  label: { one: 'draft', many: 'drafts' },
  idPrefix: 'idf',
  record: DisclosureDraft,
  filters: { disclosureId: DisclosureId.optional().meta({ description: 'Only drafts of this disclosure.' }) },
  setup: [
    {
      method: 'POST',
      path: '/v1/incident-disclosures/disclosures',
      body: {
        title: 'Stolen laptop',
        regimes: ['gdpr'],
        knownAt: '2026-11-20T08:00:00.000Z',
        facts: { nature: 'A laptop with customer data was stolen' },
      },
      as: 'disclosure',
    },
  ],
  create: {
    body: CreateDraftBody,
    fixture: { disclosureId: '{{disclosure.id}}', ...EXAMPLE_STAGE },
    summary: 'Draft a notification',
    description:
      'Builds the regulator-shaped notification of one stage from the disclosure: the fields the stage needs, filled from its facts, and the ones still missing. Drafts are versioned per stage and never sent by the service.',
    eventSummary: 'A notification draft was made.',
  },
});

// ---------------------------------------------------------------- timeline and SLA

/** The disclosure's edits keep the keys the SDK has always had, beside its collection. */
const { update: updateDisclosure, record_submission: recordSubmission, ...disclosureRoutes } = incidentDisclosures.routes;

export const incidentDisclosuresRouter = railRouter('incident_disclosures', {
  channels: incidentChannels.routes,
  disclosures: disclosureRoutes,
  drafts: disclosureDrafts.routes,
  updateDisclosure,
  recordSubmission,
  timeline: get('/timelines/:id', { pathParams: DisclosureParams }, DisclosureTimeline, read).doc(
    'The timeline of a disclosure',
    'Awareness, classification, the record, drafts, filings, deadlines and status changes of one disclosure, in time order.',
  ),
  sla: get(
    '/sla',
    {
      query: z.object({
        at: Timestamp.optional().meta({ description: 'The moment to compute states for; now when absent.' }),
        regime: Regime.optional().meta({ description: 'Only stages of this regime.' }),
      }),
    },
    IncidentSla,
    read,
  ).doc(
    'What is due when, and what is late',
    'Every unfiled stage with a deadline, across the open disclosures, earliest first, with counts per state.',
  ),
});

export const incidentDisclosuresEvents: ReturnType<typeof eventType>[] = [
  ...incidentChannels.events,
  ...incidentDisclosures.events,
  ...disclosureDrafts.events,
  eventType(
    'incident.sla_breached',
    'A disclosure deadline passed without a filing (found by the deadline sweep, once per deadline).',
    IncidentSlaBreach,
  ),
];
