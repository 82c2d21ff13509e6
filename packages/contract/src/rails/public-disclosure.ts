import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const publicDisclosureRouter = railRouter('public_disclosure', {});

/** Event types the public_disclosure rail emits. */
export const publicDisclosureEvents: ReturnType<typeof eventType>[] = [];
