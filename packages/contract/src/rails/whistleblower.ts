import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const whistleblowerRouter = railRouter('whistleblower', {});

/** Event types the whistleblower rail emits. */
export const whistleblowerEvents: ReturnType<typeof eventType>[] = [];
