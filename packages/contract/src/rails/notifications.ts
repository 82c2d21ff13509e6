import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const notificationsRouter = railRouter('notifications', {});

/** Event types the notifications rail emits. */
export const notificationsEvents: ReturnType<typeof eventType>[] = [];
