import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { compactDump } from './pglite-dump.ts';
import { type PreparedStatements, preparedStatements } from './pglite-prepared.ts';
import { completingTransactions } from './response-completion.ts';
import { parseUtcTimestamp, type QueryOptions, type Sql, statementName, TIMESTAMP_OID } from './sql.ts';
import type { Prisma } from './types.ts';

export type { Prisma, Tx } from './types.ts';

export interface SqlSession {
  /** Runs a script of several SQL statements. */
  execScript(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  readonly kind: 'pglite' | 'postgresql';
  readonly prisma: Prisma;
  /** Statements outside any transaction, without the ORM (see sql.ts). */
  readonly sql: Sql;
  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** Runs `fn` on one dedicated connection, outside Prisma (migrations, advisory locks). */
  session<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /** PGlite only: the whole cluster as a tarball, checkpointed (pglite-dump.ts), which `snapshot` starts another one from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** Folder of the embedded database; `memory://` keeps it in memory. */
  dataDir: string;
  poolSize: number;
  /**
   * PGlite starts from this dump (`Database.dump`) instead of an empty cluster: in memory, or in a
   * folder that holds no cluster yet (a folder with one opens it as it is).
   */
  snapshot?: Blob | undefined;
}

/**
 * Interactive transactions wait up to 10 s for a connection and may run 30 s: writes of one tenant
 * queue on its audit-chain lock, and under a burst the defaults (2 s, 5 s) would fail requests
 * that only had to wait their turn.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/** pg's parsers, with `timestamp` read as UTC (pg's own reads it in the process's time zone). */
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID ? parseUtcTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
const PGLITE_OPTIONS = { parsers: { [TIMESTAMP_OID]: parseUtcTimestamp } };

/**
 * postgresql.conf of the embedded database (PGlite writes it into the cluster at every start).
 * PostgreSQL's default buffer pool is 128 MB, allocated in the WebAssembly heap and cleared at every
 * start, and it holds a second copy of pages that already sit in memory: in the in-memory file
 * system, or for a database in a folder in the operating system's page cache (PGlite reads the
 * folder through Node's file calls). 16 MB starts an in-memory database in 0.9 s instead of 1.4 s;
 * 32 MB for one in a folder cut the process's resident memory at idle by about 100 MB.
 */
const IN_MEMORY_POSTGRESQL_CONF = 'shared_buffers = 16MB';
const ON_DISK_POSTGRESQL_CONF = 'shared_buffers = 32MB';

/** A transaction's state on its connection: whether its COMMIT was already sent behind a statement. */
interface PgTx {
  committed: boolean;
}

/**
 * Statements on the pool, or on one connection within a transaction (`tx`). In a transaction, a
 * statement marked `commit` (sql.ts) has the COMMIT written behind it on the pipelined connection;
 * when the statement fails, the server answers that COMMIT with a rollback.
 */
function pgSql(q: pg.Pool | pg.PoolClient, tx?: PgTx): Sql {
  return {
    query: async <T>(text: string, values?: readonly unknown[], opts?: QueryOptions) => {
      if (tx?.committed) throw new Error('a statement after its transaction committed: only its last statement may carry `commit`');
      const result = q.query({
        text,
        values: values as unknown[],
        types: PG_TYPES,
        ...(opts?.prepare ? { name: statementName(text) } : {}),
      });
      if (!tx || !opts?.commit) return (await result).rows as T[];
      tx.committed = true;
      const commit = q.query('COMMIT');
      // Awaited after the statement: when the statement fails, its error is the one to report.
      commit.catch(() => {});
      const rows = (await result).rows as T[];
      await commit;
      return rows;
    },
  };
}

/**
 * Runs `fn` on a connection checked out of `pool` and releases it when `fn` settles; a connection
 * that failed meanwhile (or that `fn` calls `broke` for) is destroyed instead of returned. The pool
 * listens for errors on idle connections only: a connection lost while checked out (the server
 * restarted between two statements) would otherwise be an unhandled 'error' event and end the
 * process.
 */
async function onConnection<T>(pool: pg.Pool, fn: (conn: pg.PoolClient, broke: () => void) => Promise<T>): Promise<T> {
  const conn = await pool.connect();
  let broken = false;
  const broke = () => {
    broken = true;
  };
  conn.on('error', broke);
  try {
    return await fn(conn, broke);
  } finally {
    conn.off('error', broke);
    conn.release(broken);
  }
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize,
      // Bounded like Prisma's maxWait: with the database gone or the pool exhausted a request fails
      // (503) instead of waiting without end; keepalive finds peers that vanished without a FIN.
      connectionTimeoutMillis: TRANSACTION_OPTIONS.maxWait,
      keepAlive: true,
      // A statement is written without waiting for the answer to the one before it on the same
      // connection: every caller awaits its statements one by one, except a transaction's last
      // statement and its COMMIT (pgSql), which share one round trip.
      pipeline: true,
    });
    // A broken idle connection must not crash the process; the pool drops it and opens a new one
    // on demand, which prepares its statements again (pg tracks them per connection).
    pool.on('error', () => {});
    const prisma = completingTransactions(new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS }));
    return {
      kind: 'postgresql',
      prisma,
      sql: pgSql(pool),
      transaction: (fn) =>
        onConnection(pool, async (conn, broke) => {
          const tx: PgTx = { committed: false };
          try {
            await conn.query('BEGIN');
            const out = await fn(pgSql(conn, tx));
            if (!tx.committed) await conn.query('COMMIT');
            return out;
          } catch (err) {
            // After a COMMIT sent behind a failed statement the transaction has ended: this is a no-op.
            await conn.query('ROLLBACK').catch(broke);
            throw err;
          }
        }),
      session: (fn) =>
        onConnection(pool, (conn) =>
          fn({
            execScript: async (sql) => {
              await conn.query(sql);
            },
            query: async (sql, params) => (await conn.query(sql, params)).rows,
          }),
        ),
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const inMemory = opts.dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(opts.dataDir, { recursive: true });
  const fresh = inMemory || !existsSync(join(opts.dataDir, 'PG_VERSION'));
  // Loaded only for the embedded database: a service on PostgreSQL does not hold PGlite.
  const [pglite, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  const { PGlite } = pglite;
  const client = await PGlite.create(opts.dataDir, {
    ...(opts.snapshot && fresh ? { loadDataDir: opts.snapshot } : {}),
    postgresqlconf: inMemory ? IN_MEMORY_POSTGRESQL_CONF : ON_DISK_POSTGRESQL_CONF,
  });
  // The service's statements and Prisma's as named prepared statements (pglite-prepared.ts); `prepare`
  // is for PostgreSQL, where a prepared statement is kept per connection without bound.
  const statements = preparedStatements(client, pglite, PGLITE_OPTIONS);
  const prisma = completingTransactions(
    new PrismaClient({ adapter: new PrismaPGlite(statements.forAdapter), transactionOptions: TRANSACTION_OPTIONS }),
  );
  const liteSql = (run: PreparedStatements['query']): Sql => ({
    query: <T>(text: string, values: readonly unknown[] = []) => run<T>(text, values),
  });
  return {
    kind: 'pglite',
    prisma,
    sql: liteSql(statements.query),
    // PGlite runs one transaction at a time (Prisma's adapter takes the same lock).
    transaction: (fn) => statements.transaction(() => fn(liteSql(statements.queryInTransaction))),
    session: (fn) =>
      fn({
        execScript: async (sql) => {
          await client.exec(sql);
        },
        query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
      }),
    dump: () => compactDump(client),
    close: async () => {
      await prisma.$disconnect();
      await client.close();
    },
  };
}
