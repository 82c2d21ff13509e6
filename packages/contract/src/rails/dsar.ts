import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const dsarRouter = railRouter('dsar', {});

/** Event types the dsar rail emits. */
export const dsarEvents: ReturnType<typeof eventType>[] = [];
