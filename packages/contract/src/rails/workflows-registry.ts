import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const workflowsRegistryRouter = railRouter('workflows_registry', {});

/** Event types the workflows_registry rail emits. */
export const workflowsRegistryEvents: ReturnType<typeof eventType>[] = [];
