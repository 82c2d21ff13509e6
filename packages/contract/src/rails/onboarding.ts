import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

export const onboardingRouter = railRouter('onboarding', {});

/** Event types the onboarding rail emits. */
export const onboardingEvents: ReturnType<typeof eventType>[] = [];
