/** The reporting rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { reportingEvents as events, reportingRouter as router } from './routes.ts';
export const key = 'reporting';
