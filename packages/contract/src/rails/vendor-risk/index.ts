/**
 * The vendor_risk rail (`/v1/vendor-risk`, growth): the tenant's vendors, their assessments
 * (scores 0-100 per domain), contracts (renewal terms, state derived at a date), monitoring
 * events, and scorecards computed from all three, with every part of the score shown.
 *
 * The risk score (0 to 100, higher is riskier), decided here and documented on the scorecard:
 * - assessment part: `100 - mean(domain scores)` over the four domains, each the score of the
 *   latest completed assessment that scored it, a domain never scored counting as 0;
 * - contract part: +15 per contract expired at `at`, +5 per contract in its notice window
 *   (`expiring`), at most 30;
 * - monitoring part: per event up to `at`, its severity weight (low 2, medium 5, high 10,
 *   critical 20) x `0.5^(ageDays / 90)` (half-life 90 days);
 * - total: the sum, capped at 100, each part and the total rounded to 2 decimals; rating
 *   `low` < 25 <= `medium` < 50 <= `high` < 75 <= `critical`.
 *
 * Offboarding refuses (409) while the vendor has a contract that is not terminated and not
 * expired (pending, active, expiring or renewed): terminate it first.
 */

export * from './routes.ts';
export * from './schemas.ts';
