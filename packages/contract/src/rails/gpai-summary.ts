import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const gpaiSummaryRouter = railRouter('gpai_summary', {});

/** Event types the gpai_summary rail emits. */
export const gpaiSummaryEvents: ReturnType<typeof eventType>[] = [];
