import type { ChainedEvent } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import { type AuditEntry, appendAudit } from './audit.ts';

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
export async function recordChange(tx: Tx, change: Change): Promise<ChainedEvent> {
  const { resource: _resource, ...entry } = change;
  const event = await appendAudit(tx, entry);
  return event;
}
