import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import {
  Category,
  EXAMPLE_REPORT,
  INVESTIGATION_STATUSES,
  IntakeSlug,
  InvestigationId,
  PROTECTION_STATUSES,
  ReportId,
  ReportStatus,
} from './fields.ts';

/** The whistleblower rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a whistleblower record; its description names `svc.whistleblower.report` as the example. */
const whistleblowerObject = <const T extends string>(name: T) => objectField(name, 'svc.whistleblower.report');
/** `createdBy`, `createdAt` and `updatedAt` of a record: `createdBy` may be the public intake. */
const recordStamps = () =>
  stamps(
    'When the record last changed.',
    'Id of the API key whose request created the record; `public-intake` for a report received through the public intake.',
  );

/** The example report: received by email on 20 November, its clocks counting from then. */
const EXAMPLE_REPORT_TEXT = 'Customer data is exported to a personal cloud drive by the analytics team.';
const EXAMPLE_RECEIVED_AT = '2026-11-20T08:00:00.000Z';
const EXAMPLE_ACKNOWLEDGEMENT_DUE_AT = '2026-11-27T08:00:00.000Z';
const EXAMPLE_FEEDBACK_DUE_AT = '2027-02-27T08:00:00.000Z';
const EXAMPLE_ACCESS_CODE = 'WB-7K2M-9QXD-4HTR-B8VN-3CJW-P6ZE-1YFA-5GS9';

const Severity = z.enum(['low', 'medium', 'high', 'critical']).meta({ description: 'Severity assessed at triage.' });
const Channel = z.enum(['web_intake', 'email', 'phone', 'in_person', 'post', 'other']).meta({
  description: 'How the report came in: `web_intake` (the public intake route) or another channel the tenant recorded it from.',
});
const Outcome = z
  .enum(['substantiated', 'partially_substantiated', 'unsubstantiated', 'out_of_scope', 'referred_to_authority', 'no_further_action'])
  .meta({ description: 'Outcome of the report or investigation.' });
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

export const ReviewWhistleblowerProtectionBody = z
  .strictObject({
    nextReviewAt: Timestamp.meta({ description: 'The next review date, after now.' }),
    note: Text(2000, 'What the review found.').optional(),
  })
  .meta({
    id: 'ReviewWhistleblowerProtectionRequest',
    examples: [{ nextReviewAt: '2027-05-20T09:00:00.000Z', note: 'No adverse change seen.' }],
  });
