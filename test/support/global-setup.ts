import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPgliteSnapshot } from '@svc/server';

/**
 * On the embedded pass, migrates an in-memory database and loads the content once, and hands the
 * dump to every test server (test/support/server.ts) through SVC_TEST_PGLITE_SNAPSHOT: each file's
 * server then starts in about a second instead of creating, migrating and loading its own.
 */
export default async function setup(): Promise<() => void> {
  if (process.env.DATABASE_URL) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'svc-snapshot-'));
  const file = join(dir, 'pglite.tar');
  writeFileSync(file, Buffer.from(await (await buildPgliteSnapshot()).arrayBuffer()));
  process.env.SVC_TEST_PGLITE_SNAPSHOT = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
