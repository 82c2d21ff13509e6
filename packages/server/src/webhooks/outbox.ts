import { EventEmitter } from 'node:events';
import { eventTypeForAction, filtersMatching } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { newId } from '../ids.ts';

/** What the outbox needs of a change (see services/changes.ts). */
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

/** Path of the entity an event is about; the envelope's `source` is the configured base plus it. */
const SOURCE_PATHS: Record<string, (id: string, r: Json) => string> = {
  'svc.operator.tenant': (id) => `/v1/operator/tenants/${id}`,
  'svc.operator.api_key': (id) => `/v1/operator/keys/${id}`,
  'svc.compliance.assessment': (id) => `/v1/compliance/assessments/${id}`,
  'svc.compliance.evidence': (id) => `/v1/compliance/evidence/${id}`,
  'svc.compliance.attestation': (id) => `/v1/compliance/attestations/${id}`,
  'svc.frameworks.activation': (id, r) => (typeof r.framework === 'string' ? `/v1/frameworks/${r.framework}` : `/v1/frameworks/${id}`),
};

/** `data` of a type built from the API representation of the resource; by default the representation itself. */
const DATA_BUILDERS: Record<string, (r: Json) => Json> = {
  'tenant.created': (r) => ({ tenant_id: r.id, display_name: r.name, plan: r.tier, region: r.region }),
};

export function sourcePathOf(change: OutboxChange): string {
  const resource = (change.resource ?? {}) as Json;
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

/**
 * The outbox, in the change's transaction: when the change's action is a registered event type
 * and subscriptions of the tenant select it, one event row and one delivery per subscription.
 * Without a subscriber nothing is written (the audit trail keeps the change either way).
 */
export async function enqueueWebhookEvents(tx: Tx, change: OutboxChange, time: Date): Promise<string | undefined> {
  const built = buildEventData(change);
  if (!built) return undefined;
  const db = scopeToTenant(tx, change.tenantId);
  const subs = await db.webhookSubscription.findMany({
    where: { enabled: true, eventTypes: { hasSome: filtersMatching(built.type) } },
    select: { id: true },
  });
  if (subs.length === 0) return undefined;
  const eventId = newId('evt');
  await db.webhookEvent.create({
    data: {
      id: eventId,
      tenantId: change.tenantId,
      type: built.type,
      source: sourcePathOf(change),
      subject: change.resourceId,
      data: built.data as object,
      correlationId: change.correlationId,
      createdAt: time,
    },
  });
  await db.webhookDelivery.createMany({
    data: subs.map((s) => ({
      id: newId('whd'),
      tenantId: change.tenantId,
      subscriptionId: s.id,
      eventId,
      eventType: built.type,
      status: 'pending',
      nextAttemptAt: time,
    })),
  });
  outboxSignal.emit('enqueued');
  return eventId;
}
