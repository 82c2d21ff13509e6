import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Database } from './database.ts';
import { compactDump } from './pglite-dump.ts';
import { type PreparedStatements, preparedStatements } from './pglite-prepared.ts';
import { queryCompilerModule } from './query-compiler.ts';
import { completingTransactions } from './response-completion.ts';
import { parseUtcTimestamp, type QueryOptions, type Sql, TIMESTAMP_OID } from './sql.ts';
import { pgliteWasmModule } from './wasm-modules.ts';

export type { Database, SqlSession } from './database.ts';
export type { Prisma, Tx } from './types.ts';

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

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  // Prisma's query compiler compiles on a background thread while the database opens (its first
  // query awaits the same compilation; a failure is reported there).
  queryCompilerModule().catch(() => {});
  // Loaded only for PostgreSQL, as PGlite is only for the embedded database: each start imports one.
  if (opts.databaseUrl) return (await import('./postgresql.ts')).openPostgres(opts.databaseUrl, opts.poolSize, TRANSACTION_OPTIONS);
  const inMemory = opts.dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(opts.dataDir, { recursive: true });
  const fresh = inMemory || !existsSync(join(opts.dataDir, 'PG_VERSION'));
  // Loaded only for the embedded database: a service on PostgreSQL does not hold PGlite.
  const [pglite, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  const { PGlite } = pglite;
  // Compiled on V8's background thread since the CLI's prewarm (wasm-modules.ts), or from now;
  // failing that, PGlite compiles its own files.
  const [pgliteWasm, initdbWasm] = await Promise.all(
    (['pglite.wasm', 'initdb.wasm'] as const).map((file) => pgliteWasmModule(file).catch(() => undefined)),
  );
  const client = await PGlite.create(opts.dataDir, {
    ...(pgliteWasm ? { pgliteWasmModule: pgliteWasm } : {}),
    ...(initdbWasm ? { initdbWasmModule: initdbWasm } : {}),
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
    query: async <T>(text: string, values: readonly unknown[] = [], opts?: QueryOptions) => {
      if (opts?.precededBy) await run(opts.precededBy.text, opts.precededBy.values);
      return run<T>(text, values);
    },
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
