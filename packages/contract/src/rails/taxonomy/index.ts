/**
 * The taxonomy rail: the dictionaries (frameworks, their controls and clauses) and the taxonomy
 * files (evidence types, jurisdictions, regulators, risk classes, roles) as versioned reference
 * data, and the tenant's pinned bundle hash: the content address of the whole set, so a decision
 * can be replayed against the exact content it used.
 */

export * from './routes.ts';
export * from './schemas.ts';
