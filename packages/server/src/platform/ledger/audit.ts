import type { ChainedEvent } from '@svc/contract';
import type { Tx } from '../../db/client.ts';
import type { AuditEvent } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { type AuditEntry, recordChange } from './changes.ts';

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
