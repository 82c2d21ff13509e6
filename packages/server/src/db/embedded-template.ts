/**
 * The template a new embedded database starts from. Creating a PostgreSQL cluster in PGlite
 * (initdb in WebAssembly), applying the migrations and loading the dictionaries takes 10 s and more
 * on a small machine, and gives the same result every time for the same migrations, content and
 * PGlite: the first start on an empty data folder saves that result (a dump of the cluster, before
 * any tenant, key or secret exists) in the cache folder, named by the hash of the three; a later
 * start on an empty data folder unpacks it instead (about 3 s), then migrates and loads content as
 * always (both find nothing to do). A template that cannot be read or written costs the time only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { Database } from './client.ts';
import { MIGRATIONS_DIR } from './migrate.ts';

export interface EmbeddedTemplate {
  /** Where it is kept (or will be). */
  file: string;
  /** The dump, when the cache holds one. */
  dump: Blob | undefined;
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The hash of what a template holds: PGlite's version, the migrations and the loaded content. */
function templateKey(contentFilesHash: string): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\0`);
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    const file = join(MIGRATIONS_DIR, name, 'migration.sql');
    if (existsSync(file)) hash.update(`${name}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.update(contentFilesHash).digest('hex').slice(0, 24);
}

/**
 * The template for an embedded database in `dataDir`, or undefined when none applies: a database
 * in memory, or a data folder that already holds a cluster.
 */
export function embeddedTemplate(
  config: { dataDir: string; cacheDir: string },
  /** The content files' hash (content/paths.ts contentFilesHash). */
  contentFilesHash: string,
  log: Logger,
): EmbeddedTemplate | undefined {
  if (config.dataDir.startsWith('memory://') || existsSync(join(config.dataDir, 'PG_VERSION'))) return undefined;
  try {
    const file = join(config.cacheDir, `embedded-${templateKey(contentFilesHash)}.tar`);
    return { file, dump: existsSync(file) ? new Blob([readFileSync(file)]) : undefined };
  } catch (err) {
    log.warn('embedded database template not read', { error: String(err) });
    return undefined;
  }
}

/** Saves the database as the template (after migrations and content, before anything of a tenant). */
export async function saveEmbeddedTemplate(db: Database, template: EmbeddedTemplate, log: Logger): Promise<void> {
  if (!db.dump) return;
  const started = performance.now();
  const partial = `${template.file}.${process.pid}.partial`;
  try {
    const dump = await db.dump();
    mkdirSync(dirname(template.file), { recursive: true });
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    // Whole or not at all: a reader never sees a half-written template.
    renameSync(partial, template.file);
    // Templates of other migrations or content are of no further use.
    for (const old of readdirSync(dirname(template.file)))
      if (/^embedded-[0-9a-f]+\.tar$/.test(old) && join(dirname(template.file), old) !== template.file)
        rmSync(join(dirname(template.file), old), { force: true });
    log.info('embedded database template saved: a new data folder starts from it', {
      file: template.file,
      ms: Math.round(performance.now() - started),
    });
  } catch (err) {
    rmSync(partial, { force: true });
    log.warn('embedded database template not saved', { error: String(err) });
  }
}
