import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, issueOperatorCredential, openDatabase, type RunningServer, startServer } from '@svc/server';
import { adminQuery } from './pg-admin.ts';

export interface TestServer {
  server: RunningServer;
  url: string;
  operatorToken: string;
  close(): Promise<void>;
}

/**
 * A real server on a random port: PGlite in memory by default, the PostgreSQL of DATABASE_URL when
 * it is set (the suite runs on both). Rate limits for anonymous and operator calls are lifted so
 * that the suite measures the tenant limits it sets up itself.
 */
export async function startTestServer(env: NodeJS.ProcessEnv = {}, dataDir = 'memory://'): Promise<TestServer> {
  return start(env, dataDir, true);
}

/**
 * On the embedded pass, the in-memory database the servers of this worker share, opened once from
 * the snapshot: as on the PostgreSQL pass, where the servers of every file share one database, each
 * file works in tenants of its own, and a file that must not share gets a database of its own
 * (startIsolatedTestServer). Opening one took a second of CPU at each of about 200 server starts
 * of the pass (untarring the 55 MB dump into PGlite's file system, then starting PostgreSQL).
 */
let sharedEmbedded: Promise<Database> | undefined;
function sharedEmbeddedDatabase(): Promise<Database> {
  sharedEmbedded ??= openDatabase({ databaseUrl: undefined, dataDir: 'memory://', poolSize: 1, snapshot: snapshot() });
  return sharedEmbedded;
}

async function start(env: NodeJS.ProcessEnv, dataDir: string, share: boolean): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const shared = share && !process.env.DATABASE_URL && !env.DATABASE_URL && dataDir === 'memory://' && snapshot() !== undefined;
  const server = await startServer({
    // No webhook dispatcher unless a test asks for one (SVC_ROLE=all): on a shared PostgreSQL it
    // would claim and send the deliveries of other test files' servers. No idle collection either:
    // a worker runs many files' servers in one process, so one server being idle says nothing of
    // the process (svc serve runs one; platform/idle-collector.test.ts tests it).
    env: { ...process.env, SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'silent', SVC_ROLE: 'api', SVC_IDLE_GC_SECONDS: '0', ...env },
    config: {
      port: 0,
      ...(process.env.DATABASE_URL ? {} : { dataDir }),
      credentialsFile: join(dir, 'credentials.json'),
    },
    anonymousPerSecond: 100_000,
    operatorPerSecond: 100_000,
    ...(shared ? { database: await sharedEmbeddedDatabase() } : snapshot() ? { pgliteSnapshot: snapshot() } : {}),
  });
  const { token } = await issueOperatorCredential(server.db.prisma, 'test suite');
  return {
    server,
    url: server.url,
    operatorToken: token,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let snapshotBlob: Blob | undefined;
/**
 * The migrated, content-loaded database test/support/global-setup.ts built for the embedded pass:
 * a server on a new embedded database (in memory or in a new folder) starts from it. PGlite reads
 * the dump with `arrayBuffer()`, which re-reads a 70 MB Blob in chunks at every start (0.6 s): this
 * one hands it the bytes read once.
 */
export function snapshot(): Blob | undefined {
  const file = process.env.SVC_TEST_PGLITE_SNAPSHOT;
  if (!file || process.env.DATABASE_URL) return undefined;
  if (!snapshotBlob) {
    const bytes = readFileSync(file);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    // What PGlite reads of a Blob (its bytes). The same bytes every time: PGlite only reads them
    // (untars them into its file system), and a 70 MB copy per start was a tenth of its CPU.
    snapshotBlob = { size: buffer.byteLength, type: 'application/x-tar', arrayBuffer: async () => buffer } as unknown as Blob;
  }
  return snapshotBlob;
}

/**
 * Fills a new folder of an embedded database with the suite's snapshot (the dump is a tar of the
 * cluster's folder), so that a `svc serve` spawned on it starts as on existing data instead of
 * migrating and loading the content. For files whose subject is not the first start. Returns
 * whether it did (the embedded pass has a snapshot; the PostgreSQL pass does not).
 */
export function seedEmbeddedDataDir(dataDir: string): boolean {
  const file = process.env.SVC_TEST_PGLITE_SNAPSHOT;
  if (!file || process.env.DATABASE_URL) return false;
  mkdirSync(dataDir, { recursive: true });
  execFileSync('tar', ['-xf', file, '-C', dataDir], { stdio: 'ignore' });
  return true;
}

let isolated = 0;

/**
 * A PostgreSQL database of its own under DATABASE_URL's server, for a file that must not share the
 * suite's one (see startIsolatedTestServer); undefined on the embedded pass.
 */
export async function createIsolatedDatabase(tag = 'isolated'): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  // Named with the run (test/support/global-setup.ts drops what a failed file left of it) and the worker.
  const name = `svc_test_${tag}_${process.env.SVC_TEST_RUN ?? 'x'}_${process.pid}_${++isolated}`;
  const admin = (sql: string) => adminQuery(base, sql);
  await admin(`DROP DATABASE IF EXISTS ${name}`);
  // A copy of the migrated, content-loaded template the global setup made (test/support/global-setup.ts).
  const template = process.env.SVC_TEST_PG_TEMPLATE;
  await admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A test server with a database of its own. On PostgreSQL the suite's files share one database,
 * and a few operations reach every tenant in it (rotating the signing key or an operator
 * credential appends to every tenant chain; a dead-letter replay without a tenant replays all): a
 * file that does those, or walks every operator route, gets its own database, dropped at close.
 * On PGlite it gets an in-memory database of its own, where the other servers of its worker share one.
 */
export async function startIsolatedTestServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer & { databaseUrl: string | undefined }> {
  const db = await createIsolatedDatabase();
  if (!db) return { ...(await start(env, 'memory://', false)), databaseUrl: undefined };
  const ts = await startTestServer({ ...env, DATABASE_URL: db.url });
  return {
    ...ts,
    databaseUrl: db.url,
    close: async () => {
      await ts.close();
      await db.drop();
    },
  };
}

/**
 * A database that outlives its servers, for a test that starts the service on it more than once (a
 * restart, a start on other content): a PostgreSQL database of its own, or on the embedded pass a
 * data folder whose first start copies the suite's snapshot.
 */
export async function restartableDatabase(
  tag: string,
): Promise<{ start(env?: NodeJS.ProcessEnv): Promise<TestServer>; drop(): Promise<void> }> {
  const db = await createIsolatedDatabase(tag);
  const dataDir = db ? undefined : mkdtempSync(join(tmpdir(), `svc-${tag}-db-`));
  return {
    start: (env = {}) => startTestServer({ ...(db ? { DATABASE_URL: db.url } : {}), ...env }, dataDir),
    drop: async () => db?.drop(),
  };
}
