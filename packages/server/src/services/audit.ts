import type { Tx } from '../db/client.ts';
import { newId } from '../ids.ts';

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
 * Appends an audit event. Call it with the transaction that makes the change: the event exists
 * if and only if the change committed.
 */
export async function appendAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({
    data: {
      id: newId('aud'),
      tenantId: entry.tenantId,
      actor: entry.actor,
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      correlationId: entry.correlationId,
      data: (entry.data ?? {}) as object,
    },
  });
}
