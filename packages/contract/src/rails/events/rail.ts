/** The events rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { eventsRouter as router } from './index.ts';
export const key = 'events';
