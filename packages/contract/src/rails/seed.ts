import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const seedRouter = railRouter('seed', {});

/** Event types the seed rail emits. */
export const seedEvents: ReturnType<typeof eventType>[] = [];
