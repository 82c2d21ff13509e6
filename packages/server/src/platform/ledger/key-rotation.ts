import { type PublicSigningKey, SIGNING_KEY_ROTATED, type SigningKeyRotation } from '@svc/contract';
import { keyFingerprint } from '@svc/contract/audit';
import type { Prisma, Tx } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import { recordChange } from './changes.ts';
import {
  createGeneratedKey,
  forgetPrivateKeys,
  holdGeneratedKey,
  renderPublicKey,
  sealStoredKeys,
  upsertConfiguredKey,
} from './signing.ts';

export interface RotationActor {
  actor: string;
  correlationId: string;
}

/**
 * Makes `keyId` the active signing key, and puts the change on the record of every tenant chain:
 * - every chain head is locked (in one order), so the writers holding one finish first, with
 *   timestamps before the retirement, and those that come after wait;
 * - the old keys are retired at a time taken after those locks, and the new key's window opens then;
 *   their private halves are wiped (a retired key must never sign again, whoever reads the database);
 * - every head is bound to the new key (a writer reads the binding from the head it locks, which
 *   is current even when its snapshot of the key rows predates this commit);
 * - a `signing_key.rotated` event, signed by the new key, is appended to each chain: from it on,
 *   a verifier refuses the retired keys in that chain, by order rather than by clock.
 * Nothing is recorded when no key is retired (the first key of a new database).
 */
async function activateKey(tx: Tx, keyId: string, by: RotationActor): Promise<void> {
  const retiring = await tx.signingKey.findMany({ where: { status: 'active', id: { not: keyId } }, select: { id: true } });
  const heads = retiring.length
    ? await tx.$queryRaw<{ tenant_id: string }[]>`SELECT "tenant_id" FROM "audit_chain_heads" ORDER BY "tenant_id" FOR UPDATE`
    : [];
  const at = new Date();
  const key = await tx.signingKey.update({ where: { id: keyId }, data: { status: 'active', retiredAt: null } });
  if (retiring.length === 0) return;
  // A generated key opens its window now; a configured key that comes back keeps its first date.
  if (key.source === 'generated') await tx.signingKey.update({ where: { id: keyId }, data: { createdAt: at } });
  const retiredKeyIds = retiring.map((r) => r.id);
  await tx.signingKey.updateMany({ where: { id: { in: retiredKeyIds } }, data: { status: 'retired', retiredAt: at, privateKey: null } });
  forgetPrivateKeys(retiredKeyIds);
  await tx.$executeRaw`UPDATE "audit_chain_heads" SET "key_id" = ${keyId}`;
  const data: SigningKeyRotation = { keyId, fingerprint: keyFingerprint(key.publicKey), retiredKeyIds };
  for (const { tenant_id: tenantId } of heads) {
    await recordChange(tx, {
      tenantId,
      actor: by.actor,
      correlationId: by.correlationId,
      action: SIGNING_KEY_ROTATED,
      resourceType: 'svc.audit_trail.signing_key',
      resourceId: keyId,
      data: { ...data },
    });
  }
}

/**
 * At start: the private halves at rest are put right (sealStoredKeys: sealed under the current
 * secrets key, wiped for retired keys); then the configured key becomes the active one (a change
 * of key is a rotation, recorded); without one, the active generated key is kept, or one is
 * generated on first start. Runs after the secrets key is resolved.
 */
export async function ensureSigningKey(prisma: Prisma, configuredPem: string | undefined, log?: Logger): Promise<string> {
  return prisma.$transaction(async (tx) => {
    // Serialises key changes of processes sharing one database.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150224)`;
    const atRest = await sealStoredKeys(tx);
    if (atRest.sealed + atRest.resealed + atRest.wiped > 0) log?.info('audit signing keys put right at rest', atRest);
    const by = { actor: 'system', correlationId: newId('cor') };
    if (configuredPem) {
      const id = await upsertConfiguredKey(tx, configuredPem);
      await activateKey(tx, id, by);
      return id;
    }
    const active = await tx.signingKey.findFirst({ where: { status: 'active' } });
    if (active && holdGeneratedKey(active)) return active.id;
    const id = await createGeneratedKey(tx);
    await activateKey(tx, id, by);
    return id;
  });
}

/** Replaces the active generated key with a new one; the old one is retired, not deleted. */
export async function rotateSigningKey(prisma: Prisma, by: RotationActor): Promise<PublicSigningKey> {
  const id = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150224)`;
    const active = await tx.signingKey.findFirst({ where: { status: 'active' } });
    if (active?.source === 'configured') {
      throw new ApiError('conflict', 'The active signing key is configured (SVC_AUDIT_SIGNING_KEY); rotate it by configuring a new one.');
    }
    const created = await createGeneratedKey(tx);
    await activateKey(tx, created, by);
    return created;
  });
  const row = await prisma.signingKey.findUniqueOrThrow({ where: { id } });
  return renderPublicKey(row);
}
