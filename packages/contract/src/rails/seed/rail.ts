/** The seed rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { seedEvents as events, seedRouter as router } from './index.ts';
export const key = 'seed';
