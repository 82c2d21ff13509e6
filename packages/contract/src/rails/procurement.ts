import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const procurementRouter = railRouter('procurement', {});

/** Event types the procurement rail emits. */
export const procurementEvents: ReturnType<typeof eventType>[] = [];
