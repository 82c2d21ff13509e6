/**
 * The gpai_summary rail (`/v1/gpai-summary`, growth): the public summary of the content used to
 * train a general-purpose AI model (EU AI Act Art. 53(1)(d)), following the sections of the
 * Commission's template (kept as data with its source: `content/gpai-summary/template.json`),
 * the data sources it lists, the provider's copyright policy (Art. 53(1)(c)) and the energy and
 * compute disclosure (Annex XI, Section 1, point 2(d) and (e)), with the Art. 51(2) presumption of
 * systemic risk computed from the compute. A summary is published only when every required
 * section of the template is filled from the records; changing a published one opens a new version.
 */

export { GPAI_SOURCE_TYPES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
