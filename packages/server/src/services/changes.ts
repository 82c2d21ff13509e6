import { type ChainedEvent, filtersMatching, GENESIS_HASH, hashEvent } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import { newId } from '../ids.ts';
import { buildEventData, outboxSignal, sourcePathOf } from '../webhooks/outbox.ts';
import type { AuditEntry } from './audit.ts';
import { rulesFor } from './event-index.ts';
import { signerFrom } from './signing.ts';

/** Who does what, for which tenant, under which correlation id: the first argument of every write. */
export interface Actor {
  tenantId: string;
  actor: string;
  correlationId: string;
}

/**
 * A change to record: who did what to which resource. `resource` is the API representation of the
 * resource after the change; outbound webhooks build their `data` from it.
 */
export interface Change extends AuditEntry {
  resource?: unknown;
}

interface Head {
  seq: number;
  hash: string;
  keys: { id: string; privateKey: string | null }[] | null;
  subs: string[] | null;
}

/** Parameters of one SQL statement, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
  /** A timestamp column (timestamp without time zone, UTC). */
  at(iso: string): string {
    return `(${this.add(iso)}::timestamptz AT TIME ZONE 'UTC')`;
  }
}

/**
 * The one place a change leaves its traces, all in the caller's transaction: the audit event
 * (hash-chained and signed), the event-index row with its agent dispatches, and the outbound
 * webhook event with one delivery per subscription that selects it. If the change rolls back,
 * none of them exist.
 *
 * Two round trips whatever the change: the first locks (or creates) the tenant's chain head and
 * reads the signing keys and the subscriptions the event goes to; the second writes every row in
 * one statement. The head's row lock queues concurrent writers of the tenant until commit, so
 * each event links to the hash its predecessor committed; the unique (tenant, seq) index makes a
 * fork impossible.
 */
export async function recordChange(tx: Tx, change: Change, opts: { index?: boolean; auditId?: string } = {}): Promise<ChainedEvent> {
  const { resource: _resource, ...entry } = change;
  const auditId = opts.auditId ?? newId('aud');
  const built = buildEventData(change);
  const index = opts.index !== false;
  const rules = index ? await rulesFor(tx, change.action) : undefined;

  const [head] = await tx.$queryRaw<Head[]>`
    WITH head AS (
      INSERT INTO "audit_chain_heads" ("tenant_id", "seq", "hash") VALUES (${entry.tenantId}, 0, ${GENESIS_HASH})
      ON CONFLICT ("tenant_id") DO UPDATE SET "tenant_id" = EXCLUDED."tenant_id"
      RETURNING "seq", "hash")
    SELECT head."seq", head."hash",
      (SELECT json_agg(json_build_object('id', k."id", 'privateKey', k."private_key")
                       ORDER BY k."retired_at" DESC NULLS FIRST, k."created_at" DESC)
         FROM "signing_keys" k) AS "keys",
      (SELECT array_agg(s."id" ORDER BY s."id") FROM "webhook_subscriptions" s
        WHERE ${built !== undefined} AND s."tenant_id" = ${entry.tenantId} AND s."enabled"
          AND s."event_types" && ${built ? filtersMatching(built.type) : []}::text[]) AS "subs"
    FROM head`;
  if (!head) throw new Error('audit chain head missing');

  const signer = signerFrom(head.keys ?? []);
  const time = new Date();
  const timestamp = time.toISOString();
  const unsigned = {
    id: auditId,
    tenantId: entry.tenantId,
    seq: Number(head.seq) + 1,
    prevHash: head.hash,
    timestamp,
    actor: entry.actor,
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId,
    correlationId: entry.correlationId,
    // Stored as JSONB and hashed as canonical JSON: normalise through JSON first.
    data: JSON.parse(JSON.stringify(entry.data ?? {})) as Record<string, unknown>,
    keyId: signer.keyId,
  };
  const hash = hashEvent(unsigned);
  const signature = signer.sign(hash);
  const u = unsigned;

  const p = new Params();
  const tenant = p.add(u.tenantId);
  const now = p.at(timestamp);
  const ctes = [
    `ev AS (INSERT INTO "audit_events" ("id", "tenant_id", "seq", "prev_hash", "hash", "signature", "key_id", "actor", "action",
        "resource_type", "resource_id", "correlation_id", "data", "created_at")
      VALUES (${p.add(u.id)}, ${tenant}, ${p.add(u.seq)}, ${p.add(u.prevHash)}, ${p.add(hash)}, ${p.add(signature)}, ${p.add(u.keyId)},
        ${p.add(u.actor)}, ${p.add(u.action)}, ${p.add(u.resourceType)}, ${p.add(u.resourceId)}, ${p.add(u.correlationId)},
        ${p.add(JSON.stringify(u.data))}::jsonb, ${now}) RETURNING "tenant_id")`,
    `hd AS (UPDATE "audit_chain_heads" SET "seq" = ${p.add(u.seq)}, "hash" = ${p.add(hash)}, "updated_at" = ${now}
      WHERE "tenant_id" = (SELECT "tenant_id" FROM ev))`,
  ];
  if (rules) {
    // The platform's own operations are events too; an emitted event indexes itself instead.
    const eventRowId = newId('evi');
    ctes.push(
      `ix AS (INSERT INTO "event_index" ("id", "time", "tenant_id", "source", "kind", "phase", "severity", "actor", "entity",
          "action", "outcome", "correlation_id", "latency_ms", "attributes", "over_budget", "audit_event_id")
        VALUES (${p.add(eventRowId)}, ${now}, ${tenant}, 'svc.api', ${p.add(change.action)}, 'completed', 'info', ${p.add(change.actor)},
          ${p.add(change.resourceId)}, ${p.add(change.action.split('.').at(-1) ?? change.action)}, 'success', ${p.add(change.correlationId)},
          NULL, ${p.add(JSON.stringify({ resourceType: change.resourceType }))}::jsonb, false, ${p.add(auditId)}))`,
    );
    if (rules.agents.length > 0) {
      ctes.push(
        `ag AS (INSERT INTO "agent_dispatches" ("id", "tenant_id", "event_id", "agent", "status")
          SELECT unnest(${p.add(rules.agents.map(() => newId('agd')))}::text[]), ${tenant}, ${p.add(eventRowId)},
                 unnest(${p.add(rules.agents)}::text[]), 'queued')`,
      );
    }
  }
  const subs = head.subs ?? [];
  if (built && subs.length > 0) {
    const eventId = newId('evt');
    const eventParam = p.add(eventId);
    const typeParam = p.add(built.type);
    ctes.push(
      `we AS (INSERT INTO "webhook_events" ("id", "tenant_id", "type", "source", "subject", "data", "correlation_id", "created_at")
        VALUES (${eventParam}, ${tenant}, ${typeParam}, ${p.add(sourcePathOf(change))}, ${p.add(change.resourceId)},
          ${p.add(JSON.stringify(built.data))}::jsonb, ${p.add(change.correlationId)}, ${now}))`,
      `wd AS (INSERT INTO "webhook_deliveries" ("id", "tenant_id", "subscription_id", "event_id", "event_type", "status", "next_attempt_at", "created_at", "updated_at")
        SELECT unnest(${p.add(subs.map(() => newId('whd')))}::text[]), ${tenant}, unnest(${p.add(subs)}::text[]), ${eventParam}, ${typeParam},
               'pending', ${now}, ${now}, ${now})`,
    );
  }
  await tx.$executeRawUnsafe(`WITH ${ctes.join(',\n')} SELECT 1`, ...p.values);
  if (built && subs.length > 0) outboxSignal.emit('enqueued');
  return { ...unsigned, hash, signature };
}
