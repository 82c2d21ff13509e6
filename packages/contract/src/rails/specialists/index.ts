/**
 * The specialists rail: the console of a specialist firm, open to the specialist tier only (the
 * catalogue's `onlyTiers`; an enterprise tenant is a client, not a firm, and gets 403). Firms, their consultants and certifications are records
 * of the firm's tenant; client engagements and the billing share are computed from the engagements
 * client tenants made with the firm in the marketplace.
 */

export * from './routes.ts';
export * from './schemas.ts';
