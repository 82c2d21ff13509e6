/**
 * The dsar rail (`/v1/dsar`, growth): data-subject requests under GDPR, UK GDPR, CCPA/CPRA, LGPD
 * and DPDP with their statutory dates computed from the moment of receipt (rules as data,
 * `content/dsar/regimes.json`, each with its legal source), one extension by the regime's rule
 * with the notice it requires, identity verification, fulfillment across the tenant's declared
 * data stores, the response packet (`export`, hashed and versioned), `redact` (a new packet
 * version, the original kept) and the SLA view per regulator.
 *
 * Lifecycle of a request: `received` -> `verified` (POST /verify with a passed outcome) ->
 * `in_progress` (POST /fulfillment: one item per store that holds the subject's data) ->
 * `fulfilled` (POST /requests/:id/fulfill, once every item is closed); `rejected` (POST
 * /requests/:id/reject, with a reason) from `received` or `verified`. Any other move is 409.
 */

export { DSAR_KINDS, DSAR_REGIMES, DSAR_STATUSES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
