import type {
  AddWorkspacePrincipalBody,
  Role,
  Workspace,
  WorkspacePrincipal,
  WorkspaceTeam,
  workspacePrincipals,
  workspaces,
  workspaceTeams,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, notFound, stateConflict } from '../../errors.ts';
import type {
  WorkspacePrincipal as WorkspacePrincipalRow,
  Workspace as WorkspaceRow,
  WorkspaceTeam as WorkspaceTeamRow,
} from '../../generated/prisma/client.ts';
import type { TenantPrincipal } from '../../http/context.ts';
import { newId } from '../../ids.ts';
import type { RenderContext, Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { stampsOf } from '../../platform/records.ts';
import { isoOrNull } from '../../platform/render.ts';
import {
  administersAll,
  assertWorkspaceAccess,
  visibleWorkspaces,
  type WorkspaceAction,
  type WorkspaceCaller,
} from '../../platform/workspace-access.ts';

/**
 * The workspace rail: workspaces, the principals (users by email, API keys by id) given a role in
 * each, and teams of those principals. Every write locks the workspace's row first, so it sees the
 * state an archive committed (or makes the archive wait): an archived workspace takes no write,
 * whatever the race. Each write records its change (audit event, event-index row, webhook event)
 * in the same transaction. The role a principal holds in a workspace governs what its key may do
 * with that workspace's records (platform/workspace-access.ts): every route checks it after the
 * workspace is found (404 first), and before its state (409).
 */

type WorkspaceRecord = z.infer<typeof Workspace>;
type PrincipalRecord = z.infer<typeof WorkspacePrincipal>;
type TeamRecord = z.infer<typeof WorkspaceTeam>;

const WORKSPACE = 'svc.workspace.workspace';
const PRINCIPAL = 'svc.workspace.principal';

interface Counts {
  principals: number;
  teams: number;
}

export function renderWorkspace(r: WorkspaceRow, counts: Counts): WorkspaceRecord {
  return {
    object: WORKSPACE,
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status as WorkspaceRecord['status'],
    counts,
    archivedAt: isoOrNull(r.archivedAt),
    ...stampsOf(r),
  };
}

export function renderPrincipal(r: WorkspacePrincipalRow): PrincipalRecord {
  return {
    object: PRINCIPAL,
    id: r.id,
    workspaceId: r.workspaceId,
    kind: r.kind as PrincipalRecord['kind'],
    subject: r.subject,
    displayName: r.displayName,
    role: r.role as Role,
    status: r.status as PrincipalRecord['status'],
    revokedAt: isoOrNull(r.revokedAt),
    ...stampsOf(r),
  };
}

/** A team's members: its principals, in the team's order, with their role in the workspace. */
function membersOf(r: WorkspaceTeamRow, principals: ReadonlyMap<string, WorkspacePrincipalRow>): TeamRecord['members'] {
  return r.memberIds.flatMap((id) => {
    const p = principals.get(id);
    return p
      ? [
          {
            principalId: p.id,
            kind: p.kind as PrincipalRecord['kind'],
            subject: p.subject,
            displayName: p.displayName,
            role: p.role as Role,
          },
        ]
      : [];
  });
}

/** Active principals and teams of each workspace, two grouped counts for a whole page. */
async function countsOf(db: Tx, workspaceIds: string[]): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>(workspaceIds.map((id) => [id, { principals: 0, teams: 0 }]));
  if (workspaceIds.length === 0) return out;
  const [principals, teams] = await Promise.all([
    db.workspacePrincipal.groupBy({
      by: ['workspaceId'],
      where: { workspaceId: { in: workspaceIds }, status: 'active' },
      _count: { _all: true },
    }),
    db.workspaceTeam.groupBy({ by: ['workspaceId'], where: { workspaceId: { in: workspaceIds } }, _count: { _all: true } }),
  ]);
  for (const p of principals) (out.get(p.workspaceId) as Counts).principals = p._count._all;
  for (const t of teams) (out.get(t.workspaceId) as Counts).teams = t._count._all;
  return out;
}

/** The teams' members, read in one query for a page of teams. */
async function principalsOf(db: Tx, teams: readonly WorkspaceTeamRow[]): Promise<Map<string, WorkspacePrincipalRow>> {
  const ids = [...new Set(teams.flatMap((t) => t.memberIds))];
  if (ids.length === 0) return new Map();
  const rows = await db.workspacePrincipal.findMany({ where: { id: { in: ids } } });
  return new Map(rows.map((r) => [r.id, r]));
}

async function findWorkspace(db: Tx, id: string): Promise<WorkspaceRow> {
  const row = await db.workspace.findFirst({ where: { id } });
  if (!row) throw notFound('Workspace', id);
  return row;
}

/**
 * A write to an active workspace: in one transaction, the workspace's row locked first (404 when it
 * is not the tenant's, 403 when the caller's role in it does not grant `action`, 409 naming the
 * state when it is archived; `what` names the refused write),
 * then `write` with the transaction and the client scoped to the tenant.
 */
function inActiveWorkspace<T>(
  prisma: Prisma,
  who: WorkspaceCaller,
  id: string,
  what: string,
  action: WorkspaceAction,
  write: (tx: Tx, db: Tx) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "workspaces" WHERE "tenant_id" = ${who.tenantId} AND "id" = ${id} FOR UPDATE`;
    const db = scopeToTenant(tx, who.tenantId);
    const row = await findWorkspace(db, id);
    await assertWorkspaceAccess(tx, who, id, action);
    if (row.status !== 'active') throw stateConflict('Workspace', id, row.status, what, ['active']);
    return write(tx, db);
  });
}

/** Records the change of a workspace and returns its record. */
const normaliseSubject = (kind: string, subject: string) => (kind === 'user' ? subject.trim().toLowerCase() : subject.trim());

type Grant = z.infer<typeof AddWorkspacePrincipalBody>;

/**
 * The grants of a request, checked against the tenant's data: a subject named twice is 422, and
 * an API key must be an active key of this tenant (another tenant's id reads as unknown).
 */
async function checkGrants(db: Tx, grants: Grant[], field: (i: number) => string): Promise<Grant[]> {
  const normalised = grants.map((g) => ({ ...g, subject: normaliseSubject(g.kind, g.subject) }));
  const issues: { field: string; issue: string; message: string }[] = [];
  const seen = new Set<string>();
  normalised.forEach((g, i) => {
    const k = `${g.kind}:${g.subject}`;
    if (seen.has(k)) issues.push({ field: field(i), issue: 'invalid_value', message: `${g.subject} is named twice` });
    seen.add(k);
  });
  const keyIds = normalised.filter((g) => g.kind === 'api_key').map((g) => g.subject);
  if (keyIds.length > 0) {
    const keys = await db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, revokedAt: true, expiresAt: true } });
    const now = Date.now();
    const usable = new Set(keys.filter((k) => !k.revokedAt && (!k.expiresAt || k.expiresAt.getTime() > now)).map((k) => k.id));
    normalised.forEach((g, i) => {
      if (g.kind === 'api_key' && !usable.has(g.subject)) {
        issues.push({ field: field(i), issue: 'invalid_value', message: `${g.subject} is not an active API key of this tenant` });
      }
    });
  }
  if (issues.length > 0) {
    throw new ApiError('validation_failed', `Some principals cannot be granted: ${issues.map((x) => x.message).join('; ')}.`, issues);
  }
  return normalised;
}

/** The caller as the workspace policy reads it: the actor with its key, tenant role and person. */
const callerOf = (who: Actor, caller: TenantPrincipal): WorkspaceCaller => ({
  ...who,
  keyId: caller.keyId,
  role: caller.role,
  personId: caller.personId,
});

/** What each change of a workspace needs of the caller's role there (a read any role). */
const NEEDS: Readonly<Record<string, WorkspaceAction>> = { get: 'read', update: 'write', archive: 'manage' };

/**
 * Workspaces (the kit): listed as far as the caller reaches them, each got or changed only with a
 * role there that grants it, created with their first principals. The principals' rows are written
 * before the workspace's (its counts show them), their audit events after the workspace's.
 */
export const workspaceStore: Store<typeof workspaces> = {
  model: 'workspace',
  computed: {
    counts: (r: WorkspaceRow, { related }: RenderContext<unknown, Map<string, Counts>>) => related.get(r.id) ?? { principals: 0, teams: 0 },
  },
  related: ({ db, rows }) =>
    countsOf(
      db,
      (rows as readonly WorkspaceRow[]).map((r) => r.id),
    ),
  visible: async ({ tx, who, caller }) => {
    const ids = await visibleWorkspaces(tx, callerOf(who, caller));
    return ids ? { id: { in: ids } } : undefined;
  },
  admit: async ({ tx, who, caller, row, op }) => {
    await assertWorkspaceAccess(tx, callerOf(who, caller), (row as WorkspaceRow).id, NEEDS[op] ?? 'manage');
  },
  create: async ({ who, body }) => ({
    name: body.name,
    description: body.description ?? null,
    status: 'active',
    createdBy: who.actor,
  }),
  prepare: async ({ tx, who, caller, body, id, now }) => {
    if (!caller) throw new Error('a workspace is created by a request, whose caller the policy reads');
    const as = callerOf(who, caller);
    const given = body.principals ?? [];
    // A key that is not a tenant owner or admin reaches only the workspaces it holds a role in: when
    // it creates one without naming itself, it is made the workspace's owner so that it can manage it.
    const selfGrant: Grant[] =
      administersAll(as) || given.some((g) => g.kind === 'api_key' && g.subject.trim() === as.keyId)
        ? []
        : [{ kind: 'api_key', subject: as.keyId, role: 'owner' }];
    const db = scopeToTenant(tx, who.tenantId);
    const grants = await checkGrants(db, [...given, ...selfGrant], (i) => `principals.${i}.subject`);
    const principals: string[] = [];
    for (const g of grants) principals.push((await db.workspacePrincipal.create({ data: principalData(who, id, g, now) })).id);
    return { principals };
  },
  auditData: (w) => ({ name: w.name }),
  afterCreate: async ({ tx, who, prepared }) => {
    const ids = prepared.principals as string[];
    const rows = await scopeToTenant(tx, who.tenantId).workspacePrincipal.findMany({ where: { id: { in: ids } } });
    for (const id of ids) {
      const p = rows.find((r) => r.id === id) as WorkspacePrincipalRow;
      await recordPrincipal(tx, who, 'workspace_principal.added', p, { role: p.role });
    }
  },
  transitions: {
    update: {
      set: (_row, _now, body) => ({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      }),
      auditData: (_record, _row, body) => ({ changed: Object.keys(body).sort() }),
    },
    archive: { set: (_row: WorkspaceRow, now: Date) => ({ archivedAt: now }) },
  },
};

function principalData(who: Actor, workspaceId: string, g: Grant, now: Date) {
  return {
    id: newId('wpr'),
    tenantId: who.tenantId,
    workspaceId,
    kind: g.kind,
    subject: g.subject,
    displayName: g.displayName ?? null,
    role: g.role,
    status: 'active',
    createdBy: who.actor,
    createdAt: now,
    updatedAt: now,
  };
}

function recordPrincipal(tx: Tx, who: Actor, action: string, p: WorkspacePrincipalRow, data: Record<string, unknown>) {
  return recordChange(tx, {
    ...who,
    action,
    resourceType: PRINCIPAL,
    resourceId: p.id,
    data: { workspaceId: p.workspaceId, kind: p.kind, subject: p.subject, ...data },
    resource: renderPrincipal(p),
  });
}

export async function revokePrincipal(
  prisma: Prisma,
  who: WorkspaceCaller,
  workspaceId: string,
  ref: string,
  reason?: string,
): Promise<PrincipalRecord> {
  return inActiveWorkspace(prisma, who, workspaceId, 'revoking a principal', 'manage', async (tx, db) => {
    const byId = /^wpr_/.test(ref);
    const subject = ref.includes('@') ? ref.toLowerCase() : ref;
    const matches = await db.workspacePrincipal.findMany({
      where: byId ? { workspaceId, id: ref } : { workspaceId, subject },
      orderBy: { id: 'desc' },
    });
    const current = matches.find((p) => p.status === 'active') ?? matches[0];
    if (!current) throw new ApiError('not_found', `Principal ${ref} was not found in workspace ${workspaceId}.`);
    if (current.status !== 'active') throw stateConflict('Principal', current.id, current.status, 'revoke', ['active']);
    const now = new Date();
    await db.workspacePrincipal.updateMany({ where: { id: current.id }, data: { status: 'revoked', revokedAt: now, updatedAt: now } });
    // A revoked principal leaves every team of the workspace in the same transaction.
    const teams = await db.workspaceTeam.findMany({ where: { workspaceId, memberIds: { has: current.id } } });
    for (const t of teams) {
      await db.workspaceTeam.updateMany({
        where: { id: t.id },
        data: { memberIds: t.memberIds.filter((m) => m !== current.id), updatedAt: now },
      });
    }
    const row = { ...current, status: 'revoked', revokedAt: now, updatedAt: now };
    await recordPrincipal(tx, who, 'workspace_principal.revoked', row, {
      from: 'active',
      to: 'revoked',
      role: row.role,
      teams: teams.map((t) => t.id),
      ...(reason ? { reason } : {}),
    });
    return renderPrincipal(row);
  });
}

/**
 * The workspace's own policy for its principals and teams: the caller's role in the workspace
 * decides (reads need any role, a team `workspace:write`, a role given `workspace:manage`), on the
 * workspace as read for a list and as locked for a create, before the 409 of an archived one.
 */
function workspacePolicy(create: WorkspaceAction) {
  return {
    model: 'workspace' as const,
    admit: async ({
      tx,
      who,
      caller,
      parent,
      op,
    }: {
      tx: Tx;
      who: Actor;
      caller: TenantPrincipal;
      parent: WorkspaceRow;
      op: 'list' | 'create';
    }) => {
      const as: WorkspaceCaller = { ...who, keyId: caller.keyId, role: caller.role, personId: caller.personId };
      await assertWorkspaceAccess(tx, as, parent.id, op === 'list' ? 'read' : create);
    },
  };
}

/** Principals: a grant is added only while the subject holds no active one in the workspace. */
export const principalStore: Store<typeof workspacePrincipals> = {
  model: 'workspacePrincipal',
  parent: workspacePolicy('manage'),
  create: async ({ db, who, body }) => {
    const [grant] = await checkGrants(db, [body], () => 'subject');
    const g = grant as Grant;
    return { kind: g.kind, subject: g.subject, displayName: g.displayName ?? null, role: g.role, status: 'active', createdBy: who.actor };
  },
  prepare: async ({ tx, who, parent, data }) => {
    const workspaceId = (parent as unknown as WorkspaceRow).id;
    const held = await scopeToTenant(tx, who.tenantId).workspacePrincipal.findFirst({
      where: { workspaceId, kind: data.kind as string, subject: data.subject as string, status: 'active' },
    });
    if (held) {
      throw new ApiError(
        'conflict',
        `${String(data.subject)} already holds the role ${held.role} in workspace ${workspaceId} (${held.id}); revoke it first to change the role.`,
        [{ field: 'subject', issue: 'invalid_value', message: `active principal ${held.id}` }],
      );
    }
  },
  auditData: (p) => ({ workspaceId: p.workspaceId, kind: p.kind, subject: p.subject, role: p.role }),
};

/** Teams: of the workspace's active principals, named once in the workspace. */
export const teamStore: Store<typeof workspaceTeams> = {
  model: 'workspaceTeam',
  parent: workspacePolicy('write'),
  computed: {
    members: (r: WorkspaceTeamRow, { related }: RenderContext<WorkspaceRow, ReadonlyMap<string, WorkspacePrincipalRow>>) =>
      membersOf(r, related),
  },
  related: async ({ db, rows }) => principalsOf(db, rows as readonly WorkspaceTeamRow[]),
  create: async ({ who, body }) => ({ name: body.name, description: body.description ?? null, createdBy: who.actor }),
  prepare: async ({ tx, who, parent, body, data }) => {
    const workspaceId = (parent as unknown as WorkspaceRow).id;
    const db = scopeToTenant(tx, who.tenantId);
    const active = await db.workspacePrincipal.findMany({ where: { workspaceId, status: 'active' } });
    const byRef = new Map<string, WorkspacePrincipalRow>();
    for (const p of active) {
      byRef.set(p.id, p);
      byRef.set(p.subject, p);
    }
    const memberIds: string[] = [];
    const issues: { field: string; issue: string; message: string }[] = [];
    (body.members ?? []).forEach((ref, i) => {
      const p = byRef.get(ref.includes('@') ? ref.toLowerCase() : ref);
      if (!p)
        issues.push({
          field: `members.${i}`,
          issue: 'invalid_value',
          message: `${ref} is not an active principal of workspace ${workspaceId}`,
        });
      else if (!memberIds.includes(p.id)) memberIds.push(p.id);
    });
    if (issues.length > 0) {
      throw new ApiError(
        'validation_failed',
        `Team members must be active principals of the workspace: ${issues.map((x) => x.message).join('; ')}.`,
        issues,
      );
    }
    const taken = await db.workspaceTeam.findFirst({ where: { workspaceId, name: body.name }, select: { id: true } });
    if (taken) {
      throw new ApiError('conflict', `Workspace ${workspaceId} already has a team named "${body.name}" (${taken.id}).`, [
        { field: 'name', issue: 'invalid_value', message: `used by ${taken.id}` },
      ]);
    }
    data.memberIds = memberIds;
  },
  auditData: (t) => ({ workspaceId: t.workspaceId, name: t.name, members: t.members.map((m) => m.principalId) }),
};
