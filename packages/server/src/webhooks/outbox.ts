import { EventEmitter } from 'node:events';
import { sourcePathOf as declaredSourcePath, eventTypeForAction, sourceRoutes } from '@svc/contract';

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

// The contract's `source` declarations are read once at start: a type claimed twice fails here.
sourceRoutes();

/**
 * Path of the entity an event is about; the envelope's `source` is the configured base plus it.
 * A kit resource's is its own route; another record's, the GET route of the contract that
 * declares itself its source (contract sources.ts); a type no route shows, `/v1/resources/...`.
 */
export function sourcePathOf(change: OutboxChange): string {
  const resource = (change.resource ?? {}) as Json;
  return (
    declaredSourcePath(change.resourceType, change.resourceId, resource) ??
    `/v1/resources/${encodeURIComponent(change.resourceType)}/${change.resourceId}`
  );
}

/** `data` of a type built from the API representation of the resource; by default the representation itself. */
const DATA_BUILDERS: Record<string, (r: Json) => Json> = {
  'tenant.created': (r) => ({ tenant_id: r.id, display_name: r.name, plan: r.tier, region: r.region }),
};

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
