/**
 * Pieces the hand-written routes of many rails share: the page of a keyset list, the stamps a
 * row-to-record renderer ends with, the audited write that returns the record it wrote, and the
 * unique-key conflict of a create.
 */
import type { Tx } from '../db/client.ts';
import type { ApiError } from '../errors.ts';
import { type Actor, recordChange } from './ledger/changes.ts';
import { iso } from './render.ts';

/** A page of a keyset list: its records and the cursor of the next page (null on the last). */
export type Page<T> = { data: T[]; cursor: string | null };

/** The paging parameters of a list's query; the list's filters come with them. */
export type PageQuery = { limit: number; cursor?: string };

/** `createdBy` and `createdAt` of a record, the last fields of an immutable record's renderer. */
export const createdOf = <By>(r: { createdBy: By; createdAt: Date }) => ({ createdBy: r.createdBy, createdAt: iso(r.createdAt) });

/** `createdBy`, `createdAt` and `updatedAt` of a record, the last fields of a mutable record's renderer. */
export const stampsOf = <By>(r: { createdBy: By; createdAt: Date; updatedAt: Date }) => ({
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

/**
 * What the audit event of a hand-written write says: its action and data. The resource it names is
 * the record's `object` and `id` (as in the kit's writes) unless given.
 */
export interface ChangeOf {
  action: string;
  data: Record<string, unknown>;
  resourceType?: string;
  resourceId?: string;
}

/** A record without an `id` of its own (a tenant's singleton settings) names the resource's id in the change. */
type ChangeOfRecord<Rec> = Rec extends { id: string } ? ChangeOf : ChangeOf & { resourceId: string };

/**
 * Records the change (audit event, event-index and outbox rows) in the write's transaction, with
 * `record`, the API representation after the change, as its resource; returns the record.
 */
export async function recorded<Rec extends { object: string; id?: string }>(
  tx: Tx,
  who: Actor,
  record: Rec,
  change: ChangeOfRecord<Rec>,
): Promise<Rec> {
  await recordChange(tx, {
    ...who,
    action: change.action,
    resourceType: change.resourceType ?? record.object,
    resourceId: (change.resourceId ?? record.id) as string,
    data: change.data,
    resource: record,
  });
  return record;
}

/**
 * A unique-key violation: Prisma's P2002, or the database's own error where it reaches the rail
 * through the driver adapter or raw SQL (its message names the unique constraint).
 */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  ((err as { code?: string }).code === 'P2002' || /unique/i.test(String((err as Error).message)));

/**
 * What a create (or the transaction that makes it) returns, or the 409 `taken` builds when a unique
 * key holds the row already (the race a look-up before the create cannot close).
 */
export async function createUnique<T>(create: Promise<T>, taken: () => ApiError): Promise<T> {
  try {
    return await create;
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/**
 * Locks a record of the tenant until the transaction ends: the record whose children are numbered
 * (a request's packet versions, a draft's versions), so that children made at once read the
 * latest number after one another instead of all taking the same one. `table` is the model's
 * table name, a constant of the caller's.
 */
export async function lockRecord(tx: Tx, table: string, tenantId: string, id: string): Promise<void> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`lockRecord: ${table} is not a table name`);
  await tx.$queryRawUnsafe(`SELECT "id" FROM "${table}" WHERE "tenant_id" = $1 AND "id" = $2 FOR UPDATE`, tenantId, id);
}

/**
 * A transaction-scoped advisory lock on `key`: writers of something that has no row to lock yet
 * (a tenant's first declared state, the next version of a system's document) queue on it, so the
 * latest state each reads after it is the one the previous writer committed.
 */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  // `SELECT 1 ... FROM` a void function: the driver adapter cannot read a column of type void.
  await tx.$queryRawUnsafe('SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1, 0))', key);
}

/**
 * For a record a tenant has one of, under a slug unique across tenants (a trust page, a
 * whistleblowing intake): queues the tenant's writers on the tenant's lock of `scope`, then the
 * claims of `slug` on the slug's (always in that order, so no two writers wait on each other),
 * and refuses with `taken()` a slug another tenant holds. The caller then reads and writes its own
 * record, which nothing else changes until the commit.
 */
export async function claimSlug(
  tx: Tx,
  scope: string,
  who: { tenantId: string },
  slug: string,
  holderOf: (slug: string) => Promise<{ tenantId: string } | null>,
  taken: () => Error,
): Promise<void> {
  await lockKey(tx, `${scope}:${who.tenantId}`);
  await lockKey(tx, `${scope}_slug:${slug}`);
  const holder = await holderOf(slug);
  if (holder && holder.tenantId !== who.tenantId) throw taken();
}
