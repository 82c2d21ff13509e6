/** The red team rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { redTeamEvents as events, redTeamRouter as router } from './routes.ts';
export const key = 'red_team';
