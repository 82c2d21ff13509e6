import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const riskRouter = railRouter('risk', {});

/** Event types the risk rail emits. */
export const riskEvents: ReturnType<typeof eventType>[] = [];
