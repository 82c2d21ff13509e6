import type { Tier } from './tiers.ts';

export type Lifecycle = 'v1' | 'v1.5' | 'v2';

/** The industries of the profiles rail: its sub-resources, with their literal types. */
export const INDUSTRIES = [
  'banking',
  'finance',
  'healthcare',
  'manufacturing',
  'engineering',
  'energy',
  'saas',
  'public-sector',
  'education',
  'retail',
  'telecom',
] as const;

export interface RailDefinition {
  /** Rail id; the resource kind is `svc.<id>`. */
  readonly id: string;
  readonly basePath: `/v1/${string}`;
  readonly subResources: readonly string[];
  readonly minTier: Tier;
  readonly lifecycle: Lifecycle;
  /**
   * When set, only these tiers may call the rail (the seed rail deletes data: sandbox only; the
   * specialists rail is the specialist tier's).
   */
  readonly onlyTiers?: readonly Tier[];
}

/**
 * One rail of the catalogue: its id, base path, lowest tier and lifecycle, then its sub-resources
 * and, where only some tiers may call it, those tiers.
 */
function rail<const Id extends string>(
  id: Id,
  basePath: `/v1/${string}`,
  minTier: Tier,
  lifecycle: Lifecycle,
  subResources: readonly string[],
  onlyTiers?: readonly Tier[],
): RailDefinition & { readonly id: Id } {
  return { id, basePath, subResources, minTier, lifecycle, ...(onlyTiers && { onlyTiers }) };
}

/** The rail catalogue of the specification, as data: every route's tier and lifecycle come from here. */
export const RAILS = [
  rail('compliance', '/v1/compliance', 'sandbox', 'v1', ['frameworks', 'assessments', 'obligations', 'evidence', 'attestations']),
  rail('frameworks', '/v1/frameworks', 'sandbox', 'v1', ['list', 'get', 'clauses', 'controls', 'questions', 'activate']),
  rail('graph', '/v1/graph', 'growth', 'v1', ['relations', 'blast-radius', 'evidence-reuse', 'onboarding-savings', 'impact']),
  rail('reporting', '/v1/reports', 'sandbox', 'v1', ['generate', 'export', 'schedule', 'audit-pack', 'notified-body-pack']),
  rail('agents', '/v1/agents', 'growth', 'v1', ['list', 'get', 'invoke']),
  rail('stakeholders', '/v1/stakeholders', 'sandbox', 'v1', ['users', 'roles', 'assignments', 'raci', 'approval-chains']),
  rail('self_audit', '/v1/self-audit', 'sandbox', 'v1', ['posture', 'drift', 'findings', 'remediations', 'evidence']),
  rail('trust', '/v1/trust', 'sandbox', 'v1', ['posture', 'certifications', 'sub-processors', 'status', 'questionnaires', 'nda-vault']),
  // "Tier specialist only": the rail is the specialist firms' own workspace.
  rail(
    'specialists',
    '/v1/specialists',
    'specialist',
    'v1',
    ['firms', 'consultants', 'client-engagements', 'billing-share', 'certifications'],
    ['specialist'],
  ),
  rail('seed', '/v1/seed', 'sandbox', 'v1', ['tenants', 'frameworks', 'evidence', 'reset', 'demo-tour'], ['sandbox']),
  rail('profiles', '/v1/profiles', 'growth', 'v1', INDUSTRIES),
  rail('onboarding', '/v1/onboarding', 'sandbox', 'v1', ['plan', 'checklist', 'kickoff', 'milestones', 'export']),
  rail('context', '/v1/context', 'growth', 'v1', ['upload', 'classify', 'clause-extract', 'map', 'gap-analysis', 'recommendations']),
  rail('audit_trail', '/v1/audit-trail', 'sandbox', 'v1', ['events', 'query', 'export', 'replay']),
  rail('audit_engine', '/v1/audit-engine', 'enterprise', 'v1', ['schedules', 'run', 'findings', 'replay', 'sign-off', 'attest']),
  rail('workspace', '/v1/workspaces', 'starter', 'v1.5', ['list', 'create', 'update', 'archive', 'teams', 'principals']),
  rail('notifications', '/v1/notifications', 'sandbox', 'v1.5', [
    'inbox',
    'subscribe',
    'mark-read',
    'preferences',
    'slack',
    'teams',
    'email',
  ]),
  rail('search', '/v1/search', 'growth', 'v2', ['frameworks', 'evidence', 'findings', 'specialists', 'crosswalks', 'multi-index']),
  rail('dsar', '/v1/dsar', 'growth', 'v1.5', ['requests', 'fulfillment', 'verify', 'export', 'redact']),
  rail('risk_register', '/v1/risk-register', 'growth', 'v1.5', ['risks', 'treatments', 'scores', 'heatmap', 'reviews', 'sign-off']),
  rail('policy_authoring', '/v1/policies', 'growth', 'v1.5', ['draft', 'version', 'publish', 'attest', 'retire', 'gap-fill']),
  rail('vendor_risk', '/v1/vendor-risk', 'growth', 'v1.5', ['vendors', 'assessments', 'contracts', 'monitoring', 'scorecards']),
  rail('procurement', '/v1/procurement', 'enterprise', 'v2', ['rfp', 'scoring', 'awards', 'onboarding']),
  rail('insurance', '/v1/insurance', 'enterprise', 'v2', ['policies', 'claims', 'coverage', 'quotes']),
  rail('public_disclosure', '/v1/public-disclosure', 'enterprise', 'v2', ['transparency', 'art-50', 'art-53-gpai', 'model-card']),
  rail('litigation_hold', '/v1/litigation-hold', 'enterprise', 'v2', ['holds', 'custodians', 'preservation', 'ediscovery']),
  rail('whistleblower', '/v1/whistleblower', 'enterprise', 'v2', ['reports', 'triage', 'investigations', 'protections']),
  rail('marketplace', '/v1/marketplace', 'starter', 'v2', ['specialists', 'listings', 'matching', 'reviews']),
  rail('training_records', '/v1/training-records', 'sandbox', 'v1.5', ['modules', 'records', 'coverage', 'certificates']),
  rail('incident_disclosures', '/v1/incident-disclosures', 'starter', 'v1.5', ['channels', 'disclosures', 'drafts', 'timelines', 'sla']),
  rail('gpai_summary', '/v1/gpai-summary', 'growth', 'v1.5', [
    'summaries',
    'template',
    'data-sources',
    'copyright-policy',
    'energy-disclosure',
  ]),
  rail('red_team', '/v1/red-team', 'growth', 'v1.5', ['corpus', 'runs', 'results', 'robustness', 'categories']),
  rail('ontology', '/v1/ontology', 'sandbox', 'v1.5', [
    'authorities',
    'obligations',
    'controls',
    'evidence',
    'architecture',
    'policies',
    'resolve',
  ]),
  rail('metadata', '/v1/metadata', 'sandbox', 'v1.5', ['label', 'facets', 'search', 'items']),
  rail('taxonomy', '/v1/taxonomy', 'sandbox', 'v1', [
    'frameworks',
    'controls',
    'clauses',
    'evidence-types',
    'jurisdictions',
    'regulators',
    'risk-classes',
    'roles',
    'bundle-hash',
  ]),
  rail('risk', '/v1/risk', 'starter', 'v1', ['navigate', 'policy-gaps', 'watchlist', 'top-risks', 'by-domain']),
  rail('governance', '/v1/governance', 'growth', 'v1', [
    'raci',
    'decision-rights',
    'approvals',
    'board-meetings',
    'delegations',
    'conflicts',
    'snapshot',
  ]),
  rail('workflows_registry', '/v1/workflows-registry', 'starter', 'v1', [
    'catalog',
    'by-framework',
    'by-stakeholder',
    'by-category',
    'snapshot',
  ]),
  rail('reconciliation', '/v1/reconciliation', 'sandbox', 'v1', ['events', 'summary', 'declared']),
  rail('events', '/v1/events', 'sandbox', 'v1', ['query', 'lifecycle', 'trail', 'sources', 'drifts']),
] as const satisfies readonly RailDefinition[];

export type RailId = (typeof RAILS)[number]['id'];

const byId = new Map<string, RailDefinition>(RAILS.map((r) => [r.id, r]));

export function getRail(id: RailId): RailDefinition {
  const rail = byId.get(id);
  if (!rail) throw new Error(`unknown rail ${id}`);
  return rail;
}

/**
 * Surfaces of the API outside the catalogue's rails, on every tier (the webhooks of the
 * specification's webhook section): the kits may declare their records too, under `rail` with the
 * group's id. Their routes carry `group` rather than `rail` (no tier gate), and their sub-resources
 * are full paths under `/v1`.
 */
export const GROUPS = [
  { id: 'webhooks', basePath: '/v1', subResources: ['webhook-subscriptions', 'webhook-deliveries', 'webhook-inbound-sources'] },
] as const;

export type GroupId = (typeof GROUPS)[number]['id'];

/** Where a kit declaration's records live: a rail of the catalogue, or a group outside it. */
export interface DeclarationScope {
  readonly id: string;
  readonly basePath: string;
  readonly subResources: readonly string[];
  /** What the routes' metadata says: the rail (tier gate, tag) or the group (tag). */
  readonly meta: { readonly rail: RailId } | { readonly group: GroupId };
  /**
   * What the routes' paths start with: nothing for a rail (its router's prefix, `railRouter`, adds
   * the base path), the base path for a group, whose routes are declared with their full paths.
   */
  readonly routePrefix: string;
}

export function scopeOf(id: RailId | GroupId): DeclarationScope {
  const group = GROUPS.find((g) => g.id === id);
  if (group) return { ...group, meta: { group: group.id }, routePrefix: group.basePath };
  const rail = getRail(id as RailId);
  return { id: rail.id, basePath: rail.basePath, subResources: rail.subResources, meta: { rail: id as RailId }, routePrefix: '' };
}

/** True for a rail of the catalogue (false for a group outside it). */
export function isRail(id: string): id is RailId {
  return byId.has(id);
}

/** The rail whose base path owns a request path, longest base path first (`/v1/reports/...`). */
export function railForPath(path: string): RailDefinition | undefined {
  let best: RailDefinition | undefined;
  for (const rail of RAILS) {
    if (path === rail.basePath || path.startsWith(`${rail.basePath}/`)) {
      if (!best || rail.basePath.length > best.basePath.length) best = rail;
    }
  }
  return best;
}
