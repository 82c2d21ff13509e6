import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const vendorRiskRouter = railRouter('vendor_risk', {});

/** Event types the vendor_risk rail emits. */
export const vendorRiskEvents: ReturnType<typeof eventType>[] = [];
