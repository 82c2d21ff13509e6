import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { EXAMPLE_OTHER_USER, EXAMPLE_USER, prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { RaciGap, RaciRow } from '../stakeholders/schemas.ts';
import {
  APPROVAL_STATUSES,
  ChainRef,
  CONFLICT_STATUSES,
  DECISION_RIGHT_STATUSES,
  DELEGATION_STATUSES,
  EXAMPLE_CHAIN,
  EXAMPLE_CONFLICT_REQUEST,
  EXAMPLE_DECISION_RIGHT_REQUEST,
  EXAMPLE_DELEGATION_REQUEST,
  EXAMPLE_MEETING,
  EXAMPLE_ROLE,
  EXAMPLE_SUBJECT,
  MEETING_STATUSES,
  MeetingId,
} from './fields.ts';

/** The governance rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a governance record; its description names `svc.governance.approval` as the example. */
const governanceObject = <const T extends string>(name: T) => objectField(name, 'svc.governance.approval');

const RoleRef = prefixedId('rol', EXAMPLE_ROLE);

/** A kind of decision, lowercase snake_case (`vendor_contract`): decision rights and board decisions share them. */
const DecisionType = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/);

const Subject = z.string().trim().min(1).max(300).meta({
  description:
    'What is approved or what a conflict concerns, as free text (`Vendor contract: Acme Analytics`); compared case-insensitively, so a conflict declared on a subject bars approvals of the same subject.',
});

// ---------------------------------------------------------------- decision rights

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

// ---------------------------------------------------------------- approvals

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

export const GOVERNANCE_APPROVAL_ACTIONS = {
  stepApproved: 'approval.step_approved',
  approved: 'approval.approved',
  rejected: 'approval.rejected',
} as const;

// ---------------------------------------------------------------- board meetings

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

// ---------------------------------------------------------------- conflicts of interest

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
