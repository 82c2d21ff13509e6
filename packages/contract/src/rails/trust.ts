import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const trustRouter = railRouter('trust', {});

/** Event types the trust rail emits. */
export const trustEvents: ReturnType<typeof eventType>[] = [];
