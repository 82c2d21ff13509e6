/** The context rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { contextEvents as events, contextRouter as router } from './routes.ts';
export const key = 'context';
