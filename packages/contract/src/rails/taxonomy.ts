import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const taxonomyRouter = railRouter('taxonomy', {});

/** Event types the taxonomy rail emits. */
export const taxonomyEvents: ReturnType<typeof eventType>[] = [];
