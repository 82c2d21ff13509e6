import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Database } from './database.ts';
import { completingTransactions } from './response-completion.ts';
import { parseUtcTimestamp, type QueryOptions, type Sql, statementName, TIMESTAMP_OID } from './sql.ts';

/** pg's parsers, with `timestamp` read as UTC (pg's own reads it in the process's time zone). */
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID ? parseUtcTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
/**
 * A transaction's state on its connection: whether its BEGIN was sent (with its first statement)
 * and whether its COMMIT was already sent behind a statement.
 */
interface PgTx {
  begun: boolean;
  committed: boolean;
}

/**
 * Runs `send` with the connection's socket corked: the messages of the statements it submits (the
 * connections pipeline) leave in one write when it returns, instead of one system call each.
 */
function corked<T>(conn: pg.PoolClient, send: () => T): T {
  const stream = (conn as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  stream?.cork?.();
  try {
    return send();
  } finally {
    stream?.uncork?.();
  }
}

/** A statement's promise whose failure is reported by the statement awaited beside it. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/**
 * Statements on the pool, or on one connection within a transaction (`tx`). In a transaction, the
 * BEGIN is written with its first statement, and a statement marked `commit` (sql.ts) has the
 * COMMIT written behind it, both in the statement's own write, without waiting for an answer
 * between them (the connection pipelines): a transaction of two statements is two round trips and
 * two writes. When a statement fails, the server answers a COMMIT behind it with a rollback.
 */
function pgSql(q: pg.Pool | pg.PoolClient, tx?: PgTx): Sql {
  return {
    query: async <T>(text: string, values?: readonly unknown[], opts?: QueryOptions) => {
      if (tx?.committed) throw new Error('a statement after its transaction committed: only its last statement may carry `commit`');
      const config = {
        text,
        values: values as unknown[],
        types: PG_TYPES,
        ...(opts?.prepare ? { name: statementName(text) } : {}),
      };
      if (!tx) {
        if (opts?.precededBy) await q.query({ text: opts.precededBy.text, values: opts.precededBy.values as unknown[], types: PG_TYPES });
        return (await q.query(config)).rows as T[];
      }
      const conn = q as pg.PoolClient;
      const begin = !tx.begun;
      const commit = Boolean(opts?.commit);
      tx.begun = true;
      if (commit) tx.committed = true;
      const before = opts?.precededBy;
      const [began, preceded, result, committed] = corked(conn, () => [
        begin ? quiet(conn.query('BEGIN')) : undefined,
        before
          ? quiet(conn.query({ text: before.text, values: before.values as unknown[], types: PG_TYPES, name: statementName(before.text) }))
          : undefined,
        conn.query(config),
        commit ? quiet(conn.query('COMMIT')) : undefined,
      ]);
      // Awaited after the statement: when the statement fails, its error is the one to report.
      const rows = (await result).rows as T[];
      await began;
      await preceded;
      await committed;
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

/** The database on PostgreSQL: a pool of `poolSize` connections, Prisma on the same pool. */
export function openPostgres(databaseUrl: string, poolSize: number, transactionOptions: { maxWait: number; timeout: number }): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    // Bounded like Prisma's maxWait: with the database gone or the pool exhausted a request fails
    // (503) instead of waiting without end; keepalive finds peers that vanished without a FIN.
    connectionTimeoutMillis: transactionOptions.maxWait,
    keepAlive: true,
    // A statement is written without waiting for the answer to the one before it on the same
    // connection: every caller awaits its statements one by one, except a transaction's last
    // statement and its COMMIT (pgSql), which share one round trip.
    pipeline: true,
  });
  // A broken idle connection must not crash the process; the pool drops it and opens a new one
  // on demand, which prepares its statements again (pg tracks them per connection).
  pool.on('error', () => {});
  const prisma = completingTransactions(new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions }));
  return {
    kind: 'postgresql',
    prisma,
    sql: pgSql(pool),
    transaction: (fn) =>
      onConnection(pool, async (conn, broke) => {
        // BEGIN leaves with the first statement (pgSql): a transaction that ran none sends nothing.
        const tx: PgTx = { begun: false, committed: false };
        try {
          const out = await fn(pgSql(conn, tx));
          if (tx.begun && !tx.committed) await conn.query('COMMIT');
          return out;
        } catch (err) {
          // After a COMMIT sent behind a failed statement the transaction has ended: this is a no-op.
          if (tx.begun) await conn.query('ROLLBACK').catch(broke);
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
