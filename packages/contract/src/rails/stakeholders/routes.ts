import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { UserId } from '../../shared/common.ts';
import { ControlId, RoleId, SystemRef } from './fields.ts';
import {
  ApprovalChain,
  CreateApprovalChainBody,
  CreateStakeholderAssignmentBody,
  CreateStakeholderRoleBody,
  CreateStakeholderUserBody,
  RaciChart,
  RaciLetter,
  RaciQuery,
  StakeholderAssignment,
  StakeholderRole,
  StakeholderUser,
} from './schemas.ts';

/** The stakeholders rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- users

export const stakeholderUsers = resource({
  rail: 'stakeholders',
  path: 'users',
  name: 'user',
  label: { one: 'person', many: 'people' },
  idPrefix: 'usr',
  record: StakeholderUser,
  statusField: 'status',
  filters: {
    status: z.enum(['active', 'inactive']).optional().meta({ description: 'Only people in this status.' }),
    roleId: RoleId.optional().meta({ description: 'Only people holding this role.' }),
  },
  filterFields: { roleId: 'roleIds[]' },
  setup: [{ method: 'POST', path: '/v1/stakeholders/roles', body: { name: 'Role {{unique}}' }, as: 'role' }],
  create: {
    body: CreateStakeholderUserBody,
    fixture: { name: 'Ines Duarte', email: 'ines.{{unique}}@example.com', roleIds: ['{{role.id}}'] },
    summary: 'Add a person',
    description: 'Adds a person of the organisation, with the roles they hold; 409 when the email is already taken in the tenant.',
    eventSummary: 'A person was added to the stakeholders register.',
  },
  transitions: {
    deactivate: {
      from: ['active'],
      to: 'inactive',
      summary: 'Deactivate a person',
      description: 'The person leaves coverage, assignments and approvals.',
    },
    reactivate: { from: ['inactive'], to: 'active', summary: 'Reactivate a person' },
  },
});

// ---------------------------------------------------------------- roles

export const stakeholderRoles = resource({
  rail: 'stakeholders',
  path: 'roles',
  name: 'role',
  label: { one: 'role', many: 'roles' },
  idPrefix: 'rol',
  record: StakeholderRole,
  create: {
    body: CreateStakeholderRoleBody,
    fixture: { name: 'Data protection officer {{unique}}', description: 'Monitors compliance with GDPR (Art. 39).' },
    summary: 'Define a role',
    description: 'Defines an organisational role; 409 when a role of that name exists in the tenant.',
    eventSummary: 'An organisational role was defined.',
  },
});

// ---------------------------------------------------------------- approval chains

export const approvalChains = resource({
  rail: 'stakeholders',
  path: 'approval-chains',
  name: 'approval_chain',
  label: { one: 'approval chain', many: 'approval chains' },
  idPrefix: 'apc',
  record: ApprovalChain,
  setup: [
    { method: 'POST', path: '/v1/stakeholders/users', body: { name: 'Ines Duarte', email: 'first.{{unique}}@example.com' }, as: 'first' },
    { method: 'POST', path: '/v1/stakeholders/users', body: { name: 'Ines Duarte', email: 'second.{{unique}}@example.com' }, as: 'second' },
  ],
  create: {
    body: CreateApprovalChainBody,
    fixture: { name: 'Policy approval', approverIds: ['{{first.id}}', '{{second.id}}'] },
    summary: 'Define an approval chain',
    description: 'Defines an ordered list of approvers that governance approvals and policy publishing walk step by step.',
    eventSummary: 'An approval chain was defined.',
  },
});

// ---------------------------------------------------------------- assignments

export const stakeholderAssignments = resource({
  rail: 'stakeholders',
  path: 'assignments',
  name: 'assignment',
  label: { one: 'assignment', many: 'assignments' },
  idPrefix: 'asg',
  record: StakeholderAssignment,
  statusField: 'status',
  filters: {
    personId: UserId.optional(),
    roleId: RoleId.optional(),
    systemId: SystemRef.optional(),
    control: ControlId.optional(),
    raci: RaciLetter.optional(),
    status: z.enum(['active', 'removed']).optional(),
  },
  setup: [
    { method: 'POST', path: '/v1/frameworks/eu-ai-act/activate', body: {} },
    { method: 'POST', path: '/v1/stakeholders/roles', body: { name: 'Role {{unique}}' }, as: 'role' },
    { method: 'POST', path: '/v1/stakeholders/users', body: { name: 'Ines Duarte', email: 'person.{{unique}}@example.com' }, as: 'person' },
  ],
  create: {
    body: CreateStakeholderAssignmentBody,
    fixture: { personId: '{{person.id}}', roleId: '{{role.id}}', raci: 'accountable', systemId: 'sys_{{unique}}', control: 'AIA-RMS-01' },
    summary: 'Assign a person a RACI part',
    description:
      'Assigns an active person, in one of their organisational roles, a RACI part for an AI system, a control, or a control of a system. 422 naming the field for an unknown or inactive person, an unknown role or a control of no activated framework; 409 when the same system and control already have an active accountable person (remove that assignment first).',
    eventSummary: 'A person was given a RACI part.',
  },
  transitions: {
    remove: {
      from: ['active'],
      to: 'removed',
      summary: 'Remove an assignment',
      description: 'Takes the assignment off the RACI chart; the record stays, marked `removed`.',
    },
  },
});

// ---------------------------------------------------------------- RACI

const { read } = policyOf('stakeholders');

export const stakeholdersRouter = railRouter('stakeholders', {
  users: stakeholderUsers.routes,
  roles: stakeholderRoles.routes,
  assignments: stakeholderAssignments.routes,
  raci: get('/raci', { query: RaciQuery }, RaciChart, read).doc(
    'Compute the RACI chart of a system',
    "Computes, from the tenant's active assignments of active people, who is responsible, accountable, consulted and informed for each control of the system: the controls its assignments name plus every control of the tenant's activated frameworks (or of `framework` only). The answer is an array of RACI rows, one per control by control id: `control`, `responsible` and `accountable` (who, as the people's full names; several responsible names are joined by `, `; null when nobody), and beside them `systemId`, `frameworks`, `responsibleIds`, `accountableId`, `consulted` and `informed` (names), `gap` and `people` (each part with every person in full: id, name, role, assignment and scope). Exactly one accountable person per control, by precedence (control of the system, then control across systems, then the whole system); a control with none has `accountable: null` and `gap: 'no_accountable'`, never filled in. Inactive people and removed assignments are left out. Computes; stores nothing. Needs `stakeholders:read`.",
  ),
  approvalChains: approvalChains.routes,
});

/** Event types the stakeholders rail emits. */
export const stakeholdersEvents: ReturnType<typeof eventType>[] = [
  ...stakeholderUsers.events,
  ...stakeholderRoles.events,
  ...approvalChains.events,
  ...stakeholderAssignments.events,
];
