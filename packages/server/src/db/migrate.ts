import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './client.ts';

/** packages/server in the repository; the package's folder once installed. */
const PACKAGE_DIR = join(import.meta.dirname, '../..');
const WORKSPACE = join(PACKAGE_DIR, '../..');
/**
 * The SQL migrations: the repository's `prisma/migrations` when this is its packages/server, else the
 * copy a packed @svc/server carries in its own prisma/migrations (packages/server/scripts/pack-assets.mjs).
 */
export const MIGRATIONS_DIR = existsSync(join(WORKSPACE, 'pnpm-workspace.yaml'))
  ? join(WORKSPACE, 'prisma/migrations')
  : join(PACKAGE_DIR, 'prisma/migrations');

// Arbitrary constant: several API processes starting at once on one PostgreSQL take turns.
const LOCK_ID = 7_307_150_221;

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Applies the SQL migrations in order, each in one transaction together with its row in
 * `_prisma_migrations` (the table Prisma's CLI keeps), so a failed migration leaves no trace.
 * A migration whose file changed after it was applied stops the start with a clear error.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
  return db.session(async (s) => {
    const applied: string[] = [];
    if (db.kind === 'postgresql') await s.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    try {
      await s.execScript(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
      const rows = await s.query<{ migration_name: string; checksum: string }>(
        'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
      for (const name of names) {
        const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
        const checksum = createHash('sha256').update(sql).digest('hex');
        const previous = done.get(name);
        if (previous) {
          if (previous !== checksum) throw new Error(`migration ${name} was changed after it was applied`);
          continue;
        }
        const record = `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (${quote(randomUUID())}, ${quote(checksum)}, now(), ${quote(name)}, 1);`;
        try {
          await s.execScript(`BEGIN;\n${sql}\n;\n${record}\nCOMMIT;`);
        } catch (err) {
          await s.execScript('ROLLBACK').catch(() => {});
          throw new Error(`migration ${name} failed: ${(err as Error).message}`);
        }
        applied.push(name);
      }
    } finally {
      if (db.kind === 'postgresql') await s.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
    }
    return applied;
  });
}
