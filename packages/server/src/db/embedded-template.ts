/**
 * The template a new embedded database starts from. Creating a PostgreSQL cluster in PGlite
 * (initdb in WebAssembly), applying the migrations and loading the dictionaries takes 10 s and more
 * on a small machine, and gives the same result every time for the same migrations, content and
 * PGlite: the first start on an empty data folder keeps that result (a copy of the cluster's files,
 * checkpointed, before any tenant, key or secret exists) in the cache folder, named by the hash of
 * the three; a later start on an empty data folder copies it in and opens it as existing data, then
 * migrates and loads content as always (both find nothing to do). The copy is a plain file copy,
 * about a tenth of a second for the 50 MB, where unpacking a dump goes through PGlite's file system
 * in WebAssembly (about 2 s). A template that cannot be read or written costs the time only.
 *
 * A built package also ships the template of its own migrations and content, as a zip archive
 * (`embedded-template/`, about 6 MB, made by its build: `buildPackagedTemplate` in index.ts), so the
 * first start on a machine unpacks it into the cache (half a second) instead of making it: creating
 * the cluster alone takes 6 s and more on a small machine. A content folder of the operator's own
 * names another template, which that start makes as before.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { unzipSync, type Zippable, zipSync } from 'fflate';
import type { Logger } from '../logger.ts';
import type { Database } from './client.ts';
import { MIGRATIONS_DIR } from './migrate.ts';
import { isSpareSegment } from './pglite-dump.ts';
import { pgliteDist } from './wasm-modules.ts';

export interface EmbeddedTemplate {
  /** The folder it is kept in (or will be): a copy of a new cluster's data folder. */
  dir: string;
  /** Whether the cache holds it. */
  present: boolean;
}

function pgliteVersion(): string {
  const manifest = join(pgliteDist(), '..', 'package.json');
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
    const dir = join(config.cacheDir, `embedded-${templateKey(contentFilesHash)}`);
    return { dir, present: existsSync(join(dir, 'PG_VERSION')) };
  } catch (err) {
    log.warn('embedded database template not read', { error: String(err) });
    return undefined;
  }
}

/** Where a built package keeps the archive of its template (shipped with the package). */
export const PACKAGED_TEMPLATES = join(import.meta.dirname, '../../embedded-template');

/** The archive of `template` that a built package ships, by the template's name. */
export function packagedTemplateArchive(template: EmbeddedTemplate, dir = PACKAGED_TEMPLATES): string {
  return join(dir, `${basename(template.dir)}.zip`);
}

/** Puts `partial` in the cache as `template.dir`, unless another process did first. */
function publish(partial: string, template: EmbeddedTemplate): void {
  try {
    renameSync(partial, template.dir);
  } catch (err) {
    // Another process starting at the same time kept the same template first.
    if (!existsSync(join(template.dir, 'PG_VERSION'))) throw err;
    rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * Unpacks the archive the package ships for `template`, when it ships one, into the cache.
 * Whether the cache now holds the template.
 */
export function unpackPackagedTemplate(template: EmbeddedTemplate, log: Logger, dir = PACKAGED_TEMPLATES): boolean {
  const archive = packagedTemplateArchive(template, dir);
  if (!existsSync(archive)) return false;
  const started = performance.now();
  const partial = `${template.dir}.${process.pid}.partial`;
  try {
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    for (const [name, bytes] of Object.entries(unzipSync(readFileSync(archive)))) {
      const path = join(partial, name);
      // The package's own archive; still, nothing in it is written outside the folder.
      if (!path.startsWith(partial + sep)) throw new Error(`archive entry ${name} is outside the template`);
      if (name.endsWith('/')) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, bytes);
      }
    }
    if (!existsSync(join(partial, 'PG_VERSION'))) throw new Error('the archive holds no cluster');
    mkdirSync(dirname(template.dir), { recursive: true });
    publish(partial, template);
    log.info('embedded database template unpacked from the package', { archive, ms: Math.round(performance.now() - started) });
    return true;
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    log.warn('embedded database template not unpacked', { archive, error: String(err) });
    return false;
  }
}

/**
 * Writes the template in the cache as the package's archive (into `dir`, replacing the archives of
 * other templates): written beside the folder and renamed, so that a pack never takes half of it.
 */
export function writePackagedTemplate(template: EmbeddedTemplate, dir = PACKAGED_TEMPLATES): string {
  const tree = (folder: string): Zippable => {
    const entries: Zippable = {};
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      entries[name] = statSync(path).isDirectory() ? tree(path) : readFileSync(path);
    }
    return entries;
  };
  const archive = packagedTemplateArchive(template, dir);
  const partial = `${dir}.${process.pid}.partial.zip`;
  writeFileSync(partial, zipSync(tree(template.dir), { level: 6 }));
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir)) if (/^embedded-[0-9a-f]+\.zip$/.test(old)) rmSync(join(dir, old), { force: true });
  renameSync(partial, archive);
  return archive;
}

/**
 * The files of a cluster's data folder: PostgreSQL's own (PG_VERSION, base, global, pg_*,
 * postgresql*.conf), not the service's files beside them (the secrets key).
 */
function isClusterFile(name: string): boolean {
  return name === 'PG_VERSION' || name === 'base' || name === 'global' || name.startsWith('pg_') || name.startsWith('postgresql');
}

/**
 * Copies the template into the empty data folder, PG_VERSION last: a copy cut short leaves no
 * PG_VERSION, and what it copied is removed, so the start creates the cluster instead. Whether the
 * folder now holds the template's cluster.
 */
export function copyEmbeddedTemplate(template: EmbeddedTemplate, dataDir: string, log: Logger): boolean {
  const names = readdirSync(template.dir).filter(isClusterFile);
  try {
    mkdirSync(dataDir, { recursive: true });
    for (const name of names) if (name !== 'PG_VERSION') cpSync(join(template.dir, name), join(dataDir, name), { recursive: true });
    copyFileSync(join(template.dir, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
    return true;
  } catch (err) {
    for (const name of names) rmSync(join(dataDir, name), { recursive: true, force: true });
    log.warn('embedded database template not copied', { error: String(err) });
    return false;
  }
}

/**
 * Keeps the database in `dataDir` as the template (after migrations and content, before anything of
 * a tenant): checkpointed first, so that its files hold every change and a start from them replays
 * no WAL, and without the spare WAL segments (pglite-dump.ts) and the files that are not the
 * cluster's. Written under a temporary name and renamed, so a reader never sees half of it.
 */
export async function saveEmbeddedTemplate(db: Database, template: EmbeddedTemplate, dataDir: string, log: Logger): Promise<void> {
  const started = performance.now();
  const partial = `${template.dir}.${process.pid}.partial`;
  try {
    await db.sql.query('CHECKPOINT');
    const [control] = await db.sql.query<{ redo_wal_file: string | null }>('SELECT redo_wal_file FROM pg_control_checkpoint()');
    const redo = control?.redo_wal_file ?? undefined;
    rmSync(partial, { recursive: true, force: true });
    cpSync(dataDir, partial, {
      recursive: true,
      filter: (src) => {
        const rel = relative(dataDir, src);
        if (rel === '') return true;
        return isClusterFile(rel.split(sep)[0] ?? '') && (redo === undefined || !isSpareSegment(rel, redo));
      },
    });
    publish(partial, template);
    // Templates of other migrations or content (and the dumps of earlier versions) are of no further use.
    const cache = dirname(template.dir);
    for (const old of readdirSync(cache))
      if (/^embedded-[0-9a-f]+(\.tar)?$/.test(old) && join(cache, old) !== template.dir)
        rmSync(join(cache, old), { recursive: true, force: true });
    log.info('embedded database template saved: a new data folder starts from it', {
      dir: template.dir,
      ms: Math.round(performance.now() - started),
    });
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    log.warn('embedded database template not saved', { error: String(err) });
  }
}
