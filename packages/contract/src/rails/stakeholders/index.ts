/**
 * The stakeholders rail (`/v1/stakeholders`, sandbox): the tenant's people, the roles they hold,
 * approval chains of roles, RACI assignments of people to systems and controls, and the RACI
 * chart of a system computed from them.
 */

export * from './routes.ts';
export * from './schemas.ts';
