import type { ChainedEvent } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import { newId } from '../ids.ts';
import { enqueueWebhookEvents } from '../webhooks/outbox.ts';
import { type AuditEntry, appendAudit } from './audit.ts';
import { appendEventRow } from './events.ts';

/**
 * A change to record: who did what to which resource. `resource` is the API representation of the
 * resource after the change; outbound webhooks build their `data` from it.
 */
export interface Change extends AuditEntry {
  resource?: unknown;
}

/**
 * The one place a change leaves its traces, all in the caller's transaction: the audit event
 * (hash-chained and signed), and the rows that feed the event index and outbound webhooks. If the
 * change rolls back, none of them exist.
 */
export async function recordChange(tx: Tx, change: Change, opts: { index?: boolean } = {}): Promise<ChainedEvent> {
  const { resource: _resource, ...entry } = change;
  const auditId = newId('aud');
  // Everything that needs no lock first; the audit append takes the tenant's chain lock, which
  // is then held only for its own two statements and the commit.
  await enqueueWebhookEvents(tx, change, new Date());
  // The platform's own operations are events too; an emitted event indexes itself instead.
  if (opts.index !== false) {
    await appendEventRow(tx, {
      tenantId: change.tenantId,
      source: 'svc.api',
      kind: change.action,
      phase: 'completed',
      severity: 'info',
      actor: change.actor,
      entity: change.resourceId,
      action: change.action.split('.').at(-1) ?? change.action,
      outcome: 'success',
      correlationId: change.correlationId,
      attributes: { resourceType: change.resourceType },
      auditEventId: auditId,
    });
  }
  return appendAudit(tx, entry, auditId);
}
