/** The reconciliation rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { reconciliationRouter as router } from './index.ts';
export const key = 'reconciliation';
