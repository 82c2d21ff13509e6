import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Prisma } from '../db/client.ts';
import type { Logger } from '../logger.ts';

export const CONTENT_DIR = join(import.meta.dirname, '../../content/frameworks');

const Ref = z.string().min(1).max(64);

/** The format of a framework dictionary file in content/frameworks. */
export const FrameworkContent = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    title: z.string().min(1),
    shortTitle: z.string().min(1),
    kind: z.enum(['regulation', 'standard', 'framework']),
    publisher: z.string().min(1),
    jurisdiction: z.string().min(1),
    description: z.string().min(1),
    publishedAt: z.iso.date(),
    sourceUrl: z.url().nullable(),
    license: z.string().min(1),
    clauses: z.array(z.strictObject({ ref: Ref, title: z.string().min(1), summary: z.string().min(1), parentRef: Ref.nullable() })).min(1),
    controls: z.array(
      z.strictObject({
        id: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
          .max(64),
        title: z.string().min(1),
        description: z.string().min(1),
        category: z.string().min(1),
        clauseRefs: z.array(Ref).min(1),
      }),
    ),
    questions: z.array(
      z.strictObject({
        id: Ref,
        text: z.string().min(1),
        controlId: Ref,
        clauseRef: Ref.nullable(),
        answerType: z.enum(['yes_no', 'text', 'scale', 'evidence']),
      }),
    ),
    obligations: z.array(
      z.strictObject({
        id: Ref,
        title: z.string().min(1),
        description: z.string().min(1),
        clauseRef: Ref,
        actor: z.string().min(1),
        applicableFrom: z.iso.date(),
      }),
    ),
  })
  .superRefine((f, ctx) => {
    const clauses = new Set<string>();
    for (const c of f.clauses) {
      if (clauses.has(c.ref)) ctx.addIssue({ code: 'custom', message: `duplicate clause ${c.ref}` });
      if (c.parentRef && !clauses.has(c.parentRef))
        ctx.addIssue({ code: 'custom', message: `clause ${c.ref}: parent ${c.parentRef} must come first` });
      clauses.add(c.ref);
    }
    const controls = new Set<string>();
    for (const c of f.controls) {
      if (controls.has(c.id)) ctx.addIssue({ code: 'custom', message: `duplicate control ${c.id}` });
      controls.add(c.id);
      for (const r of c.clauseRefs) if (!clauses.has(r)) ctx.addIssue({ code: 'custom', message: `control ${c.id}: unknown clause ${r}` });
    }
    const questions = new Set<string>();
    for (const q of f.questions) {
      if (questions.has(q.id)) ctx.addIssue({ code: 'custom', message: `duplicate question ${q.id}` });
      questions.add(q.id);
      if (!controls.has(q.controlId)) ctx.addIssue({ code: 'custom', message: `question ${q.id}: unknown control ${q.controlId}` });
      if (q.clauseRef && !clauses.has(q.clauseRef))
        ctx.addIssue({ code: 'custom', message: `question ${q.id}: unknown clause ${q.clauseRef}` });
    }
    const obligations = new Set<string>();
    for (const o of f.obligations) {
      if (obligations.has(o.id)) ctx.addIssue({ code: 'custom', message: `duplicate obligation ${o.id}` });
      obligations.add(o.id);
      if (!clauses.has(o.clauseRef)) ctx.addIssue({ code: 'custom', message: `obligation ${o.id}: unknown clause ${o.clauseRef}` });
    }
  });
export type FrameworkContent = z.infer<typeof FrameworkContent>;

/** Reads and validates every dictionary file; a broken file stops the start, naming the problem. */
export function readFrameworkContent(dir = CONTENT_DIR): { content: FrameworkContent; hash: string }[] {
  return readdirSync(dir)
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
      const hash = `sha256:${createHash('sha256').update(JSON.stringify(parsed.data)).digest('hex')}`;
      return { content: parsed.data, hash };
    });
}

/**
 * Loads dictionaries into the store. A version is immutable: a known version is skipped when its
 * hash matches, and refused when the file changed without a new version number.
 */
export async function loadFrameworks(prisma: Prisma, log: Logger, dir = CONTENT_DIR): Promise<void> {
  const files = readFrameworkContent(dir);
  const known = new Map((await prisma.frameworkVersion.findMany()).map((v) => [v.key, v.contentHash]));
  for (const { content: f, hash } of files) {
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
        },
      });
      await tx.frameworkClause.createMany({ data: f.clauses.map((c, ord) => ({ versionKey: key, ord, ...c })) });
      await tx.frameworkControl.createMany({ data: f.controls.map((c, ord) => ({ versionKey: key, ord, ...c })) });
      await tx.frameworkQuestion.createMany({ data: f.questions.map((q, ord) => ({ versionKey: key, ord, ...q })) });
      await tx.frameworkObligation.createMany({
        data: f.obligations.map((o, ord) => ({ versionKey: key, ord, ...o, applicableFrom: new Date(o.applicableFrom) })),
      });
      return true;
    });
    if (loaded)
      log.info('framework dictionary loaded', { dictionary: key, controls: f.controls.length, obligations: f.obligations.length });
  }
}

export function compareSemver(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
