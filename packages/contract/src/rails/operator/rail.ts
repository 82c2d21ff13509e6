/** The operator rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { operatorEvents as events, operatorRouter as router } from './index.ts';
export const key = 'operator';
