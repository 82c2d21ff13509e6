import type {
  approvalChains,
  RaciChart,
  RaciPerson,
  RaciRow,
  StakeholderAssignment,
  stakeholderAssignments,
  stakeholderRoles,
  stakeholderUsers,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { StakeholderAssignment as AssignmentRow } from '../../generated/prisma/client.ts';
import type { Store } from '../../kit.ts';
import { lockKey } from '../../platform/records.ts';

/** 422 naming the first id of `wanted` that is not among `found`, at `field[index]`. */
function requireKnown(field: string, wanted: readonly string[], found: ReadonlySet<string>, what: string): void {
  const i = wanted.findIndex((id) => !found.has(id));
  if (i >= 0) {
    throw invalid(`${field}[${i}]`, `${what} ${wanted[i]} does not exist in this tenant.`);
  }
}

function requireDistinct(field: string, ids: readonly string[]): void {
  const i = ids.findIndex((id, k) => ids.indexOf(id) !== k);
  if (i >= 0) {
    throw invalid(`${field}[${i}]`, `${ids[i]} is named twice.`);
  }
}

export const userStore: Store<typeof stakeholderUsers> = {
  model: 'stakeholderUser',
  filterWhere: { roleId: (v) => ({ roleIds: { has: v } }) },
  create: async ({ db, who, body }) => {
    const email = body.email.toLowerCase();
    const roleIds = body.roleIds ?? [];
    requireDistinct('roleIds', roleIds);
    const roles = roleIds.length ? await db.stakeholderRole.findMany({ where: { id: { in: roleIds } }, select: { id: true } }) : [];
    requireKnown('roleIds', roleIds, new Set(roles.map((r) => r.id)), 'role');
    return { name: body.name, email, roleIds, status: 'active', createdBy: who.actor };
  },
  // One person per email: checked under a lock on the address, so two registrations at once are one person and a 409.
  prepare: async ({ tx, who, data }) => {
    const email = data.email as string;
    await lockKey(tx, `svc.stakeholders.user:${who.tenantId}:${email}`);
    const taken = await scopeToTenant(tx, who.tenantId).stakeholderUser.findFirst({ where: { email }, select: { id: true } });
    if (taken) {
      throw new ApiError('conflict', `${email} is already registered as ${taken.id}.`, [
        { field: 'email', issue: 'invalid_value', message: 'taken' },
      ]);
    }
  },
  auditData: (u) => ({ name: u.name, email: u.email, roleIds: u.roleIds }),
};

export const roleStore: Store<typeof stakeholderRoles> = {
  model: 'stakeholderRole',
  create: async ({ who, body }) => ({ name: body.name, description: body.description ?? null, createdBy: who.actor }),
  // One role per name (without case): checked under a lock on the name.
  prepare: async ({ tx, who, body }) => {
    await lockKey(tx, `svc.stakeholders.role:${who.tenantId}:${body.name.toLowerCase()}`);
    const existing = await scopeToTenant(tx, who.tenantId).stakeholderRole.findFirst({
      where: { name: { equals: body.name, mode: 'insensitive' } },
      select: { id: true },
    });
    if (existing) {
      throw new ApiError('conflict', `A role named ${body.name} exists: ${existing.id}.`, [
        { field: 'name', issue: 'invalid_value', message: 'taken' },
      ]);
    }
  },
  auditData: (r) => ({ name: r.name }),
};

export const approvalChainStore: Store<typeof approvalChains> = {
  model: 'approvalChain',
  create: async ({ db, who, body }) => {
    requireDistinct('approverIds', body.approverIds);
    const users = await db.stakeholderUser.findMany({ where: { id: { in: body.approverIds }, status: 'active' }, select: { id: true } });
    requireKnown('approverIds', body.approverIds, new Set(users.map((u) => u.id)), 'active person');
    return { name: body.name, approverIds: body.approverIds, createdBy: who.actor };
  },
  auditData: (c) => ({ name: c.name, approverIds: c.approverIds }),
};

// ---------------------------------------------------------------- assignments

type RaciLetter = z.infer<typeof StakeholderAssignment>['raci'];

/**
 * The controls of the tenant's activated frameworks (of `framework` only when given), each with
 * the frameworks it belongs to, in dictionary order.
 */
export async function activatedControls(prisma: Tx, tenantId: string, framework?: string): Promise<Map<string, string[]>> {
  const activations = await scopeToTenant(prisma, tenantId).frameworkActivation.findMany({
    where: framework ? { frameworkId: framework } : {},
    select: { frameworkId: true, versionKey: true },
    orderBy: { frameworkId: 'asc' },
  });
  const out = new Map<string, string[]>();
  if (activations.length === 0) return out;
  const frameworkOf = new Map(activations.map((a) => [a.versionKey, a.frameworkId]));
  const controls = await prisma.frameworkControl.findMany({
    where: { versionKey: { in: [...frameworkOf.keys()] } },
    select: { versionKey: true, id: true },
    orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }],
  });
  for (const c of controls) {
    const list = out.get(c.id) ?? [];
    const f = frameworkOf.get(c.versionKey) as string;
    if (!list.includes(f)) list.push(f);
    out.set(c.id, list);
  }
  return out;
}

/** A person's record, 422 at `field` when absent or (unless allowed) inactive. */
export async function requireActivePerson(db: Tx, field: string, id: string): Promise<{ id: string; name: string; status: string }> {
  const person = await db.stakeholderUser.findFirst({ where: { id }, select: { id: true, name: true, status: true } });
  if (!person) throw invalid(field, `Person ${id} does not exist in this tenant.`);
  if (person.status !== 'active') throw invalid(field, `Person ${id} is ${person.status}.`);
  return person;
}

export const assignmentStore: Store<typeof stakeholderAssignments> = {
  model: 'stakeholderAssignment',
  create: async ({ db, shared, who, body }) => {
    const [role] = await Promise.all([
      db.stakeholderRole.findFirst({ where: { id: body.roleId }, select: { id: true } }),
      requireActivePerson(db, 'personId', body.personId),
    ]);
    if (!role) throw invalid('roleId', `Role ${body.roleId} does not exist in this tenant.`);
    if (body.control !== undefined) {
      const known = await activatedControls(shared, who.tenantId);
      if (!known.has(body.control)) {
        throw invalid('control', `${body.control} is not a control of a framework the tenant has activated.`);
      }
    }
    const systemId = body.systemId ?? null;
    const control = body.control ?? null;
    return { personId: body.personId, roleId: body.roleId, raci: body.raci, systemId, control, status: 'active', createdBy: who.actor };
  },
  // One accountable person per (system, control): checked under a lock on the pair, so two at once are one and a 409.
  prepare: async ({ tx, who, data }) => {
    if (data.raci !== 'accountable') return;
    const systemId = data.systemId as string | null;
    const control = data.control as string | null;
    await lockKey(tx, `svc.stakeholders.accountable:${who.tenantId}:${systemId ?? '*'}:${control ?? '*'}`);
    const held = await scopeToTenant(tx, who.tenantId).stakeholderAssignment.findFirst({
      where: { raci: 'accountable', status: 'active', systemId, control },
      select: { id: true, personId: true },
    });
    if (held) {
      throw new ApiError(
        'conflict',
        `${control ?? 'Every control'} of ${systemId ?? 'every system'} already has an accountable person (${held.personId}, assignment ${held.id}); remove that assignment first.`,
        [{ field: 'raci', issue: 'invalid_value', message: `accountable already assigned: ${held.id}` }],
      );
    }
  },
  auditData: (a) => ({ personId: a.personId, roleId: a.roleId, raci: a.raci, systemId: a.systemId, control: a.control }),
};

// ---------------------------------------------------------------- RACI

type Person = z.infer<typeof RaciPerson>;
type Row = z.infer<typeof RaciRow>;

/** What a RACI computation reads: the active assignments of active people, with names. */
export interface RaciInput {
  assignments: AssignmentRow[];
  names: Map<string, string>;
  roles: Map<string, string>;
  /** Controls of the activated frameworks, with their frameworks. */
  controls: Map<string, string[]>;
  /** Systems named by active assignments, whoever holds them (a system whose people all left is all gaps). */
  systemIds: string[];
}

/** Loads the active assignments (of `systemIds` and of no system, or all), their active people and roles. */
export async function loadRaciInput(
  prisma: Prisma,
  tenantId: string,
  opts: { systemId?: string; framework?: string } = {},
): Promise<RaciInput> {
  const db = scopeToTenant(prisma, tenantId);
  const [assignments, controls] = await Promise.all([
    db.stakeholderAssignment.findMany({
      where: { status: 'active', ...(opts.systemId !== undefined ? { OR: [{ systemId: opts.systemId }, { systemId: null }] } : {}) },
      orderBy: { id: 'asc' },
    }),
    activatedControls(prisma, tenantId, opts.framework),
  ]);
  const personIds = [...new Set(assignments.map((a) => a.personId))];
  const roleIds = [...new Set(assignments.map((a) => a.roleId))];
  const [people, roles] = await Promise.all([
    personIds.length
      ? db.stakeholderUser.findMany({ where: { id: { in: personIds }, status: 'active' }, select: { id: true, name: true } })
      : [],
    roleIds.length ? db.stakeholderRole.findMany({ where: { id: { in: roleIds } }, select: { id: true, name: true } }) : [],
  ]);
  const names = new Map(people.map((p) => [p.id, p.name]));
  return {
    // Inactive people are left out of the chart altogether.
    assignments: assignments.filter((a) => names.has(a.personId)),
    names,
    roles: new Map(roles.map((r) => [r.id, r.name])),
    controls,
    systemIds: [...new Set(assignments.map((a) => a.systemId).filter((s): s is string => s !== null))].sort(),
  };
}

const SCOPE_RANK = { control: 0, control_all_systems: 1, system: 2 } as const;
const byName = (a: Person, b: Person) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.personId < b.personId ? -1 : a.personId > b.personId ? 1 : 0;

/**
 * The RACI rows of one system: one per control named by its assignments (or by assignments of a
 * control across systems) and per activated control. The accountable person is the most specific
 * assignment's; none is a gap, reported as such. `frameworkOnly` keeps only activated controls.
 */
export function computeRaci(
  input: RaciInput,
  systemId: string,
  frameworkOnly = false,
): { data: Row[]; gaps: { control: string; reason: 'no_accountable' }[] } {
  const applicable = input.assignments.filter((a) => a.systemId === systemId || a.systemId === null);
  const controls = new Set(input.controls.keys());
  if (!frameworkOnly) for (const a of applicable) if (a.control !== null) controls.add(a.control);
  const systemWide = applicable.filter((a) => a.control === null);
  const data: Row[] = [];
  for (const control of [...controls].sort()) {
    const people = new Map<string, Person & { raci: RaciLetter }>();
    const here = [...applicable.filter((a) => a.control === control), ...systemWide];
    for (const a of here) {
      const scope = a.control === null ? 'system' : a.systemId === null ? 'control_all_systems' : 'control';
      const p = {
        personId: a.personId,
        name: input.names.get(a.personId) as string,
        roleId: a.roleId,
        roleName: input.roles.get(a.roleId) ?? null,
        assignmentId: a.id,
        scope,
        raci: a.raci as RaciLetter,
      } as const;
      // One entry per person and letter: the most specific assignment.
      const key = `${a.raci}:${a.personId}`;
      const seen = people.get(key);
      if (!seen || SCOPE_RANK[p.scope] < SCOPE_RANK[seen.scope]) people.set(key, p);
    }
    const of = (letter: RaciLetter) => [...people.values()].filter((p) => p.raci === letter).map(({ raci: _raci, ...p }) => p as Person);
    const accountable = of('accountable').sort((a, b) => SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope] || byName(a, b))[0] ?? null;
    data.push({
      control,
      frameworks: input.controls.get(control) ?? [],
      responsible: of('responsible').sort(byName),
      accountable,
      consulted: of('consulted').sort(byName),
      informed: of('informed').sort(byName),
    });
  }
  return { data, gaps: data.filter((r) => r.accountable === null).map((r) => ({ control: r.control, reason: 'no_accountable' as const })) };
}

/** The RACI chart of one AI system, computed from the tenant's assignments and activated frameworks. */
export async function raciChart(
  prisma: Prisma,
  tenantId: string,
  query: { systemId: string; framework?: string | undefined },
): Promise<z.infer<typeof RaciChart>> {
  if (query.framework !== undefined) {
    const active = await scopeToTenant(prisma, tenantId).frameworkActivation.findFirst({
      where: { frameworkId: query.framework },
      select: { id: true },
    });
    if (!active) throw invalid('framework', `The tenant has not activated framework ${query.framework}.`);
  }
  const input = await loadRaciInput(prisma, tenantId, {
    systemId: query.systemId,
    ...(query.framework ? { framework: query.framework } : {}),
  });
  const { data } = computeRaci(input, query.systemId, query.framework !== undefined);
  return data.map((row) => raciItem(query.systemId, row));
}

/** Names of people, in the row's (name) order, as one string; null when there are none. */
const who = (people: readonly Person[]): string | null => (people.length ? people.map((p) => p.name).join(', ') : null);

/** A computed row as the answer's item: who holds each part in words and ids, with the full people beside. */
export function raciItem(systemId: string, row: Row): z.infer<typeof RaciChart>[number] {
  return {
    control: row.control,
    responsible: who(row.responsible),
    accountable: row.accountable ? row.accountable.name : null,
    systemId,
    frameworks: row.frameworks,
    responsibleIds: row.responsible.map((p) => p.personId),
    accountableId: row.accountable ? row.accountable.personId : null,
    consulted: row.consulted.map((p) => p.name),
    informed: row.informed.map((p) => p.name),
    gap: row.accountable ? null : 'no_accountable',
    people: { responsible: row.responsible, accountable: row.accountable, consulted: row.consulted, informed: row.informed },
  };
}
