import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { compareSemver, FrameworkContent } from './framework-schema.ts';

/**
 * A later version of a framework dictionary, stated as what changed in law against the version it
 * amends (`content/frameworks/changes/<id>@<version>.json`). The first version stays whole in
 * `content/frameworks/<id>.json`; each later one is built by applying its changeset to the version
 * named by `from`. The changeset is also the version's changelog: every change names its source.
 */
const Semver = z.string().regex(/^\d+\.\d+\.\d+$/);
const Day = z.iso.date();
const Source = {
  source: z.string().min(10),
  sourceUrl: z.url().nullable(),
  note: z.string().min(1).nullable().optional(),
};
const Kind = z.enum(['clause', 'control', 'question', 'obligation']);
export type EntryKind = z.infer<typeof Kind>;

export const Change = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add'), kind: Kind, value: z.record(z.string(), z.unknown()), ...Source }),
  z.strictObject({ op: z.literal('amend'), kind: Kind, id: z.string().min(1), set: z.record(z.string(), z.unknown()), ...Source }),
  z.strictObject({
    op: z.literal('repeal'),
    kind: z.enum(['clause', 'obligation']),
    id: z.string().min(1),
    applicableUntil: Day,
    replacedBy: z.array(z.string().min(1)).default([]),
    ...Source,
  }),
  z.strictObject({ op: z.literal('remove'), kind: Kind, id: z.string().min(1), ...Source }),
]);
export type Change = z.infer<typeof Change>;

export const AmendingAct = z.strictObject({
  title: z.string().min(5),
  reference: z.string().min(1).nullable(),
  sourceUrl: z.url().nullable(),
  adoptedOn: Day.nullable(),
  inForceFrom: Day.nullable(),
  note: z.string().min(1).nullable().optional(),
});
export type AmendingAct = z.infer<typeof AmendingAct>;

export const DictionaryChangeset = z.strictObject({
  dictionary: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
  version: Semver,
  from: Semver,
  publishedAt: Day,
  summary: z.string().min(20),
  /** The act that changed the law; null for a correction of ours (an entry missing or wrong), said in `summary`. */
  amendingAct: AmendingAct.nullable(),
  framework: z
    .strictObject({
      title: z.string().min(1),
      shortTitle: z.string().min(1),
      description: z.string().min(1),
      sourceUrl: z.url().nullable(),
      license: z.string().min(1),
    })
    .partial()
    .optional(),
  changes: z.array(Change).min(1),
});
export type DictionaryChangeset = z.infer<typeof DictionaryChangeset>;

/** What a version's changelog says: the changeset without the dictionary's own metadata. */
export interface Changelog {
  from: string;
  summary: string;
  amendingAct: AmendingAct | null;
  changes: Change[];
}

export interface BuiltVersion {
  content: FrameworkContent;
  /** Null for a dictionary's first version (a whole file). */
  changelog: Changelog | null;
  /** `frameworks/...` path of the file that states the version. */
  file: string;
}

const KEY: Record<EntryKind, 'ref' | 'id'> = { clause: 'ref', control: 'id', question: 'id', obligation: 'id' };
const LIST: Record<EntryKind, 'clauses' | 'controls' | 'questions' | 'obligations'> = {
  clause: 'clauses',
  control: 'controls',
  question: 'questions',
  obligation: 'obligations',
};

/** Reads every changeset file; a file that fails its schema is reported in `errors` and left out. */
export function readChangesets(frameworksDir: string, errors: string[]): { file: string; data: DictionaryChangeset }[] {
  const dir = join(frameworksDir, 'changes');
  if (!existsSync(dir)) return [];
  const out: { file: string; data: DictionaryChangeset }[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = `frameworks/changes/${name}`;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch (err) {
      errors.push(`${file}: not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = DictionaryChangeset.safeParse(raw);
    if (!parsed.success) {
      for (const i of parsed.error.issues.slice(0, 20)) errors.push(`${file}: ${i.path.join('.') || '(root)'}: ${i.message}`);
      continue;
    }
    const d = parsed.data;
    if (name !== `${d.dictionary}@${d.version}.json`) errors.push(`${file}: holds ${d.dictionary}@${d.version}; name it accordingly`);
    else out.push({ file, data: d });
  }
  return out;
}

/**
 * Applies one changeset to the version it amends. Pure: the result is checked against the
 * dictionary schema (every reference resolves), and a change that names an entry that is not
 * there, or adds one that is, is an error naming the change.
 */
export function applyChangeset(base: FrameworkContent, cs: DictionaryChangeset): { content?: FrameworkContent; errors: string[] } {
  const errors: string[] = [];
  if (cs.dictionary !== base.id) errors.push(`changeset for ${cs.dictionary} applied to ${base.id}`);
  if (cs.from !== base.version) errors.push(`changeset amends ${cs.from}, given ${base.version}`);
  if (compareSemver(cs.version, cs.from) <= 0) errors.push(`version ${cs.version} must be above ${cs.from}`);
  const next = structuredClone(base) as FrameworkContent & Record<string, unknown>;
  Object.assign(next, cs.framework ?? {}, { version: cs.version, publishedAt: cs.publishedAt });
  for (const [i, ch] of cs.changes.entries()) {
    const where = `change ${i} (${ch.op} ${ch.kind}${'id' in ch ? ` ${ch.id}` : ''})`;
    const list = next[LIST[ch.kind]] as Record<string, unknown>[];
    const key = KEY[ch.kind];
    if (ch.op === 'add') {
      const id = ch.value[key];
      if (typeof id !== 'string') errors.push(`${where}: value has no ${key}`);
      else if (list.some((e) => e[key] === id)) errors.push(`${where}: ${id} is already in ${cs.from}`);
      else list.push(ch.value);
      continue;
    }
    const at = list.findIndex((e) => e[key] === ch.id);
    const entry = list[at];
    if (entry === undefined) {
      errors.push(`${where}: no ${ch.kind} ${ch.id} in the version amended`);
      continue;
    }
    if (ch.op === 'remove') list.splice(at, 1);
    else if (ch.op === 'amend') {
      if (key in ch.set && ch.set[key] !== ch.id) errors.push(`${where}: an amendment cannot change the ${key}`);
      else Object.assign(entry, ch.set);
    } else {
      entry.applicableUntil = ch.applicableUntil;
      entry.replacedBy = ch.replacedBy;
    }
  }
  const parsed = FrameworkContent.safeParse(next);
  if (!parsed.success) for (const i of parsed.error.issues.slice(0, 20)) errors.push(`${i.path.join('.') || '(root)'}: ${i.message}`);
  const replaced = parsed.success ? checkReplacements(parsed.data) : [];
  errors.push(...replaced);
  return errors.length > 0 || !parsed.success ? { errors } : { content: parsed.data, errors };
}

/** `replacedBy` names entries of the same kind in the same version. */
function checkReplacements(f: FrameworkContent): string[] {
  const errors: string[] = [];
  const clauses = new Set(f.clauses.map((c) => c.ref));
  const obligations = new Set(f.obligations.map((o) => o.id));
  for (const c of f.clauses)
    for (const r of c.replacedBy ?? []) if (!clauses.has(r)) errors.push(`clause ${c.ref}: replaced by unknown clause ${r}`);
  for (const o of f.obligations)
    for (const r of o.replacedBy ?? []) if (!obligations.has(r)) errors.push(`obligation ${o.id}: replaced by unknown obligation ${r}`);
  return errors;
}

/**
 * Every version of every dictionary: the whole files, then each changeset applied to the version it
 * names, in version order. Problems are reported in `errors` (with the file) and the version left out.
 */
export function buildVersions(
  wholes: { file: string; content: FrameworkContent }[],
  changesets: { file: string; data: DictionaryChangeset }[],
  errors: string[],
): BuiltVersion[] {
  const built = new Map<string, BuiltVersion>();
  for (const w of wholes) built.set(`${w.content.id}@${w.content.version}`, { content: w.content, changelog: null, file: w.file });
  const pending = [...changesets].sort((a, b) => compareSemver(a.data.version, b.data.version));
  for (const { file, data: cs } of pending) {
    const key = `${cs.dictionary}@${cs.version}`;
    if (built.has(key)) {
      errors.push(`${file}: ${key} is stated twice`);
      continue;
    }
    const base = built.get(`${cs.dictionary}@${cs.from}`);
    if (!base) {
      errors.push(`${file}: amends ${cs.dictionary}@${cs.from}, which no file states`);
      continue;
    }
    const r = applyChangeset(base.content, cs);
    for (const e of r.errors) errors.push(`${file}: ${e}`);
    if (r.content)
      built.set(key, {
        content: r.content,
        file,
        changelog: { from: cs.from, summary: cs.summary, amendingAct: cs.amendingAct, changes: cs.changes },
      });
  }
  return [...built.values()];
}
