import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const ontologyRouter = railRouter('ontology', {});

/** Event types the ontology rail emits. */
export const ontologyEvents: ReturnType<typeof eventType>[] = [];
