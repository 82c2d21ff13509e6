/**
 * The procurement rail (`/v1/procurement`, enterprise): RFPs with weighted criteria (weights sum
 * to 1), bids scored 0 to 10 per criterion, the weighted ranking (recomputed from the stored
 * scores whenever it is read, so a change of weights re-ranks at once), the award of one bid with
 * a rationale, and the onboarding of the awarded supplier, which creates the vendor in the
 * vendor_risk rail.
 *
 * Lifecycle of an RFP: `draft` -> `open` (bids accepted) -> `evaluating` (needs a bid) ->
 * `awarded` (through the award), or `cancelled` from any of the first three.
 */

export * from './routes.ts';
export * from './schemas.ts';
