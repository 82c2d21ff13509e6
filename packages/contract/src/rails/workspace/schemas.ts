import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { ROLES } from '../../platform/tiers.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { EXAMPLE_WORKSPACE_ID, PrincipalRef } from './fields.ts';

/** The workspace rail's records, request bodies and their examples (index.ts describes the rail). */

claimIdPrefix('wks', 'svc.workspace.workspace');
claimIdPrefix('wpr', 'svc.workspace.principal');
claimIdPrefix('wtm', 'svc.workspace.team');

export const WORKSPACE_STATUSES = ['active', 'archived'] as const;
export const WORKSPACE_PRINCIPAL_KINDS = ['user', 'api_key'] as const;
export const WORKSPACE_PRINCIPAL_STATUSES = ['active', 'revoked'] as const;

const EXAMPLE_PRINCIPAL_ID = exampleId('wpr');
const EXAMPLE_TEAM_ID = exampleId('wtm');
const API_KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.workspace.team';
/** The example workspace's name and description, as given and as recorded. */
const EXAMPLE_WORKSPACE_NAMING = { name: 'Model risk office', description: 'Credit models under the EU AI Act.' };
/** The example team's name and description, as given and as recorded. */
const EXAMPLE_TEAM_NAMING = { name: 'Model validation', description: 'Independent validation of scoring models.' };

const WorkspaceName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({ description: 'Name of the workspace as shown to people, 1 to 200 characters.', examples: [EXAMPLE_WORKSPACE_NAMING.name] });
const WorkspaceDescription = z
  .string()
  .max(2000)
  .meta({ description: 'What the workspace is for, up to 2,000 characters.', examples: [EXAMPLE_WORKSPACE_NAMING.description] });

const PrincipalRole = z.enum(ROLES).meta({
  description:
    "Role of the principal in the workspace: `owner`, `admin`, `editor`, `auditor` or `viewer`, the platform's roles. It governs what the principal's key may do with the workspace's records: every role reads them; `editor`, `admin` and `owner` change the workspace and create teams; `admin` and `owner` give and revoke roles and archive. A grant narrows, never widens, what the key's own role allows.",
});
const DisplayName = z.string().nullable().meta({ description: 'Name to show for the principal; null when none was given.' });
const PrincipalKind = z.enum(WORKSPACE_PRINCIPAL_KINDS).meta({
  description: '`user`: a person named by email address; `api_key`: an API key of the tenant named by its `key_` id.',
});

/** A grant in a request: who gets which role; the subject's form follows the kind. */
export const WorkspacePrincipalGrant = z
  .strictObject({
    kind: PrincipalKind,
    subject: z.string().trim().min(1).max(254).meta({
      description: "Who: for `user` an email address (stored lowercase), for `api_key` the key's `key_` id (an active key of this tenant).",
    }),
    role: PrincipalRole,
    displayName: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Name to show for the principal (a person's full name)." }),
  })
  .superRefine((g, ctx) => {
    if (g.kind === 'user' && !z.email().safeParse(g.subject).success) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'a user principal is named by an email address' });
    }
    if (g.kind === 'api_key' && !API_KEY_ID.test(g.subject)) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'an api_key principal is named by its key_ id' });
    }
  });

export const Workspace = z
  .object({
    object: objectField('svc.workspace.workspace', OBJECT_EXAMPLE),
    id: prefixedId('wks', EXAMPLE_WORKSPACE_ID),
    name: z.string().meta({ description: 'Name of the workspace as shown to people.' }),
    description: z.string().nullable().meta({ description: 'What the workspace is for; null when none was given.' }),
    status: z.enum(WORKSPACE_STATUSES).meta({
      description: '`active`, or `archived` after `POST /v1/workspaces/{id}/archive`: an archived workspace is read-only.',
    }),
    counts: z
      .object({
        principals: z.int().meta({ description: 'Active principals of the workspace (revoked ones are not counted).' }),
        teams: z.int().meta({ description: 'Teams of the workspace.' }),
      })
      .meta({ description: 'How many active principals and teams the workspace has, counted when the record is read.' }),
    archivedAt: Timestamp.nullable().meta({ description: 'When the workspace was archived (ISO 8601 UTC); null while active.' }),
    ...stamps(),
  })
  .meta({
    id: 'Workspace',
    examples: [
      {
        object: 'svc.workspace.workspace',
        id: EXAMPLE_WORKSPACE_ID,
        ...EXAMPLE_WORKSPACE_NAMING,
        status: 'active',
        counts: { principals: 1, teams: 0 },
        archivedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateWorkspaceBody = z
  .strictObject({
    name: WorkspaceName,
    description: WorkspaceDescription.optional(),
    principals: z.array(WorkspacePrincipalGrant).max(100).optional().meta({
      description: 'Principals to grant a role in the new workspace at once (at most 100, one per subject); more can be added later.',
    }),
  })
  .meta({
    id: 'CreateWorkspaceRequest',
    examples: [
      {
        ...EXAMPLE_WORKSPACE_NAMING,
        principals: [{ kind: 'user', subject: 'dana.keller@example.com', role: 'admin', displayName: 'Dana Keller' }],
      },
    ],
  });

export const UpdateWorkspaceBody = z
  .strictObject({
    name: WorkspaceName.optional(),
    description: WorkspaceDescription.nullable()
      .optional()
      .meta({ description: 'New description, up to 2,000 characters; null clears it, absent keeps it.' }),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'name at least one field to change' })
  .meta({ id: 'UpdateWorkspaceRequest', examples: [{ name: 'Model risk and validation office' }] });

export const WorkspacePrincipal = z
  .object({
    object: objectField('svc.workspace.principal', OBJECT_EXAMPLE),
    id: prefixedId('wpr', EXAMPLE_PRINCIPAL_ID),
    workspaceId: z.string().meta({ description: 'Id of the workspace (`wks_`) the grant belongs to.' }),
    kind: PrincipalKind,
    subject: z.string().meta({ description: 'Who: a lowercase email address for `user`, a `key_` id for `api_key`.' }),
    displayName: DisplayName,
    role: PrincipalRole,
    status: z.enum(WORKSPACE_PRINCIPAL_STATUSES).meta({
      description: '`active`, or `revoked` once removed from the workspace (the grant is kept as history, and leaves every team).',
    }),
    revokedAt: Timestamp.nullable().meta({ description: 'When the grant was revoked (ISO 8601 UTC); null while active.' }),
    ...stamps(),
  })
  .meta({
    id: 'WorkspacePrincipal',
    examples: [
      {
        object: 'svc.workspace.principal',
        id: EXAMPLE_PRINCIPAL_ID,
        workspaceId: EXAMPLE_WORKSPACE_ID,
        kind: 'user',
        subject: 'sam.ortiz@example.com',
        displayName: 'Sam Ortiz',
        role: 'editor',
        status: 'active',
        revokedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const AddWorkspacePrincipalBody = WorkspacePrincipalGrant.meta({
  id: 'AddWorkspacePrincipalRequest',
  examples: [{ kind: 'user', subject: 'sam.ortiz@example.com', role: 'editor', displayName: 'Sam Ortiz' }],
});

export const WorkspaceTeamMember = z
  .object({
    principalId: z.string().meta({ description: 'Id of the principal (`wpr_`), an active principal of the workspace.' }),
    kind: PrincipalKind,
    subject: z.string().meta({ description: 'Email address (`user`) or `key_` id (`api_key`) of the principal.' }),
    displayName: DisplayName,
    role: PrincipalRole,
  })
  .meta({ description: "A member of the team: one of the workspace's active principals, with its role in the workspace." });

export const WorkspaceTeam = z
  .object({
    object: objectField('svc.workspace.team', OBJECT_EXAMPLE),
    id: prefixedId('wtm', EXAMPLE_TEAM_ID),
    workspaceId: z.string().meta({ description: 'Id of the workspace (`wks_`) the team belongs to.' }),
    name: z.string().meta({ description: 'Name of the team, unique in its workspace.' }),
    description: z.string().nullable().meta({ description: 'What the team does; null when none was given.' }),
    members: z.array(WorkspaceTeamMember).meta({
      description: 'Members, in the order they were given; a principal revoked from the workspace leaves the team.',
    }),
    ...stamps(),
  })
  .meta({
    id: 'WorkspaceTeam',
    examples: [
      {
        object: 'svc.workspace.team',
        id: EXAMPLE_TEAM_ID,
        workspaceId: EXAMPLE_WORKSPACE_ID,
        ...EXAMPLE_TEAM_NAMING,
        members: [
          {
            principalId: EXAMPLE_PRINCIPAL_ID,
            kind: 'user',
            subject: 'dana.keller@example.com',
            displayName: 'Dana Keller',
            role: 'admin',
          },
        ],
        ...exampleStamps(),
      },
    ],
  });

export const CreateWorkspaceTeamBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).meta({ description: 'Name of the team, 1 to 200 characters, unique in its workspace.' }),
    description: z.string().max(2000).optional().meta({ description: 'What the team does, up to 2,000 characters.' }),
    members: z
      .array(
        PrincipalRef.meta({
          description: 'An active principal of the workspace: its `wpr_` id, or its subject (email address or `key_` id).',
        }),
      )
      .max(200)
      .optional()
      .meta({ description: 'Members of the team (at most 200), each an active principal of the workspace; none when absent.' }),
  })
  .meta({
    id: 'CreateWorkspaceTeamRequest',
    examples: [{ ...EXAMPLE_TEAM_NAMING, members: ['dana.keller@example.com'] }],
  });
