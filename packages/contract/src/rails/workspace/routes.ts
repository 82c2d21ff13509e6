import { z } from 'zod';
import { get, patch, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource, TransitionBody } from '../../platform/resource.ts';
import { ROLES } from '../../platform/tiers.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery, prefixedId } from '../../shared/common.ts';
import { EXAMPLE_WORKSPACE_ID, PrincipalRef } from './fields.ts';
import {
  AddWorkspacePrincipalBody,
  CreateWorkspaceBody,
  CreateWorkspaceTeamBody,
  UpdateWorkspaceBody,
  WORKSPACE_PRINCIPAL_KINDS,
  WORKSPACE_PRINCIPAL_STATUSES,
  WORKSPACE_STATUSES,
  Workspace,
  WorkspacePrincipal,
  WorkspaceTeam,
} from './schemas.ts';

/** The workspace rail's resources and hand-declared routes, its router and the event types it emits. */

const WorkspaceParams = z.object({
  id: prefixedId('wks', EXAMPLE_WORKSPACE_ID).meta({ description: 'Id of the workspace (`wks_` prefix).' }),
});
const PrincipalParams = WorkspaceParams.extend({
  principal: PrincipalRef.meta({
    description: 'The principal: its `wpr_` id, or the subject of its active grant (an email address or a `key_` id).',
    examples: ['dana.keller@example.com'],
  }),
});

const { read, write } = policyOf('workspace');
const ByWorkspace = { pathParams: WorkspaceParams };
/**
 * How a principal's role in a workspace governs its key there: said once, appended to the
 * description of every route on one workspace.
 */
const ROLE_403 =
  "The caller's role in the workspace decides, after the key's own role: its active grant (the grant whose subject is the key's `key_` id, else the email of the active person the key acts for) or, without one, the key's tenant role when that is `owner` or `admin` (they reach every workspace). Reads need any role; changing the workspace or creating a team needs `editor`, `admin` or `owner` (`workspace:write`); giving or revoking roles and archiving need `admin` or `owner` (`workspace:manage`). A grant narrows, never widens, what the key's own role allows. A key with no role in the workspace, or whose role there does not grant the action, is 403 `forbidden` (`details[0].field` `workspace` with issue `not_a_principal`, or `workspace_role` with the permission) and nothing changes.";
const ARCHIVED_409 =
  "When the workspace is archived: 409 `conflict` naming its state, and nothing changes. Another tenant's workspace, or one that does not exist, is 404 `not_found`.";

/** The workspace a team or a principal belongs to: its records are the rail's own (`/v1/workspaces/:id`). */
const IN_WORKSPACE = {
  path: '',
  idPrefix: 'wks',
  label: 'workspace',
  field: 'workspaceId',
  createIn: { field: 'status', states: ['active'] },
  step: 'workspace',
} as const;
const WORKSPACE_SETUP = [
  {
    method: 'POST',
    path: '/v1/workspaces',
    body: {
      name: 'Model risk office {{unique}}',
      principals: [{ kind: 'user', subject: 'dana.keller@example.com', role: 'admin', displayName: 'Dana Keller' }],
    },
    as: 'workspace',
  },
] as const;

/** The principals of a workspace: users and API keys given a role in it. */
export const workspacePrincipals = resource({
  rail: 'workspace',
  path: 'principals',
  parent: IN_WORKSPACE,
  name: 'principal',
  label: { one: 'principal', many: 'principals' },
  idPrefix: 'wpr',
  record: WorkspacePrincipal,
  get: false,
  filters: {
    status: z
      .enum(WORKSPACE_PRINCIPAL_STATUSES)
      .optional()
      .meta({ description: 'Only grants in this state (`active` or `revoked`); both when absent.' }),
    kind: z.enum(WORKSPACE_PRINCIPAL_KINDS).optional().meta({ description: 'Only principals of this kind (`user` or `api_key`).' }),
    role: z.enum(ROLES).optional().meta({ description: 'Only principals with this role in the workspace.' }),
  },
  notes: {
    list: `The users and API keys given a role in the workspace, revoked grants included unless \`status=active\`. Readable when the workspace is archived. ${ROLE_403}`,
  },
  create: {
    body: AddWorkspacePrincipalBody,
    action: 'workspace_principal.added',
    summary: 'Give a user or an API key a role in a workspace',
    description: `Grants the role to a user (by email) or to an API key (the \`key_\` id of an active key of this tenant; another tenant's key or a revoked one is 422). A subject that already holds an active grant in the workspace is 409 \`conflict\`: revoke it first to change the role. ${ROLE_403}`,
    eventSummary: 'A user or an API key was given a role in a workspace.',
    fixture: { kind: 'user', subject: 'sam.{{unique}}@example.com', role: 'editor', displayName: 'Sam Ortiz' },
  },
  setup: WORKSPACE_SETUP,
});

/** The teams of a workspace: named groups of its active principals. */
export const workspaceTeams = resource({
  rail: 'workspace',
  path: 'teams',
  parent: IN_WORKSPACE,
  name: 'team',
  label: { one: 'team', many: 'teams' },
  idPrefix: 'wtm',
  record: WorkspaceTeam,
  get: false,
  notes: { list: `The teams of the workspace with their members. Readable when the workspace is archived. ${ROLE_403}` },
  create: {
    body: CreateWorkspaceTeamBody,
    action: 'workspace_team.created',
    summary: 'Create a team in a workspace',
    description: `Creates a team of the workspace's active principals (each named by \`wpr_\` id or by subject; one that is not an active principal of this workspace is 422). A name already used by a team of the workspace is 409 \`conflict\`. ${ROLE_403}`,
    eventSummary: 'A team was created in a workspace.',
    fixture: { name: 'Model validation {{unique}}', members: ['dana.keller@example.com'] },
  },
  setup: WORKSPACE_SETUP,
});

export const workspaceRouter = railRouter('workspace', {
  list: get(
    '',
    {
      query: PaginationQuery.extend({
        status: z.enum(WORKSPACE_STATUSES).optional().meta({ description: 'Only workspaces in this state (`active` or `archived`).' }),
      }),
    },
    listOf(Workspace),
    read,
  ).doc(
    'List workspaces',
    "Returns the tenant's workspaces, newest first, as `{ data, cursor }`: pass `limit` (1 to 200, default 50) and the `cursor` of the previous page; `cursor` is null on the last page. `status` keeps only active or archived workspaces. Needs `workspace:read`. A key whose tenant role is `owner` or `admin` lists every workspace of the tenant; any other key lists only the workspaces it (or the person it acts for) holds an active role in.",
  ),
  create: post('', { body: CreateWorkspaceBody }, { 201: Workspace }, write('workspace.created')).doc(
    'Create a workspace',
    'Creates an `active` workspace, id `wks_<ULID>`, with the principals given (each user by email, each API key by the `key_` id of an active key of this tenant; a subject named twice is 422). Returns 201. Needs `workspace:write`; recorded in the audit trail as `workspace.created` (and `workspace_principal.added` per principal) in the same transaction, and emitted as the webhook event `workspace.created`. A key whose tenant role is not `owner` or `admin` and that does not name itself among the principals is given the role `owner` in the new workspace (as an `api_key` principal), so that it can reach what it created. Send an `Idempotency-Key` so that a retry does not create a second workspace.',
  ),
  get: get('/:id', ByWorkspace, Workspace, meta({ ...read, source: { object: 'svc.workspace.workspace' } })).doc(
    'Get a workspace',
    'Returns the workspace with this `wks_` id and its counts of active principals and teams. Needs `workspace:read`. A workspace of another tenant, or one that does not exist, is 404 `not_found`. ' +
      ROLE_403,
  ),
  update: patch('/:id', { ...ByWorkspace, body: UpdateWorkspaceBody }, Workspace, write('workspace.updated')).doc(
    "Change a workspace's name or description",
    `Updates the fields given; fields left out keep their value, a null description clears it. Needs \`workspace:write\`; audited as \`workspace.updated\` (with the names of the changed fields) and emitted as the webhook event \`workspace.updated\`. ${ROLE_403} ${ARCHIVED_409}`,
  ),
  archive: post('/:id/archive', { ...ByWorkspace, body: TransitionBody.optional() }, Workspace, write('workspace.archived')).doc(
    'Archive a workspace',
    "Allowed when the workspace's `status` is `active`; sets it to `archived` (with `archivedAt`) and returns the workspace. From then on the workspace is read-only: its principals and teams stay readable, every write is 409. Archiving an archived workspace: 409 `conflict` naming the state, and nothing changes. Needs `workspace:write`; audited as `workspace.archived` (with the optional `reason`) and emitted as the webhook event `workspace.archived`. Another tenant's workspace is 404 `not_found`. " +
      ROLE_403,
  ),
  principals: {
    list: workspacePrincipals.routes.list,
    add: workspacePrincipals.routes.create,
    revoke: post(
      '/:id/principals/:principal/revoke',
      { pathParams: PrincipalParams, body: TransitionBody.optional() },
      WorkspacePrincipal,
      write('workspace_principal.revoked'),
    ).doc(
      'Remove a principal from a workspace',
      `Revokes the principal's active grant, named by its \`wpr_\` id or by its subject (email address or \`key_\` id), and removes it from every team of the workspace; the grant stays listed as \`revoked\`. A grant already revoked is 409 \`conflict\`; an unknown principal 404. Needs \`workspace:write\`; audited as \`workspace_principal.revoked\` (with the optional \`reason\`) and emitted as the webhook event of that name. ${ROLE_403} ${ARCHIVED_409}`,
    ),
  },
  teams: { list: workspaceTeams.routes.list, create: workspaceTeams.routes.create },
});

/** Event types the workspace rail emits. */
export const workspaceEvents = [
  eventType('workspace.created', 'A workspace was created.', Workspace),
  eventType('workspace.updated', "A workspace's name or description changed.", Workspace),
  eventType('workspace.archived', 'A workspace was archived; it takes no more writes.', Workspace),
  ...workspacePrincipals.events,
  eventType('workspace_principal.revoked', "A principal's role in a workspace was revoked.", WorkspacePrincipal),
  ...workspaceTeams.events,
];
