import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const trainingRecordsRouter = railRouter('training_records', {});

/** Event types the training_records rail emits. */
export const trainingRecordsEvents: ReturnType<typeof eventType>[] = [];
