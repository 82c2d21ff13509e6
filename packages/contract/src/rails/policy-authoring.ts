import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const policyAuthoringRouter = railRouter('policy_authoring', {});

/** Event types the policy_authoring rail emits. */
export const policyAuthoringEvents: ReturnType<typeof eventType>[] = [];
