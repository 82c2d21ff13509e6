import { type ChainedEvent, GENESIS_HASH, hashEvent } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import type { AuditEvent } from '../generated/prisma/client.ts';
import { newId } from '../ids.ts';
import { activeSigner } from './signing.ts';

export interface AuditEntry {
  tenantId: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  correlationId: string;
  data?: Record<string, unknown>;
}

/**
 * Appends an event to the tenant's chain. Call it with the transaction that makes the change,
 * last: the event exists if and only if the change commits. The upsert on the chain head takes
 * the head's row lock until commit, so concurrent writers of one tenant queue up and each links
 * to the hash its predecessor committed; the unique (tenant, seq) index makes a fork impossible.
 */
export async function appendAudit(tx: Tx, entry: AuditEntry): Promise<ChainedEvent> {
  const signer = await activeSigner(tx);
  const [head] = await tx.$queryRaw<{ seq: number; hash: string }[]>`
    INSERT INTO "audit_chain_heads" ("tenant_id", "seq", "hash") VALUES (${entry.tenantId}, 0, ${GENESIS_HASH})
    ON CONFLICT ("tenant_id") DO UPDATE SET "tenant_id" = EXCLUDED."tenant_id"
    RETURNING "seq", "hash"`;
  if (!head) throw new Error('audit chain head missing');
  const createdAt = new Date();
  const unsigned = {
    id: newId('aud'),
    tenantId: entry.tenantId,
    seq: Number(head.seq) + 1,
    prevHash: head.hash,
    timestamp: createdAt.toISOString(),
    actor: entry.actor,
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId,
    correlationId: entry.correlationId,
    // Stored as JSONB and hashed as canonical JSON: normalise through JSON first.
    data: JSON.parse(JSON.stringify(entry.data ?? {})) as Record<string, unknown>,
    keyId: signer.keyId,
  };
  const hash = hashEvent(unsigned);
  const signature = signer.sign(hash);
  await tx.auditEvent.create({
    data: {
      id: unsigned.id,
      tenantId: unsigned.tenantId,
      seq: unsigned.seq,
      prevHash: unsigned.prevHash,
      hash,
      signature,
      keyId: unsigned.keyId,
      actor: unsigned.actor,
      action: unsigned.action,
      resourceType: unsigned.resourceType,
      resourceId: unsigned.resourceId,
      correlationId: unsigned.correlationId,
      data: unsigned.data as object,
      createdAt,
    },
  });
  await tx.auditChainHead.update({ where: { tenantId: entry.tenantId }, data: { seq: unsigned.seq, hash, updatedAt: createdAt } });
  return { ...unsigned, hash, signature };
}

export function toChainedEvent(r: AuditEvent): ChainedEvent {
  return {
    id: r.id,
    tenantId: r.tenantId,
    seq: r.seq,
    prevHash: r.prevHash,
    timestamp: r.createdAt.toISOString(),
    actor: r.actor,
    action: r.action,
    resourceType: r.resourceType,
    resourceId: r.resourceId,
    correlationId: r.correlationId,
    data: r.data,
    keyId: r.keyId,
    hash: r.hash,
    signature: r.signature,
  };
}
