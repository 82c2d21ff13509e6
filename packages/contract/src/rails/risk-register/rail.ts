/** The risk register rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { riskRegisterEvents as events, riskRegisterRouter as router } from './routes.ts';
export const key = 'risk_register';
