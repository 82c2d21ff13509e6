import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const contextRouter = railRouter('context', {});

/** Event types the context rail emits. */
export const contextEvents: ReturnType<typeof eventType>[] = [];
