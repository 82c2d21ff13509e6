import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const insuranceRouter = railRouter('insurance', {});

/** Event types the insurance rail emits. */
export const insuranceEvents: ReturnType<typeof eventType>[] = [];
