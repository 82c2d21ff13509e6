/**
 * The risk rail: computed views over the risk register (navigator by area, policy gaps, top
 * risks, counts by domain) and the tenant's watchlist. Open to starter tenants, who read the
 * views; recording risks is the risk_register rail's (growth).
 */

export * from './routes.ts';
export * from './schemas.ts';
