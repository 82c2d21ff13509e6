import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, resource } from '../resource.ts';
import { exampleId, exampleStamps, idParams, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The whistleblower rail (`/v1/whistleblower`, enterprise), Directive (EU) 2019/1937: reports
 * received through the tenant's public intake (no account, no token: the reporter gets an access
 * code once and follows up with it) or recorded by the tenant from another channel; the
 * acknowledgement (7 days) and feedback (3 months) clocks of Art. 9(1)(b) and (f), computed from
 * the report's dates with their source; triage, investigations and measures protecting the
 * reporter against retaliation. The reporter's identity, when given, is kept sealed and is
 * returned by no route to any role.
 */

/** The `object` field of a whistleblower record; its description names `svc.whistleblower.report` as the example. */
const whistleblowerObject = <const T extends string>(name: T) => objectField(name, 'svc.whistleblower.report');
/** `createdBy`, `createdAt` and `updatedAt` of a record: `createdBy` may be the public intake. */
const recordStamps = () =>
  stamps(
    'When the record last changed.',
    'Id of the API key whose request created the record; `public-intake` for a report received through the public intake.',
  );

const EXAMPLE_REPORT = exampleId('wbr');
/** The example report: received by email on 20 November, its clocks counting from then. */
const EXAMPLE_REPORT_TEXT = 'Customer data is exported to a personal cloud drive by the analytics team.';
const EXAMPLE_RECEIVED_AT = '2026-11-20T08:00:00.000Z';
const EXAMPLE_ACKNOWLEDGEMENT_DUE_AT = '2026-11-27T08:00:00.000Z';
const EXAMPLE_FEEDBACK_DUE_AT = '2027-02-27T08:00:00.000Z';
const EXAMPLE_ACCESS_CODE = 'WB-7K2M-9QXD-4HTR-B8VN-3CJW-P6ZE-1YFA-5GS9';

export const WHISTLEBLOWER_CATEGORIES = [
  'public_procurement',
  'financial_services',
  'product_safety',
  'transport_safety',
  'environment',
  'nuclear_safety',
  'food_feed_safety',
  'animal_health',
  'public_health',
  'consumer_protection',
  'privacy_data_protection',
  'network_information_security',
  'union_financial_interests',
  'internal_market',
  'ai_governance',
  'workplace_misconduct',
  'other',
] as const;

const Category = z.enum(WHISTLEBLOWER_CATEGORIES).meta({
  description:
    'Area of the reported breach: the areas of Directive (EU) 2019/1937 Art. 2(1) (`public_procurement` ... `internal_market`), `ai_governance` (the tenant’s AI rules), `workplace_misconduct` or `other` (areas the Directive may not cover: triage decides `inScope`).',
});
const Severity = z.enum(['low', 'medium', 'high', 'critical']).meta({ description: 'Severity assessed at triage.' });
export const WHISTLEBLOWER_REPORT_STATES = ['received', 'acknowledged', 'triaged', 'investigating', 'closed'] as const;
const ReportStatus = z.enum(WHISTLEBLOWER_REPORT_STATES).meta({
  description:
    'Lifecycle: `received` -> `acknowledged` (acknowledge) -> `triaged` (triage) -> `investigating` (investigate) -> `closed` (close, with an outcome). Any other move is 409.',
});
const Channel = z.enum(['web_intake', 'email', 'phone', 'in_person', 'post', 'other']).meta({
  description: 'How the report came in: `web_intake` (the public intake route) or another channel the tenant recorded it from.',
});
const Outcome = z
  .enum(['substantiated', 'partially_substantiated', 'unsubstantiated', 'out_of_scope', 'referred_to_authority', 'no_further_action'])
  .meta({ description: 'Outcome of the report or investigation.' });
const ReportId = prefixedId('wbr', EXAMPLE_REPORT);
const InvestigationId = prefixedId('wbi', exampleId('wbi'));
const Text = (max: number, description: string) => z.string().trim().min(1).max(max).meta({ description });

const AccessCode = z
  .string()
  .min(16)
  .max(64)
  .regex(/^[A-Za-z0-9 -]+$/)
  .meta({
    description: 'The access code the intake returned once (`WB-` and 8 groups of 4 characters); case, spaces and hyphens are ignored.',
    examples: [EXAMPLE_ACCESS_CODE],
  });
const IntakeSlug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/)
  .meta({ description: 'Public slug of the tenant’s intake: 3 to 63 lowercase letters, digits and hyphens.', examples: ['acme-speak-up'] });

// ---------------------------------------------------------------- clocks

export const WhistleblowerClock = z
  .object({
    clock: z.enum(['acknowledgement', 'feedback']).meta({ description: 'Which duty of Art. 9(1) the clock is.' }),
    dueAt: Timestamp.meta({ description: 'Deadline (ISO 8601 UTC), computed from `basis`.' }),
    basis: z.enum(['received', 'acknowledged', 'end_of_acknowledgement_period']).meta({
      description:
        'What the clock counts from: receipt (acknowledgement), the acknowledgement, or, when none was sent, the end of the 7-day acknowledgement period (feedback).',
    }),
    rule: z.string().meta({ description: 'The deadline in words, as the source states it.' }),
    source: z.string().meta({ description: 'Legal source of the deadline (`Directive (EU) 2019/1937 Art. 9(1)(b)`).' }),
    metAt: Timestamp.nullable().meta({
      description: 'When the duty was met (acknowledgement sent, first feedback given); null until then.',
    }),
    state: z.enum(['pending', 'overdue', 'met', 'met_late']).meta({
      description:
        '`pending` (not met, not past due), `overdue` (not met, past due), `met` or `met_late` (met on time or after the deadline).',
    }),
  })
  .meta({ id: 'WhistleblowerClock', description: 'One computed deadline of a report.' });

// ---------------------------------------------------------------- reports

export const WhistleblowerReport = z
  .object({
    object: whistleblowerObject('svc.whistleblower.report'),
    id: ReportId,
    status: ReportStatus,
    channel: Channel,
    category: Category,
    description: z.string().meta({ description: 'What the reporter reported.' }),
    severity: Severity.nullable().meta({ description: 'Severity assessed at triage; null before triage.' }),
    inScope: z.boolean().nullable().meta({
      description: 'Whether the report falls in the material scope of Directive (EU) 2019/1937 (Art. 2), decided at triage; null before.',
    }),
    scopeNote: z.string().nullable().meta({ description: 'Why it is or is not in scope, when noted at triage.' }),
    assignee: z
      .string()
      .nullable()
      .meta({ description: 'Impartial person or department handling the report (Art. 9(1)(c)), set at triage.' }),
    identityProvided: z.boolean().meta({
      description: 'Whether the reporter gave an identity or contact. The identity itself is sealed and never returned by any route.',
    }),
    followUpByCode: z.boolean().meta({ description: 'Whether the reporter holds an access code to follow up without an account.' }),
    receivedAt: Timestamp.meta({ description: 'When the report was received: the acknowledgement clock counts from here.' }),
    acknowledgedAt: Timestamp.nullable().meta({ description: 'When receipt was acknowledged to the reporter; null until then.' }),
    feedbackAt: Timestamp.nullable().meta({ description: 'When the first feedback was given to the reporter; null until then.' }),
    triagedAt: Timestamp.nullable().meta({ description: 'When the report was triaged; null until then.' }),
    closedAt: Timestamp.nullable().meta({ description: 'When the report was closed; null until then.' }),
    outcome: Outcome.nullable().meta({ description: 'Outcome recorded at closing; null until closed.' }),
    outcomeSummary: z.string().nullable().meta({ description: 'Summary of the outcome recorded at closing; null until closed.' }),
    clocks: z
      .array(WhistleblowerClock)
      .meta({ description: 'The acknowledgement and feedback clocks of Art. 9(1)(b) and (f), computed from the dates above.' }),
    overdue: z.boolean().meta({ description: 'True when a clock is `overdue` (a duty not met past its deadline).' }),
    ...recordStamps(),
  })
  .meta({
    id: 'WhistleblowerReport',
    examples: [
      {
        object: 'svc.whistleblower.report',
        id: EXAMPLE_REPORT,
        status: 'received',
        channel: 'email',
        category: 'privacy_data_protection',
        description: EXAMPLE_REPORT_TEXT,
        severity: null,
        inScope: null,
        scopeNote: null,
        assignee: null,
        identityProvided: false,
        followUpByCode: false,
        receivedAt: EXAMPLE_RECEIVED_AT,
        acknowledgedAt: null,
        feedbackAt: null,
        triagedAt: null,
        closedAt: null,
        outcome: null,
        outcomeSummary: null,
        clocks: [
          {
            clock: 'acknowledgement',
            dueAt: EXAMPLE_ACKNOWLEDGEMENT_DUE_AT,
            basis: 'received',
            rule: 'Acknowledge receipt to the reporting person within seven days of that receipt.',
            source: 'Directive (EU) 2019/1937 Art. 9(1)(b)',
            metAt: null,
            state: 'pending',
          },
          {
            clock: 'feedback',
            dueAt: EXAMPLE_FEEDBACK_DUE_AT,
            basis: 'end_of_acknowledgement_period',
            rule: 'Provide feedback within a reasonable timeframe not exceeding three months from the acknowledgement of receipt or, if no acknowledgement was sent, three months from the expiry of the seven-day period after the report was made.',
            source: 'Directive (EU) 2019/1937 Art. 9(1)(f)',
            metAt: null,
            state: 'pending',
          },
        ],
        overdue: false,
        ...exampleStamps('2026-11-20T09:00:00.000Z'),
      },
    ],
  });

const ReporterIdentity = z
  .strictObject({
    name: Text(200, 'Name of the reporter.').optional(),
    email: z.email().max(254).optional().meta({ description: 'Contact address of the reporter.' }),
    phone: z
      .string()
      .trim()
      .min(3)
      .max(40)
      .regex(/^[0-9+() .-]+$/)
      .optional()
      .meta({ description: 'Contact phone of the reporter.' }),
  })
  .meta({
    id: 'WhistleblowerReporterIdentity',
    description:
      'Identity or contact the reporter chose to give. Stored sealed (AES-256-GCM); no route returns it to any role (Art. 16 confidentiality).',
    examples: [{ name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' }],
  });

export const CreateWhistleblowerReportBody = z
  .strictObject({
    category: Category,
    description: Text(20_000, 'What was reported.'),
    channel: Channel.exclude(['web_intake']).meta({
      description:
        'The channel the report came in through (`email`, `phone`, `in_person`, `post`, `other`); the public intake records its own.',
    }),
    receivedAt: Timestamp.optional().meta({
      description:
        'When the report was received on that channel; now when absent. Not in the future. A back-dated report gets the deadlines of that moment.',
    }),
    acknowledgedAt: Timestamp.optional().meta({
      description:
        'When receipt was already acknowledged on that channel, not before `receivedAt` and not in the future; the report then starts `acknowledged`.',
    }),
    reporter: ReporterIdentity.optional(),
  })
  .meta({
    id: 'CreateWhistleblowerReportRequest',
    examples: [
      {
        category: 'privacy_data_protection',
        description: EXAMPLE_REPORT_TEXT,
        channel: 'email',
        receivedAt: EXAMPLE_RECEIVED_AT,
      },
    ],
  });

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
    investigate: {
      from: ['triaged'],
      to: 'investigating',
      action: 'whistleblower_report.investigating',
      summary: 'Start investigating a triaged report',
    },
  },
});

const write = (audit: string) => meta({ auth: 'tenant', rail: 'whistleblower', permission: 'whistleblower:write', mutating: true, audit });
const read = meta({ auth: 'tenant', rail: 'whistleblower', permission: 'whistleblower:read', mutating: false });
const ReportParams = z.object({ id: ReportId });

export const TriageWhistleblowerReportBody = z
  .strictObject({
    reportId: ReportId,
    category: Category.optional().meta({ description: 'Corrected category; unchanged when absent.' }),
    severity: Severity,
    inScope: z.boolean().meta({ description: 'Whether the report falls in the material scope of Directive (EU) 2019/1937.' }),
    scopeNote: Text(2000, 'Why it is or is not in scope.').optional(),
    assignee: Text(200, 'Impartial person or department designated to follow up (Art. 9(1)(c)).').optional(),
  })
  .meta({
    id: 'TriageWhistleblowerReportRequest',
    examples: [
      {
        reportId: EXAMPLE_REPORT,
        severity: 'high',
        inScope: true,
        scopeNote: 'Personal data protection: Art. 2(1)(a)(x).',
        assignee: 'Compliance office',
      },
    ],
  });

export const FeedbackWhistleblowerReportBody = z
  .strictObject({
    message: Text(20_000, 'The feedback: action envisaged or taken and its grounds (Art. 5(13)); shown to the reporter.'),
    givenAt: Timestamp.optional().meta({
      description: 'When the feedback was given (on another channel); now when absent. Not before `acknowledgedAt`, not in the future.',
    }),
  })
  .meta({
    id: 'WhistleblowerFeedbackRequest',
    examples: [{ message: 'We opened an internal investigation and restricted access to the export tool.' }],
  });

export const CloseWhistleblowerReportBody = z
  .strictObject({
    outcome: Outcome,
    summary: Text(4000, 'Summary of the outcome, kept on the report.'),
  })
  .meta({
    id: 'CloseWhistleblowerReportRequest',
    examples: [{ outcome: 'substantiated', summary: 'The export was stopped and the access rights were revoked.' }],
  });

// ---------------------------------------------------------------- messages

claimIdPrefix('wbm', 'svc.whistleblower.message');

/** The example message of a report's thread, as the reporter sees it; the record adds its ids. */
const EXAMPLE_THREAD_MESSAGE = {
  from: 'organisation',
  kind: 'message',
  body: 'Could you tell us since when the exports happen?',
  createdAt: '2026-11-21T10:00:00.000Z',
};

export const WhistleblowerMessage = z
  .object({
    object: whistleblowerObject('svc.whistleblower.message'),
    id: prefixedId('wbm', exampleId('wbm')),
    reportId: ReportId,
    from: z
      .enum(['reporter', 'organisation'])
      .meta({ description: 'Who wrote it: the reporter (with the access code) or the organisation.' }),
    kind: z.enum(['message', 'feedback']).meta({ description: '`feedback` when it was sent as the report’s feedback (Art. 9(1)(f)).' }),
    body: z.string().meta({ description: 'The message.' }),
    createdAt: Timestamp.meta({ description: 'When it was written (for feedback given elsewhere: when it was given).' }),
  })
  .meta({
    id: 'WhistleblowerMessage',
    examples: [{ object: 'svc.whistleblower.message', id: exampleId('wbm'), reportId: EXAMPLE_REPORT, ...EXAMPLE_THREAD_MESSAGE }],
  });

export const SendWhistleblowerMessageBody = z
  .strictObject({ body: Text(20_000, 'The message to the reporter, shown when they follow up with their access code.') })
  .meta({ id: 'SendWhistleblowerMessageRequest', examples: [{ body: EXAMPLE_THREAD_MESSAGE.body }] });

// ---------------------------------------------------------------- intake (public)

const EXAMPLE_INTAKE_SETTINGS = { slug: 'acme-speak-up', enabled: true };

export const WhistleblowerIntake = z
  .object({
    object: whistleblowerObject('svc.whistleblower.intake'),
    slug: IntakeSlug.nullable().meta({ description: 'Public slug of the intake; null until set.' }),
    enabled: z.boolean().meta({ description: 'Whether the public intake takes reports.' }),
    intakePath: z
      .string()
      .nullable()
      .meta({ description: 'Path reporters post to (`/v1/whistleblower/intake/<slug>`); null while disabled or unset.' }),
    updatedAt: Timestamp.nullable().meta({ description: 'When the settings last changed; null when never set.' }),
  })
  .meta({
    id: 'WhistleblowerIntake',
    examples: [
      {
        object: 'svc.whistleblower.intake',
        ...EXAMPLE_INTAKE_SETTINGS,
        intakePath: '/v1/whistleblower/intake/acme-speak-up',
        updatedAt: '2026-11-20T09:00:00.000Z',
      },
    ],
  });

export const SetWhistleblowerIntakeBody = z
  .strictObject({
    slug: IntakeSlug,
    enabled: z.boolean().meta({ description: 'Whether the intake takes reports; a disabled slug answers 404 like an unknown one.' }),
  })
  .meta({ id: 'SetWhistleblowerIntakeRequest', examples: [EXAMPLE_INTAKE_SETTINGS] });

export const SubmitWhistleblowerReportBody = z
  .strictObject({
    category: Category,
    description: Text(20_000, 'What you want to report: what happened, where, when, who is involved.'),
    reporter: ReporterIdentity.optional(),
  })
  .meta({
    id: 'SubmitWhistleblowerReportRequest',
    examples: [
      {
        category: 'privacy_data_protection',
        description: 'Customer data is exported to a personal cloud drive by the analytics team every Friday.',
      },
    ],
  });

export const WhistleblowerReceipt = z
  .object({
    object: whistleblowerObject('svc.whistleblower.receipt'),
    accessCode: AccessCode.meta({
      description: 'Your access code. It is shown this once and stored only as a hash: keep it to follow up; it cannot be recovered.',
    }),
    receivedAt: Timestamp.meta({ description: 'When the report was received.' }),
    acknowledgementDueAt: Timestamp.meta({ description: 'By when receipt will be acknowledged (7 days, Art. 9(1)(b)).' }),
    feedbackDueAt: Timestamp.meta({
      description:
        'Latest feedback date if no acknowledgement is sent (3 months after the 7-day period, Art. 9(1)(f)); it moves with the acknowledgement.',
    }),
    followUpPath: z.string().meta({ description: 'Where to follow up with the code (`POST`, code in the body).' }),
  })
  .meta({
    id: 'WhistleblowerReceipt',
    examples: [
      {
        object: 'svc.whistleblower.receipt',
        accessCode: EXAMPLE_ACCESS_CODE,
        receivedAt: EXAMPLE_RECEIVED_AT,
        acknowledgementDueAt: EXAMPLE_ACKNOWLEDGEMENT_DUE_AT,
        feedbackDueAt: EXAMPLE_FEEDBACK_DUE_AT,
        followUpPath: '/v1/whistleblower/follow-up',
      },
    ],
  });

const ReporterMessage = WhistleblowerMessage.pick({ from: true, kind: true, body: true, createdAt: true }).meta({
  id: 'WhistleblowerReporterMessage',
  description: 'A message of the report’s thread as the reporter sees it.',
});

export const WhistleblowerReporterView = z
  .object({
    object: whistleblowerObject('svc.whistleblower.reporter_view'),
    status: ReportStatus,
    category: Category,
    receivedAt: Timestamp.meta({ description: 'When the report was received.' }),
    acknowledgedAt: Timestamp.nullable().meta({ description: 'When receipt was acknowledged; null until then.' }),
    feedbackAt: Timestamp.nullable().meta({ description: 'When the first feedback was given; null until then.' }),
    acknowledgementDueAt: Timestamp.meta({ description: 'Deadline of the acknowledgement (7 days from receipt).' }),
    feedbackDueAt: Timestamp.meta({ description: 'Deadline of the feedback (3 months, Art. 9(1)(f)).' }),
    outcome: Outcome.nullable().meta({ description: 'Outcome, once closed.' }),
    outcomeSummary: z.string().nullable().meta({ description: 'Summary of the outcome, once closed.' }),
    messages: z.array(ReporterMessage).meta({ description: 'The thread with the organisation, oldest first.' }),
  })
  .meta({
    id: 'WhistleblowerReporterView',
    examples: [
      {
        object: 'svc.whistleblower.reporter_view',
        status: 'acknowledged',
        category: 'privacy_data_protection',
        receivedAt: EXAMPLE_RECEIVED_AT,
        acknowledgedAt: '2026-11-21T10:00:00.000Z',
        feedbackAt: null,
        acknowledgementDueAt: EXAMPLE_ACKNOWLEDGEMENT_DUE_AT,
        feedbackDueAt: '2027-02-21T10:00:00.000Z',
        outcome: null,
        outcomeSummary: null,
        messages: [EXAMPLE_THREAD_MESSAGE],
      },
    ],
  });

export const FollowUpBody = z
  .strictObject({ accessCode: AccessCode })
  .meta({ id: 'WhistleblowerFollowUpRequest', examples: [{ accessCode: EXAMPLE_ACCESS_CODE }] });

export const ReporterMessageBody = z
  .strictObject({ accessCode: AccessCode, body: Text(20_000, 'Your message to the organisation.') })
  .meta({
    id: 'WhistleblowerReporterMessageRequest',
    examples: [{ accessCode: EXAMPLE_ACCESS_CODE, body: 'It started in March; the folder is called Q1-export.' }],
  });

// ---------------------------------------------------------------- investigations

const INVESTIGATION_STATUSES = ['open', 'in_progress', 'concluded', 'discontinued'] as const;
const EXAMPLE_INVESTIGATION_REQUEST = {
  reportId: EXAMPLE_REPORT,
  investigator: 'Internal audit',
  scope: 'Exports of customer data by the analytics team since January.',
};

export const WhistleblowerInvestigation = z
  .object({
    object: whistleblowerObject('svc.whistleblower.investigation'),
    id: InvestigationId,
    reportId: ReportId,
    investigator: z.string().meta({ description: 'Who investigates (person or function), impartial to the report.' }),
    scope: z.string().nullable().meta({ description: 'What the investigation covers.' }),
    status: z.enum(INVESTIGATION_STATUSES).meta({
      description:
        'Lifecycle: `open` -> `in_progress` (start) -> `concluded` (conclude, with findings); `open` or `in_progress` -> `discontinued`.',
    }),
    findings: z.string().nullable().meta({ description: 'Findings recorded at conclusion; null before.' }),
    outcome: Outcome.nullable().meta({ description: 'Outcome recorded at conclusion; null before.' }),
    startedAt: Timestamp.nullable().meta({ description: 'When the investigation started; null while open.' }),
    concludedAt: Timestamp.nullable().meta({ description: 'When it was concluded or discontinued; null before.' }),
    ...recordStamps(),
  })
  .meta({
    id: 'WhistleblowerInvestigation',
    examples: [
      {
        object: 'svc.whistleblower.investigation',
        id: exampleId('wbi'),
        ...EXAMPLE_INVESTIGATION_REQUEST,
        status: 'open',
        findings: null,
        outcome: null,
        startedAt: null,
        concludedAt: null,
        ...exampleStamps('2026-11-22T09:00:00.000Z'),
      },
    ],
  });

export const CreateWhistleblowerInvestigationBody = z
  .strictObject({
    reportId: ReportId.meta({ description: 'The report investigated; it must be triaged or investigating.' }),
    investigator: Text(200, 'Who investigates (person or function).'),
    scope: Text(4000, 'What the investigation covers.').optional(),
  })
  .meta({ id: 'CreateWhistleblowerInvestigationRequest', examples: [EXAMPLE_INVESTIGATION_REQUEST] });

/** Setup of a report ready for investigations and protections: recorded acknowledged, then triaged. */
const triagedReportSetup = [
  {
    method: 'POST',
    path: '/v1/whistleblower/reports',
    body: {
      category: 'privacy_data_protection',
      description: 'Customer data is exported to a personal cloud drive.',
      channel: 'email',
      receivedAt: '2026-11-02T08:00:00.000Z',
      acknowledgedAt: '2026-11-03T08:00:00.000Z',
    },
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
  },
});

export const ConcludeWhistleblowerInvestigationBody = z
  .strictObject({
    findings: Text(20_000, 'What the investigation found.'),
    outcome: Outcome,
  })
  .meta({
    id: 'ConcludeWhistleblowerInvestigationRequest',
    examples: [{ findings: 'Exports confirmed on 14 Fridays; no legal basis.', outcome: 'substantiated' }],
  });

// ---------------------------------------------------------------- protections

const PROTECTION_STATUSES = ['active', 'lifted'] as const;
const EXAMPLE_PROTECTION_REQUEST = {
  reportId: EXAMPLE_REPORT,
  kind: 'no_adverse_action',
  measure: 'No change of role, pay or appraisal of the reporter’s team without review by the ethics officer.',
  reviewAt: '2027-02-20T09:00:00.000Z',
};

export const WhistleblowerProtection = z
  .object({
    object: whistleblowerObject('svc.whistleblower.protection'),
    id: prefixedId('wbp', exampleId('wbp')),
    reportId: ReportId,
    kind: z
      .enum(['confidentiality', 'no_adverse_action', 'reassignment', 'legal_support', 'monitoring', 'other'])
      .meta({ description: 'Kind of measure against retaliation (Art. 19-21).' }),
    measure: z.string().meta({ description: 'The measure in words.' }),
    protectedParty: z
      .enum(['reporter', 'facilitator', 'third_party', 'legal_entity'])
      .meta({ description: 'Whom it protects (Art. 4(4)): the reporter, a facilitator, a connected third person, or a legal entity.' }),
    status: z.enum(PROTECTION_STATUSES).meta({ description: '`active` until lifted.' }),
    reviewAt: Timestamp.meta({ description: 'When the measure is next reviewed.' }),
    reviewState: z.enum(['scheduled', 'due', 'overdue', 'not_applicable']).meta({
      description: '`overdue` past `reviewAt`, `due` within 7 days of it, `scheduled` otherwise; `not_applicable` once lifted.',
    }),
    liftedAt: Timestamp.nullable().meta({ description: 'When the measure was lifted; null while active.' }),
    ...recordStamps(),
  })
  .meta({
    id: 'WhistleblowerProtection',
    examples: [
      {
        object: 'svc.whistleblower.protection',
        id: exampleId('wbp'),
        reportId: EXAMPLE_REPORT,
        kind: EXAMPLE_PROTECTION_REQUEST.kind,
        measure: EXAMPLE_PROTECTION_REQUEST.measure,
        protectedParty: 'reporter',
        status: 'active',
        reviewAt: EXAMPLE_PROTECTION_REQUEST.reviewAt,
        reviewState: 'scheduled',
        liftedAt: null,
        ...exampleStamps('2026-11-22T09:00:00.000Z'),
      },
    ],
  });

export const CreateWhistleblowerProtectionBody = z
  .strictObject({
    reportId: ReportId.meta({ description: 'The report the measure protects; any state (protection outlasts closing).' }),
    kind: WhistleblowerProtection.shape.kind,
    measure: Text(4000, 'The measure in words.'),
    protectedParty: WhistleblowerProtection.shape.protectedParty
      .optional()
      .meta({ description: 'Whom it protects; `reporter` when absent.' }),
    reviewAt: Timestamp.meta({ description: 'When the measure is to be reviewed; not before now minus a day.' }),
  })
  .meta({ id: 'CreateWhistleblowerProtectionRequest', examples: [EXAMPLE_PROTECTION_REQUEST] });

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
  },
});

export const ReviewWhistleblowerProtectionBody = z
  .strictObject({
    nextReviewAt: Timestamp.meta({ description: 'The next review date, after now.' }),
    note: Text(2000, 'What the review found.').optional(),
  })
  .meta({
    id: 'ReviewWhistleblowerProtectionRequest',
    examples: [{ nextReviewAt: '2027-05-20T09:00:00.000Z', note: 'No adverse change seen.' }],
  });

// ---------------------------------------------------------------- router

export const whistleblowerRouter = railRouter('whistleblower', {
  reports: whistleblowerReports.routes,
  investigations: whistleblowerInvestigations.routes,
  protections: whistleblowerProtections.routes,
  triageQueue: {
    method: 'GET',
    path: '/triage',
    query: PaginationQuery.extend({
      status: z.enum(['received', 'acknowledged']).optional().meta({ description: 'Only reports awaiting triage in this status.' }),
    }),
    responses: { 200: listOf(WhistleblowerReport) },
    summary: 'The triage queue',
    description:
      'Reports awaiting triage (`received` or `acknowledged`), newest first, as `{ data, cursor }`, with their clocks and `overdue`. Needs `whistleblower:read`.',
    metadata: read,
  },
  triage: {
    method: 'POST',
    path: '/triage',
    body: TriageWhistleblowerReportBody,
    responses: { 200: WhistleblowerReport },
    summary: 'Triage a report',
    description:
      'Sets severity, scope under the Directive, category and assignee, and moves the report from `acknowledged` to `triaged` (a triaged report may be triaged again). 409 from any other state (a `received` report is acknowledged first); 404 for a report this tenant does not have. Needs `whistleblower:write`; audited as `whistleblower_report.triaged`.',
    metadata: { ...write('whistleblower_report.triaged'), stateful: true },
  },
  feedback: {
    method: 'POST',
    path: '/reports/:id/feedback',
    pathParams: ReportParams,
    body: FeedbackWhistleblowerReportBody,
    responses: { 200: WhistleblowerReport },
    summary: 'Give feedback to the reporter',
    description:
      'Sends feedback (Art. 9(1)(f)) to the reporter’s thread; the first feedback stamps `feedbackAt` and meets the feedback clock. 409 for a report not acknowledged yet. Needs `whistleblower:write`; audited as `whistleblower_report.feedback_given`.',
    metadata: { ...write('whistleblower_report.feedback_given'), stateful: true },
  },
  close: {
    method: 'POST',
    path: '/reports/:id/close',
    pathParams: ReportParams,
    body: CloseWhistleblowerReportBody,
    responses: { 200: WhistleblowerReport },
    summary: 'Close a report with its outcome',
    description:
      'Moves a `triaged` or `investigating` report to `closed` with its outcome. 409 from any other state, or while an investigation of it is open or in progress. Needs `whistleblower:write`; audited as `whistleblower_report.closed`.',
    metadata: { ...write('whistleblower_report.closed'), stateful: true },
  },
  listMessages: {
    method: 'GET',
    path: '/reports/:id/messages',
    pathParams: ReportParams,
    query: PaginationQuery,
    responses: { 200: listOf(WhistleblowerMessage) },
    summary: 'The thread with the reporter',
    description: 'Messages of the report’s thread, oldest first, as `{ data, cursor }`. Needs `whistleblower:read`.',
    metadata: read,
  },
  sendMessage: {
    method: 'POST',
    path: '/reports/:id/messages',
    pathParams: ReportParams,
    body: SendWhistleblowerMessageBody,
    responses: { 201: WhistleblowerMessage },
    summary: 'Write to the reporter',
    description:
      'Adds a message to the report’s thread; the reporter reads it when following up with the access code. Needs `whistleblower:write`; audited as `whistleblower_message.sent`.',
    metadata: write('whistleblower_message.sent'),
  },
  concludeInvestigation: {
    method: 'POST',
    path: '/investigations/:id/conclude',
    pathParams: z.object({ id: InvestigationId }),
    body: ConcludeWhistleblowerInvestigationBody,
    responses: { 200: WhistleblowerInvestigation },
    summary: 'Conclude an investigation with its findings',
    description:
      'Moves an `in_progress` investigation to `concluded` with its findings and outcome. 409 from any other state. Needs `whistleblower:write`; audited as `whistleblower_investigation.concluded`.',
    metadata: { ...write('whistleblower_investigation.concluded'), stateful: true },
  },
  reviewProtection: {
    method: 'POST',
    path: '/protections/:id/review',
    pathParams: idParams('wbp'),
    body: ReviewWhistleblowerProtectionBody,
    responses: { 200: WhistleblowerProtection },
    summary: 'Review a protection measure',
    description:
      'Records a review of an `active` measure and sets its next review date. 409 once lifted. Needs `whistleblower:write`; audited as `whistleblower_protection.reviewed`.',
    metadata: { ...write('whistleblower_protection.reviewed'), stateful: true },
  },
  getIntake: {
    method: 'GET',
    path: '/intake',
    responses: { 200: WhistleblowerIntake },
    summary: 'The public intake settings',
    description: 'The slug and state of the tenant’s public intake. Needs `whistleblower:read`.',
    metadata: read,
  },
  setIntake: {
    method: 'PUT',
    path: '/intake',
    body: SetWhistleblowerIntakeBody,
    responses: { 200: WhistleblowerIntake },
    summary: 'Set the public intake',
    description:
      'Sets the slug reporters post to and enables or disables the intake. A slug is unique across tenants: 409 when another tenant holds it. Needs `whistleblower:write`; audited as `whistleblower_intake.updated`.',
    metadata: write('whistleblower_intake.updated'),
  },
  submit: {
    method: 'POST',
    path: '/intake/:slug',
    pathParams: z.object({ slug: IntakeSlug }),
    body: SubmitWhistleblowerReportBody,
    responses: { 201: WhistleblowerReceipt },
    summary: 'Report anonymously (no token)',
    description:
      'The public intake: anyone can report to the organisation that published this slug, without an account, anonymously or with an identity (kept sealed, returned to no one). `receivedAt` is the moment of the request. Returns the access code once: it is stored only as a hash and is the only way to follow up. 404 `not_found` for a slug no organisation has enabled.',
    metadata: meta({ auth: 'public', mutating: true, audit: 'whistleblower_report.received' }),
  },
  followUp: {
    method: 'POST',
    path: '/follow-up',
    body: FollowUpBody,
    responses: { 200: WhistleblowerReporterView },
    summary: 'Follow up on a report with its access code (no token)',
    description:
      'The report’s status, deadlines, outcome and thread, for the holder of the access code; the code travels in the body, never in the URL. 404 `not_found` for a code that matches no report.',
    metadata: meta({ auth: 'public', mutating: false }),
  },
  followUpMessage: {
    method: 'POST',
    path: '/follow-up/messages',
    body: ReporterMessageBody,
    responses: { 200: WhistleblowerReporterView },
    summary: 'Write to the organisation with the access code (no token)',
    description:
      'Adds the reporter’s message to the thread and returns the reporter’s view. 404 `not_found` for a code that matches no report. Audited as `whistleblower_message.received`.',
    metadata: meta({ auth: 'public', mutating: true, audit: 'whistleblower_message.received' }),
  },
});

/** Event types the whistleblower rail emits. Reports carry no reporter identity. */
export const whistleblowerEvents: ReturnType<typeof eventType>[] = [
  ...whistleblowerReports.events,
  ...whistleblowerInvestigations.events,
  ...whistleblowerProtections.events,
  eventType('whistleblower_report.triaged', 'A whistleblowing report was triaged.', WhistleblowerReport),
  eventType('whistleblower_report.feedback_given', 'Feedback was given to a reporter.', WhistleblowerReport),
  eventType('whistleblower_report.closed', 'A whistleblowing report was closed with its outcome.', WhistleblowerReport),
  eventType('whistleblower_message.sent', 'The organisation wrote to a reporter.', WhistleblowerMessage),
  eventType('whistleblower_message.received', 'A reporter wrote to the organisation with the access code.', WhistleblowerMessage),
  eventType('whistleblower_investigation.concluded', 'An investigation was concluded with its findings.', WhistleblowerInvestigation),
  eventType('whistleblower_protection.reviewed', 'A protection measure was reviewed.', WhistleblowerProtection),
  eventType('whistleblower_intake.updated', 'The public intake settings changed.', WhistleblowerIntake),
];
