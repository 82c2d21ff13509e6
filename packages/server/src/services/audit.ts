import { type ChainedEvent, GENESIS_HASH, hashEvent } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import type { AuditEvent } from '../generated/prisma/client.ts';
import { newId } from '../ids.ts';
import { signerFrom } from './signing.ts';

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
export async function appendAudit(tx: Tx, entry: AuditEntry, id = newId('aud')): Promise<ChainedEvent> {
  // One round trip: lock (or create) the chain head and read the signing keys.
  const [head] = await tx.$queryRaw<{ seq: number; hash: string; keys: { id: string; privateKey: string | null }[] | null }[]>`
    WITH head AS (
      INSERT INTO "audit_chain_heads" ("tenant_id", "seq", "hash") VALUES (${entry.tenantId}, 0, ${GENESIS_HASH})
      ON CONFLICT ("tenant_id") DO UPDATE SET "tenant_id" = EXCLUDED."tenant_id"
      RETURNING "seq", "hash")
    SELECT head."seq", head."hash",
      (SELECT json_agg(json_build_object('id', k."id", 'privateKey', k."private_key")
                       ORDER BY k."retired_at" DESC NULLS FIRST, k."created_at" DESC)
         FROM "signing_keys" k) AS "keys"
    FROM head`;
  if (!head) throw new Error('audit chain head missing');
  const signer = signerFrom(head.keys ?? []);
  const createdAt = new Date();
  const unsigned = {
    id,
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
  // One round trip: the event and the new head.
  const u = unsigned;
  await tx.$executeRaw`
    WITH ev AS (
      INSERT INTO "audit_events" ("id", "tenant_id", "seq", "prev_hash", "hash", "signature", "key_id", "actor", "action",
                                  "resource_type", "resource_id", "correlation_id", "data", "created_at")
      VALUES (${u.id}, ${u.tenantId}, ${u.seq}, ${u.prevHash}, ${hash}, ${signature}, ${u.keyId}, ${u.actor}, ${u.action},
              ${u.resourceType}, ${u.resourceId}, ${u.correlationId}, ${JSON.stringify(u.data)}::jsonb,
              (${u.timestamp}::timestamptz AT TIME ZONE 'UTC'))
      RETURNING "tenant_id")
    UPDATE "audit_chain_heads" SET "seq" = ${u.seq}, "hash" = ${hash}, "updated_at" = (${u.timestamp}::timestamptz AT TIME ZONE 'UTC')
    WHERE "tenant_id" = (SELECT "tenant_id" FROM ev)`;
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
