/** The litigation hold rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { litigationHoldEvents as events, litigationHoldRouter as router } from './routes.ts';
export const key = 'litigation_hold';
