/** The onboarding rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { onboardingEvents as events, onboardingRouter as router } from './index.ts';
export const key = 'onboarding';
