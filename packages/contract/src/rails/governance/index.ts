/**
 * The governance rail: who decides what (decision rights), approvals that walk an approval chain
 * of the stakeholders rail step by step, board meetings with their minutes and decisions,
 * delegations with a validity period, conflicts of interest, the organisation-wide RACI chart and
 * versioned, hashed snapshots of the governance state.
 */

export * from './routes.ts';
export * from './schemas.ts';
