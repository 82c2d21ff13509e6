/**
 * Outbound webhook subscriptions, their deliveries, the inbound secrets of the webhook worker and
 * the operators' dead-letter queue. Not a rail of the catalogue: the routes form their own group
 * (`webhooks`), open to every tier.
 */

export * from './routes.ts';
export * from './schemas.ts';
