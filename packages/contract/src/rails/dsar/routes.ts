import { z } from 'zod';
import { get, policyOf, post, stateful } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { Timestamp } from '../../shared/common.ts';
import { ItemStatus, Kind, Regime, Status, SubjectType } from './fields.ts';
import {
  CloseFulfillmentItemBody,
  CreateDsarDataStoreBody,
  CreateDsarExportBody,
  CreateDsarRedactionBody,
  CreateDsarRequestBody,
  DSAR_OPEN_STATUSES,
  DsarDataStore,
  DsarDeadlineApproaching,
  DsarExport,
  DsarFulfillment,
  DsarFulfillmentItem,
  DsarRedaction,
  DsarRequest,
  DsarRequestId,
  DsarSla,
  ExtendDsarRequestBody,
  PauseDsarRequestBody,
  ResumeDsarRequestBody,
  StartFulfillmentBody,
  VerifyDsarBody,
} from './schemas.ts';

/** The dsar rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- requests

export const dsarRequests = resource({
  rail: 'dsar',
  path: 'requests',
  name: 'request',
  label: { one: 'request', many: 'requests' },
  idPrefix: 'dsr',
  record: DsarRequest,
  statusField: 'status',
  filters: {
    status: Status.optional().meta({ description: 'Only requests in this status.' }),
    regime: Regime.optional().meta({ description: 'Only requests under this regime.' }),
    kind: Kind.optional().meta({ description: 'Only requests of this kind.' }),
  },
  create: {
    body: CreateDsarRequestBody,
    action: 'dsar.received',
    summary: 'Record a data-subject request',
    description:
      'Records a request under a regime and computes its statutory due date from `receivedAt` (now when absent) by the rule of the regime and kind, with the legal source and the rules version; for CCPA requests to know, delete or correct, the receipt confirmation date too. A kind the regime does not grant is 422.',
    eventSummary: 'A data-subject request was received; its clock is running.',
  },
  transitions: {
    fulfill: {
      from: ['in_progress'],
      to: 'fulfilled',
      action: 'dsar.fulfilled',
      summary: 'Mark a request fulfilled',
      description:
        'Allowed once every fulfillment item is closed (done, not found or withheld): otherwise 409 naming the open items. Only a verified request reaches `in_progress`, so an unverified one cannot be fulfilled.',
    },
    reject: {
      from: ['received', 'verified'],
      to: 'rejected',
      action: 'dsar.rejected',
      summary: 'Reject a request',
      description:
        'Rejects the request (manifestly unfounded or excessive, identity not established, no such right); `reason` is required (422 without it) and kept on the record.',
    },
    extend: {
      from: DSAR_OPEN_STATUSES,
      body: ExtendDsarRequestBody,
      action: 'dsar.extended',
      stateful: true,
      summary: 'Extend the due date of a request',
      description:
        'Extends an open request once by the regime’s rule, counted from the original due date (GDPR and UK GDPR: two further months; CCPA: 45 days), and records the notice to the subject the regime requires with its send-by date (the original due date). A regime or kind without an extension, a second extension, or an extension after the original due date is 409.',
      eventSummary: 'A request was extended by its regime’s rule; the subject is notified.',
    },
    pause: {
      from: DSAR_OPEN_STATUSES,
      body: PauseDsarRequestBody,
      action: 'dsar.paused',
      stateful: true,
      summary: 'Stop the clock while waiting for information from the subject',
      description:
        'Records that the controller asked the subject for information it reasonably needs to answer; the clock stands still until `resume`, and the days from the day asked to the day answered are added to the due date. Only where the regime allows it for the kind (UK GDPR Art. 12A: access requests received from 5 February 2026); otherwise 409, as is a second open pause or a pause after the due date.',
      eventSummary: 'The clock of a request stands still while the controller waits for information from the subject.',
    },
    resume: {
      from: DSAR_OPEN_STATUSES,
      body: ResumeDsarRequestBody.optional(),
      action: 'dsar.resumed',
      stateful: true,
      summary: 'Restart the clock when the subject answers',
      description:
        'Records when the information asked for arrived; the clock runs again and the due date moves by the days it stood still. 409 without an open pause.',
      eventSummary: 'The subject answered; the clock of the request runs again with its due date moved.',
    },
  },
});

// ---------------------------------------------------------------- data stores

export const dsarStores = resource({
  rail: 'dsar',
  path: 'stores',
  // The stores are what fulfillment searches: one item per store that holds the subject's data.
  subResource: 'fulfillment',
  name: 'data_store',
  label: { one: 'data store', many: 'declared data stores' },
  idPrefix: 'dst',
  record: DsarDataStore,
  filters: { subjectType: SubjectType.optional().meta({ description: 'Only stores that hold data of this kind of subject.' }) },
  filterFields: { subjectType: 'subjectTypes[]' },
  create: {
    body: CreateDsarDataStoreBody,
    action: 'dsar.store_declared',
    summary: 'Declare a data store',
    description:
      'Declares a store of personal data: the system, the categories it holds and whose data. Fulfillment lists one item per store holding data of the request’s subject type.',
    eventSummary: 'A data store was declared.',
  },
});

// ---------------------------------------------------------------- fulfillment

/** Setup steps of the conformance fixtures: a GDPR access request, then an identity check of it passed by `method`. */
const verifiedRequestSetup = (method: 'email_confirmation' | 'document_check') =>
  [
    {
      method: 'POST',
      path: '/v1/dsar/requests',
      body: { regime: 'gdpr', kind: 'access', subject: { name: 'Jana Novak', email: 'jana.novak@example.com' } },
      as: 'request',
    },
    { method: 'POST', path: '/v1/dsar/verify', body: { requestId: '{{request.id}}', method, outcome: 'passed' } },
  ] as const;

export const fulfillmentItems = resource({
  rail: 'dsar',
  path: 'fulfillment',
  name: 'fulfillment_item',
  label: { one: 'fulfillment item', many: 'fulfillment items' },
  idPrefix: 'dsf',
  record: DsarFulfillmentItem,
  statusField: 'status',
  filters: {
    requestId: DsarRequestId.optional().meta({ description: 'Only items of this request.' }),
    status: ItemStatus.optional().meta({ description: 'Only items in this status.' }),
  },
  setup: [
    {
      method: 'POST',
      path: '/v1/dsar/stores',
      body: { name: 'Orders database', system: 'PostgreSQL orders-db', kind: 'database', categories: ['contact', 'orders'] },
    },
    ...verifiedRequestSetup('email_confirmation'),
    { method: 'POST', path: '/v1/dsar/fulfillment', body: { requestId: '{{request.id}}' } },
  ],
  transitions: {
    complete: {
      body: CloseFulfillmentItemBody.optional(),
      from: ['pending'],
      to: 'done',
      action: 'dsar.item_completed',
      summary: 'Close a fulfillment item as done',
      description:
        'The store was searched and the request carried out in it (data exported, erased, corrected). For an erasure request, refused with 409 while the request or a named record is under a legal hold. The request must be `in_progress`.',
    },
    mark_not_found: {
      body: CloseFulfillmentItemBody.optional(),
      from: ['pending'],
      to: 'not_found',
      action: 'dsar.item_not_found',
      summary: 'Close a fulfillment item: no data of the subject',
      description: 'The store holds no data of the subject. The request must be `in_progress`.',
    },
    withhold: {
      body: CloseFulfillmentItemBody.optional(),
      from: ['pending'],
      to: 'withheld',
      action: 'dsar.item_withheld',
      summary: 'Close a fulfillment item as withheld',
      description:
        'Data found is withheld on a ground (third-party rights, legal privilege, a retention duty); `notes` or `reason` stating it is required (422). The request must be `in_progress`.',
    },
  },
});

// ---------------------------------------------------------------- export (response packets)

const VERIFY_SETUP = verifiedRequestSetup('document_check');

export const dsarExports = resource({
  rail: 'dsar',
  path: 'export',
  name: 'export',
  label: { one: 'export', many: 'exports' },
  idPrefix: 'dsx',
  record: DsarExport,
  filters: { requestId: DsarRequestId.optional().meta({ description: 'Only packets of this request.' }) },
  setup: VERIFY_SETUP,
  create: {
    body: CreateDsarExportBody,
    action: 'dsar.exported',
    fixture: { requestId: '{{request.id}}' },
    summary: 'Export the response packet of a request',
    description:
      'Builds the response packet from the request, its verification, the per-store results and its dates, with what the regime requires the answer to contain, and stores it as the next version with the SHA-256 of its canonical JSON. A request not verified yet (`received` or `rejected`) is 409.',
    eventSummary: 'A response packet was exported.',
  },
});

// ---------------------------------------------------------------- redact

export const dsarRedactions = resource({
  rail: 'dsar',
  path: 'redact',
  name: 'redaction',
  label: { one: 'redaction', many: 'redactions' },
  idPrefix: 'dsd',
  record: DsarRedaction,
  filters: { requestId: DsarRequestId.optional().meta({ description: 'Only redactions of packets of this request.' }) },
  setup: [...VERIFY_SETUP, { method: 'POST', path: '/v1/dsar/export', body: { requestId: '{{request.id}}' }, as: 'export' }],
  create: {
    body: CreateDsarRedactionBody,
    action: 'dsar.redacted',
    fixture: { exportId: '{{export.id}}', redactions: [{ path: '/request/subject/email', reason: 'third-party-data' }] },
    summary: 'Redact a response packet',
    description:
      'Applies the redactions to a packet and stores the result as the next packet version (its SHA-256 changes; the source packet is kept unchanged), recording what was redacted and why. A path the packet does not have, a span outside its string, or a text that does not occur is 422.',
    eventSummary: 'A response packet was redacted into a new version.',
  },
});

// ---------------------------------------------------------------- router

const { read, write } = policyOf('dsar');

export const dsarRouter = railRouter('dsar', {
  requests: dsarRequests.routes,
  verify: post('/verify', { body: VerifyDsarBody }, DsarRequest, stateful(write('dsar.verified'))).doc(
    'Record an identity check of a requester',
    'Records how the requester’s identity was checked and the outcome. `passed` moves a `received` request to `verified` (audited and emitted as `dsar.verified`); `failed` is recorded and leaves it `received` (`dsar.verification_failed`). A request in another state is 409 naming it; a request of another tenant 404. Needs `dsar:write`.',
  ),
  stores: dsarStores.routes,
  fulfillment: {
    ...fulfillmentItems.routes,
    start: post('/fulfillment', { body: StartFulfillmentBody }, { 201: DsarFulfillment }, stateful(write('dsar.fulfillment_started'))).doc(
      'Start fulfilling a verified request',
      'Moves a `verified` request to `in_progress` and creates one `pending` item per declared store that holds data of the subject’s type. A request not verified (or already started, fulfilled, rejected) is 409 naming its state; no matching store is 409 too. Needs `dsar:write`; audited and emitted as `dsar.fulfillment_started`.',
    ),
  },
  export: dsarExports.routes,
  redact: dsarRedactions.routes,
  sla: get(
    '/sla',
    {
      query: z.object({
        at: Timestamp.optional().meta({ description: 'The moment to compute states for; now when absent.' }),
        regime: Regime.optional().meta({ description: 'Only requests under this regime.' }),
      }),
    },
    DsarSla,
    read,
  ).doc(
    'SLA state of the open requests, per regulator',
    'Each open request (`received`, `verified`, `in_progress`) received by `at`: `on_time`, `at_risk` (due within the regime’s at-risk days, 7 unless the rules data says otherwise) or `overdue` at `at`, against the extended due date when extended; with counts per regime and its regulator. Needs `dsar:read`.',
  ),
});

export const dsarEvents: ReturnType<typeof eventType>[] = [
  ...dsarRequests.events,
  ...fulfillmentItems.events,
  ...dsarExports.events,
  ...dsarRedactions.events,
  eventType('dsar.verified', 'The identity of a requester was verified; the request can be fulfilled.', DsarRequest),
  eventType('dsar.verification_failed', 'An identity check of a requester failed; the request stays received.', DsarRequest),
  eventType('dsar.fulfillment_started', 'Fulfillment of a request started: one item per data store.', DsarRequest),
  ...dsarStores.events,
  eventType(
    'dsar.deadline_approaching',
    'An open request is due within its regime’s at-risk window (7 days unless the rules say otherwise); found by the deadline sweep, once per due date.',
    DsarDeadlineApproaching,
  ),
];
