/** The dsar rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { dsarEvents as events, dsarRouter as router } from './routes.ts';
export const key = 'dsar';
