import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { idParams } from '../../shared/records.ts';
import { CUSTODIAN_STATUSES, HOLD_STATUSES, HoldId } from './fields.ts';
import {
  CreateLegalHoldBody,
  CreateLegalHoldCustodianBody,
  CreateLegalHoldExportBody,
  LEGAL_HOLD_PRESERVATION_EVENTS,
  LegalHeldRecords,
  LegalHold,
  LegalHoldCustodian,
  LegalHoldEdiscoveryExport,
  LegalHoldPreservationEntry,
} from './schemas.ts';

/** The litigation hold rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- holds

export const legalHolds = resource({
  rail: 'litigation_hold',
  path: 'holds',
  name: 'hold',
  label: { one: 'hold', many: 'holds' },
  idPrefix: 'lhd',
  record: LegalHold,
  statusField: 'status',
  filters: { status: z.enum(HOLD_STATUSES).optional().meta({ description: 'Only holds in this status.' }) },
  create: {
    body: CreateLegalHoldBody,
    action: 'legal_hold.created',
    summary: 'Place a legal hold',
    description:
      'Places a hold on the records named and/or matched by the criteria: from now on they cannot be deleted nor reset. The hold is written to the preservation log. A named record that is not the tenant’s is 422.',
    eventSummary: 'A legal hold was placed.',
  },
  transitions: {
    release: {
      from: ['active'],
      to: 'released',
      action: 'legal_hold.released',
      summary: 'Release a legal hold',
      description:
        'Releases the hold: it holds nothing from then on (records it covered may be deleted unless another hold covers them). The `reason` is required (422 without it) and written to the preservation log.',
    },
  },
});

// ---------------------------------------------------------------- custodians

const holdSetup = {
  method: 'POST' as const,
  path: '/v1/litigation-hold/holds',
  body: { matter: 'Matter {{unique}}', criteria: { types: ['risk'] } },
  as: 'hold',
};

export const legalHoldCustodians = resource({
  rail: 'litigation_hold',
  path: 'custodians',
  name: 'custodian',
  label: { one: 'custodian', many: 'custodians' },
  idPrefix: 'lcu',
  record: LegalHoldCustodian,
  statusField: 'status',
  filters: {
    holdId: HoldId.optional().meta({ description: 'Only custodians of this hold.' }),
    status: z.enum(CUSTODIAN_STATUSES).optional().meta({ description: 'Only custodians in this status.' }),
  },
  setup: [holdSetup],
  create: {
    body: CreateLegalHoldCustodianBody,
    fixture: { holdId: '{{hold.id}}', name: 'Custodian {{unique}}', email: 'custodian@example.com' },
    action: 'custodian.notified',
    summary: 'Add a custodian (sends the hold notice)',
    description:
      'Adds a custodian to an active hold and records the hold notice in the preservation log. The same person twice on one hold (same stakeholder or email): 409.',
    eventSummary: 'A custodian was notified of a legal hold.',
  },
  transitions: {
    acknowledge: {
      from: ['notified'],
      to: 'acknowledged',
      summary: 'Record the custodian’s acknowledgement',
      description: 'Records that the custodian acknowledged the hold notice (written to the preservation log).',
    },
  },
});

// ---------------------------------------------------------------- preservation log

export const legalHoldPreservation = resource({
  rail: 'litigation_hold',
  path: 'preservation',
  name: 'preservation_entry',
  label: { one: 'preservation log entry', many: 'preservation log entries' },
  idPrefix: 'lpl',
  record: LegalHoldPreservationEntry,
  filters: {
    holdId: HoldId.optional().meta({ description: 'Only entries of this hold.' }),
    event: z.enum(LEGAL_HOLD_PRESERVATION_EVENTS).optional().meta({ description: 'Only entries of this kind.' }),
  },
  setup: [holdSetup],
});

// ---------------------------------------------------------------- ediscovery

export const legalHoldExports = resource({
  rail: 'litigation_hold',
  path: 'ediscovery',
  name: 'ediscovery_export',
  label: { one: 'eDiscovery export', many: 'eDiscovery exports' },
  idPrefix: 'led',
  record: LegalHoldEdiscoveryExport,
  filters: { holdId: HoldId.optional().meta({ description: 'Only exports of this hold.' }) },
  setup: [holdSetup],
  create: {
    body: CreateLegalHoldExportBody,
    fixture: { holdId: '{{hold.id}}' },
    action: 'ediscovery_export.created',
    summary: 'Export the held records',
    description:
      'Collects every record the hold covers now, with a SHA-256 of each record’s canonical JSON, and a manifest whose SHA-256 seals the export; stored, and written to the preservation log. A released hold: 409; an unknown hold: 422.',
    eventSummary: 'An eDiscovery export of a hold was made.',
  },
});

// ---------------------------------------------------------------- router

const { read } = policyOf('litigation_hold');

export const litigationHoldRouter = railRouter('litigation_hold', {
  holds: {
    ...legalHolds.routes,
    records: get('/holds/:id/records', { pathParams: idParams('lhd') }, LegalHeldRecords, read).doc(
      'The records a hold covers now',
      'Resolves the hold: its named records and those its criteria match now, by kind then id. A released hold covers nothing. Needs `litigation_hold:read`.',
    ),
  },
  custodians: legalHoldCustodians.routes,
  preservation: legalHoldPreservation.routes,
  ediscovery: legalHoldExports.routes,
});

/** Event types the litigation_hold rail emits. */
export const litigationHoldEvents: ReturnType<typeof eventType>[] = [
  ...legalHolds.events,
  ...legalHoldCustodians.events,
  ...legalHoldExports.events,
];
