/** The vendor risk rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { vendorRiskEvents as events, vendorRiskRouter as router } from './routes.ts';
export const key = 'vendor_risk';
