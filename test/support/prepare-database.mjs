// Migrates a PostgreSQL database and loads the content into it with the compiled server
// (packages/*/dist, built first when stale): the template of the suite's PostgreSQL pass, made by
// .ci/run beside the embedded pass so that the PostgreSQL pass's global setup has nothing to build
// (test/support/global-setup.ts). Usage: node --conditions=svc-dist test/support/prepare-database.mjs <url>
import { ensureJsBuild } from '../../scripts/build-js.mjs';

const url = process.argv[2];
if (!url?.startsWith('postgres')) throw new Error('usage: prepare-database.mjs <postgres url>');
await ensureJsBuild();
const { openDatabase, prepareDatabase } = await import('@svc/server');
const db = await openDatabase({ databaseUrl: url, dataDir: '', poolSize: 2 });
try {
  await prepareDatabase(db);
} finally {
  // A template database takes no copy while a session is open on it.
  await db.close();
}
