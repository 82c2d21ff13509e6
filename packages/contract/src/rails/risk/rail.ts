/** The risk rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { riskEvents as events, riskRouter as router } from './routes.ts';
export const key = 'risk';
