/** The taxonomy rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { taxonomyEvents as events, taxonomyRouter as router } from './routes.ts';
export const key = 'taxonomy';
