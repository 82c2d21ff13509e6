import { createHash } from 'node:crypto';
import type { Tx } from './types.ts';

/**
 * SQL without the ORM, for the hot paths (the resource kit's writes and reads, idempotency, the
 * audit append, the tenant framework list). Prisma stays the way to everything else; these paths
 * run per request, and Prisma's client adds several hundred microseconds of CPU per statement and
 * more per interactive transaction, which on two cores is the difference between half and a fifth
 * of what the database can serve.
 *
 * The same statements run on PostgreSQL (pg) and the embedded PGlite. Values go in as JavaScript
 * strings, numbers, booleans, arrays (SQL arrays) or null; JSON as a string cast with `::jsonb`;
 * timestamps as ISO strings (the columns are `timestamp(3)` holding UTC). Rows come back with
 * their column names; `timestamp` columns as UTC `Date`s, `jsonb` parsed, arrays as arrays.
 */
export interface Sql {
  /**
   * `prepare`: the statement is one of the service's fixed hot statements; on PostgreSQL it is
   * prepared once per connection (named by a hash of its text) so the server parses and plans it
   * once instead of on every request. Leave it off for statements whose text varies without bound.
   * On the embedded database every statement is prepared, in a cache of the most recently used
   * (pglite-prepared.ts), and the flag changes nothing.
   *
   * `commit`: the statement is the last of its transaction (`Database.transaction`). On PostgreSQL
   * the COMMIT is written right behind it, without waiting for its answer (the connections
   * pipeline), so the locks the transaction holds (a tenant's audit-chain head) are released one
   * round trip sooner. When the statement fails, the server ends the transaction with a rollback;
   * a statement after it in the same transaction throws. Elsewhere (outside such a transaction, in
   * Prisma's, on the embedded database) the flag changes nothing: the transaction commits when its
   * function returns.
   */
  query<T = Record<string, unknown>>(text: string, values?: readonly unknown[], opts?: QueryOptions): Promise<T[]>;
}

export interface QueryOptions {
  prepare?: boolean;
  commit?: boolean;
  /**
   * A statement to run right before this one, in the same transaction, sent in the same write on
   * PostgreSQL (not awaited apart; when it fails, this one reports the aborted transaction). It runs
   * as a statement of its own, so this one's snapshot is taken after it: a wait for a lock there
   * lets this one see what the holder committed. Elsewhere it runs first.
   */
  precededBy?: { text: string; values: readonly unknown[] };
}

const statementNames = new Map<string, string>();

/** A stable name for a prepared statement: the same text gets the same name in every process. */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return name;
}

/** A `timestamp` (without time zone) column holds UTC: read it as such whatever the process's TZ. */
export function parseUtcTimestamp(s: string): Date {
  return new Date(`${s.replace(' ', 'T')}Z`);
}

/** The OID of `timestamp without time zone`. */
export const TIMESTAMP_OID = 1114;

/** Statements of a Prisma transaction, for code that serves both worlds (recordChange). */
export function sqlOf(executor: Tx | Sql): Sql {
  if (!('$queryRawUnsafe' in executor)) return executor;
  return {
    query: async <T>(text: string, values: readonly unknown[] = [], opts?: QueryOptions) => {
      if (opts?.precededBy) await executor.$queryRawUnsafe(opts.precededBy.text, ...opts.precededBy.values);
      return executor.$queryRawUnsafe<T[]>(text, ...values);
    },
  };
}

/** Parameters of one SQL statement, numbered as they are added. */
export class Params {
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
