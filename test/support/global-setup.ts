import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The file filters of the command line (`pnpm test packages/`, `pnpm test test/web.test.ts`); empty
 * for a whole run. Vitest keeps them on its instance (not in the public types).
 */
function fileFilters(project: TestProject): string[] {
  return (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
}

/** Whether the run is of the pure rules alone (`pnpm test packages/`): no server, no snapshot to build. */
function onlyUnitTests(project: TestProject): boolean {
  const filters = fileFilters(project);
  return filters.length > 0 && filters.every((f) => f.replace(/^\.\//, '').startsWith('packages/'));
}

/**
 * The browser tests need Debian's Chromium. When it is missing, scripts/ensure-chromium.sh installs
 * it (as root, or with sudo); where it cannot, it says why and test/web.test.ts fails with the
 * instruction. Skipped when the selection does not include the browser tests.
 */
function ensureChromium(): void {
  const chromium = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
  try {
    accessSync(chromium, constants.X_OK);
    return;
  } catch {}
  try {
    execFileSync('sh', [join(ROOT, 'scripts/ensure-chromium.sh')], { stdio: 'inherit' });
  } catch {
    console.warn('chromium: could not be installed here; test/web.test.ts will say what to do');
  }
}

/**
 * The tests of the Python and Go SDKs need python3 with venv, mypy and go. When one is missing,
 * scripts/ensure-sdk-toolchains.sh installs it from Debian's packages (as root, or with sudo); where it
 * cannot, those tests say what to do (and fail under CI=true).
 */
function ensureSdkToolchains(): void {
  const has = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (
    has('go', ['version']) &&
    (has('/usr/bin/mypy', ['--version']) || has('mypy', ['--version'])) &&
    has('python3', ['-c', 'import venv, ensurepip'])
  )
    return;
  try {
    execFileSync('sh', [join(ROOT, 'scripts/ensure-sdk-toolchains.sh')], { stdio: 'inherit' });
  } catch {
    console.warn('sdk toolchains: could not be installed here; test/sdk-python.test.ts and test/sdk-go.test.ts will say what to do');
  }
}

/**
 * On PostgreSQL, a database migrated and loaded with the content once, as a template: each file
 * that needs a database of its own (test/support/server.ts, createIsolatedDatabase) copies it with
 * CREATE DATABASE ... TEMPLATE (a file copy) instead of migrating and loading the content again.
 */
async function postgresTemplate(base: string): Promise<() => Promise<void>> {
  const { openDatabase, prepareDatabase } = await import('@svc/server');
  const { adminQuery } = await import('./pg-admin.ts');
  const name = `svc_test_template_${process.pid}`;
  const admin = (sql: string) => adminQuery(base, sql);
  await admin(`DROP DATABASE IF EXISTS ${name}`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 2 });
  try {
    await prepareDatabase(db);
  } finally {
    await db.close();
  }
  process.env.SVC_TEST_PG_TEMPLATE = name;
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * On the embedded pass, migrates an in-memory database and loads the content once, and hands the
 * dump to every test server (test/support/server.ts) through SVC_TEST_PGLITE_SNAPSHOT: each file's
 * server then starts in about a second instead of creating, migrating and loading its own.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // Run once per run (a project of its own would run it again).
  if (process.env.SVC_TEST_SETUP_DONE) return () => {};
  process.env.SVC_TEST_SETUP_DONE = '1';
  const removeRunTmp = runTmpdir();
  if (onlyUnitTests(project)) return removeRunTmp;
  if (process.env.DATABASE_URL) {
    const base = process.env.DATABASE_URL;
    process.env.SVC_TEST_RUN = String(process.pid);
    // Made beforehand by the caller (.ci/run, with test/support/prepare-database.mjs): used as it is.
    const dropTemplate = process.env.SVC_TEST_PG_TEMPLATE ? async () => {} : await postgresTemplate(base);
    return async () => {
      await dropRunDatabases(base, process.env.SVC_TEST_RUN ?? '');
      await dropTemplate();
      removeRunTmp();
    };
  }
  // The browser and the SDKs' tests run on the embedded pass only (vitest.config.ts).
  ensureChromium();
  ensureSdkToolchains();
  const { buildPgliteSnapshot } = await import('@svc/server');
  const file = join(tmpdir(), 'pglite-snapshot.tar');
  writeFileSync(file, Buffer.from(await (await buildPgliteSnapshot()).arrayBuffer()));
  process.env.SVC_TEST_PGLITE_SNAPSHOT = file;
  return removeRunTmp;
}

/**
 * The databases of its own a file made on PostgreSQL (test/support/server.ts, createIsolatedDatabase)
 * are dropped when it closes them; a file that failed before it could leaves them. They are named
 * with the run, and whatever is left of this run's is dropped at its end.
 */
async function dropRunDatabases(base: string, run: string): Promise<void> {
  const { adminQuery, adminRows } = await import('./pg-admin.ts');
  const left = await adminRows<{ datname: string }>(
    base,
    `SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_test\\_%\\_' || $1 || '\\_%'`,
    [run],
  );
  for (const { datname } of left) await adminQuery(base, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
}

/**
 * One temporary folder for the whole run, removed at its end: TMPDIR points into it, so the folders
 * the tests, their servers and the processes they spawn make with os.tmpdir() (credentials files,
 * data folders of embedded databases, copies of the content, browser profiles) go with it, however
 * a file ends. They were left in the machine's /tmp, about half a gigabyte a pass.
 */
function runTmpdir(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-run-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
