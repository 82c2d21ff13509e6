import { z } from 'zod';
import { EXAMPLE_OTHER_USER, EXAMPLE_USER, listOf, PaginationQuery, prefixedId, Timestamp, UserId } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, resource } from '../resource.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, idParams, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';
import { RaciGap, RaciRow } from './stakeholders.ts';

/**
 * The governance rail: who decides what (decision rights), approvals that walk an approval chain
 * of the stakeholders rail step by step, board meetings with their minutes and decisions,
 * delegations with a validity period, conflicts of interest, the organisation-wide RACI chart and
 * versioned, hashed snapshots of the governance state.
 */

/** The `object` field of a governance record; its description names `svc.governance.approval` as the example. */
const governanceObject = <const T extends string>(name: T) => objectField(name, 'svc.governance.approval');

const EXAMPLE_ROLE = exampleId('rol');
const EXAMPLE_CHAIN = exampleId('apc');
const EXAMPLE_MEETING = exampleId('gbm');
const EXAMPLE_SUBJECT = 'Vendor contract: Acme Analytics';

const RoleRef = prefixedId('rol', EXAMPLE_ROLE);
const ChainRef = prefixedId('apc', EXAMPLE_CHAIN);
const MeetingId = prefixedId('gbm', EXAMPLE_MEETING);

/** A kind of decision, lowercase snake_case (`vendor_contract`): decision rights and board decisions share them. */
const DecisionType = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/);

/** Setup step of a conformance fixture: a person of the tenant, named `as` for the fixture's `{{<as>.id}}`. */
const personSetup = (as: string) =>
  ({
    method: 'POST',
    path: '/v1/stakeholders/users',
    body: { name: 'Ines Duarte', email: `${as}.{{unique}}@example.com` },
    as,
  }) as const;

const Subject = z.string().trim().min(1).max(300).meta({
  description:
    'What is approved or what a conflict concerns, as free text (`Vendor contract: Acme Analytics`); compared case-insensitively, so a conflict declared on a subject bars approvals of the same subject.',
});

// ---------------------------------------------------------------- decision rights

const DECISION_RIGHT_STATUSES = ['active', 'retired'] as const;

/** The example request: a role signs vendor contracts up to 50,000 EUR. */
const EXAMPLE_DECISION_RIGHT_REQUEST = {
  decisionType: 'vendor_contract',
  description: 'Signs vendor contracts up to 50,000 EUR.',
  roleId: EXAMPLE_ROLE,
  maxAmountEur: 50000,
};

export const GovernanceDecisionRight = z
  .object({
    object: governanceObject('svc.governance.decision_right'),
    id: prefixedId('gdr', exampleId('gdr')),
    decisionType: z.string().meta({ description: 'The kind of decision (`vendor_contract`, `model_release`, `policy_exception`).' }),
    description: z.string().nullable().meta({ description: 'What the right covers; null when not given.' }),
    roleId: z.string().nullable().meta({ description: 'The role that decides (`rol_...`); null when a person does.' }),
    personId: z.string().nullable().meta({ description: 'The person who decides (`usr_...`); null when a role does.' }),
    maxAmountEur: z
      .number()
      .nullable()
      .meta({ description: 'Upper bound, in euros, of the decisions the right covers; null for no bound.' }),
    status: z.enum(DECISION_RIGHT_STATUSES).meta({ description: '`active`, or `retired` once it no longer applies.' }),
    ...stamps(),
  })
  .meta({
    id: 'GovernanceDecisionRight',
    examples: [
      {
        object: 'svc.governance.decision_right',
        id: exampleId('gdr'),
        decisionType: EXAMPLE_DECISION_RIGHT_REQUEST.decisionType,
        description: EXAMPLE_DECISION_RIGHT_REQUEST.description,
        roleId: EXAMPLE_ROLE,
        personId: null,
        maxAmountEur: EXAMPLE_DECISION_RIGHT_REQUEST.maxAmountEur,
        status: 'active',
        ...exampleStamps(),
      },
    ],
  });

export const CreateGovernanceDecisionRightBody = z
  .strictObject({
    decisionType: DecisionType.meta({ description: 'The kind of decision, lowercase snake_case (`vendor_contract`).' }),
    description: z.string().min(1).max(2000).optional().meta({ description: 'What the right covers.' }),
    roleId: RoleRef.optional().meta({ description: 'The role that decides; exactly one of `roleId` and `personId`. Unknown: 422.' }),
    personId: UserId.optional().meta({
      description: 'The person who decides; exactly one of `roleId` and `personId`. Unknown or inactive: 422.',
    }),
    maxAmountEur: z
      .number()
      .positive()
      .max(1e12)
      .optional()
      .meta({ description: 'Upper bound, in euros, of the decisions the right covers; absent for no bound.' }),
  })
  .refine((b) => (b.roleId === undefined) !== (b.personId === undefined), {
    path: ['roleId'],
    message: 'give exactly one of roleId and personId',
  })
  .meta({ id: 'CreateGovernanceDecisionRightRequest', examples: [EXAMPLE_DECISION_RIGHT_REQUEST] });

export const governanceDecisionRights = resource({
  rail: 'governance',
  path: 'decision-rights',
  name: 'decision_right',
  label: { one: 'decision right', many: 'decision rights' },
  idPrefix: 'gdr',
  record: GovernanceDecisionRight,
  statusField: 'status',
  filters: {
    decisionType: z.string().max(64).optional().meta({ description: 'Only decision rights of this decision type.' }),
    status: z.enum(DECISION_RIGHT_STATUSES).optional(),
  },
  setup: [{ method: 'POST', path: '/v1/stakeholders/roles', body: { name: 'Role {{unique}}' }, as: 'role' }],
  create: {
    body: CreateGovernanceDecisionRightBody,
    fixture: { ...EXAMPLE_DECISION_RIGHT_REQUEST, roleId: '{{role.id}}' },
    summary: 'Define a decision right',
    description:
      'Says who decides a type of decision: a role or a person, up to an amount in euros when given. 422 naming the field for an unknown role, an unknown or inactive person, or both or neither of them.',
    eventSummary: 'A decision right was defined.',
  },
  transitions: {
    retire: { from: ['active'], to: 'retired', summary: 'Retire a decision right', description: 'The right no longer applies.' },
  },
});

// ---------------------------------------------------------------- approvals

const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
const EXAMPLE_APPROVAL_REQUEST = { subject: EXAMPLE_SUBJECT, chainId: EXAMPLE_CHAIN };
const EXAMPLE_APPROVAL_DECISION = { approverId: EXAMPLE_USER, comment: 'Terms reviewed.' };

export const GovernanceApprovalStep = z.object({
  step: z.int().min(1).meta({ description: 'The step acted on, 1-based.' }),
  approverId: z.string().meta({ description: "The chain's approver of that step." }),
  actedBy: z.string().meta({ description: 'The person who acted: the approver, or a delegate of theirs.' }),
  delegationId: z
    .string()
    .nullable()
    .meta({ description: 'The delegation the delegate acted under (`gdl_...`); null when the approver acted.' }),
  decision: z.enum(['approved', 'rejected']).meta({ description: 'What was decided at that step.' }),
  comment: z.string().nullable().meta({ description: 'The comment given; null when none.' }),
  at: Timestamp.meta({ description: 'When it was decided (ISO 8601 UTC).' }),
});

export const GovernanceApproval = z
  .object({
    object: governanceObject('svc.governance.approval'),
    id: prefixedId('gap', exampleId('gap')),
    subject: z.string().meta({ description: 'What is being approved.' }),
    chainId: z.string().meta({ description: 'The approval chain walked (`apc_...`).' }),
    approverIds: z
      .array(z.string())
      .meta({ description: "The chain's approvers in order, as they were when the approval was opened: step n is approverIds[n-1]." }),
    status: z
      .enum(APPROVAL_STATUSES)
      .meta({ description: '`pending` while steps remain; `approved` after the last step; `rejected` when any step rejected.' }),
    currentStep: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'The step awaiting a decision, 1-based; null once the approval is closed.' }),
    currentApproverId: z.string().nullable().meta({ description: 'Who must act next; null once the approval is closed.' }),
    steps: z.array(GovernanceApprovalStep).meta({ description: 'The decisions taken so far, in order.' }),
    ...stamps(),
  })
  .meta({
    id: 'GovernanceApproval',
    examples: [
      {
        object: 'svc.governance.approval',
        id: exampleId('gap'),
        ...EXAMPLE_APPROVAL_REQUEST,
        approverIds: [EXAMPLE_USER, EXAMPLE_OTHER_USER],
        status: 'pending',
        currentStep: 2,
        currentApproverId: EXAMPLE_OTHER_USER,
        steps: [
          {
            step: 1,
            approverId: EXAMPLE_USER,
            actedBy: EXAMPLE_USER,
            delegationId: null,
            decision: 'approved',
            comment: EXAMPLE_APPROVAL_DECISION.comment,
            at: '2026-11-22T10:00:00.000Z',
          },
        ],
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
        updatedAt: '2026-11-22T10:00:00.000Z',
      },
    ],
  });

export const CreateGovernanceApprovalBody = z
  .strictObject({
    subject: Subject,
    chainId: ChainRef.meta({
      description: 'An approval chain of the tenant; unknown: 422. Every approver must be active (422 otherwise).',
    }),
  })
  .meta({ id: 'CreateGovernanceApprovalRequest', examples: [EXAMPLE_APPROVAL_REQUEST] });

export const GovernanceApprovalDecisionBody = z
  .strictObject({
    approverId: UserId.optional().meta({
      description:
        "The person acting, who is always the person the credential is bound to: absent means that person; naming anyone else is 403 `forbidden`. They must be the current step's approver, or hold a delegation from them in force now (scope `approvals` or `all`).",
    }),
    comment: z.string().min(1).max(2000).optional().meta({ description: 'Why, kept with the step.' }),
  })
  .meta({ id: 'GovernanceApprovalDecisionRequest', examples: [EXAMPLE_APPROVAL_DECISION] });

export const governanceApprovals = resource({
  rail: 'governance',
  path: 'approvals',
  name: 'approval',
  label: { one: 'approval', many: 'approvals' },
  idPrefix: 'gap',
  record: GovernanceApproval,
  statusField: 'status',
  filters: {
    status: z.enum(APPROVAL_STATUSES).optional(),
    chainId: ChainRef.optional(),
  },
  setup: [
    personSetup('approver'),
    {
      method: 'POST',
      path: '/v1/stakeholders/approval-chains',
      body: { name: 'Approval {{unique}}', approverIds: ['{{approver.id}}'] },
      as: 'chain',
    },
  ],
  create: {
    body: CreateGovernanceApprovalBody,
    fixture: { subject: 'Vendor contract {{unique}}', chainId: '{{chain.id}}' },
    summary: 'Open an approval',
    description:
      "Opens an approval of a subject that walks the chain's approvers in order, pending at step 1. 422 naming `chainId` when the chain is unknown or one of its approvers is inactive.",
    eventSummary: 'An approval was opened.',
  },
});

export const GOVERNANCE_APPROVAL_ACTIONS = {
  stepApproved: 'approval.step_approved',
  approved: 'approval.approved',
  rejected: 'approval.rejected',
} as const;

// ---------------------------------------------------------------- board meetings

const MEETING_STATUSES = ['scheduled', 'held', 'minutes_approved', 'canceled'] as const;
const EXAMPLE_MEETING_REQUEST = { title: 'Q4 AI governance board', scheduledFor: '2026-12-10T14:00:00.000Z' };

export const GovernanceBoardMeeting = z
  .object({
    object: governanceObject('svc.governance.board_meeting'),
    id: MeetingId,
    title: z.string().meta({ description: 'Title of the meeting (`Q4 AI governance board`).' }),
    scheduledFor: Timestamp.meta({ description: 'When the meeting is (or was) held (ISO 8601 UTC).' }),
    attendeeIds: z.array(z.string()).meta({ description: 'People invited (`usr_...`).' }),
    status: z.enum(MEETING_STATUSES).meta({
      description:
        '`scheduled`, then `held` (minutes may be recorded and decisions taken), then `minutes_approved` (final); or `canceled` before it was held.',
    }),
    minutes: z.string().nullable().meta({ description: 'The minutes as recorded; null until recorded.' }),
    minutesRecordedAt: Timestamp.nullable().meta({ description: 'When the minutes were last recorded; null until then.' }),
    ...stamps(),
  })
  .meta({
    id: 'GovernanceBoardMeeting',
    examples: [
      {
        object: 'svc.governance.board_meeting',
        id: EXAMPLE_MEETING,
        ...EXAMPLE_MEETING_REQUEST,
        attendeeIds: [],
        status: 'scheduled',
        minutes: null,
        minutesRecordedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateGovernanceBoardMeetingBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Title of the meeting.' }),
    scheduledFor: Timestamp.meta({ description: 'When the meeting is held (ISO 8601 UTC).' }),
    attendeeIds: z
      .array(UserId)
      .max(50)
      .optional()
      .meta({ description: 'People of the tenant invited, each at most once; an unknown one is 422.' }),
  })
  .meta({ id: 'CreateGovernanceBoardMeetingRequest', examples: [EXAMPLE_MEETING_REQUEST] });

export const governanceBoardMeetings = resource({
  rail: 'governance',
  path: 'board-meetings',
  name: 'board_meeting',
  label: { one: 'board meeting', many: 'board meetings' },
  idPrefix: 'gbm',
  record: GovernanceBoardMeeting,
  statusField: 'status',
  filters: { status: z.enum(MEETING_STATUSES).optional() },
  create: {
    body: CreateGovernanceBoardMeetingBody,
    summary: 'Schedule a board meeting',
    description: 'Schedules a governance board meeting; minutes and decisions are recorded once it is held.',
    eventSummary: 'A board meeting was scheduled.',
  },
  transitions: {
    hold: {
      from: ['scheduled'],
      to: 'held',
      action: 'board_meeting.held',
      summary: 'Record that a board meeting was held',
      description: 'From then on its minutes may be recorded and decisions recorded against it.',
    },
    approve_minutes: {
      from: ['held'],
      to: 'minutes_approved',
      action: 'board_meeting.minutes_approved',
      grant: 'approve',
      summary: 'Approve the minutes of a board meeting',
      description: 'Makes the minutes final; 409 when no minutes were recorded. No decision can be added afterwards.',
    },
    cancel: { from: ['scheduled'], to: 'canceled', summary: 'Cancel a board meeting', description: 'Only before it was held.' },
  },
});

export const RecordGovernanceMinutesBody = z
  .strictObject({
    text: z.string().min(1).max(100_000).meta({ description: 'The minutes, up to 100,000 characters; replaces earlier ones.' }),
  })
  .meta({ id: 'GovernanceBoardMinutesRequest', examples: [{ text: 'Present: the board. The vendor contract was approved.' }] });

const DECISION_OUTCOMES = ['approved', 'rejected', 'deferred'] as const;
const EXAMPLE_BOARD_DECISION_REQUEST = {
  title: 'Approve the Acme Analytics contract',
  decisionType: 'vendor_contract',
  outcome: 'approved',
  votesFor: 5,
  votesAgainst: 1,
};

export const GovernanceBoardDecision = z
  .object({
    object: governanceObject('svc.governance.board_decision'),
    id: prefixedId('gdc', exampleId('gdc')),
    meetingId: z.string().meta({ description: 'The board meeting the decision was taken at (`gbm_...`).' }),
    title: z.string().meta({ description: 'What was decided.' }),
    decisionType: z.string().nullable().meta({ description: 'Kind of decision (as in decision rights); null when not given.' }),
    outcome: z.enum(DECISION_OUTCOMES).meta({ description: 'The outcome.' }),
    votesFor: z.int().nullable().meta({ description: 'Votes for; null when no vote was counted.' }),
    votesAgainst: z.int().nullable().meta({ description: 'Votes against; null when no vote was counted.' }),
    abstentions: z.int().nullable().meta({ description: 'Abstentions; null when no vote was counted.' }),
    notes: z.string().nullable().meta({ description: 'Notes; null when none.' }),
    ...created(),
  })
  .meta({
    id: 'GovernanceBoardDecision',
    examples: [
      {
        object: 'svc.governance.board_decision',
        id: exampleId('gdc'),
        meetingId: EXAMPLE_MEETING,
        ...EXAMPLE_BOARD_DECISION_REQUEST,
        abstentions: 0,
        notes: null,
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-12-10T15:00:00.000Z',
      },
    ],
  });

const Votes = z.int().min(0).max(10_000);

export const CreateGovernanceBoardDecisionBody = z
  .strictObject({
    title: z.string().min(1).max(300).meta({ description: 'What was decided.' }),
    decisionType: DecisionType.optional().meta({ description: 'Kind of decision, lowercase snake_case (as in decision rights).' }),
    outcome: z.enum(DECISION_OUTCOMES).meta({ description: 'The outcome.' }),
    votesFor: Votes.optional().meta({ description: 'Votes for, 0 to 10,000.' }),
    votesAgainst: Votes.optional().meta({ description: 'Votes against, 0 to 10,000.' }),
    abstentions: Votes.optional().meta({ description: 'Abstentions, 0 to 10,000.' }),
    notes: z.string().min(1).max(5000).optional().meta({ description: 'Notes, up to 5,000 characters.' }),
  })
  .meta({ id: 'CreateGovernanceBoardDecisionRequest', examples: [EXAMPLE_BOARD_DECISION_REQUEST] });

claimIdPrefix('gdc', 'svc.governance.board_decision');

// ---------------------------------------------------------------- delegations

export const GOVERNANCE_DELEGATION_SCOPES = ['approvals', 'decisions', 'all'] as const;
const DELEGATION_STATUSES = ['active', 'revoked'] as const;

/** The example request: one person lets another take their approval steps for three weeks. */
const EXAMPLE_DELEGATION_REQUEST = {
  fromPersonId: EXAMPLE_USER,
  toPersonId: EXAMPLE_OTHER_USER,
  scope: 'approvals',
  validFrom: '2026-12-01T00:00:00.000Z',
  validUntil: '2026-12-24T00:00:00.000Z',
};

export const GovernanceDelegation = z
  .object({
    object: governanceObject('svc.governance.delegation'),
    id: prefixedId('gdl', exampleId('gdl')),
    fromPersonId: z.string().meta({ description: 'The person whose powers are delegated (`usr_...`).' }),
    toPersonId: z.string().meta({ description: 'The person who may act for them (`usr_...`).' }),
    scope: z
      .enum(GOVERNANCE_DELEGATION_SCOPES)
      .meta({ description: '`approvals` (approval steps), `decisions` (decision rights) or `all`.' }),
    validFrom: Timestamp.meta({ description: 'Start of validity (ISO 8601 UTC).' }),
    validUntil: Timestamp.meta({ description: 'End of validity (ISO 8601 UTC), exclusive: from then on it grants nothing.' }),
    status: z.enum(DELEGATION_STATUSES).meta({ description: '`active`, or `revoked` (grants nothing).' }),
    inForce: z.boolean().meta({
      description: 'True when active and the time of the response is within [validFrom, validUntil): only then does it grant anything.',
    }),
    ...stamps(),
  })
  .meta({
    id: 'GovernanceDelegation',
    examples: [
      {
        object: 'svc.governance.delegation',
        id: exampleId('gdl'),
        ...EXAMPLE_DELEGATION_REQUEST,
        status: 'active',
        inForce: false,
        ...exampleStamps(),
      },
    ],
  });

export const CreateGovernanceDelegationBody = z
  .strictObject({
    fromPersonId: UserId.meta({ description: 'The person delegating; unknown: 422.' }),
    toPersonId: UserId.meta({
      description: 'The delegate, another active person of the tenant; unknown, inactive or the same: 422.',
      examples: [EXAMPLE_OTHER_USER],
    }),
    scope: z.enum(GOVERNANCE_DELEGATION_SCOPES).meta({ description: '`approvals`, `decisions` or `all`.' }),
    validFrom: Timestamp.meta({ description: 'Start of validity (ISO 8601 UTC).' }),
    validUntil: Timestamp.meta({ description: 'End of validity (ISO 8601 UTC), after `validFrom`.' }),
  })
  .refine((b) => b.validUntil > b.validFrom, { path: ['validUntil'], message: 'validUntil must be after validFrom' })
  .refine((b) => b.fromPersonId !== b.toPersonId, { path: ['toPersonId'], message: 'a person cannot delegate to themselves' })
  .meta({ id: 'CreateGovernanceDelegationRequest', examples: [EXAMPLE_DELEGATION_REQUEST] });

export const governanceDelegations = resource({
  rail: 'governance',
  path: 'delegations',
  name: 'delegation',
  label: { one: 'delegation', many: 'delegations' },
  idPrefix: 'gdl',
  record: GovernanceDelegation,
  statusField: 'status',
  filters: {
    fromPersonId: UserId.optional(),
    toPersonId: UserId.optional(),
    status: z.enum(DELEGATION_STATUSES).optional(),
  },
  setup: [personSetup('from'), personSetup('to')],
  create: {
    body: CreateGovernanceDelegationBody,
    fixture: { ...EXAMPLE_DELEGATION_REQUEST, fromPersonId: '{{from.id}}', toPersonId: '{{to.id}}' },
    summary: 'Delegate powers',
    description:
      'Lets a person act for another within a scope during [validFrom, validUntil): an approval step may then be taken by the delegate. An expired or revoked delegation grants nothing; `inForce` says whether it grants now.',
    eventSummary: 'A person delegated powers to another.',
  },
  transitions: {
    revoke: { from: ['active'], to: 'revoked', summary: 'Revoke a delegation', description: 'It grants nothing from then on.' },
  },
});

// ---------------------------------------------------------------- conflicts of interest

const CONFLICT_STATUSES = ['open', 'managed', 'closed'] as const;
const EXAMPLE_CONFLICT_REQUEST = {
  personId: EXAMPLE_USER,
  subject: EXAMPLE_SUBJECT,
  description: 'Spouse is a director of Acme Analytics.',
};

export const GovernanceConflict = z
  .object({
    object: governanceObject('svc.governance.conflict'),
    id: prefixedId('gci', exampleId('gci')),
    personId: z.string().meta({ description: 'The person who declared it (`usr_...`).' }),
    subject: z.string().meta({ description: 'What the conflict is about.' }),
    description: z.string().nullable().meta({ description: 'The interest declared; null when not given.' }),
    status: z
      .enum(CONFLICT_STATUSES)
      .meta({ description: '`open` (bars the person from approving the subject), `managed` (mitigated) or `closed`.' }),
    ...stamps(),
  })
  .meta({
    id: 'GovernanceConflictOfInterest',
    examples: [
      {
        object: 'svc.governance.conflict',
        id: exampleId('gci'),
        ...EXAMPLE_CONFLICT_REQUEST,
        status: 'open',
        ...exampleStamps(),
      },
    ],
  });

export const CreateGovernanceConflictBody = z
  .strictObject({
    personId: UserId.meta({ description: 'The person declaring it; unknown: 422.' }),
    subject: Subject,
    description: z.string().min(1).max(2000).optional().meta({ description: 'The interest declared.' }),
  })
  .meta({ id: 'CreateGovernanceConflictRequest', examples: [EXAMPLE_CONFLICT_REQUEST] });

export const governanceConflicts = resource({
  rail: 'governance',
  path: 'conflicts',
  name: 'conflict',
  label: { one: 'conflict of interest', many: 'conflicts of interest' },
  idPrefix: 'gci',
  record: GovernanceConflict,
  statusField: 'status',
  filters: { personId: UserId.optional(), status: z.enum(CONFLICT_STATUSES).optional() },
  setup: [personSetup('person')],
  create: {
    body: CreateGovernanceConflictBody,
    fixture: { ...EXAMPLE_CONFLICT_REQUEST, personId: '{{person.id}}' },
    summary: 'Declare a conflict of interest',
    description: 'Records a conflict a person declared about a subject; while `open`, they cannot act on an approval of that subject.',
    eventSummary: 'A conflict of interest was declared.',
  },
  transitions: {
    manage: { from: ['open'], to: 'managed', summary: 'Mark a conflict of interest managed', description: 'Mitigations are in place.' },
    close: { from: ['open', 'managed'], to: 'closed', summary: 'Close a conflict of interest' },
  },
});

// ---------------------------------------------------------------- organisation-wide RACI

export const GovernanceOrgRaci = z
  .object({
    object: governanceObject('svc.governance.raci'),
    systems: z
      .array(
        z.object({
          systemId: z.string().meta({ description: 'The AI system.' }),
          data: z.array(RaciRow).meta({ description: 'Its RACI rows, as `GET /v1/stakeholders/raci` computes them.' }),
          gaps: z.array(RaciGap).meta({ description: 'Its controls without an accountable person.' }),
        }),
      )
      .meta({
        description:
          "Every AI system the tenant's active assignments or assessments name, by id, each with its chart over the controls of its assignments and of the activated frameworks.",
      }),
    gaps: z
      .array(
        z.object({
          systemId: z.string().meta({ description: 'The AI system.' }),
          control: z.string().meta({ description: 'The control without an accountable person.' }),
          reason: z.literal('no_accountable').meta({ description: 'Why it is a gap: nobody is accountable.' }),
        }),
      )
      .meta({ description: 'Every (system, control) without an accountable person, across the organisation.' }),
    totals: z
      .object({
        systems: z.int().min(0).meta({ description: 'Systems charted.' }),
        rows: z.int().min(0).meta({ description: 'RACI rows, summed over the systems.' }),
        gaps: z.int().min(0).meta({ description: 'Rows without an accountable person.' }),
      })
      .meta({ description: 'Counts over the whole chart.' }),
    computedAt: Timestamp.meta({ description: 'When the chart was computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'GovernanceOrgRaci',
    examples: [
      {
        object: 'svc.governance.raci',
        systems: [
          {
            systemId: 'sys_credit_scoring_v2',
            data: [{ control: 'AIA-RMS-02', frameworks: ['eu-ai-act'], responsible: [], accountable: null, consulted: [], informed: [] }],
            gaps: [{ control: 'AIA-RMS-02', reason: 'no_accountable' }],
          },
        ],
        gaps: [{ systemId: 'sys_credit_scoring_v2', control: 'AIA-RMS-02', reason: 'no_accountable' }],
        totals: { systems: 1, rows: 1, gaps: 1 },
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- snapshots

const SnapshotPerson = z.object({
  id: z.string().meta({ description: 'Person id.' }),
  name: z.string().meta({ description: 'Full name.' }),
  email: z.string().meta({ description: 'Work email address.' }),
  status: z.string().meta({ description: '`active` or `inactive`.' }),
  roleIds: z.array(z.string()).meta({ description: 'Roles the person holds.' }),
});

export const GovernanceState = z
  .object({
    people: z.array(SnapshotPerson).meta({ description: 'Every person of the tenant, by id.' }),
    roles: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Role id.' }),
          name: z.string().meta({ description: 'Role name.' }),
          description: z.string().nullable().meta({ description: 'What the role is responsible for.' }),
        }),
      )
      .meta({ description: 'Every role, by id.' }),
    approvalChains: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Chain id.' }),
          name: z.string().meta({ description: 'Chain name.' }),
          approverIds: z.array(z.string()).meta({ description: 'Approvers in order.' }),
        }),
      )
      .meta({ description: 'Every approval chain, by id.' }),
    assignments: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Assignment id.' }),
          personId: z.string().meta({ description: 'The person assigned.' }),
          roleId: z.string().meta({ description: 'The role they act in.' }),
          raci: z.string().meta({ description: 'responsible, accountable, consulted or informed.' }),
          systemId: z.string().nullable().meta({ description: 'The AI system; null for every system.' }),
          control: z.string().nullable().meta({ description: 'The control; null for the whole system.' }),
        }),
      )
      .meta({ description: 'The active RACI assignments, by id.' }),
    delegations: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Delegation id.' }),
          fromPersonId: z.string().meta({ description: 'Who delegates.' }),
          toPersonId: z.string().meta({ description: 'Who receives the delegation.' }),
          scope: z.string().meta({ description: 'What is delegated.' }),
          validFrom: z.string().meta({ description: 'Start of validity (ISO 8601 UTC).' }),
          validUntil: z.string().meta({ description: 'End of validity (ISO 8601 UTC).' }),
        }),
      )
      .meta({ description: 'The delegations in force when the snapshot was taken, by id.' }),
    decisionRights: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Decision right id.' }),
          decisionType: z.string().meta({ description: 'The kind of decision.' }),
          roleId: z.string().nullable().meta({ description: 'The role that decides; null when a person does.' }),
          personId: z.string().nullable().meta({ description: 'The person who decides; null when a role does.' }),
          maxAmountEur: z.number().nullable().meta({ description: 'Upper amount in EUR; null for no limit.' }),
        }),
      )
      .meta({ description: 'The active decision rights, by id.' }),
    openConflicts: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Conflict id.' }),
          personId: z.string().meta({ description: 'The person with the conflict.' }),
          subject: z.string().meta({ description: 'What it concerns.' }),
        }),
      )
      .meta({ description: 'The open conflicts of interest, by id.' }),
  })
  .meta({ description: 'The exported governance state; `hash` is the SHA-256 of its canonical JSON (keys sorted, no whitespace).' });

const EXAMPLE_SNAPSHOT_REQUEST = { note: 'Before the Q4 board' };

export const GovernanceSnapshot = z
  .object({
    object: governanceObject('svc.governance.snapshot'),
    id: prefixedId('gsn', exampleId('gsn')),
    version: z
      .int()
      .min(1)
      .meta({ description: "Version of the snapshot for the tenant: 1 for the first, then one more than the tenant's last." }),
    hash: z.string().meta({ description: 'Lowercase hex SHA-256 of the canonical JSON (keys sorted, no whitespace) of `state`.' }),
    previousHash: z.string().nullable().meta({ description: "Hash of the tenant's previous snapshot; null for the first." }),
    changed: z.boolean().meta({ description: 'True when `hash` differs from `previousHash` (always true for the first).' }),
    state: GovernanceState,
    note: z.string().nullable().meta({ description: 'Why the snapshot was taken; null when not given.' }),
    ...created(),
  })
  .meta({
    id: 'GovernanceSnapshot',
    examples: [
      {
        object: 'svc.governance.snapshot',
        id: exampleId('gsn'),
        version: 1,
        hash: '4f1c6bd0c3b2e8f1a9d7c5b3a1e9f7d5c3b1a9e7f5d3c1b9a7e5f3d1c9b7a5e3',
        previousHash: null,
        changed: true,
        state: { people: [], roles: [], approvalChains: [], assignments: [], delegations: [], decisionRights: [], openConflicts: [] },
        ...EXAMPLE_SNAPSHOT_REQUEST,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateGovernanceSnapshotBody = z
  .strictObject({
    note: z.string().min(1).max(500).optional().meta({ description: 'Why the snapshot is taken, up to 500 characters.' }),
  })
  .meta({ id: 'CreateGovernanceSnapshotRequest', examples: [EXAMPLE_SNAPSHOT_REQUEST] });

export const GOVERNANCE_SNAPSHOT_ACTION = 'governance_snapshot.created';

export const governanceSnapshots = resource({
  rail: 'governance',
  path: 'snapshot',
  name: 'snapshot',
  label: { one: 'governance snapshot', many: 'governance snapshots' },
  idPrefix: 'gsn',
  record: GovernanceSnapshot,
  setup: [{ method: 'POST', path: '/v1/governance/snapshot', body: {} }],
});

// ---------------------------------------------------------------- router

const read = meta({ auth: 'tenant', rail: 'governance', permission: 'governance:read', mutating: false });
/** Metadata of a route that changes a record and is audited as `audit`; `stateful` when it moves a record's state. */
const change = (permission: 'governance:write' | 'governance:approve', audit: string) =>
  meta({ auth: 'tenant', rail: 'governance', permission, mutating: true, audit });
const meetingParams = z.object({ id: MeetingId });
const approvalParams = idParams('gap');

const approvalDecision = (verb: 'approve' | 'reject') =>
  ({
    method: 'POST',
    path: `/approvals/:id/${verb}`,
    pathParams: approvalParams,
    body: GovernanceApprovalDecisionBody,
    responses: { 200: GovernanceApproval },
    summary: verb === 'approve' ? 'Approve the current step of an approval' : 'Reject an approval',
    description:
      (verb === 'approve'
        ? 'Records the approval of the current step; after the last step the approval is `approved`, otherwise it moves to the next step. '
        : 'Records the rejection at the current step; the approval is `rejected` and ends. ') +
      "The person acting is the one the API key is bound to (`personId` of the key): a service key bound to no person, or a body `approverId` naming someone else, is 403 `forbidden`. Only the current step's approver, or a person holding a delegation from them in force now (scope `approvals` or `all`), may act: anyone else is 403 `forbidden` naming who must act. In a chain of several approvers each step is approved by a different person: one who approved an earlier step (as approver or delegate) is 403 `forbidden`. The audit event's actor is the person, with the key in `data.credentialId`. 409 `conflict` naming the state when the approval is no longer pending, and when the approver (or the delegate) has an open conflict of interest on the subject. Needs `governance:approve`; audited as " +
      (verb === 'approve' ? '`approval.step_approved` (or `approval.approved` at the last step).' : '`approval.rejected`.'),
    metadata: {
      ...change('governance:approve', verb === 'approve' ? GOVERNANCE_APPROVAL_ACTIONS.stepApproved : GOVERNANCE_APPROVAL_ACTIONS.rejected),
      stateful: true,
    },
  }) as const;

export const governanceRouter = railRouter('governance', {
  raci: {
    method: 'GET',
    path: '/raci',
    responses: { 200: GovernanceOrgRaci },
    summary: 'Compute the organisation-wide RACI chart',
    description:
      "The RACI chart of every AI system the tenant's active assignments or assessments name, over the controls of its assignments and of the activated frameworks, with every (system, control) lacking an accountable person in `gaps`. Computed from the stakeholders rail's assignments at request time; stores nothing. Needs `governance:read`.",
    metadata: read,
  },
  decisionRights: governanceDecisionRights.routes,
  approvals: { ...governanceApprovals.routes, approve: approvalDecision('approve'), reject: approvalDecision('reject') },
  boardMeetings: {
    ...governanceBoardMeetings.routes,
    recordMinutes: {
      method: 'POST',
      path: '/board-meetings/:id/minutes',
      pathParams: meetingParams,
      body: RecordGovernanceMinutesBody,
      responses: { 200: GovernanceBoardMeeting },
      summary: 'Record the minutes of a board meeting',
      description:
        'Records (or replaces) the minutes of a `held` meeting; 409 `conflict` naming the state otherwise (minutes are final once approved). Needs `governance:write`; audited as `board_meeting.minutes_recorded`.',
      metadata: { ...change('governance:write', 'board_meeting.minutes_recorded'), stateful: true },
    },
    listDecisions: {
      method: 'GET',
      path: '/board-meetings/:id/decisions',
      pathParams: meetingParams,
      query: PaginationQuery,
      responses: { 200: listOf(GovernanceBoardDecision) },
      summary: 'List the decisions of a board meeting',
      description:
        'Decisions recorded against the meeting, newest first, paginated. 404 for an unknown meeting or another tenant’s. Needs `governance:read`.',
      metadata: meta({ ...read, source: { object: 'svc.governance.board_decision', params: { id: 'meetingId' } } }),
    },
    createDecision: {
      method: 'POST',
      path: '/board-meetings/:id/decisions',
      pathParams: meetingParams,
      body: CreateGovernanceBoardDecisionBody,
      responses: { 201: GovernanceBoardDecision },
      summary: 'Record a decision of a board meeting',
      description:
        'Records a decision taken at a `held` meeting, id `gdc_<ULID>`; 409 `conflict` naming the state for a meeting that is scheduled, canceled or whose minutes are approved. Needs `governance:write`; audited as `board_decision.created`.',
      metadata: { ...change('governance:write', 'board_decision.created'), stateful: true },
    },
  },
  delegations: governanceDelegations.routes,
  conflicts: governanceConflicts.routes,
  snapshot: {
    ...governanceSnapshots.routes,
    create: {
      method: 'POST',
      path: '/snapshot',
      body: CreateGovernanceSnapshotBody,
      responses: { 201: GovernanceSnapshot },
      summary: 'Snapshot the governance state',
      description:
        "Stores a versioned export of the tenant's governance state (people, roles, approval chains, active assignments, delegations in force, active decision rights, open conflicts), version one more than the tenant's last (1 for the first), with the SHA-256 of the state's canonical JSON and the previous snapshot's hash. Returns 201 with the snapshot, id `gsn_<ULID>`. Needs `governance:write`; audited as `governance_snapshot.created`. Send an `Idempotency-Key` so that a retry does not create a second snapshot.",
      metadata: change('governance:write', GOVERNANCE_SNAPSHOT_ACTION),
    },
  },
});

/** Event types the governance rail emits. */
export const governanceEvents: ReturnType<typeof eventType>[] = [
  ...governanceDecisionRights.events,
  ...governanceApprovals.events,
  eventType(
    GOVERNANCE_APPROVAL_ACTIONS.stepApproved,
    'A step of an approval was approved; the next approver must act.',
    GovernanceApproval,
  ),
  eventType(
    GOVERNANCE_APPROVAL_ACTIONS.approved,
    'The last step of an approval was approved: the subject is approved.',
    GovernanceApproval,
  ),
  eventType(GOVERNANCE_APPROVAL_ACTIONS.rejected, 'An approval was rejected at one of its steps.', GovernanceApproval),
  ...governanceBoardMeetings.events,
  eventType('board_meeting.minutes_recorded', 'The minutes of a held board meeting were recorded.', GovernanceBoardMeeting),
  eventType('board_decision.created', 'A decision was recorded against a board meeting.', GovernanceBoardDecision),
  ...governanceDelegations.events,
  ...governanceConflicts.events,
  eventType(GOVERNANCE_SNAPSHOT_ACTION, 'A versioned, hashed snapshot of the governance state was stored.', GovernanceSnapshot),
];
