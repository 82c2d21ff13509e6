/**
 * The incident-disclosures rail (`/v1/incident-disclosures`, starter): the regulators a tenant
 * reports to (channels), disclosures of an incident under one or more regimes with every clock
 * computed from the moment the incident became known, regulator-shaped drafts, the timeline of
 * one disclosure and the SLA view of what is due and what is late. The clocks are data
 * (`content/incident-disclosures/regimes.json`), each with its legal source.
 */

export { INCIDENT_REGIMES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
