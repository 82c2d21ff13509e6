/** The gpai summary rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { gpaiSummaryEvents as events, gpaiSummaryRouter as router } from './routes.ts';
export const key = 'gpai_summary';
