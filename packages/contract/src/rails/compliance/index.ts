/**
 * The compliance rail (`/v1/compliance`, sandbox): the frameworks the tenant has activated, and
 * four resources of the resource kit: assessments (the questions of their type answered with
 * evidence, reviewed by a second person, frozen when approved), the obligations an activated framework brings, evidence records and attestations.
 */

export * from './assessment-rules.ts';
export * from './assessment-work.ts';
export * from './routes.ts';
export * from './schemas.ts';
