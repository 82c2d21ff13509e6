import { z } from 'zod';
import { get, policyOf, post, stateful } from '../../platform/declare.ts';
import { railRouter, resource, under } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { UserId } from '../../shared/common.ts';
import { idParams } from '../../shared/records.ts';
import {
  APPROVAL_STATUSES,
  ChainRef,
  CONFLICT_STATUSES,
  DECISION_RIGHT_STATUSES,
  DELEGATION_STATUSES,
  EXAMPLE_CONFLICT_REQUEST,
  EXAMPLE_DECISION_RIGHT_REQUEST,
  EXAMPLE_DELEGATION_REQUEST,
  MEETING_STATUSES,
} from './fields.ts';
import {
  CreateGovernanceApprovalBody,
  CreateGovernanceBoardDecisionBody,
  CreateGovernanceBoardMeetingBody,
  CreateGovernanceConflictBody,
  CreateGovernanceDecisionRightBody,
  CreateGovernanceDelegationBody,
  CreateGovernanceSnapshotBody,
  GOVERNANCE_APPROVAL_ACTIONS,
  GOVERNANCE_SNAPSHOT_ACTION,
  GovernanceApproval,
  GovernanceApprovalDecisionBody,
  GovernanceBoardDecision,
  GovernanceBoardMeeting,
  GovernanceConflict,
  GovernanceDecisionRight,
  GovernanceDelegation,
  GovernanceOrgRaci,
  GovernanceSnapshot,
  RecordGovernanceMinutesBody,
} from './schemas.ts';

/** The governance rail's resources and hand-declared routes, its router and the event types it emits. */

/** Setup step of a conformance fixture: a person of the tenant, named `as` for the fixture's `{{<as>.id}}`. */
const personSetup = (as: string) =>
  ({
    method: 'POST',
    path: '/v1/stakeholders/users',
    body: { name: 'Ines Duarte', email: `${as}.{{unique}}@example.com` },
    as,
  }) as const;

// ---------------------------------------------------------------- decision rights

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

// ---------------------------------------------------------------- board meetings

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
    record_minutes: {
      from: ['held'],
      path: 'minutes',
      body: RecordGovernanceMinutesBody,
      action: 'board_meeting.minutes_recorded',
      stateful: true,
      summary: 'Record the minutes of a board meeting',
      description: 'Records (or replaces) the minutes of a held meeting; they are final once approved.',
      eventSummary: 'The minutes of a held board meeting were recorded.',
    },
  },
});

/** Decisions are recorded against a held meeting, and read in the meeting's list. */
export const governanceBoardDecisions = resource({
  rail: 'governance',
  path: 'decisions',
  parent: under(governanceBoardMeetings, { field: 'meetingId', createIn: ['held'], step: 'meeting' }),
  name: 'board_decision',
  label: { one: 'decision', many: 'decisions' },
  idPrefix: 'gdc',
  record: GovernanceBoardDecision,
  get: false,
  create: {
    body: CreateGovernanceBoardDecisionBody,
    summary: 'Record a decision of a board meeting',
    description: 'Records a decision taken at a held meeting; once its minutes are approved (or it is canceled) no decision can be added.',
    eventSummary: 'A decision of a board meeting was recorded.',
  },
  setup: [
    {
      method: 'POST',
      path: '/v1/governance/board-meetings',
      body: { title: 'Q4 AI governance board', scheduledFor: '2026-12-10T14:00:00.000Z' },
      as: 'meeting',
    },
    { method: 'POST', path: '/v1/governance/board-meetings/{{meeting.id}}/hold', body: {} },
  ],
});

// ---------------------------------------------------------------- delegations

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

// ---------------------------------------------------------------- snapshots

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

const { read, write, changes } = policyOf('governance');
const approvalParams = idParams('gap');

const approvalDecision = (verb: 'approve' | 'reject') =>
  post(
    `/approvals/:id/${verb}`,
    { pathParams: approvalParams, body: GovernanceApprovalDecisionBody },
    GovernanceApproval,
    stateful(
      changes('governance:approve', verb === 'approve' ? GOVERNANCE_APPROVAL_ACTIONS.stepApproved : GOVERNANCE_APPROVAL_ACTIONS.rejected),
    ),
  ).doc(
    verb === 'approve' ? 'Approve the current step of an approval' : 'Reject an approval',
    (verb === 'approve'
      ? 'Records the approval of the current step; after the last step the approval is `approved`, otherwise it moves to the next step. '
      : 'Records the rejection at the current step; the approval is `rejected` and ends. ') +
      "The person acting is the one the API key is bound to (`personId` of the key): a service key bound to no person, or a body `approverId` naming someone else, is 403 `forbidden`. Only the current step's approver, or a person holding a delegation from them in force now (scope `approvals` or `all`), may act: anyone else is 403 `forbidden` naming who must act. In a chain of several approvers each step is approved by a different person: one who approved an earlier step (as approver or delegate) is 403 `forbidden`. The audit event's actor is the person, with the key in `data.credentialId`. 409 `conflict` naming the state when the approval is no longer pending, and when the approver (or the delegate) has an open conflict of interest on the subject. Needs `governance:approve`; audited as " +
      (verb === 'approve' ? '`approval.step_approved` (or `approval.approved` at the last step).' : '`approval.rejected`.'),
  );

/** The meeting's minutes keep the key the SDK has always had, beside the meeting's routes. */
const { record_minutes: recordMinutes, ...meetingRoutes } = governanceBoardMeetings.routes;

export const governanceRouter = railRouter('governance', {
  raci: get('/raci', {}, GovernanceOrgRaci, read).doc(
    'Compute the organisation-wide RACI chart',
    "The RACI chart of every AI system the tenant's active assignments or assessments name, over the controls of its assignments and of the activated frameworks, with every (system, control) lacking an accountable person in `gaps`. Computed from the stakeholders rail's assignments at request time; stores nothing. Needs `governance:read`.",
  ),
  decisionRights: governanceDecisionRights.routes,
  approvals: { ...governanceApprovals.routes, approve: approvalDecision('approve'), reject: approvalDecision('reject') },
  boardMeetings: {
    ...meetingRoutes,
    recordMinutes,
    listDecisions: governanceBoardDecisions.routes.list,
    createDecision: governanceBoardDecisions.routes.create,
  },
  delegations: governanceDelegations.routes,
  conflicts: governanceConflicts.routes,
  snapshot: {
    ...governanceSnapshots.routes,
    create: post('/snapshot', { body: CreateGovernanceSnapshotBody }, { 201: GovernanceSnapshot }, write(GOVERNANCE_SNAPSHOT_ACTION)).doc(
      'Snapshot the governance state',
      "Stores a versioned export of the tenant's governance state (people, roles, approval chains, active assignments, delegations in force, active decision rights, open conflicts), version one more than the tenant's last (1 for the first), with the SHA-256 of the state's canonical JSON and the previous snapshot's hash. Returns 201 with the snapshot, id `gsn_<ULID>`. Needs `governance:write`; audited as `governance_snapshot.created`. Send an `Idempotency-Key` so that a retry does not create a second snapshot.",
    ),
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
  ...governanceBoardDecisions.events,
  ...governanceDelegations.events,
  ...governanceConflicts.events,
  eventType(GOVERNANCE_SNAPSHOT_ACTION, 'A versioned, hashed snapshot of the governance state was stored.', GovernanceSnapshot),
];
