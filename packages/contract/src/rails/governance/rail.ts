/** The governance rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { governanceEvents as events, governanceRouter as router } from './routes.ts';
export const key = 'governance';
