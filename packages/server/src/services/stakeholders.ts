import type { ApprovalChain, approvalChains, StakeholderRole, StakeholderUser, stakeholderRoles, stakeholderUsers } from '@svc/contract';
import type { z } from 'zod';
import { ApiError } from '../errors.ts';
import type { Store } from '../kit.ts';

const iso = (d: Date) => d.toISOString();

interface UserRow {
  id: string;
  name: string;
  email: string;
  roleIds: string[];
  status: string;
  createdBy: string;
  createdAt: Date;
}

interface RoleRow {
  id: string;
  name: string;
  description: string | null;
  createdBy: string;
  createdAt: Date;
}

interface ChainRow {
  id: string;
  name: string;
  approverIds: string[];
  createdBy: string;
  createdAt: Date;
}

export const renderUser = (r: UserRow): z.infer<typeof StakeholderUser> => ({
  object: 'svc.stakeholders.user',
  id: r.id,
  name: r.name,
  email: r.email,
  roleIds: r.roleIds,
  status: r.status as 'active' | 'inactive',
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

export const renderRole = (r: RoleRow): z.infer<typeof StakeholderRole> => ({
  object: 'svc.stakeholders.role',
  id: r.id,
  name: r.name,
  description: r.description,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

export const renderApprovalChain = (r: ChainRow): z.infer<typeof ApprovalChain> => ({
  object: 'svc.stakeholders.approval_chain',
  id: r.id,
  name: r.name,
  approverIds: r.approverIds,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

/** 422 naming the first id of `wanted` that is not among `found`, at `field[index]`. */
function requireKnown(field: string, wanted: readonly string[], found: ReadonlySet<string>, what: string): void {
  const i = wanted.findIndex((id) => !found.has(id));
  if (i >= 0) {
    throw new ApiError('validation_failed', `${what} ${wanted[i]} does not exist in this tenant.`, [
      { field: `${field}[${i}]`, issue: 'invalid_value', message: `unknown ${what}` },
    ]);
  }
}

function requireDistinct(field: string, ids: readonly string[]): void {
  const i = ids.findIndex((id, k) => ids.indexOf(id) !== k);
  if (i >= 0) {
    throw new ApiError('validation_failed', `${ids[i]} is named twice.`, [
      { field: `${field}[${i}]`, issue: 'invalid_value', message: 'duplicate' },
    ]);
  }
}

export const userStore: Store<typeof stakeholderUsers> = {
  model: 'stakeholderUser',
  render: renderUser,
  create: async ({ db, who, body }) => {
    const email = body.email.toLowerCase();
    const roleIds = body.roleIds ?? [];
    requireDistinct('roleIds', roleIds);
    const [taken, roles] = await Promise.all([
      db.stakeholderUser.findFirst({ where: { email }, select: { id: true } }),
      roleIds.length ? db.stakeholderRole.findMany({ where: { id: { in: roleIds } }, select: { id: true } }) : [],
    ]);
    if (taken) {
      throw new ApiError('conflict', `${email} is already registered as ${taken.id}.`, [
        { field: 'email', issue: 'invalid_value', message: 'taken' },
      ]);
    }
    requireKnown('roleIds', roleIds, new Set(roles.map((r) => r.id)), 'role');
    return { name: body.name, email, roleIds, status: 'active', createdBy: who.actor };
  },
  auditData: (u) => ({ name: u.name, email: u.email, roleIds: u.roleIds }),
};

export const roleStore: Store<typeof stakeholderRoles> = {
  model: 'stakeholderRole',
  render: renderRole,
  create: async ({ db, who, body }) => {
    const existing = await db.stakeholderRole.findFirst({
      where: { name: { equals: body.name, mode: 'insensitive' } },
      select: { id: true },
    });
    if (existing) {
      throw new ApiError('conflict', `A role named ${body.name} exists: ${existing.id}.`, [
        { field: 'name', issue: 'invalid_value', message: 'taken' },
      ]);
    }
    return { name: body.name, description: body.description ?? null, createdBy: who.actor };
  },
  auditData: (r) => ({ name: r.name }),
};

export const approvalChainStore: Store<typeof approvalChains> = {
  model: 'approvalChain',
  render: renderApprovalChain,
  create: async ({ db, who, body }) => {
    requireDistinct('approverIds', body.approverIds);
    const users = await db.stakeholderUser.findMany({ where: { id: { in: body.approverIds }, status: 'active' }, select: { id: true } });
    requireKnown('approverIds', body.approverIds, new Set(users.map((u) => u.id)), 'active person');
    return { name: body.name, approverIds: body.approverIds, createdBy: who.actor };
  },
  auditData: (c) => ({ name: c.name, approverIds: c.approverIds }),
};
