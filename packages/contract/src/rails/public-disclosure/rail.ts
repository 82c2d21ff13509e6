/** The public disclosure rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { publicDisclosureEvents as events, publicDisclosureRouter as router } from './routes.ts';
export const key = 'public_disclosure';
