import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const searchRouter = railRouter('search', {});

/** Event types the search rail emits. */
export const searchEvents: ReturnType<typeof eventType>[] = [];
