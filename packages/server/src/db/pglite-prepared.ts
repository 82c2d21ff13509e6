/**
 * Every statement of the service's own SQL (sql.ts) on the embedded database, as a named prepared
 * statement. PGlite's `query` sends every statement as an unnamed one (Parse, Describe, Bind,
 * Describe, Execute, Sync, each a separate call into the WebAssembly), so PostgreSQL parses and
 * plans it again each time; in WebAssembly that is most of a statement's cost (the tenant
 * framework list: 1.5 ms a call, 0.6 ms prepared, measured on the same data one after the other).
 * Here a statement is parsed once per database and then runs as one batch of Bind, Describe,
 * Execute and Sync.
 *
 * The statements kept are the most recently used (`CACHE_SIZE`, as PostgreSQL drivers keep a
 * statement cache per connection): a statement whose text varies (a filtered list) takes a place
 * and is closed in PostgreSQL when it falls out. Values are serialized and rows parsed with
 * PGlite's own serializers and parsers, as its `query` does, so both give the same rows; the
 * parsers are merged once, where PGlite's `query` spreads them at every call.
 */
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';

/** The parts of the PGlite module this uses (loaded only for the embedded database). */
export type PgliteProtocol = Pick<typeof import('@electric-sql/pglite'), 'protocol' | 'parse'>;

/** How many prepared statements a database keeps (PostgreSQL holds each one's parse tree and plans). */
export const CACHE_SIZE = 256;

export interface PreparedStatements {
  /** Outside a transaction: waits for a running transaction, as PGlite's own `query` does. */
  query<T>(text: string, values: readonly unknown[]): Promise<T[]>;
  /** Inside `transaction`'s callback (below), which already holds the transaction lock. */
  queryInTransaction<T>(text: string, values: readonly unknown[]): Promise<T[]>;
  /**
   * A transaction: PGlite's transaction lock held through it, BEGIN, the callback (its statements
   * through `queryInTransaction`), then COMMIT, or ROLLBACK when the callback throws. As PGlite's own
   * `transaction`, but BEGIN, COMMIT and ROLLBACK are one call into PostgreSQL each: PGlite sends a
   * Sync of its own after each of them, which a simple Query does not need (it ends with
   * ReadyForQuery by itself).
   */
  transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
  /**
   * The client for Prisma's PGlite adapter: PGlite's `query`, `exec` and `transaction` (what the
   * adapter calls), with its statements prepared here, each with the adapter's own options.
   */
  readonly forAdapter: PGlite;
}

/** What a transaction's callback holds: PGlite's `Transaction` as far as Prisma's adapter uses it. */
export interface PgliteTransaction {
  query<T>(text: string, values?: unknown[], opts?: QueryOptions): Promise<Results<T>>;
  /** Rolls back now; the transaction is closed and its callback's return commits nothing. */
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** Numbers the statement sets of this process, so that two on one database never name a statement alike. */
let sets = 0;

/** The messages of one batch, as one buffer (a Buffer is a Uint8Array). */
const concat = (parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

export function preparedStatements(
  client: PGlite,
  { protocol, parse }: PgliteProtocol,
  options: QueryOptions,
  cacheSize = CACHE_SIZE,
): PreparedStatements {
  const { serialize } = protocol;
  // PGlite's parseResults merges the options' parsers into its own with a spread at every call (a
  // tenth of a GET's CPU in a profile): merged here once per parser set (the service's, the
  // adapter's: each one object for the life of the process) instead.
  type Parsers = Record<number | string, (x: string, typeId?: number) => unknown>;
  const merged = new WeakMap<object, Parsers>();
  const parsersFor = (own: QueryOptions['parsers']): Parsers => {
    if (!own) return client.parsers;
    let m = merged.get(own);
    if (!m) {
      m = { ...client.parsers, ...own };
      merged.set(own, m);
    }
    return m;
  };
  /** The statements prepared on this database by text, least recently used first: name and parameter type OIDs. */
  const prepared = new Map<string, { name: string; types: number[] }>();
  /** Statements to close in PostgreSQL with the next Parse: fallen out of the cache, or whose plan went stale. */
  const closing: string[] = [];
  const prefix = `pgl${++sets}_`;
  let named = 0;

  async function run<T>(text: string, values: readonly unknown[], opts: QueryOptions): Promise<Results<T>> {
    let statement = prepared.get(text);
    if (statement) {
      prepared.delete(text);
      prepared.set(text, statement);
    } else {
      if (prepared.size >= cacheSize) {
        const [oldest, old] = prepared.entries().next().value as [string, { name: string }];
        prepared.delete(oldest);
        closing.push(old.name);
      }
      const batch = closing.splice(0).map((name) => serialize.close({ type: 'S', name }));
      const name = `${prefix}${++named}`;
      // Sync in the same batch: after an error PostgreSQL skips to it, and the session is whole again.
      batch.push(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync());
      const described = await client.execProtocol(concat(batch), { syncToFs: false });
      statement = { name, types: parse.parseDescribeStatementResults(described.messages) };
      prepared.set(text, statement);
    }
    const { name, types } = statement;
    const params = values.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = client.serializers[types[i] ?? 0];
      return serializer ? serializer(v) : String(v);
    });
    let messages: Awaited<ReturnType<PGlite['execProtocol']>>['messages'];
    try {
      ({ messages } = await client.execProtocol(
        concat([
          serialize.bind({ statement: name, values: params }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      ));
    } catch (err) {
      // "cached plan must not change result type": a table it reads changed shape since it was
      // prepared. Prepared again at its next call.
      if ((err as { code?: string }).code === '0A000' && prepared.get(text) === statement) {
        prepared.delete(text);
        closing.push(name);
      }
      throw err;
    }
    const { parsers, ...rest } = opts;
    return parse.parseResults(messages, parsersFor(parsers), rest)[0] as Results<T>;
  }

  const outside = <T>(text: string, values: readonly unknown[], opts: QueryOptions): Promise<Results<T>> =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const results = await run<T>(text, values, opts);
        await client.syncToFs();
        return results;
      }),
    );
  const inside = <T>(text: string, values: readonly unknown[], opts: QueryOptions): Promise<Results<T>> =>
    client._runExclusiveQuery(() => run<T>(text, values, opts));
  const adapterOptions = (opts: QueryOptions | undefined): QueryOptions => {
    if (opts?.serializers || opts?.paramTypes || opts?.blob) throw new Error('serializers, paramTypes and blob are not supported here');
    return opts ?? {};
  };

  /** A simple Query (BEGIN, COMMIT, ROLLBACK): one call; it ends with ReadyForQuery, no Sync needed. */
  const simple = async (text: 'BEGIN' | 'COMMIT' | 'ROLLBACK'): Promise<string | undefined> => {
    const { messages } = await client._runExclusiveQuery(() => client.execProtocol(serialize.query(text), { syncToFs: false }));
    const done = messages.find((m) => m.name === 'commandComplete') as { text?: string } | undefined;
    return done?.text;
  };

  const transaction = <T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> =>
    client._runExclusiveTransaction(async () => {
      await simple('BEGIN');
      let closed = false;
      const tx: PgliteTransaction = {
        query: async <R>(text: string, values: unknown[] = [], opts?: QueryOptions) => {
          if (closed) throw new Error('Transaction is closed');
          return inside<R>(text, values, adapterOptions(opts));
        },
        rollback: async () => {
          if (closed) throw new Error('Transaction is closed');
          await simple('ROLLBACK');
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const out = await fn(tx);
        if (!closed) {
          closed = true;
          // A transaction in which a statement failed (its error caught by the callback) ends in
          // a ROLLBACK whatever ends it: said as PGlite's own transaction says it, with an error.
          if ((await simple('COMMIT')) === 'ROLLBACK') throw new Error('the transaction was aborted: its COMMIT rolled back');
        }
        return out;
      } catch (err) {
        if (!closed) {
          closed = true;
          await simple('ROLLBACK');
        }
        throw err;
      }
    });

  const forAdapter = {
    query: async <T>(text: string, values: unknown[] = [], opts?: QueryOptions) => outside<T>(text, values, adapterOptions(opts)),
    exec: (text: string, opts?: QueryOptions) => client.exec(text, opts),
    transaction,
  } as unknown as PGlite;

  return {
    query: async (text, values) => (await outside<never>(text, values, options)).rows,
    queryInTransaction: async (text, values) => (await inside<never>(text, values, options)).rows,
    transaction,
    forAdapter,
  };
}
