import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const litigationHoldRouter = railRouter('litigation_hold', {});

/** Event types the litigation_hold rail emits. */
export const litigationHoldEvents: ReturnType<typeof eventType>[] = [];
