import { ROLES, type Role } from '@svc/contract';
import type { Prisma } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { newId } from '../../ids.ts';
import { recordChange } from '../../platform/ledger/changes.ts';
import { newSessionToken, sha256 } from '../kit.ts';

/** How long a one-time sign-in link stays valid. */
export const LINK_TTL_MS = 72 * 3600_000;

export const roleRank = (r: string) => {
  const i = ROLES.indexOf(r as Role);
  return i < 0 ? ROLES.length : i;
};
/** Owners and admins manage the tenant's keys (and people); the other roles see. */
export const canManage = (role: string) => role === 'owner' || role === 'admin';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface Invitation {
  userId: string;
  email: string;
  role: Role;
  /** The token of the one-time link (stored hashed): `{app_url}/sign-in/link?token=...`. */
  token: string;
  expiresAt: Date;
  created: boolean;
}

/**
 * Creates the person (or finds them, for a new link: a password reset) and a one-time sign-in link
 * that sets their password, audited in the tenant's trail. The operator console calls it.
 */
export async function inviteWebUser(
  prisma: Prisma,
  who: { actor: string; correlationId: string },
  input: { tenantId: string; email: string; role: Role; name?: string },
): Promise<Invitation> {
  const email = normaliseEmail(input.email);
  return prisma.$transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { id: input.tenantId } });
    if (!tenant) throw new Error(`Tenant ${input.tenantId} does not exist.`);
    let user = await tx.webUser.findUnique({ where: { email } });
    if (user && user.tenantId !== input.tenantId) throw new Error('This email address already belongs to a person of another tenant.');
    const created = !user;
    if (!user) {
      user = await scopeToTenant(tx, input.tenantId).webUser.create({
        data: {
          id: newId('wus'),
          tenantId: input.tenantId,
          email,
          name: input.name ?? null,
          role: input.role,
          createdBy: who.actor,
        },
      });
    }
    // Only the newest link works: one an operator replaced (it went to a wrong or an old mailbox, or
    // leaked) must not stay usable for its 72 hours. Issuances for one person are serialised on
    // their row, so two at once cannot both survive.
    await tx.$executeRaw`SELECT 1 FROM web_users WHERE id = ${user.id} FOR UPDATE`;
    const now = new Date();
    const revoked = await tx.webSignInLink.updateMany({
      where: { tenantId: input.tenantId, userId: user.id, usedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
    await tx.webSignInLink.create({
      data: { tokenHash: sha256(token), tenantId: input.tenantId, userId: user.id, expiresAt, createdBy: who.actor },
    });
    await recordChange(tx, {
      tenantId: input.tenantId,
      actor: who.actor,
      correlationId: who.correlationId,
      action: created ? 'web_user.invited' : 'web_user.sign_in_link_issued',
      resourceType: 'svc.web.user',
      resourceId: user.id,
      data: { email, role: user.role, linkExpiresAt: expiresAt.toISOString(), earlierLinksRevoked: revoked.count },
    });
    return { userId: user.id, email, role: user.role as Role, token, expiresAt, created };
  });
}

export async function listWebUsers(prisma: Prisma, tenantId: string) {
  return scopeToTenant(prisma, tenantId).webUser.findMany({ orderBy: { createdAt: 'asc' }, take: 200 });
}
