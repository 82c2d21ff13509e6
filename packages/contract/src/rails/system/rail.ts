/** The system rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { systemRouter as router } from './index.ts';
export const key = 'system';
