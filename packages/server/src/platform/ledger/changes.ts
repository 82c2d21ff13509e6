import { randomBytes } from 'node:crypto';
import { type ChainedEvent, eventTypeForAction, filtersMatching, GENESIS_HASH } from '@svc/contract';
import { hashEvent } from '@svc/contract/audit';
import type { Database, Tx } from '../../db/client.ts';
import { noteChange } from '../../db/response-completion.ts';
import { Params, type Sql, sqlOf } from '../../db/sql.ts';
import { newId } from '../../ids.ts';
import { chainRetries } from '../../observability/metrics.ts';
import { buildEventData, outboxSignal, sourcePathOf } from '../../webhooks/outbox.ts';
import { rulesFor } from '../events/event-index.ts';
import { signerForChain } from './signing.ts';

/** What an audit event records of a change: who did what to which record, and its data. */
export interface AuditEntry {
  tenantId: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  correlationId: string;
  data?: Record<string, unknown>;
}

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
  /** The key a rotation bound this chain to (read from the locked row: never stale). */
  keyId: string | null;
  keys: { id: string; privateKey: string | null }[] | null;
  subs: string[] | null;
  row?: Record<string, unknown> | null;
}

/**
 * Locks (or creates) the tenant's chain head and reads, in the same round trip, the signing keys
 * and the subscriptions the event goes to. `ticket` (the number of its parameter): the head as
 * committed instead, without locking it (a tenant without one reads as the genesis), for a change
 * that claims the head in its last statement (appendingTransaction); the transaction takes the
 * ticket's advisory lock, which the next change of its process waits for before it claims the head.
 */
const headSql = (withRow: string | undefined, ticket?: number) => `
    WITH ${withRow ? `row AS (${withRow}),` : ''} head AS (${
      ticket
        ? `SELECT coalesce(h."seq", 0) AS "seq", coalesce(h."hash", $2) AS "hash", h."key_id"
      FROM (SELECT pg_advisory_xact_lock($${ticket}::bigint)) ticket LEFT JOIN "audit_chain_heads" h ON h."tenant_id" = $1`
        : `
      INSERT INTO "audit_chain_heads" ("tenant_id", "seq", "hash") VALUES ($1, 0, $2)
      ON CONFLICT ("tenant_id") DO UPDATE SET "tenant_id" = EXCLUDED."tenant_id"
      RETURNING "seq", "hash", "key_id"`
    })
    SELECT head."seq", head."hash", head."key_id" AS "keyId",
      (SELECT json_agg(json_build_object('id', k."id", 'privateKey', k."private_key")
                       ORDER BY k."retired_at" DESC NULLS FIRST, k."created_at" DESC)
         FROM "signing_keys" k) AS "keys",
      (SELECT array_agg(s."id" ORDER BY s."id") FROM "webhook_subscriptions" s
        WHERE $3::boolean AND s."tenant_id" = $1 AND s."enabled" AND s."event_types" && $4::text[]) AS "subs"
      ${withRow ? ', (SELECT row_to_json(row) FROM row) AS "row"' : ''}
    FROM head`;
const HEAD_SQL = headSql(undefined);

/** Parameters the head statement takes before those of a statement folded into it. */
export const HEAD_PARAMS = 4;
const READ_HEAD_SQL = headSql(undefined, HEAD_PARAMS + 1);
const EVENT_COLUMNS = `"id", "tenant_id", "seq", "prev_hash", "hash", "signature", "key_id", "actor", "action",
        "resource_type", "resource_id", "correlation_id", "data", "created_at"`;

export interface ChangeOptions {
  /** false: no event-index row (the caller writes its own, e.g. an emitted event). */
  index?: boolean;
  auditId?: string;
  /** More CTEs written with the change's rows, in the same statement (e.g. the idempotency record). */
  also?: (p: Params) => string[];
  /**
   * The change's statement is the last of its transaction: on PostgreSQL its COMMIT goes out with
   * it (`commit` in sql.ts), so the tenant's chain head is unlocked one round trip sooner.
   */
  last?: boolean;
}

/**
 * A change whose resource row is written in the first round trip: `insert` is a data-modifying
 * statement with RETURNING (its placeholders numbered from HEAD_PARAMS + 1), and `complete`
 * turns the row it returns (as JSON) into the change to record.
 */
export interface RowChange {
  tenantId: string;
  action: string;
  insert: { text: string; values: readonly unknown[] };
  complete: (row: Record<string, unknown>) => Change | Promise<Change>;
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
export function recordChange(executor: Tx | Sql, change: Change, opts: ChangeOptions = {}): Promise<ChainedEvent> {
  noteChange();
  return record(sqlOf(executor), change.tenantId, change.action, undefined, () => change, opts).then((r) => r.event);
}

/**
 * recordChange for a resource written in the same transaction: the row's INSERT is folded into
 * the first round trip, so a create is two statements in all. Returns the recorded change too.
 */
export function recordRowChange(sql: Sql, rc: RowChange, opts: ChangeOptions = {}): Promise<{ event: ChainedEvent; change: Change }> {
  noteChange();
  return record(sql, rc.tenantId, rc.action, rc.insert, rc.complete, opts);
}

async function record(
  tx: Sql,
  tenantId: string,
  action: string,
  insert: RowChange['insert'] | undefined,
  complete: (row: Record<string, unknown>) => Change | Promise<Change>,
  opts: ChangeOptions,
): Promise<{ event: ChainedEvent; change: Change }> {
  const auditId = opts.auditId ?? newId('aud');
  const def = eventTypeForAction(action);
  const index = opts.index !== false;
  const rules = index ? await rulesFor(tx, action) : undefined;
  const heads = appending.get(tx);
  const ticket = heads ? randomBytes(8).readBigInt64BE().toString() : undefined;
  const given = insert?.values ?? [];

  const [head] = await tx.query<Head>(
    insert ? headSql(insert.text, heads && HEAD_PARAMS + given.length + 1) : heads ? READ_HEAD_SQL : HEAD_SQL,
    [tenantId, GENESIS_HASH, def !== undefined, def ? filtersMatching(def.type) : [], ...given, ...(ticket ? [ticket] : [])],
    { prepare: true },
  );
  if (!head) throw new Error('audit chain head missing');
  // Appending: the head this process last wrote for the tenant when it is ahead of the committed
  // one (its change is still on its way), so that concurrent changes of the process chain in order.
  const read: ChainHead = { seq: Number(head.seq), hash: head.hash, keyId: head.keyId, ticket: undefined };
  const known = heads?.get(tenantId);
  const base = known && known.seq > read.seq ? known : read;
  const change = await complete(head.row ?? {});
  const { resource: _resource, ...entry } = change;
  const built = buildEventData(change);

  const signer = await signerForChain(tx, head.keys ?? [], base.keyId);
  const time = new Date();
  const timestamp = time.toISOString();
  const unsigned = {
    id: auditId,
    tenantId: entry.tenantId,
    seq: base.seq + 1,
    prevHash: base.hash,
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
  // Typed where the text would not say it: appending, they are a SELECT's, not a VALUES' of the table.
  const values = `${p.add(u.id)}, ${tenant}, ${p.add(u.seq)}::int, ${p.add(u.prevHash)}, ${p.add(hash)}, ${p.add(signature)}, ${p.add(u.keyId)},
        ${p.add(u.actor)}, ${p.add(u.action)}, ${p.add(u.resourceType)}, ${p.add(u.resourceId)}, ${p.add(u.correlationId)},
        ${p.add(JSON.stringify(u.data))}::jsonb, ${now}`;
  const ctes = heads
    ? [
        // The head moves from the one this event links to, or not at all: another writer's change
        // (another process, a rotation, a change of this process that rolled back) makes the
        // statement fail below, and appendingTransaction runs the transaction again with the lock.
        // An UPDATE that finds the row changed by a commit since its snapshot checks the committed
        // row. A tenant's first head is inserted only where there is none.
        base.seq === 0
          ? `hd AS (INSERT INTO "audit_chain_heads" ("tenant_id", "seq", "hash", "updated_at")
              VALUES (${tenant}, ${p.add(u.seq)}, ${p.add(hash)}, ${now}) ON CONFLICT ("tenant_id") DO NOTHING RETURNING "tenant_id")`
          : `hd AS (UPDATE "audit_chain_heads" SET "seq" = ${p.add(u.seq)}, "hash" = ${p.add(hash)}, "updated_at" = ${now}
              WHERE "tenant_id" = ${tenant} AND "seq" = ${p.add(base.seq)} AND "hash" = ${p.add(base.hash)}
                AND "key_id" IS NOT DISTINCT FROM ${p.add(base.keyId)}::text
              RETURNING "tenant_id")`,
        `ev AS (INSERT INTO "audit_events" (${EVENT_COLUMNS}) SELECT ${values} FROM hd RETURNING "tenant_id")`,
      ]
    : [
        `ev AS (INSERT INTO "audit_events" (${EVENT_COLUMNS}) VALUES (${values}) RETURNING "tenant_id")`,
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
  if (opts.also) ctes.push(...opts.also(p));
  // The statement's text depends only on which parts it has (a handful of shapes): prepared.
  // Appending, it divides by the events it wrote: none (the head moved) fails it, and the
  // transaction with it.
  const main = heads ? 'SELECT 1 / (SELECT count(*)::int FROM ev)' : 'SELECT 1';
  if (heads) heads.set(tenantId, { seq: u.seq, hash, keyId: base.keyId, ticket });
  try {
    await tx.query(`WITH ${ctes.join(',\n')} ${main}`, p.values, {
      prepare: true,
      commit: opts.last === true,
      // Linked to a change of this process still on its way: first that one's transaction's end,
      // in a statement of its own, so that this one's snapshot holds what it committed.
      ...(base.ticket ? { precededBy: { text: WAIT_SQL, values: [base.ticket] } } : {}),
    });
  } catch (err) {
    if (!heads) throw err;
    heads.delete(tenantId);
    throw (err as { code?: unknown }).code === DIVISION_BY_ZERO ? new ChainMoved(tenantId) : err;
  }
  if (built && subs.length > 0) outboxSignal.emit('enqueued');
  return { event: { ...unsigned, hash, signature }, change };
}

/** A tenant's chain head as a process knows it: committed, or written by a change still on its way. */
interface ChainHead {
  seq: number;
  hash: string;
  keyId: string | null;
  /** The advisory lock its transaction holds until it ends; none for a committed head. */
  ticket: string | undefined;
}

const DIVISION_BY_ZERO = '22012';
const WAIT_SQL = 'SELECT pg_advisory_xact_lock_shared($1::bigint)';

/** An appended change whose head had moved: its transaction rolled back, to run again with the lock. */
class ChainMoved extends Error {
  constructor(readonly tenantId: string) {
    super(`the audit chain head of ${tenantId} moved`);
  }
}

/** The heads the transactions of one database's pool last wrote, per tenant (bounded: a cache). */
class ChainHeads {
  private readonly heads = new Map<string, ChainHead>();
  get(tenantId: string): ChainHead | undefined {
    return this.heads.get(tenantId);
  }
  set(tenantId: string, head: ChainHead): void {
    this.heads.delete(tenantId);
    if (this.heads.size >= 10_000) this.heads.delete(this.heads.keys().next().value as string);
    this.heads.set(tenantId, head);
  }
  delete(tenantId: string): void {
    this.heads.delete(tenantId);
  }
}

/**
 * How long a tenant's changes of this process take the lock after one of them found its head moved.
 * While another process appends to the same chain, optimistic changes fail over and over; one whose
 * head moved also dooms every change of this process linked after it, and their runs again with the
 * lock move the head under the next optimistic ones: without this pause, under steady load, every
 * change of the tenant ran twice (measured by `pnpm bench`: 7.07 round trips per POST instead of
 * 4.05 in whole rounds, twice the CPU).
 */
const LOCKED_MS = 500;

/** A tenant whose changes in this process take the lock, since one found its head moved. */
interface Locked {
  /** Until when new changes take the lock (ms since the epoch). */
  until: number;
  /** Its changes with the lock still running. */
  running: number;
  /** New changes waiting for those to end before appending again. */
  waiters: (() => void)[];
}

/** Per tenant of one pool: appending, or taking the lock for a while (see LOCKED_MS). */
class ChainModes {
  private readonly locked = new Map<string, Locked>();
  constructor(private readonly heads: ChainHeads) {}

  /**
   * Undefined when the tenant's next change may append; else the pause it takes the lock under, with
   * the change already counted in it (so the pause cannot end before the change has started). After
   * the pause a change appends again only once the changes with the lock have ended: one reading the
   * head without the lock while they hold it would find it moved.
   */
  async lockFor(tenantId: string): Promise<Locked | undefined> {
    for (;;) {
      const l = this.locked.get(tenantId);
      if (!l) return undefined;
      if (Date.now() < l.until) {
        l.running++;
        return l;
      }
      if (l.running === 0) {
        this.clear(tenantId, l);
        return undefined;
      }
      await new Promise<void>((resolve) => l.waiters.push(resolve));
    }
  }

  /** A change found its head moved: the tenant's changes take the lock for LOCKED_MS, this one first. */
  moved(tenantId: string): Locked {
    let l = this.locked.get(tenantId);
    if (l) l.until = Date.now() + LOCKED_MS;
    else {
      l = { until: Date.now() + LOCKED_MS, running: 0, waiters: [] };
      this.locked.set(tenantId, l);
    }
    l.running++;
    return l;
  }

  /** Runs a change counted in `l` (by lockFor or moved) with the lock. */
  async withLock<T>(l: Locked, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      l.running--;
      // The waiters look again: append when the pause is over, else take the lock themselves.
      if (l.running === 0) for (const wake of l.waiters.splice(0)) wake();
    }
  }

  private clear(tenantId: string, l: Locked): void {
    if (this.locked.get(tenantId) !== l) return;
    this.locked.delete(tenantId);
    // The heads this process linked before are stale: the next change reads the committed one.
    this.heads.delete(tenantId);
    for (const wake of l.waiters.splice(0)) wake();
  }
}

/** The statements of an appending transaction, and the heads of its pool. */
const appending = new WeakMap<Sql, ChainHeads>();
const poolHeads = new WeakMap<Database, { heads: ChainHeads; modes: ChainModes }>();

/**
 * A transaction whose change (recordChange, recordRowChange) ends it (`last`), holding the tenant's
 * chain head only for its last statement and COMMIT. In the usual transaction the head is locked by
 * the first statement and held through the process's handling of its answer, so a tenant's
 * concurrent writes queue behind the API's event loop; on PostgreSQL this one reads the head
 * without the lock, links the event to it (or to the head its own process wrote last, still on its
 * way), and claims it in the last statement only if it has not moved. When it has (another process
 * wrote, a rotation rebound the chain, a change it linked to rolled back), the transaction rolls
 * back and runs again with the lock: `fn` must be safe to run twice (the kit's creates and
 * transitions: their statements and nothing else). On the embedded database, which runs one
 * transaction at a time, it is a plain transaction.
 */
export async function appendingTransaction<T>(database: Database, tenantId: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
  if (database.kind !== 'postgresql') return database.transaction(fn);
  let pool = poolHeads.get(database);
  if (!pool) {
    const heads = new ChainHeads();
    pool = { heads, modes: new ChainModes(heads) };
    poolHeads.set(database, pool);
  }
  const { heads: known, modes } = pool;
  const paused = await modes.lockFor(tenantId);
  if (paused) return modes.withLock(paused, () => database.transaction(fn));
  try {
    return await database.transaction((sql) => {
      const own: Sql = { query: (text, values, opts) => sql.query(text, values, opts) };
      appending.set(own, known);
      return fn(own);
    });
  } catch (err) {
    if (!(err instanceof ChainMoved)) throw err;
    chainRetries.inc();
    return modes.withLock(modes.moved(err.tenantId), () => database.transaction(fn));
  }
}
