/**
 * The notifications rail: each API key (the "user" of a notification) subscribes to event types
 * and picks channels; a background notifier turns the platform's events (the event index) into
 * inbox notifications and Slack, Teams and email deliveries. Channel settings are the tenant's.
 */

export * from './routes.ts';
export * from './schemas.ts';
