import { z } from 'zod';
import { prefixedId, Timestamp } from '../common.ts';
import { railRouter, resource } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

const objectDescription =
  'Type of the object, constant for the schema (for example `svc.stakeholders.user`); lets a client tell records apart in mixed lists and webhook payloads.';
const createdByDescription = 'Id of the API key (or operator credential) whose request created the record.';
const createdAtDescription = 'When the record was created: ISO 8601 UTC timestamp with milliseconds.';

const UserId = prefixedId('usr', 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R');
const RoleId = prefixedId('rol', 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R');

// ---------------------------------------------------------------- users

export const StakeholderUser = z
  .object({
    object: z.literal('svc.stakeholders.user').meta({ description: objectDescription }),
    id: UserId,
    name: z.string().meta({ description: 'Full name of the person.' }),
    email: z.string().meta({ description: 'Work email address, lowercased.' }),
    roleIds: z.array(RoleId).meta({ description: 'Ids of the organisational roles the person holds.' }),
    status: z
      .enum(['active', 'inactive'])
      .meta({ description: '`active`, or `inactive` once deactivated: an inactive person is left out of coverage and approvals.' }),
    createdBy: z.string().meta({ description: createdByDescription }),
    createdAt: Timestamp.meta({ description: createdAtDescription }),
  })
  .meta({
    id: 'StakeholderUser',
    examples: [
      {
        object: 'svc.stakeholders.user',
        id: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        name: 'Ines Duarte',
        email: 'ines.duarte@example.com',
        roleIds: ['rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
        status: 'active',
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateStakeholderUserBody = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: 'Full name of the person.' }),
    email: z.email().max(254).meta({ description: 'Work email address; unique within the tenant (case-insensitive).' }),
    roleIds: z
      .array(RoleId)
      .max(20)
      .optional()
      .meta({ description: 'Ids of existing roles of the tenant the person holds (none when absent); an unknown id is 422.' }),
  })
  .meta({
    id: 'CreateStakeholderUserRequest',
    examples: [{ name: 'Ines Duarte', email: 'ines.duarte@example.com', roleIds: ['rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] }],
  });

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
  create: {
    body: CreateStakeholderUserBody,
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

export const StakeholderRole = z
  .object({
    object: z.literal('svc.stakeholders.role').meta({ description: objectDescription }),
    id: RoleId,
    name: z.string().meta({ description: 'Name of the role, unique within the tenant (`DPO`, `CISO`, `ML engineer`).' }),
    description: z.string().nullable().meta({ description: 'What the role is responsible for; null when not given.' }),
    createdBy: z.string().meta({ description: createdByDescription }),
    createdAt: Timestamp.meta({ description: createdAtDescription }),
  })
  .meta({
    id: 'StakeholderRole',
    examples: [
      {
        object: 'svc.stakeholders.role',
        id: 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        name: 'Data protection officer',
        description: 'Monitors compliance with GDPR (Art. 39).',
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateStakeholderRoleBody = z
  .strictObject({
    name: z.string().min(1).max(120).meta({ description: 'Name of the role, unique within the tenant (case-insensitive).' }),
    description: z.string().min(1).max(2000).optional().meta({ description: 'What the role is responsible for.' }),
  })
  .meta({
    id: 'CreateStakeholderRoleRequest',
    examples: [{ name: 'Data protection officer', description: 'Monitors compliance with GDPR (Art. 39).' }],
  });

export const stakeholderRoles = resource({
  rail: 'stakeholders',
  path: 'roles',
  name: 'role',
  label: { one: 'role', many: 'roles' },
  idPrefix: 'rol',
  record: StakeholderRole,
  create: {
    body: CreateStakeholderRoleBody,
    summary: 'Define a role',
    description: 'Defines an organisational role; 409 when a role of that name exists in the tenant.',
    eventSummary: 'An organisational role was defined.',
  },
});

// ---------------------------------------------------------------- approval chains

export const ApprovalChain = z
  .object({
    object: z.literal('svc.stakeholders.approval_chain').meta({ description: objectDescription }),
    id: prefixedId('apc', 'apc_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    name: z.string().meta({ description: 'Name of the chain (`Policy approval`).' }),
    approverIds: z
      .array(UserId)
      .meta({ description: 'The approvers in order: step 1 is approved by the first, and so on. Each is a person of the tenant.' }),
    createdBy: z.string().meta({ description: createdByDescription }),
    createdAt: Timestamp.meta({ description: createdAtDescription }),
  })
  .meta({
    id: 'ApprovalChain',
    examples: [
      {
        object: 'svc.stakeholders.approval_chain',
        id: 'apc_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        name: 'Policy approval',
        approverIds: ['usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R', 'usr_01JD3Z9A4D2H8K6M0P3R5T7V9X'],
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateApprovalChainBody = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: 'Name of the chain.' }),
    approverIds: z
      .array(UserId)
      .min(1)
      .max(10)
      .meta({ description: 'Active people of the tenant, in approval order, each at most once; an unknown or inactive one is 422.' }),
  })
  .meta({
    id: 'CreateApprovalChainRequest',
    examples: [{ name: 'Policy approval', approverIds: ['usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R', 'usr_01JD3Z9A4D2H8K6M0P3R5T7V9X'] }],
  });

export const approvalChains = resource({
  rail: 'stakeholders',
  path: 'approval-chains',
  name: 'approval_chain',
  label: { one: 'approval chain', many: 'approval chains' },
  idPrefix: 'apc',
  record: ApprovalChain,
  create: {
    body: CreateApprovalChainBody,
    summary: 'Define an approval chain',
    description: 'Defines an ordered list of approvers that governance approvals and policy publishing walk step by step.',
    eventSummary: 'An approval chain was defined.',
  },
});

export const stakeholdersRouter = railRouter('stakeholders', {
  users: stakeholderUsers.routes,
  roles: stakeholderRoles.routes,
  approvalChains: approvalChains.routes,
});

/** Event types the stakeholders rail emits. */
export const stakeholdersEvents: ReturnType<typeof eventType>[] = [
  ...stakeholderUsers.events,
  ...stakeholderRoles.events,
  ...approvalChains.events,
];
