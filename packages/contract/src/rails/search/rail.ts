/**
 * The search rail's declaration (`RailDeclaration`, platform/rail.ts). Not in the list of the
 * rails index: it is built from the kinds of the rails listed there, and the contract's router
 * adds it after them.
 */
export { searchEvents as events, searchRouter as router } from './routes.ts';
export const key = 'search';
