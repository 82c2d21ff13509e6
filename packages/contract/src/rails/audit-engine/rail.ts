/** The audit engine rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { auditEngineEvents as events, auditEngineRouter as router } from './routes.ts';
export const key = 'audit_engine';
