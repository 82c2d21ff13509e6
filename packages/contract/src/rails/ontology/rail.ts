/** The ontology rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { ontologyEvents as events, ontologyRouter as router } from './index.ts';
export const key = 'ontology';
