/**
 * The compliance rail (`/v1/compliance`, sandbox): the frameworks the tenant has activated, and
 * four resources of the resource kit: assessments that walk the stages of their type, the
 * obligations an activated framework brings, evidence records and attestations.
 */

export * from './routes.ts';
export * from './schemas.ts';
