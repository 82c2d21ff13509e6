import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const marketplaceRouter = railRouter('marketplace', {});

/** Event types the marketplace rail emits. */
export const marketplaceEvents: ReturnType<typeof eventType>[] = [];
