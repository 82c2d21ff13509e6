/** Tiers in ascending order: a rail's minimum tier admits that tier and every tier above it. */
export const TIERS = ['sandbox', 'starter', 'growth', 'specialist', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

export function tierAdmits(actual: Tier, minimum: Tier): boolean {
  return tierRank(actual) >= tierRank(minimum);
}

export const ENVIRONMENTS = ['live', 'test', 'dev'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Rate-limit plans of the specification and the plan each tier is on. */
export const PLANS = {
  sandbox: { perSecond: 5, perMonth: 10_000 },
  starter: { perSecond: 20, perMonth: 50_000 },
  growth: { perSecond: 100, perMonth: 250_000 },
  scale: { perSecond: 500, perMonth: 1_000_000 },
} as const;
export type PlanName = keyof typeof PLANS;

/** Enterprise limits are custom per tenant; without an override they are those of Scale. */
export const TIER_PLAN: Record<Tier, PlanName> = {
  sandbox: 'sandbox',
  starter: 'starter',
  growth: 'growth',
  specialist: 'scale',
  enterprise: 'scale',
};

export const ROLES = ['owner', 'admin', 'editor', 'auditor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What each role may do. A permission is `<area>:<action>`; `*` matches any area or action.
 * Auditors may attest but not write; editors write but do not attest, which keeps the person who
 * supplies evidence apart from the person who signs for it.
 */
export const ROLE_GRANTS: Record<Role, readonly string[]> = {
  owner: ['*:*'],
  admin: ['*:*'],
  editor: ['*:read', '*:write'],
  auditor: ['*:read', '*:attest'],
  viewer: ['*:read'],
};

/** Kinds of permission a state transition can need on its rail's area. */
export type TransitionAction = 'write' | 'approve' | 'attest';

/**
 * The permission each transition verb needs, decided in one table: sign-offs and approvals are
 * `approve` (owners and admins), attestations `attest` (auditors too), every other verb `write`.
 */
export const TRANSITION_GRANTS: Readonly<Record<string, TransitionAction>> = {
  approve: 'approve',
  reject: 'approve',
  sign_off: 'approve',
  publish: 'approve',
  accept: 'approve',
  attest: 'attest',
};

export function transitionPermission(verb: string): TransitionAction {
  return TRANSITION_GRANTS[verb] ?? 'write';
}

function matches(pattern: string, permission: string): boolean {
  const [pa, pb] = pattern.split(':');
  const [a, b] = permission.split(':');
  return (pa === '*' || pa === a) && (pb === '*' || pb === b);
}

/** True when the role grants the permission and, if the key has scopes, one scope covers it too. */
export function permits(role: Role, scopes: readonly string[], permission: string): boolean {
  const byRole = ROLE_GRANTS[role].some((p) => matches(p, permission));
  const byScope = scopes.length === 0 || scopes.some((p) => matches(p, permission));
  return byRole && byScope;
}
