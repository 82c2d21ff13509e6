import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const riskRegisterRouter = railRouter('risk_register', {});

/** Event types the risk_register rail emits. */
export const riskRegisterEvents: ReturnType<typeof eventType>[] = [];
