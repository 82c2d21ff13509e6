import { permits, type Role } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { ApiError } from '../errors.ts';
import type { Actor } from './ledger/changes.ts';

/**
 * The policy of a workspace's records (the workspace, its principals, its teams): the role a
 * credential holds in the workspace decides what it may do there, checked with the same role
 * table (`permits`, contract platform/tiers.ts) as the route's own permission.
 *
 * The route policy (http/pipeline.ts) has already admitted the key's tenant role for the route's
 * permission (`workspace:read` or `workspace:write`); this check runs after it, inside the
 * handler's transaction (the grant is read after the workspace's row is locked, so a revocation
 * that committed first is seen). A grant narrows, never widens, what the key's own role allows:
 *
 * - The caller's grant in the workspace is the active principal whose subject is the key's `key_`
 *   id, else the one whose subject is the email of the active person the key acts for.
 * - With a grant, that role decides: `read` needs `workspace:read` (every role), `write` (change
 *   the workspace, create a team) `workspace:write` (editor, admin, owner), `manage` (give or
 *   revoke roles, archive) `workspace:manage` (admin, owner). A tenant owner listed as `viewer`
 *   in a workspace only reads there.
 * - Without a grant, a key whose tenant role is `owner` or `admin` administers every workspace of
 *   its tenant with that role; any other key is refused: it is outside the workspace.
 *
 * A refusal is 403 `forbidden` and changes nothing. Denials are not audited (no refusal of the
 * policy engine is), so none is written here either.
 */

export type WorkspaceAction = 'read' | 'write' | 'manage';

/** Who calls: the request's actor and the facts of its credential the policy reads. */
export interface WorkspaceCaller extends Actor {
  keyId: string;
  role: Role;
  personId: string | null;
}

/** Tenant roles that administer every workspace of their tenant when they hold no grant in it. */
const TENANT_WIDE: readonly Role[] = ['owner', 'admin'];

export function administersAll(caller: WorkspaceCaller): boolean {
  return TENANT_WIDE.includes(caller.role);
}

/** The subjects a caller's grants are held under: its key id and the email of its active person. */
async function subjectsOf(db: Tx, caller: WorkspaceCaller): Promise<{ kind: string; subject: string }[]> {
  const out = [{ kind: 'api_key', subject: caller.keyId }];
  if (caller.personId) {
    const person = await scopeToTenant(db, caller.tenantId).stakeholderUser.findFirst({
      where: { id: caller.personId },
      select: { email: true, status: true },
    });
    if (person && person.status === 'active' && person.email) out.push({ kind: 'user', subject: person.email.trim().toLowerCase() });
  }
  return out;
}

/** The caller's active grants, a page at most of workspaces at a time (all when `workspaceIds` is absent). */
async function grantsOf(db: Tx, caller: WorkspaceCaller, workspaceIds?: string[]) {
  const subjects = await subjectsOf(db, caller);
  return scopeToTenant(db, caller.tenantId).workspacePrincipal.findMany({
    where: {
      status: 'active',
      ...(workspaceIds ? { workspaceId: { in: workspaceIds } } : {}),
      OR: subjects,
    },
    select: { id: true, workspaceId: true, kind: true, role: true },
  });
}

/**
 * The role the caller acts with in the workspace and where it comes from: its grant (the key's
 * own grant before its person's), else its tenant role when that administers every workspace;
 * null when the caller is outside the workspace.
 */
export async function workspaceRoleOf(
  db: Tx,
  caller: WorkspaceCaller,
  workspaceId: string,
): Promise<{ role: Role; grant: string | null } | null> {
  const grants = await grantsOf(db, caller, [workspaceId]);
  const grant = grants.find((g) => g.kind === 'api_key') ?? grants[0];
  if (grant) return { role: grant.role as Role, grant: grant.id };
  return administersAll(caller) ? { role: caller.role, grant: null } : null;
}

/** Refuses (403) an action the caller's role in the workspace does not grant; returns the role. */
export async function assertWorkspaceAccess(db: Tx, caller: WorkspaceCaller, workspaceId: string, action: WorkspaceAction): Promise<Role> {
  const permission = `workspace:${action}`;
  const held = await workspaceRoleOf(db, caller, workspaceId);
  if (!held) {
    throw new ApiError(
      'forbidden',
      `This API key holds no role in workspace ${workspaceId}: a workspace admin or owner must give it (or the person it acts for) a role there; tenant owners and admins reach every workspace.`,
      [{ field: 'workspace', issue: 'not_a_principal', message: `no active grant in ${workspaceId}` }],
    );
  }
  // The key's scopes were checked against the route's permission already; here the role decides.
  if (!permits(held.role, [], permission)) {
    throw new ApiError(
      'forbidden',
      `Permission ${permission} is required in workspace ${workspaceId}: role ${held.role} ${held.grant ? `(grant ${held.grant})` : '(tenant role)'} does not grant it.`,
      [{ field: 'workspace_role', issue: permission, message: `role ${held.role} in ${workspaceId}` }],
    );
  }
  return held.role;
}

/** The workspaces a caller without a tenant-wide role may see: those it holds a grant in; null means all. */
export async function visibleWorkspaces(db: Tx, caller: WorkspaceCaller): Promise<string[] | null> {
  if (administersAll(caller)) return null;
  return [...new Set((await grantsOf(db, caller)).map((g) => g.workspaceId))];
}
