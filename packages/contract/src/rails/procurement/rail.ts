/** The procurement rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { procurementEvents as events, procurementRouter as router } from './routes.ts';
export const key = 'procurement';
