/**
 * The self-audit rail (`/v1/self-audit`, sandbox): findings the tenant raises against its controls,
 * their remediations (planned, started, resolved, verified or reopened), evidence linked to either,
 * the posture score (coverage, freshness, open findings) and the drift from the profile baseline.
 */

export * from './routes.ts';
export * from './schemas.ts';
