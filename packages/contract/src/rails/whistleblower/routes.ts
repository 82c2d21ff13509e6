import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource, under } from '../../platform/resource.ts';
import { setting } from '../../platform/setting.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { Category, INVESTIGATION_STATUSES, IntakeSlug, PROTECTION_STATUSES, ReportId, ReportStatus } from './fields.ts';
import {
  CloseWhistleblowerReportBody,
  ConcludeWhistleblowerInvestigationBody,
  CreateWhistleblowerInvestigationBody,
  CreateWhistleblowerProtectionBody,
  CreateWhistleblowerReportBody,
  FeedbackWhistleblowerReportBody,
  FollowUpBody,
  ReporterMessageBody,
  ReviewWhistleblowerProtectionBody,
  SendWhistleblowerMessageBody,
  SetWhistleblowerIntakeBody,
  SubmitWhistleblowerReportBody,
  TriageWhistleblowerReportBody,
  WhistleblowerIntake,
  WhistleblowerInvestigation,
  WhistleblowerMessage,
  WhistleblowerProtection,
  WhistleblowerReceipt,
  WhistleblowerReport,
  WhistleblowerReporterView,
} from './schemas.ts';

/** The whistleblower rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- intake

/** The tenant's public intake: the slug reporters post to, on or off. */
export const whistleblowerIntake = setting({
  rail: 'whistleblower',
  path: 'intake',
  subResource: 'reports',
  name: 'intake',
  label: 'public intake',
  record: WhistleblowerIntake,
  body: SetWhistleblowerIntakeBody,
  unset: { defaults: { slug: null, enabled: false, intakePath: null } },
  // A slug is unique across tenants: each walking tenant claims its own.
  fixture: { slug: 'speak-up-{{unique}}', enabled: true },
  action: 'whistleblower_intake.updated',
  eventSummary: 'The public intake settings changed.',
  get: { summary: 'The public intake settings', description: 'The slug reporters post to and whether the intake takes reports.' },
  put: {
    summary: 'Set the public intake',
    description:
      'Sets the slug reporters post to and enables or disables the intake. A slug is unique across tenants: 409 `conflict` when another tenant holds it, or claims it at the same moment, and nothing changes.',
  },
});

// ---------------------------------------------------------------- reports

export const whistleblowerReports = resource({
  rail: 'whistleblower',
  path: 'reports',
  name: 'report',
  label: { one: 'report', many: 'reports' },
  idPrefix: 'wbr',
  record: WhistleblowerReport,
  statusField: 'status',
  filters: {
    status: ReportStatus.optional().meta({ description: 'Only reports in this status.' }),
    category: Category.optional().meta({ description: 'Only reports of this category.' }),
  },
  create: {
    body: CreateWhistleblowerReportBody,
    action: 'whistleblower_report.received',
    summary: 'Record a report received on another channel',
    description:
      'Records a report the tenant received by email, phone, in person or by post, with its clocks computed from `receivedAt` (and `acknowledgedAt` when already acknowledged). Reports from the public intake are made by `POST /v1/whistleblower/intake/{slug}`.',
    eventSummary: 'A whistleblowing report was received; its acknowledgement clock is running.',
  },
  transitions: {
    acknowledge: {
      from: ['received'],
      to: 'acknowledged',
      action: 'whistleblower_report.acknowledged',
      summary: 'Acknowledge receipt of a report',
      description: 'Stamps `acknowledgedAt` (now): the acknowledgement clock is met and the 3-month feedback clock counts from here.',
    },
    // The specification names the report in the body: `POST /triage` with `reportId`.
    triage: {
      from: ['acknowledged', 'triaged'],
      to: 'triaged',
      idField: 'reportId',
      path: 'triage',
      body: TriageWhistleblowerReportBody,
      action: 'whistleblower_report.triaged',
      summary: 'Triage a report',
      description:
        'Sets severity, scope under the Directive, category and assignee (a triaged report may be triaged again; a `received` one is acknowledged first).',
      eventSummary: 'A whistleblowing report was triaged.',
    },
    investigate: {
      from: ['triaged'],
      to: 'investigating',
      action: 'whistleblower_report.investigating',
      summary: 'Start investigating a triaged report',
    },
    feedback: {
      from: ['acknowledged', 'triaged', 'investigating', 'closed'],
      body: FeedbackWhistleblowerReportBody,
      action: 'whistleblower_report.feedback_given',
      stateful: true,
      summary: 'Give feedback to the reporter',
      description:
        'Sends feedback (Art. 9(1)(f)) to the reporter’s thread; the first feedback stamps `feedbackAt` and meets the feedback clock. 422 for a `givenAt` in the future or before `acknowledgedAt`.',
      eventSummary: 'Feedback was given to a reporter.',
    },
    close: {
      from: ['triaged', 'investigating'],
      to: 'closed',
      body: CloseWhistleblowerReportBody,
      action: 'whistleblower_report.closed',
      stateful: true,
      summary: 'Close a report with its outcome',
      description: 'Records the outcome and its summary on the report. 409 while an investigation of it is open or in progress.',
      eventSummary: 'A whistleblowing report was closed with its outcome.',
    },
  },
});

const { read } = policyOf('whistleblower');

// ---------------------------------------------------------------- the thread with the reporter

/** A report recorded from another channel, the first step of the walking suites' setups. */
const RECEIVED_REPORT = {
  category: 'privacy_data_protection',
  description: 'Customer data is exported to a personal cloud drive.',
  channel: 'email',
  receivedAt: '2026-11-02T08:00:00.000Z',
} as const;

/** A report's thread: read from its start, written to by the organisation here and by the reporter with the access code. */
export const whistleblowerMessages = resource({
  rail: 'whistleblower',
  path: 'messages',
  parent: under(whistleblowerReports, { field: 'reportId', step: 'report' }),
  name: 'message',
  label: { one: 'message', many: 'messages' },
  idPrefix: 'wbm',
  record: WhistleblowerMessage,
  order: 'oldest',
  get: false,
  notes: {
    list: 'The thread with the reporter: the organisation’s messages and feedback, and what the reporter wrote with the access code.',
  },
  create: {
    body: SendWhistleblowerMessageBody,
    action: 'whistleblower_message.sent',
    summary: 'Write to the reporter',
    description: 'Adds a message to the report’s thread; the reporter reads it when following up with the access code.',
    eventSummary: 'The organisation wrote to a reporter.',
  },
  setup: [{ method: 'POST', path: '/v1/whistleblower/reports', body: RECEIVED_REPORT, as: 'report' }],
});

// ---------------------------------------------------------------- investigations

/** Setup of a report ready for investigations and protections: recorded acknowledged, then triaged. */
const triagedReportSetup = [
  {
    method: 'POST',
    path: '/v1/whistleblower/reports',
    body: { ...RECEIVED_REPORT, acknowledgedAt: '2026-11-03T08:00:00.000Z' },
    as: 'received',
  },
  {
    method: 'POST',
    path: '/v1/whistleblower/triage',
    body: { reportId: '{{received.id}}', severity: 'high', inScope: true },
    as: 'report',
  },
] as const;

export const whistleblowerInvestigations = resource({
  rail: 'whistleblower',
  path: 'investigations',
  name: 'investigation',
  label: { one: 'investigation', many: 'investigations' },
  idPrefix: 'wbi',
  record: WhistleblowerInvestigation,
  statusField: 'status',
  filters: {
    reportId: ReportId.optional().meta({ description: 'Only investigations of this report.' }),
    status: z.enum(INVESTIGATION_STATUSES).optional().meta({ description: 'Only investigations in this status.' }),
  },
  setup: triagedReportSetup,
  create: {
    body: CreateWhistleblowerInvestigationBody,
    fixture: { reportId: '{{report.id}}', investigator: 'Internal audit {{unique}}' },
    action: 'whistleblower_investigation.opened',
    summary: 'Open an investigation',
    description:
      'Opens an investigation of a triaged (or investigating) report. 409 for a report in another state; 422 for an unknown report.',
    eventSummary: 'An investigation of a whistleblowing report was opened.',
  },
  transitions: {
    start: { from: ['open'], to: 'in_progress', action: 'whistleblower_investigation.started', summary: 'Start an investigation' },
    discontinue: {
      from: ['open', 'in_progress'],
      to: 'discontinued',
      action: 'whistleblower_investigation.discontinued',
      summary: 'Discontinue an investigation',
    },
    conclude: {
      from: ['in_progress'],
      to: 'concluded',
      body: ConcludeWhistleblowerInvestigationBody,
      action: 'whistleblower_investigation.concluded',
      stateful: true,
      summary: 'Conclude an investigation with its findings',
      description: 'Records the findings and the outcome of the investigation.',
      eventSummary: 'An investigation was concluded with its findings.',
    },
  },
});

// ---------------------------------------------------------------- protections

export const whistleblowerProtections = resource({
  rail: 'whistleblower',
  path: 'protections',
  name: 'protection',
  label: { one: 'protection measure', many: 'protection measures' },
  idPrefix: 'wbp',
  record: WhistleblowerProtection,
  statusField: 'status',
  filters: {
    reportId: ReportId.optional().meta({ description: 'Only measures of this report.' }),
    status: z.enum(PROTECTION_STATUSES).optional().meta({ description: 'Only measures in this status.' }),
  },
  setup: triagedReportSetup,
  create: {
    body: CreateWhistleblowerProtectionBody,
    fixture: {
      reportId: '{{report.id}}',
      kind: 'confidentiality',
      measure: 'Need-to-know access {{unique}}',
      reviewAt: '2030-01-01T00:00:00.000Z',
    },
    action: 'whistleblower_protection.recorded',
    summary: 'Record a protection measure',
    description: 'Records a measure protecting the reporter (or a facilitator or third person) against retaliation, with its review date.',
    eventSummary: 'A measure against retaliation was recorded.',
  },
  transitions: {
    lift: { from: ['active'], to: 'lifted', action: 'whistleblower_protection.lifted', summary: 'Lift a protection measure' },
    review: {
      from: ['active'],
      body: ReviewWhistleblowerProtectionBody,
      action: 'whistleblower_protection.reviewed',
      stateful: true,
      summary: 'Review a protection measure',
      description: 'Records a review of the measure and sets its next review date. 422 for a `nextReviewAt` that is not in the future.',
      eventSummary: 'A protection measure was reviewed.',
    },
  },
});

// ---------------------------------------------------------------- router

/** The changes of one record with a body of their own keep the keys the SDK has always had, beside their collections. */
const { feedback, close, triage, ...reportRoutes } = whistleblowerReports.routes;
const { conclude: concludeInvestigation, ...investigationRoutes } = whistleblowerInvestigations.routes;
const { review: reviewProtection, ...protectionRoutes } = whistleblowerProtections.routes;

export const whistleblowerRouter = railRouter('whistleblower', {
  reports: reportRoutes,
  investigations: investigationRoutes,
  protections: protectionRoutes,
  triageQueue: get(
    '/triage',
    {
      query: PaginationQuery.extend({
        status: z.enum(['received', 'acknowledged']).optional().meta({ description: 'Only reports awaiting triage in this status.' }),
      }),
    },
    listOf(WhistleblowerReport),
    read,
  ).doc(
    'The triage queue',
    'Reports awaiting triage (`received` or `acknowledged`), newest first, as `{ data, cursor }`, with their clocks and `overdue`. Needs `whistleblower:read`.',
  ),
  triage,
  feedback,
  close,
  listMessages: whistleblowerMessages.routes.list,
  sendMessage: whistleblowerMessages.routes.create,
  concludeInvestigation,
  reviewProtection,
  getIntake: whistleblowerIntake.routes.get,
  setIntake: whistleblowerIntake.routes.put,
  submit: post(
    '/intake/:slug',
    { pathParams: z.object({ slug: IntakeSlug }), body: SubmitWhistleblowerReportBody },
    { 201: WhistleblowerReceipt },
    meta({ auth: 'public', mutating: true, audit: 'whistleblower_report.received' }),
  ).doc(
    'Report anonymously (no token)',
    'The public intake: anyone can report to the organisation that published this slug, without an account, anonymously or with an identity (kept sealed, returned to no one). `receivedAt` is the moment of the request. Returns the access code once: it is stored only as a hash and is the only way to follow up. 404 `not_found` for a slug no organisation has enabled.',
  ),
  followUp: post('/follow-up', { body: FollowUpBody }, WhistleblowerReporterView, meta({ auth: 'public', mutating: false })).doc(
    'Follow up on a report with its access code (no token)',
    'The report’s status, deadlines, outcome and thread, for the holder of the access code; the code travels in the body, never in the URL. 404 `not_found` for a code that matches no report.',
  ),
  followUpMessage: post(
    '/follow-up/messages',
    { body: ReporterMessageBody },
    WhistleblowerReporterView,
    meta({ auth: 'public', mutating: true, audit: 'whistleblower_message.received' }),
  ).doc(
    'Write to the organisation with the access code (no token)',
    'Adds the reporter’s message to the thread and returns the reporter’s view. 404 `not_found` for a code that matches no report. Audited as `whistleblower_message.received`.',
  ),
});

/** Event types the whistleblower rail emits. Reports carry no reporter identity. */
export const whistleblowerEvents: ReturnType<typeof eventType>[] = [
  ...whistleblowerReports.events,
  ...whistleblowerInvestigations.events,
  ...whistleblowerProtections.events,
  ...whistleblowerMessages.events,
  ...whistleblowerIntake.events,
  eventType('whistleblower_message.received', 'A reporter wrote to the organisation with the access code.', WhistleblowerMessage),
];
