/**
 * The insurance rail (`/v1/insurance`, enterprise): the tenant's insurance policies (insurer, line,
 * limit, retention, period, covered perils), claims against them with their lifecycle and the
 * payable amount computed from the policy's retention and limit, `coverage` (which risks of the
 * risk register the policies in force cover, by peril, and which they do not), and quote requests
 * with the insurers' offers ranked by premium per unit of limit, one of which is accepted into a
 * policy.
 */

export { INSURANCE_LINES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
