import { z } from 'zod';
import { EXAMPLE_OTHER_USER, EXAMPLE_USER, prefixedId, UserId } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField, stamps } from '../../shared/records.ts';
import { ControlId, EXAMPLE_ROLE, RoleId, SystemRef } from './fields.ts';

/** The stakeholders rail's records, request bodies and their examples (index.ts describes the rail). */

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.stakeholders.user';
const EXAMPLE_ASSIGNMENT = exampleId('asg');
/** The example stamps of a record that is created and never changes. */
const EXAMPLE_CREATED = { createdBy: EXAMPLE_KEY, createdAt: EXAMPLE_AT };

export const RACI_LETTERS = ['responsible', 'accountable', 'consulted', 'informed'] as const;
export const RaciLetter = z.enum(RACI_LETTERS).meta({
  description:
    '`responsible` (does the work), `accountable` (answers for it; one per control), `consulted` (asked before) or `informed` (told after).',
});

// ---------------------------------------------------------------- users

/** The example person, as added and as recorded. */
const PERSON_EXAMPLE = { name: 'Ines Duarte', email: 'ines.duarte@example.com', roleIds: [EXAMPLE_ROLE] };

export const StakeholderUser = z
  .object({
    object: objectField('svc.stakeholders.user', OBJECT_EXAMPLE),
    id: UserId,
    name: z.string().meta({ description: 'Full name of the person.' }),
    email: z.string().meta({ description: 'Work email address, lowercased.' }),
    roleIds: z.array(RoleId).meta({ description: 'Ids of the organisational roles the person holds.' }),
    status: z
      .enum(['active', 'inactive'])
      .meta({ description: '`active`, or `inactive` once deactivated: an inactive person is left out of coverage and approvals.' }),
    ...created(),
  })
  .meta({
    id: 'StakeholderUser',
    examples: [
      {
        object: 'svc.stakeholders.user',
        id: EXAMPLE_USER,
        ...PERSON_EXAMPLE,
        status: 'active',
        ...EXAMPLE_CREATED,
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
  .meta({ id: 'CreateStakeholderUserRequest', examples: [PERSON_EXAMPLE] });

// ---------------------------------------------------------------- roles

/** The example role, as defined and as recorded. */
const ROLE_EXAMPLE = { name: 'Data protection officer', description: 'Monitors compliance with GDPR (Art. 39).' };

export const StakeholderRole = z
  .object({
    object: objectField('svc.stakeholders.role', OBJECT_EXAMPLE),
    id: RoleId,
    name: z.string().meta({ description: 'Name of the role, unique within the tenant (`DPO`, `CISO`, `ML engineer`).' }),
    description: z.string().nullable().meta({ description: 'What the role is responsible for; null when not given.' }),
    ...created(),
  })
  .meta({
    id: 'StakeholderRole',
    examples: [
      {
        object: 'svc.stakeholders.role',
        id: EXAMPLE_ROLE,
        ...ROLE_EXAMPLE,
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateStakeholderRoleBody = z
  .strictObject({
    name: z.string().min(1).max(120).meta({ description: 'Name of the role, unique within the tenant (case-insensitive).' }),
    description: z.string().min(1).max(2000).optional().meta({ description: 'What the role is responsible for.' }),
  })
  .meta({ id: 'CreateStakeholderRoleRequest', examples: [ROLE_EXAMPLE] });

// ---------------------------------------------------------------- approval chains

/** The example chain, as defined and as recorded. */
const CHAIN_EXAMPLE = { name: 'Policy approval', approverIds: [EXAMPLE_USER, EXAMPLE_OTHER_USER] };

export const ApprovalChain = z
  .object({
    object: objectField('svc.stakeholders.approval_chain', OBJECT_EXAMPLE),
    id: prefixedId('apc', exampleId('apc')),
    name: z.string().meta({ description: 'Name of the chain (`Policy approval`).' }),
    approverIds: z
      .array(UserId)
      .meta({ description: 'The approvers in order: step 1 is approved by the first, and so on. Each is a person of the tenant.' }),
    ...created(),
  })
  .meta({
    id: 'ApprovalChain',
    examples: [
      {
        object: 'svc.stakeholders.approval_chain',
        id: exampleId('apc'),
        ...CHAIN_EXAMPLE,
        ...EXAMPLE_CREATED,
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
  .meta({ id: 'CreateApprovalChainRequest', examples: [CHAIN_EXAMPLE] });

// ---------------------------------------------------------------- assignments

const AssignmentId = prefixedId('asg', EXAMPLE_ASSIGNMENT);
/** The example assignment, as requested and as recorded: the person accountable for a control of the credit-scoring system. */
const ASSIGNMENT_EXAMPLE = {
  personId: EXAMPLE_USER,
  roleId: EXAMPLE_ROLE,
  raci: 'accountable',
  systemId: 'sys_credit_scoring_v2',
  control: 'AIA-RMS-01',
};

export const StakeholderAssignment = z
  .object({
    object: objectField('svc.stakeholders.assignment', OBJECT_EXAMPLE),
    id: AssignmentId,
    personId: UserId.meta({ description: 'The person assigned.' }),
    roleId: RoleId.meta({ description: 'The organisational role in which the person holds the assignment.' }),
    raci: RaciLetter,
    systemId: z.string().nullable().meta({ description: 'The AI system the assignment is for; null for the control across every system.' }),
    control: z.string().nullable().meta({ description: 'The control the assignment is for; null for every control of the system.' }),
    status: z
      .enum(['active', 'removed'])
      .meta({ description: '`active`, or `removed` once taken off the chart (kept for the record; no longer counted).' }),
    ...stamps('When the assignment last changed (ISO 8601 UTC); equals `createdAt` until removed.'),
  })
  .meta({
    id: 'StakeholderAssignment',
    examples: [
      {
        object: 'svc.stakeholders.assignment',
        id: EXAMPLE_ASSIGNMENT,
        ...ASSIGNMENT_EXAMPLE,
        status: 'active',
        ...EXAMPLE_CREATED,
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateStakeholderAssignmentBody = z
  .strictObject({
    personId: UserId.meta({ description: 'An active person of the tenant; unknown or inactive: 422.' }),
    roleId: RoleId.meta({ description: 'A role of the tenant the assignment is held in; unknown: 422.' }),
    raci: RaciLetter,
    systemId: SystemRef.optional().meta({
      description: 'The AI system; absent for a control across every system. At least one of `systemId` and `control`.',
    }),
    control: ControlId.optional().meta({
      description:
        'A control of a framework the tenant has activated (unknown: 422); absent for every control of the system. At least one of `systemId` and `control`.',
    }),
  })
  .refine((b) => b.systemId !== undefined || b.control !== undefined, {
    path: ['systemId'],
    message: 'give systemId, control or both',
  })
  .meta({
    id: 'CreateStakeholderAssignmentRequest',
    examples: [ASSIGNMENT_EXAMPLE],
  });

// ---------------------------------------------------------------- RACI

export const RaciPerson = z
  .object({
    personId: z.string().meta({ description: 'Id of the person (`usr_...`).' }),
    name: z.string().meta({ description: 'Full name of the person.' }),
    roleId: z.string().meta({ description: 'The role the assignment is held in.' }),
    roleName: z.string().nullable().meta({ description: 'Name of that role; null when the role no longer exists.' }),
    assignmentId: z.string().meta({ description: 'The assignment this comes from (`asg_...`).' }),
    scope: z.enum(['control', 'control_all_systems', 'system']).meta({
      description:
        'Where the assignment applies: `control` (this control of this system), `control_all_systems` (this control everywhere) or `system` (every control of this system).',
    }),
  })
  .meta({ description: 'A person on a RACI row, with the assignment it comes from.' });

export const RaciRow = z
  .object({
    control: z.string().meta({ description: 'Id of the control.' }),
    frameworks: z
      .array(z.string())
      .meta({ description: 'Activated frameworks the control belongs to (`eu-ai-act`); empty when it is of none (assigned only).' }),
    responsible: z.array(RaciPerson).meta({ description: 'People responsible, by name.' }),
    accountable: RaciPerson.nullable().meta({
      description:
        'The one person accountable: a control-specific assignment of the system first, then one for the control across systems, then a system-wide one. Null when none: a gap, never filled in.',
    }),
    consulted: z.array(RaciPerson).meta({ description: 'People consulted, by name.' }),
    informed: z.array(RaciPerson).meta({ description: 'People informed, by name.' }),
  })
  .meta({ id: 'RaciRow', description: 'The RACI parts of one control, computed from the active assignments of active people.' });

export const RaciGap = z.object({
  control: z.string().meta({ description: 'Id of the control that has no accountable person.' }),
  reason: z
    .literal('no_accountable')
    .meta({ description: '`no_accountable`: no active assignment of an active person makes anyone accountable for it.' }),
});

const RACI_PERSON_EXAMPLE = {
  personId: EXAMPLE_USER,
  name: PERSON_EXAMPLE.name,
  roleId: EXAMPLE_ROLE,
  roleName: ROLE_EXAMPLE.name,
  assignmentId: EXAMPLE_ASSIGNMENT,
  scope: 'control',
} as const;

/** Who holds a part, in words: the names, in name order, joined by `, `; null when nobody does. */
const Who = (part: string) =>
  z
    .string()
    .nullable()
    .meta({
      description: `Who is ${part}: the person's full name (several names in name order, joined by \`, \`); null when nobody is.`,
    });

/**
 * One item of the RACI answer: a control with who is responsible and accountable as strings (the
 * specification's fields), and beside them the ids, the other two parts and the full people.
 */
export const RaciItem = z
  .object({
    control: z.string().meta({ description: 'Id of the control.' }),
    responsible: Who('responsible'),
    accountable: z.string().nullable().meta({
      description:
        "Who is accountable: the one person's full name, chosen by precedence (a control-specific assignment of the system, then one for the control across systems, then a system-wide one). Null when none: a gap (`gap: 'no_accountable'`), never filled in.",
    }),
    systemId: z.string().meta({ description: 'The AI system the row is for (the `systemId` asked for).' }),
    frameworks: z
      .array(z.string())
      .meta({ description: 'Activated frameworks the control belongs to (`eu-ai-act`); empty when it is of none (assigned only).' }),
    responsibleIds: z.array(z.string()).meta({ description: 'Ids of the people responsible (`usr_...`), in the order of `responsible`.' }),
    accountableId: z.string().nullable().meta({ description: 'Id of the person accountable; null when none.' }),
    consulted: z.array(z.string()).meta({ description: 'Full names of the people consulted, in name order.' }),
    informed: z.array(z.string()).meta({ description: 'Full names of the people informed, in name order.' }),
    gap: z
      .literal('no_accountable')
      .nullable()
      .meta({ description: '`no_accountable` when no active assignment of an active person makes anyone accountable; null otherwise.' }),
    people: RaciRow.pick({ responsible: true, accountable: true, consulted: true, informed: true }).meta({
      description: 'The four parts with each person in full: id, name, the role and the assignment it comes from, and its scope.',
    }),
  })
  .meta({
    id: 'RaciItem',
    description: 'The RACI parts of one control of the system, computed from the active assignments of active people.',
  });

export const RaciChart = z.array(RaciItem).meta({
  id: 'RaciChart',
  description:
    "The RACI rows of the system, one per control, by control id: the controls named by the system's assignments (and by assignments for a control across systems), and every control of the tenant's activated frameworks.",
  examples: [
    [
      {
        control: 'AIA-RMS-01',
        responsible: null,
        accountable: PERSON_EXAMPLE.name,
        systemId: 'sys_credit_scoring_v2',
        frameworks: ['eu-ai-act'],
        responsibleIds: [],
        accountableId: EXAMPLE_USER,
        consulted: [],
        informed: [],
        gap: null,
        people: { responsible: [], accountable: RACI_PERSON_EXAMPLE, consulted: [], informed: [] },
      },
      {
        control: 'AIA-RMS-02',
        responsible: null,
        accountable: null,
        systemId: 'sys_credit_scoring_v2',
        frameworks: ['eu-ai-act'],
        responsibleIds: [],
        accountableId: null,
        consulted: [],
        informed: [],
        gap: 'no_accountable',
        people: { responsible: [], accountable: null, consulted: [], informed: [] },
      },
    ],
  ],
});

export const RaciQuery = z.object({
  systemId: SystemRef.meta({ description: 'The AI system to chart (required).' }),
  framework: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
    .optional()
    .meta({ description: 'Only the controls of this activated framework (and the controls assigned that belong to it).' }),
});
