/** The audit trail rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { auditTrailRouter as router } from './index.ts';
export const key = 'audit_trail';
