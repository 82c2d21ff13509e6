/** The incident disclosures rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { incidentDisclosuresEvents as events, incidentDisclosuresRouter as router } from './routes.ts';
export const key = 'incident_disclosures';
