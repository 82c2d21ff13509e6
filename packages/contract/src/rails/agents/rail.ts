/** The agents rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { agentsEvents as events, agentsRouter as router } from './routes.ts';
export const key = 'agents';
