import { EventEmitter } from 'node:events';
import { eventTypeForAction, resourceByObject } from '@svc/contract';

/** What the outbox needs of a change (see platform/ledger/changes.ts). */
export interface OutboxChange {
  tenantId: string;
  action: string;
  resourceType: string;
  resourceId: string;
  correlationId: string;
  resource?: unknown;
}

/** In-process wake-up for dispatchers, so a fresh event does not wait for the next poll. */
export const outboxSignal = new EventEmitter();
outboxSignal.setMaxListeners(0);

type Json = Record<string, unknown>;

/**
 * Path of the entity an event is about; the envelope's `source` is the configured base plus it.
 * Resources declared with the kit have theirs from the declaration; the others are listed here.
 */
const SOURCE_PATHS: Record<string, (id: string, r: Json) => string> = {
  'svc.operator.tenant': (id) => `/v1/operator/tenants/${id}`,
  'svc.operator.api_key': (id) => `/v1/operator/keys/${id}`,
  'svc.frameworks.activation': (id, r) => (typeof r.framework === 'string' ? `/v1/frameworks/${r.framework}` : `/v1/frameworks/${id}`),
  'svc.workspace.workspace': (id) => `/v1/workspaces/${id}`,
  'svc.workspace.principal': (_id, r) => `/v1/workspaces/${String(r.workspaceId)}/principals`,
  'svc.workspace.team': (_id, r) => `/v1/workspaces/${String(r.workspaceId)}/teams`,
  'svc.metadata.label': (id) => `/v1/metadata/label/${id}`,
  'svc.onboarding.onboarding': () => '/v1/onboarding/export',
  'svc.workflows_registry.snapshot': (id) => `/v1/workflows-registry/snapshot/${id}`,
  'svc.taxonomy.bundle_hash': () => '/v1/taxonomy/bundle-hash',
  'svc.governance.board_decision': (_id, r) => `/v1/governance/board-meetings/${String(r.meetingId)}/decisions`,
  'svc.marketplace.engagement': () => '/v1/marketplace/engagements',
  'svc.marketplace.review': () => '/v1/marketplace/reviews',
  'svc.notifications.inbox': () => '/v1/notifications/inbox',
  'svc.notifications.preferences': () => '/v1/notifications/preferences',
  'svc.notifications.slack_channel': (id) => `/v1/notifications/slack/${id}`,
  'svc.notifications.teams_channel': (id) => `/v1/notifications/teams/${id}`,
  'svc.notifications.email_channel': (id) => `/v1/notifications/email/${id}`,
  'svc.policy_authoring.policy': (id) => `/v1/policies/draft/${id}`,
  'svc.policy_authoring.policy_version': (_id, r) => `/v1/policies/version/${String(r.policyId)}/${String(r.number)}`,
  'svc.policy_authoring.publication': () => '/v1/policies/publish',
  'svc.policy_authoring.attestation': () => '/v1/policies/attest',
  'svc.risk.watch': () => '/v1/risk/watchlist',
  'svc.risk_register.review': () => '/v1/risk-register/reviews',
  'svc.risk_register.sign_off': () => '/v1/risk-register/sign-off',
  'svc.specialists.fee': () => '/v1/specialists/billing-share/fees',
  'svc.training_records.record': () => '/v1/training-records/records',
  'svc.training_records.certificate': () => '/v1/training-records/certificates',
};

/** `data` of a type built from the API representation of the resource; by default the representation itself. */
const DATA_BUILDERS: Record<string, (r: Json) => Json> = {
  'tenant.created': (r) => ({ tenant_id: r.id, display_name: r.name, plan: r.tier, region: r.region }),
};

export function sourcePathOf(change: OutboxChange): string {
  const resource = (change.resource ?? {}) as Json;
  const declared = resourceByObject(change.resourceType);
  if (declared) return `${declared.collectionPath}/${change.resourceId}`;
  const path = SOURCE_PATHS[change.resourceType];
  return path ? path(change.resourceId, resource) : `/v1/resources/${encodeURIComponent(change.resourceType)}/${change.resourceId}`;
}

/** The `data` of the event a change emits, validated by the registry, or undefined when it emits none. */
export function buildEventData(change: OutboxChange): { type: string; data: Json } | undefined {
  const def = eventTypeForAction(change.action);
  if (!def || change.resource === undefined || change.resource === null) return undefined;
  // Normalised through JSON: the body sent is JSON, and the row is JSONB.
  const resource = JSON.parse(JSON.stringify(change.resource)) as Json;
  const data = (DATA_BUILDERS[def.type] ?? ((r: Json) => r))(resource);
  const parsed = def.data.safeParse(data);
  if (!parsed.success) {
    // A rail whose representation drifted from the registry must not fail its own write; the event
    // is withheld and the mismatch reported, and the contract tests catch it.
    process.emitWarning(`webhook event ${def.type} withheld: data does not match the registry (${parsed.error.message})`);
    return undefined;
  }
  return { type: def.type, data };
}
