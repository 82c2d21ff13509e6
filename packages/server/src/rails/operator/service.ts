import type { ApiKey, CreateKeyBody, CreateTenantBody, Environment, Tenant } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { ApiKey as ApiKeyRow, Tenant as TenantRow } from '../../generated/prisma/client.ts';
import { forgetCredential } from '../../http/auth-cache.ts';
import { newId } from '../../ids.ts';
import { issueApiKey, issueOperatorCredential } from '../../platform/credentials.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { recorded } from '../../platform/records.ts';
import { isoOrNull } from '../../platform/render.ts';
import { requireActivePerson } from '../stakeholders/service.ts';

export function renderTenant(t: TenantRow): z.infer<typeof Tenant> {
  return {
    object: 'svc.operator.tenant',
    id: t.id,
    name: t.name,
    tier: t.tier as z.infer<typeof Tenant>['tier'],
    env: t.env as Environment,
    region: t.region,
    rateLimitPerSecond: t.rateLimitPerSecond,
    monthlyQuota: t.monthlyQuota,
    createdAt: t.createdAt.toISOString(),
  };
}

export function renderKey(k: ApiKeyRow): z.infer<typeof ApiKey> {
  return {
    object: 'svc.operator.api_key',
    id: k.id,
    tenantId: k.tenantId,
    name: k.name,
    role: k.role as z.infer<typeof ApiKey>['role'],
    scopes: k.scopes,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    expiresAt: isoOrNull(k.expiresAt),
    revokedAt: isoOrNull(k.revokedAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    personId: k.personId,
  };
}

export interface OperatorActor {
  actor: string;
  correlationId: string;
}

/** The operator as the actor of a change to one tenant: the change goes to that tenant's chain. */
const inTenant = (tenantId: string, who: OperatorActor): Actor => ({ tenantId, actor: who.actor, correlationId: who.correlationId });

/** Creates a tenant and its first (owner) key in one transaction. */
export async function createTenant(prisma: Prisma, who: OperatorActor, body: z.infer<typeof CreateTenantBody>) {
  return prisma.$transaction(async (tx) => {
    const tenant = await tx.tenant.create({
      data: {
        id: newId('ten'),
        name: body.name,
        tier: body.tier,
        env: body.env,
        region: body.region,
        rateLimitPerSecond: body.rateLimitPerSecond ?? null,
        monthlyQuota: body.monthlyQuota ?? null,
      },
    });
    const { key, token } = await issueApiKey(tx, { tenantId: tenant.id, env: body.env, role: 'owner', name: 'owner key' });
    const data = { name: tenant.name, tier: tenant.tier, env: tenant.env, region: tenant.region };
    const out = await recorded(tx, inTenant(tenant.id, who), renderTenant(tenant), { action: 'tenant.created', data });
    return { tenant: out, apiKey: { ...renderKey(key), token } };
  });
}

export async function listTenants(prisma: Prisma, opts: { limit: number; cursor?: string }) {
  return keysetList(prisma.tenant, opts, { render: renderTenant });
}

export async function createKey(prisma: Prisma, who: OperatorActor, body: z.infer<typeof CreateKeyBody>) {
  if (body.expiresAt && new Date(body.expiresAt).getTime() <= Date.now()) {
    throw new ApiError('validation_failed', 'expiresAt must be in the future.', [{ field: 'expiresAt', issue: 'too_small' }]);
  }
  return prisma.$transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { id: body.tenantId } });
    if (!tenant) throw notFound('Tenant', body.tenantId);
    // The key acts for this person from now on: it must be a person of the key's own tenant.
    if (body.personId !== undefined) await requireActivePerson(scopeToTenant(tx, tenant.id), 'personId', body.personId);
    const { key, token } = await issueApiKey(tx, {
      tenantId: tenant.id,
      env: tenant.env as Environment,
      role: body.role,
      ...(body.name ? { name: body.name } : {}),
      ...(body.scopes ? { scopes: body.scopes } : {}),
      ...(body.expiresAt ? { expiresAt: new Date(body.expiresAt) } : {}),
      ...(body.personId ? { personId: body.personId } : {}),
    });
    const data = { role: key.role, scopes: key.scopes, personId: key.personId };
    return { ...(await recorded(tx, inTenant(tenant.id, who), renderKey(key), { action: 'api_key.created', data })), token };
  });
}

export async function listKeys(prisma: Prisma, opts: { tenantId: string; limit: number; cursor?: string }) {
  const tenant = await prisma.tenant.findUnique({ where: { id: opts.tenantId } });
  if (!tenant) throw notFound('Tenant', opts.tenantId);
  return keysetList(scopeToTenant(prisma, opts.tenantId).apiKey, opts, { render: renderKey });
}

/** Revokes a key; revoking a revoked key returns it unchanged. */
export async function revokeKey(prisma: Prisma, who: OperatorActor, id: string) {
  return prisma.$transaction(async (tx) => {
    // Locked, so two revocations at once record one revocation: the second sees it and returns the key.
    await tx.$queryRaw`SELECT "id" FROM "api_keys" WHERE "id" = ${id} FOR UPDATE`;
    const key = await tx.apiKey.findUnique({ where: { id } });
    if (!key) throw notFound('API key', id);
    if (key.revokedAt) return renderKey(key);
    const revoked = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    forgetCredential({ keyId: id });
    await recordChange(tx, {
      ...inTenant(key.tenantId, who),
      action: 'api_key.revoked',
      resourceType: 'svc.operator.api_key',
      resourceId: id,
      resource: renderKey(revoked),
    });
    return renderKey(revoked);
  });
}

/**
 * Replaces the calling operator credential: a new one with the same name, the caller's revoked, in
 * one transaction, and the rotation appended to every tenant chain (an operator credential acts on
 * every tenant, so each tenant's trail shows which credential could act when).
 */
export async function rotateOperatorCredential(prisma: Prisma, who: OperatorActor & { credentialId: string }) {
  return prisma.$transaction(async (tx) => {
    // The calling credential locked: a second rotation with it at once waits, sees it revoked and is
    // refused, so a rotation always leaves one credential, never two.
    await tx.$queryRaw`SELECT "id" FROM "operator_credentials" WHERE "id" = ${who.credentialId} FOR UPDATE`;
    const current = await tx.operatorCredential.findUnique({ where: { id: who.credentialId } });
    if (!current || current.revokedAt) throw new ApiError('conflict', 'The calling operator credential is already revoked.');
    const { credential, token } = await issueOperatorCredential(tx, current.name);
    await tx.operatorCredential.update({ where: { id: current.id }, data: { revokedAt: new Date() } });
    const tenants = await tx.tenant.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    for (const { id: tenantId } of tenants) {
      await recordChange(tx, {
        ...inTenant(tenantId, who),
        action: 'operator_credential.rotated',
        resourceType: 'svc.operator.credential',
        resourceId: credential.id,
        data: { credentialId: credential.id, revokedCredentialId: current.id, name: current.name },
      });
    }
    return {
      object: 'svc.operator.credential' as const,
      id: credential.id,
      name: credential.name,
      token,
      createdAt: credential.createdAt.toISOString(),
      revokedCredentialId: current.id,
    };
  });
}
