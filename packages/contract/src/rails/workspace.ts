import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, TransitionBody } from '../resource.ts';
import { exampleId, exampleStamps, objectField, stamps } from '../shared/records.ts';
import { ROLES } from '../tiers.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The workspace rail (`/v1/workspaces`, starter tier): workspaces of a tenant, the principals
 * (users by email, API keys by id) given a role in each, and teams of those principals. A
 * workspace is `active` until archived; an archived workspace takes no write (update, new team,
 * new or revoked principal): 409 `conflict` naming its state, and nothing changes.
 *
 * Hand-written rather than kit resources: the workspace collection is the rail's base path itself
 * (the catalogue's `list`, `create`, `update`, `archive`), a workspace carries counts read with it
 * (its active principals and teams), every write first locks the workspace to refuse an archived
 * one, and teams and principals live inside one workspace (`/v1/workspaces/{id}/teams`): a path
 * with a parent id, which a kit resource cannot declare.
 */

claimIdPrefix('wks', 'svc.workspace.workspace');
claimIdPrefix('wpr', 'svc.workspace.principal');
claimIdPrefix('wtm', 'svc.workspace.team');

export const WORKSPACE_STATUSES = ['active', 'archived'] as const;
export const WORKSPACE_PRINCIPAL_KINDS = ['user', 'api_key'] as const;
export const WORKSPACE_PRINCIPAL_STATUSES = ['active', 'revoked'] as const;

const EXAMPLE_WORKSPACE_ID = exampleId('wks');
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
    "Role of the principal in the workspace: `owner`, `admin`, `editor`, `auditor` or `viewer`, the platform's roles (what each may do is in the permission table).",
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

/** A principal named in a path or a member list: its `wpr_` id, or its subject (an email or a `key_` id). */
const PrincipalRef = z
  .string()
  .min(1)
  .max(254)
  .regex(/^[A-Za-z0-9._%+@-]+$/);

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

const WorkspaceParams = z.object({
  id: prefixedId('wks', EXAMPLE_WORKSPACE_ID).meta({ description: 'Id of the workspace (`wks_` prefix).' }),
});
const PrincipalParams = WorkspaceParams.extend({
  principal: PrincipalRef.meta({
    description: 'The principal: its `wpr_` id, or the subject of its active grant (an email address or a `key_` id).',
    examples: ['dana.keller@example.com'],
  }),
});

const read = meta({ auth: 'tenant', rail: 'workspace', permission: 'workspace:read', mutating: false });
const write = (audit: string) => meta({ auth: 'tenant', rail: 'workspace', permission: 'workspace:write', mutating: true, audit });
const ARCHIVED_409 =
  "When the workspace is archived: 409 `conflict` naming its state, and nothing changes. Another tenant's workspace, or one that does not exist, is 404 `not_found`.";

export const workspaceRouter = railRouter('workspace', {
  list: {
    method: 'GET',
    path: '',
    query: PaginationQuery.extend({
      status: z.enum(WORKSPACE_STATUSES).optional().meta({ description: 'Only workspaces in this state (`active` or `archived`).' }),
    }),
    responses: { 200: listOf(Workspace) },
    summary: 'List workspaces',
    description:
      "Returns the tenant's workspaces, newest first, as `{ data, cursor }`: pass `limit` (1 to 200, default 50) and the `cursor` of the previous page; `cursor` is null on the last page. `status` keeps only active or archived workspaces. Needs `workspace:read`.",
    metadata: read,
  },
  create: {
    method: 'POST',
    path: '',
    body: CreateWorkspaceBody,
    responses: { 201: Workspace },
    summary: 'Create a workspace',
    description:
      'Creates an `active` workspace, id `wks_<ULID>`, with the principals given (each user by email, each API key by the `key_` id of an active key of this tenant; a subject named twice is 422). Returns 201. Needs `workspace:write`; recorded in the audit trail as `workspace.created` (and `workspace_principal.added` per principal) in the same transaction, and emitted as the webhook event `workspace.created`. Send an `Idempotency-Key` so that a retry does not create a second workspace.',
    metadata: write('workspace.created'),
  },
  get: {
    method: 'GET',
    path: '/:id',
    pathParams: WorkspaceParams,
    responses: { 200: Workspace },
    summary: 'Get a workspace',
    description:
      'Returns the workspace with this `wks_` id and its counts of active principals and teams. Needs `workspace:read`. A workspace of another tenant, or one that does not exist, is 404 `not_found`.',
    metadata: meta({ ...read, source: { object: 'svc.workspace.workspace' } }),
  },
  update: {
    method: 'PATCH',
    path: '/:id',
    pathParams: WorkspaceParams,
    body: UpdateWorkspaceBody,
    responses: { 200: Workspace },
    summary: "Change a workspace's name or description",
    description: `Updates the fields given; fields left out keep their value, a null description clears it. Needs \`workspace:write\`; audited as \`workspace.updated\` (with the names of the changed fields) and emitted as the webhook event \`workspace.updated\`. ${ARCHIVED_409}`,
    metadata: write('workspace.updated'),
  },
  archive: {
    method: 'POST',
    path: '/:id/archive',
    pathParams: WorkspaceParams,
    body: TransitionBody.optional(),
    responses: { 200: Workspace },
    summary: 'Archive a workspace',
    description:
      "Allowed when the workspace's `status` is `active`; sets it to `archived` (with `archivedAt`) and returns the workspace. From then on the workspace is read-only: its principals and teams stay readable, every write is 409. Archiving an archived workspace: 409 `conflict` naming the state, and nothing changes. Needs `workspace:write`; audited as `workspace.archived` (with the optional `reason`) and emitted as the webhook event `workspace.archived`. Another tenant's workspace is 404 `not_found`.",
    metadata: write('workspace.archived'),
  },
  principals: {
    list: {
      method: 'GET',
      path: '/:id/principals',
      pathParams: WorkspaceParams,
      query: PaginationQuery.extend({
        status: z
          .enum(WORKSPACE_PRINCIPAL_STATUSES)
          .optional()
          .meta({ description: 'Only grants in this state (`active` or `revoked`); both when absent.' }),
        kind: z.enum(WORKSPACE_PRINCIPAL_KINDS).optional().meta({ description: 'Only principals of this kind (`user` or `api_key`).' }),
        role: z.enum(ROLES).optional().meta({ description: 'Only principals with this role in the workspace.' }),
      }),
      responses: { 200: listOf(WorkspacePrincipal) },
      summary: "List a workspace's principals",
      description:
        "Returns the users and API keys given a role in the workspace, revoked grants included unless `status=active`, newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50). Readable when the workspace is archived. Needs `workspace:read`; another tenant's workspace is 404 `not_found`.",
      metadata: meta({ ...read, source: { object: 'svc.workspace.principal', params: { id: 'workspaceId' } } }),
    },
    add: {
      method: 'POST',
      path: '/:id/principals',
      pathParams: WorkspaceParams,
      body: AddWorkspacePrincipalBody,
      responses: { 201: WorkspacePrincipal },
      summary: 'Give a user or an API key a role in a workspace',
      description: `Grants the role to a user (by email) or to an API key (the \`key_\` id of an active key of this tenant; another tenant's key or a revoked one is 422). A subject that already holds an active grant in the workspace is 409 \`conflict\`: revoke it first to change the role. Returns 201 with the principal, id \`wpr_<ULID>\`. Needs \`workspace:write\`; audited as \`workspace_principal.added\` and emitted as the webhook event of that name. ${ARCHIVED_409}`,
      metadata: write('workspace_principal.added'),
    },
    revoke: {
      method: 'POST',
      path: '/:id/principals/:principal/revoke',
      pathParams: PrincipalParams,
      body: TransitionBody.optional(),
      responses: { 200: WorkspacePrincipal },
      summary: 'Remove a principal from a workspace',
      description: `Revokes the principal's active grant, named by its \`wpr_\` id or by its subject (email address or \`key_\` id), and removes it from every team of the workspace; the grant stays listed as \`revoked\`. A grant already revoked is 409 \`conflict\`; an unknown principal 404. Needs \`workspace:write\`; audited as \`workspace_principal.revoked\` (with the optional \`reason\`) and emitted as the webhook event of that name. ${ARCHIVED_409}`,
      metadata: write('workspace_principal.revoked'),
    },
  },
  teams: {
    list: {
      method: 'GET',
      path: '/:id/teams',
      pathParams: WorkspaceParams,
      query: PaginationQuery,
      responses: { 200: listOf(WorkspaceTeam) },
      summary: "List a workspace's teams",
      description:
        "Returns the teams of the workspace with their members, newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50). Readable when the workspace is archived. Needs `workspace:read`; another tenant's workspace is 404 `not_found`.",
      metadata: meta({ ...read, source: { object: 'svc.workspace.team', params: { id: 'workspaceId' } } }),
    },
    create: {
      method: 'POST',
      path: '/:id/teams',
      pathParams: WorkspaceParams,
      body: CreateWorkspaceTeamBody,
      responses: { 201: WorkspaceTeam },
      summary: 'Create a team in a workspace',
      description: `Creates a team of the workspace's active principals (each named by \`wpr_\` id or by subject; one that is not an active principal of this workspace is 422). A name already used by a team of the workspace is 409 \`conflict\`. Returns 201 with the team, id \`wtm_<ULID>\`. Needs \`workspace:write\`; audited as \`workspace_team.created\` and emitted as the webhook event of that name. ${ARCHIVED_409}`,
      metadata: write('workspace_team.created'),
    },
  },
});

/** Event types the workspace rail emits. */
export const workspaceEvents = [
  eventType('workspace.created', 'A workspace was created.', Workspace),
  eventType('workspace.updated', "A workspace's name or description changed.", Workspace),
  eventType('workspace.archived', 'A workspace was archived; it takes no more writes.', Workspace),
  eventType('workspace_principal.added', 'A user or an API key was given a role in a workspace.', WorkspacePrincipal),
  eventType('workspace_principal.revoked', "A principal's role in a workspace was revoked.", WorkspacePrincipal),
  eventType('workspace_team.created', 'A team was created in a workspace.', WorkspaceTeam),
];
