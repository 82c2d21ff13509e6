import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const stakeholdersRouter = railRouter('stakeholders', {});

/** Event types the stakeholders rail emits. */
export const stakeholdersEvents: ReturnType<typeof eventType>[] = [];
