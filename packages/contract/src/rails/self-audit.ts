import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const selfAuditRouter = railRouter('self_audit', {});

/** Event types the self_audit rail emits. */
export const selfAuditEvents: ReturnType<typeof eventType>[] = [];
