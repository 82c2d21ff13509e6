import { z } from 'zod';
import { policyOf, post } from '../../platform/declare.ts';
import { railRouter, resource, TransitionBody, under } from '../../platform/resource.ts';
import { ROLES } from '../../platform/tiers.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { prefixedId } from '../../shared/common.ts';
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

const { write } = policyOf('workspace');
/**
 * How a principal's role in a workspace governs its key there: said once, appended to the
 * description of every route on one workspace.
 */
const ROLE_403 =
  "The caller's role in the workspace decides, after the key's own role: its active grant (the grant whose subject is the key's `key_` id, else the email of the active person the key acts for) or, without one, the key's tenant role when that is `owner` or `admin` (they reach every workspace). Reads need any role; changing the workspace or creating a team needs `editor`, `admin` or `owner` (`workspace:write`); giving or revoking roles and archiving need `admin` or `owner` (`workspace:manage`). A grant narrows, never widens, what the key's own role allows. A key with no role in the workspace, or whose role there does not grant the action, is 403 `forbidden` (`details[0].field` `workspace` with issue `not_a_principal`, or `workspace_role` with the permission) and nothing changes.";
const ARCHIVED_409 =
  "When the workspace is archived: 409 `conflict` naming its state, and nothing changes. Another tenant's workspace, or one that does not exist, is 404 `not_found`.";

/** The tenant's workspaces: the rail's own records (`/v1/workspaces/:id`), each with its own policy. */
export const workspaces = resource({
  rail: 'workspace',
  path: '',
  subResource: 'list',
  name: 'workspace',
  label: { one: 'workspace', many: 'workspaces' },
  idPrefix: 'wks',
  record: Workspace,
  statusField: 'status',
  filters: {
    status: z.enum(WORKSPACE_STATUSES).optional().meta({ description: 'Only workspaces in this state (`active` or `archived`).' }),
  },
  notes: {
    list: 'A key whose tenant role is `owner` or `admin` lists every workspace of the tenant; any other key lists only the workspaces it (or the person it acts for) holds an active role in.',
    get: `A workspace comes with its counts of active principals and teams. ${ROLE_403}`,
  },
  create: {
    body: CreateWorkspaceBody,
    summary: 'Create a workspace',
    description:
      'Creates an `active` workspace with the principals given (each user by email, each API key by the `key_` id of an active key of this tenant; a subject named twice is 422), each recorded in the audit trail as `workspace_principal.added` after the workspace. A key whose tenant role is not `owner` or `admin` and that does not name itself among the principals is given the role `owner` in the new workspace (as an `api_key` principal), so that it can reach what it created.',
    eventSummary: 'A workspace was created.',
  },
  transitions: {
    update: {
      from: ['active'],
      method: 'PATCH',
      body: UpdateWorkspaceBody,
      summary: "Change a workspace's name or description",
      description: `Updates the fields given; fields left out keep their value, a null description clears it. The audit event names the changed fields. ${ROLE_403}`,
      eventSummary: "A workspace's name or description changed.",
    },
    archive: {
      from: ['active'],
      to: 'archived',
      summary: 'Archive a workspace',
      description: `Sets \`archivedAt\`. From then on the workspace is read-only: its principals and teams stay readable, every write is 409. ${ROLE_403}`,
      eventSummary: 'A workspace was archived; it takes no more writes.',
    },
  },
});

/** The workspace a team or a principal belongs to: its records are the rail's own (`/v1/workspaces/:id`). */
const IN_WORKSPACE = under(workspaces, { field: 'workspaceId', createIn: ['active'], step: 'workspace' });
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
  ...workspaces.routes,
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
  ...workspaces.events,
  ...workspacePrincipals.events,
  eventType('workspace_principal.revoked', "A principal's role in a workspace was revoked.", WorkspacePrincipal),
  ...workspaceTeams.events,
];
