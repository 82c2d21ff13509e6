import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const governanceRouter = railRouter('governance', {});

/** Event types the governance rail emits. */
export const governanceEvents: ReturnType<typeof eventType>[] = [];
