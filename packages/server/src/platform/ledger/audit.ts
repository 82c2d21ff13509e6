import { type ChainedEvent, type ChainLink, SIGNING_KEY_ROTATED } from '@svc/contract';
import { ChainVerifier, retiredKeysOf } from '@svc/contract/audit';
import type { Prisma, Tx } from '../../db/client.ts';
import type { AuditEvent } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { type AuditEntry, recordChange } from './changes.ts';
import { listPublicKeys } from './signing.ts';

export type { AuditEntry } from './changes.ts';

/**
 * Appends an event to the tenant's chain, alone: no event-index row and no webhook (see
 * recordChange, which this is the bare form of). Call it with the transaction that makes the
 * change: the event exists if and only if the change commits.
 */
export function appendAudit(tx: Tx, entry: AuditEntry, id = newId('aud')): Promise<ChainedEvent> {
  return recordChange(tx, entry, { index: false, auditId: id });
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

/**
 * Events a server checks in one turn of the event loop (`nextTurn` of ../next-turn.ts between pages): verifying an
 * event (a SHA-256 and an Ed25519 check) takes tens of microseconds, so a page is a few tens of
 * milliseconds, and a range of thousands never holds the process's requests for seconds.
 */
export const VERIFY_PAGE = 500;

/**
 * A verifier of the tenant's chain from `anchor` on, with the tenant's public keys and the keys
 * that the rotations up to the anchor retired: an event after the anchor signed with one of them
 * is refused, as a walk from the chain's first event would refuse it.
 */
export async function chainVerifierFrom(db: Prisma | Tx, tenantId: string, anchor: ChainLink): Promise<ChainVerifier> {
  const rotations =
    anchor.seq > 0
      ? await db.auditEvent.findMany({
          where: { tenantId, action: SIGNING_KEY_ROTATED, seq: { lte: anchor.seq } },
          orderBy: { seq: 'asc' },
          select: { seq: true, keyId: true, action: true, data: true },
        })
      : [];
  return new ChainVerifier(await listPublicKeys(db), { tenantId, anchor, retiredKeys: retiredKeysOf(rotations) });
}
