import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Prisma } from '../db/client.ts';
import { insertMany, tableOf } from '../db/rows.ts';
import { sqlOf } from '../db/sql.ts';

import type { Logger } from '../logger.ts';
import { announceVersion } from '../rails/frameworks/versions.ts';
import { buildVersions, type Changelog, readChangesets } from './changesets.ts';
import { compareSemver, FrameworkContent } from './framework-schema.ts';

export { compareSemver, FrameworkContent };

export const CONTENT_DIR = join(import.meta.dirname, '../../content/frameworks');

/** Reads and validates every dictionary file; a broken file stops the start, naming the problem. */
export function readFrameworkContent(dir = CONTENT_DIR): { content: FrameworkContent; hash: string; changelog: Changelog | null }[] {
  const wholes = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(dir, file), 'utf8');
      const parsed = FrameworkContent.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        throw new Error(
          `content/frameworks/${file}: ${parsed.error.issues
            .slice(0, 5)
            .map((i) => `${i.path.join('.')} ${i.message}`)
            .join('; ')}`,
        );
      }
      return { file: `frameworks/${file}`, content: parsed.data };
    });
  const errors: string[] = [];
  const versions = buildVersions(wholes, readChangesets(dir, errors), errors);
  if (errors.length > 0) throw new Error(`content/${errors.slice(0, 5).join('; ')}`);
  return versions.map((v) => ({ content: v.content, changelog: v.changelog, hash: frameworkHash(v.content) }));
}

/** SHA-256 of a dictionary version's canonical content: its `contentHash`. */
export function frameworkHash(content: FrameworkContent): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
}

/**
 * Loads dictionaries into the store. A version is immutable: a known version is skipped when its
 * hash matches, and refused when the file changed without a new version number.
 */
export async function loadFrameworks(prisma: Prisma, log: Logger, dir = CONTENT_DIR): Promise<void> {
  const files = readFrameworkContent(dir);
  const known = new Map((await prisma.frameworkVersion.findMany()).map((v) => [v.key, v.contentHash]));
  for (const { content: f, hash, changelog } of files) {
    const key = `${f.id}@${f.version}`;
    const existing = known.get(key);
    if (existing === hash) continue;
    if (existing) throw new Error(`dictionary ${key} changed without a new version; bump "version" in its file`);
    const loaded = await prisma.$transaction(async (tx) => {
      // Several processes starting at once on one PostgreSQL: one loads, the others find it loaded.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150223)`;
      if (await tx.frameworkVersion.findUnique({ where: { key } })) return false;
      const versions = (await tx.frameworkVersion.findMany({ where: { frameworkId: f.id } })).map((v) => v.version);
      const latest = [...versions, f.version].sort(compareSemver).at(-1) ?? f.version;
      const meta = {
        title: f.title,
        shortTitle: f.shortTitle,
        kind: f.kind,
        publisher: f.publisher,
        jurisdiction: f.jurisdiction,
        description: f.description,
        latestVersion: latest,
      };
      await tx.framework.upsert({ where: { id: f.id }, create: { id: f.id, ...meta }, update: latest === f.version ? meta : {} });
      await tx.frameworkVersion.create({
        data: {
          key,
          frameworkId: f.id,
          version: f.version,
          publishedAt: new Date(f.publishedAt),
          sourceUrl: f.sourceUrl,
          license: f.license,
          contentHash: hash,
          basedOn: changelog ? `${f.id}@${changelog.from}` : null,
          changelog: changelog ? (changelog as never) : undefined,
        },
      });
      const sql = sqlOf(tx);
      await insertMany(
        sql,
        tableOf(prisma, 'frameworkClause'),
        f.clauses.map((c, ord) => ({
          versionKey: key,
          ord,
          ...c,
          applicableFrom: day(c.applicableFrom),
          applicableUntil: day(c.applicableUntil),
        })),
      );
      await insertMany(
        sql,
        tableOf(prisma, 'frameworkControl'),
        f.controls.map((c, ord) => ({ versionKey: key, ord, ...c })),
      );
      await insertMany(
        sql,
        tableOf(prisma, 'frameworkQuestion'),
        f.questions.map((q, ord) => ({ versionKey: key, ord, ...q })),
      );
      await insertMany(
        sql,
        tableOf(prisma, 'frameworkObligation'),
        f.obligations.map((o, ord) => ({
          versionKey: key,
          ord,
          ...o,
          applicableFrom: new Date(o.applicableFrom),
          applicableUntil: day(o.applicableUntil),
        })),
      );
      // The tenants pinned to an older version hear of the newest one, once, with what it touches.
      if (latest === f.version) await announceVersion(tx, f.id, f.version);
      return true;
    });
    if (loaded)
      log.info('framework dictionary loaded', { dictionary: key, controls: f.controls.length, obligations: f.obligations.length });
  }
}

function day(d: string | undefined): Date | undefined {
  return d === undefined ? undefined : new Date(d);
}
