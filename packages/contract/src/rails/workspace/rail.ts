/** The workspace rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { workspaceEvents as events, workspaceRouter as router } from './routes.ts';
export const key = 'workspace';
