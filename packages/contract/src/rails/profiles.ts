import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const profilesRouter = railRouter('profiles', {});

/** Event types the profiles rail emits. */
export const profilesEvents: ReturnType<typeof eventType>[] = [];
