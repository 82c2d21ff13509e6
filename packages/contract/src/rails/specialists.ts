import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const specialistsRouter = railRouter('specialists', {});

/** Event types the specialists rail emits. */
export const specialistsEvents: ReturnType<typeof eventType>[] = [];
