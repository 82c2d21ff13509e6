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

/** The rail catalogue of the specification, as data: every route's tier and lifecycle come from here. */
export const RAILS = [
  {
    id: 'compliance',
    basePath: '/v1/compliance',
    subResources: ['frameworks', 'assessments', 'obligations', 'evidence', 'attestations'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'frameworks',
    basePath: '/v1/frameworks',
    subResources: ['list', 'get', 'clauses', 'controls', 'questions', 'activate'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'graph',
    basePath: '/v1/graph',
    subResources: ['relations', 'blast-radius', 'evidence-reuse', 'onboarding-savings', 'impact'],
    minTier: 'growth',
    lifecycle: 'v1',
  },
  {
    id: 'reporting',
    basePath: '/v1/reports',
    subResources: ['generate', 'export', 'schedule', 'audit-pack', 'notified-body-pack'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  { id: 'agents', basePath: '/v1/agents', subResources: ['list', 'get', 'invoke'], minTier: 'growth', lifecycle: 'v1' },
  {
    id: 'stakeholders',
    basePath: '/v1/stakeholders',
    subResources: ['users', 'roles', 'assignments', 'raci', 'approval-chains'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'self_audit',
    basePath: '/v1/self-audit',
    subResources: ['posture', 'drift', 'findings', 'remediations', 'evidence'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'trust',
    basePath: '/v1/trust',
    subResources: ['posture', 'certifications', 'sub-processors', 'status', 'questionnaires', 'nda-vault'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'specialists',
    basePath: '/v1/specialists',
    subResources: ['firms', 'consultants', 'client-engagements', 'billing-share', 'certifications'],
    minTier: 'specialist',
    lifecycle: 'v1',
    // "Tier specialist only": the rail is the specialist firms' own workspace.
    onlyTiers: ['specialist'],
  },
  {
    id: 'seed',
    basePath: '/v1/seed',
    subResources: ['tenants', 'frameworks', 'evidence', 'reset', 'demo-tour'],
    minTier: 'sandbox',
    lifecycle: 'v1',
    onlyTiers: ['sandbox'],
  },
  {
    id: 'profiles',
    basePath: '/v1/profiles',
    subResources: INDUSTRIES,
    minTier: 'growth',
    lifecycle: 'v1',
  },
  {
    id: 'onboarding',
    basePath: '/v1/onboarding',
    subResources: ['plan', 'checklist', 'kickoff', 'milestones', 'export'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'context',
    basePath: '/v1/context',
    subResources: ['upload', 'classify', 'clause-extract', 'map', 'gap-analysis', 'recommendations'],
    minTier: 'growth',
    lifecycle: 'v1',
  },
  {
    id: 'audit_trail',
    basePath: '/v1/audit-trail',
    subResources: ['events', 'query', 'export', 'replay'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'audit_engine',
    basePath: '/v1/audit-engine',
    subResources: ['schedules', 'run', 'findings', 'replay', 'sign-off', 'attest'],
    minTier: 'enterprise',
    lifecycle: 'v1',
  },
  {
    id: 'workspace',
    basePath: '/v1/workspaces',
    subResources: ['list', 'create', 'update', 'archive', 'teams', 'principals'],
    minTier: 'starter',
    lifecycle: 'v1.5',
  },
  {
    id: 'notifications',
    basePath: '/v1/notifications',
    subResources: ['inbox', 'subscribe', 'mark-read', 'preferences', 'slack', 'teams', 'email'],
    minTier: 'sandbox',
    lifecycle: 'v1.5',
  },
  {
    id: 'search',
    basePath: '/v1/search',
    subResources: ['frameworks', 'evidence', 'findings', 'specialists', 'crosswalks', 'multi-index'],
    minTier: 'growth',
    lifecycle: 'v2',
  },
  {
    id: 'dsar',
    basePath: '/v1/dsar',
    subResources: ['requests', 'fulfillment', 'verify', 'export', 'redact'],
    minTier: 'growth',
    lifecycle: 'v1.5',
  },
  {
    id: 'risk_register',
    basePath: '/v1/risk-register',
    subResources: ['risks', 'treatments', 'scores', 'heatmap', 'reviews', 'sign-off'],
    minTier: 'growth',
    lifecycle: 'v1.5',
  },
  {
    id: 'policy_authoring',
    basePath: '/v1/policies',
    subResources: ['draft', 'version', 'publish', 'attest', 'retire', 'gap-fill'],
    minTier: 'growth',
    lifecycle: 'v1.5',
  },
  {
    id: 'vendor_risk',
    basePath: '/v1/vendor-risk',
    subResources: ['vendors', 'assessments', 'contracts', 'monitoring', 'scorecards'],
    minTier: 'growth',
    lifecycle: 'v1.5',
  },
  {
    id: 'procurement',
    basePath: '/v1/procurement',
    subResources: ['rfp', 'scoring', 'awards', 'onboarding'],
    minTier: 'enterprise',
    lifecycle: 'v2',
  },
  {
    id: 'insurance',
    basePath: '/v1/insurance',
    subResources: ['policies', 'claims', 'coverage', 'quotes'],
    minTier: 'enterprise',
    lifecycle: 'v2',
  },
  {
    id: 'public_disclosure',
    basePath: '/v1/public-disclosure',
    subResources: ['transparency', 'art-50', 'art-53-gpai', 'model-card'],
    minTier: 'enterprise',
    lifecycle: 'v2',
  },
  {
    id: 'litigation_hold',
    basePath: '/v1/litigation-hold',
    subResources: ['holds', 'custodians', 'preservation', 'ediscovery'],
    minTier: 'enterprise',
    lifecycle: 'v2',
  },
  {
    id: 'whistleblower',
    basePath: '/v1/whistleblower',
    subResources: ['reports', 'triage', 'investigations', 'protections'],
    minTier: 'enterprise',
    lifecycle: 'v2',
  },
  {
    id: 'marketplace',
    basePath: '/v1/marketplace',
    subResources: ['specialists', 'listings', 'matching', 'reviews'],
    minTier: 'starter',
    lifecycle: 'v2',
  },
  {
    id: 'training_records',
    basePath: '/v1/training-records',
    subResources: ['modules', 'records', 'coverage', 'certificates'],
    minTier: 'sandbox',
    lifecycle: 'v1.5',
  },
  {
    id: 'incident_disclosures',
    basePath: '/v1/incident-disclosures',
    subResources: ['channels', 'disclosures', 'drafts', 'timelines', 'sla'],
    minTier: 'starter',
    lifecycle: 'v1.5',
  },
  {
    id: 'gpai_summary',
    basePath: '/v1/gpai-summary',
    subResources: ['summaries', 'template', 'data-sources', 'copyright-policy', 'energy-disclosure'],
    minTier: 'growth',
    lifecycle: 'v1.5',
  },
  {
    id: 'red_team',
    basePath: '/v1/red-team',
    subResources: ['corpus', 'runs', 'results', 'robustness', 'categories'],
    minTier: 'growth',
    lifecycle: 'v1.5',
  },
  {
    id: 'ontology',
    basePath: '/v1/ontology',
    subResources: ['authorities', 'obligations', 'controls', 'evidence', 'architecture', 'policies', 'resolve'],
    minTier: 'sandbox',
    lifecycle: 'v1.5',
  },
  { id: 'metadata', basePath: '/v1/metadata', subResources: ['label', 'facets', 'search', 'items'], minTier: 'sandbox', lifecycle: 'v1.5' },
  {
    id: 'taxonomy',
    basePath: '/v1/taxonomy',
    subResources: [
      'frameworks',
      'controls',
      'clauses',
      'evidence-types',
      'jurisdictions',
      'regulators',
      'risk-classes',
      'roles',
      'bundle-hash',
    ],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'risk',
    basePath: '/v1/risk',
    subResources: ['navigate', 'policy-gaps', 'watchlist', 'top-risks', 'by-domain'],
    minTier: 'starter',
    lifecycle: 'v1',
  },
  {
    id: 'governance',
    basePath: '/v1/governance',
    subResources: ['raci', 'decision-rights', 'approvals', 'board-meetings', 'delegations', 'conflicts', 'snapshot'],
    minTier: 'growth',
    lifecycle: 'v1',
  },
  {
    id: 'workflows_registry',
    basePath: '/v1/workflows-registry',
    subResources: ['catalog', 'by-framework', 'by-stakeholder', 'by-category', 'snapshot'],
    minTier: 'starter',
    lifecycle: 'v1',
  },
  {
    id: 'reconciliation',
    basePath: '/v1/reconciliation',
    subResources: ['events', 'summary', 'declared'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
  {
    id: 'events',
    basePath: '/v1/events',
    subResources: ['query', 'lifecycle', 'trail', 'sources', 'drifts'],
    minTier: 'sandbox',
    lifecycle: 'v1',
  },
] as const satisfies readonly RailDefinition[];

export type RailId = (typeof RAILS)[number]['id'];

const byId = new Map<string, RailDefinition>(RAILS.map((r) => [r.id, r]));

export function getRail(id: RailId): RailDefinition {
  const rail = byId.get(id);
  if (!rail) throw new Error(`unknown rail ${id}`);
  return rail;
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
