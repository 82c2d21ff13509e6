import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const redTeamRouter = railRouter('red_team', {});

/** Event types the red_team rail emits. */
export const redTeamEvents: ReturnType<typeof eventType>[] = [];
