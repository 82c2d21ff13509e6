import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const workspaceRouter = railRouter('workspace', {});

/** Event types the workspace rail emits. */
export const workspaceEvents: ReturnType<typeof eventType>[] = [];
