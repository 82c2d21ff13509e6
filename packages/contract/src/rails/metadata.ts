import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const metadataRouter = railRouter('metadata', {});

/** Event types the metadata rail emits. */
export const metadataEvents: ReturnType<typeof eventType>[] = [];
