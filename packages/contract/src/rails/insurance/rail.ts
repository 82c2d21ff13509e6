/** The insurance rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { insuranceEvents as events, insuranceRouter as router } from './routes.ts';
export const key = 'insurance';
