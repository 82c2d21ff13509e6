import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { buildVersions, type DictionaryChangeset, readChangesets } from './changesets.ts';
import { CrosswalkContent, parseEndpoint } from './crosswalks.ts';
import { compareSemver, FrameworkContent } from './frameworks.ts';
import { GlossaryContent } from './glossary.ts';
import { checkClassifierDates, checkCodeDates } from './provision-checks.ts';

export { SHIPPED_CONTENT as CONTENT_ROOT } from './paths.ts';

import { SHIPPED_CONTENT as CONTENT_ROOT } from './paths.ts';
export const LOCK_FILE = 'content.lock.json';

type Kind = 'frameworks' | 'glossary' | 'crosswalks';

export interface ContentFile<T> {
  file: string;
  key: string;
  hash: string;
  data: T;
}

export interface ContentSet {
  /** Every version of every dictionary: the whole files and the versions their changesets build. */
  frameworks: ContentFile<FrameworkContent>[];
  changesets: { file: string; data: DictionaryChangeset }[];
  glossary: ContentFile<GlossaryContent>[];
  crosswalks: ContentFile<CrosswalkContent>[];
}

export interface DictionaryCounts {
  id: string;
  version: string;
  clauses: number;
  controls: number;
  questions: number;
  obligations: number;
  terms: number;
  edges: number;
}

export interface ContentReport {
  errors: string[];
  warnings: string[];
  dictionaries: DictionaryCounts[];
  totals: { dictionaries: number; terms: number; edges: number; crosswalks: number; officialEdges: number };
  /** `<kind>/<id>@<version>` -> hash of every file read, for the lock. */
  hashes: Record<string, string>;
}

export function contentHash(data: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(data)).digest('hex')}`;
}

export function readKind<S extends z.ZodType>(
  root: string,
  kind: Kind,
  schema: S,
  keyOf: (d: z.infer<S>) => string,
  errors: string[],
): ContentFile<z.infer<S>>[] {
  const dir = join(root, kind);
  if (!existsSync(dir)) return [];
  const out: ContentFile<z.infer<S>>[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const rel = `${kind}/${file}`;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (err) {
      errors.push(`${rel}: not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      for (const i of parsed.error.issues.slice(0, 20)) errors.push(`${rel}: ${i.path.join('.') || '(root)'}: ${i.message}`);
      if (parsed.error.issues.length > 20) errors.push(`${rel}: ... ${parsed.error.issues.length - 20} more problems`);
      continue;
    }
    out.push({ file: rel, key: keyOf(parsed.data), hash: contentHash(parsed.data), data: parsed.data });
  }
  return out;
}

/** The glossary files alone; a file that fails its schema stops the caller, naming the problem. */
export function readGlossaryFiles(root = CONTENT_ROOT): ContentFile<GlossaryContent>[] {
  const errors: string[] = [];
  const files = readKind(root, 'glossary', GlossaryContent, (d) => `${d.dictionary}@${d.version}`, errors);
  if (errors.length > 0) throw new Error(`content: ${errors.slice(0, 5).join('; ')}`);
  return files;
}

/** The crosswalk files alone; a file that fails its schema stops the caller, naming the problem. */
export function readCrosswalkFiles(root = CONTENT_ROOT): ContentFile<CrosswalkContent>[] {
  const errors: string[] = [];
  const files = readKind(root, 'crosswalks', CrosswalkContent, (d) => `${d.id}@${d.version}`, errors);
  if (errors.length > 0) throw new Error(`content: ${errors.slice(0, 5).join('; ')}`);
  return files;
}

/** Reads the three content folders; files that fail their schema are reported and left out. */
export function readContent(root = CONTENT_ROOT, errors: string[] = []): ContentSet {
  const wholes = readKind(root, 'frameworks', FrameworkContent, (d) => `${d.id}@${d.version}`, errors);
  const changesets = readChangesets(join(root, 'frameworks'), errors);
  const built = buildVersions(
    wholes.map((w) => ({ file: w.file, content: w.data })),
    changesets,
    errors,
  ).filter((v) => v.changelog !== null);
  const frameworks = [
    ...wholes,
    ...built.map((v) => ({ file: v.file, key: `${v.content.id}@${v.content.version}`, hash: contentHash(v.content), data: v.content })),
  ];
  const glossary = readKind(root, 'glossary', GlossaryContent, (d) => `${d.dictionary}@${d.version}`, errors);
  const crosswalks = readKind(root, 'crosswalks', CrosswalkContent, (d) => `${d.id}@${d.version}`, errors);
  for (const f of wholes) {
    const expected = `frameworks/${f.data.id}.json`;
    if (f.file !== expected && !f.file.startsWith(`frameworks/${f.data.id}@`))
      errors.push(`${f.file}: holds dictionary ${f.data.id}; name the file ${expected}`);
  }
  for (const g of glossary)
    if (g.file !== `glossary/${g.data.dictionary}.json`)
      errors.push(`${g.file}: holds the glossary of ${g.data.dictionary}; name it glossary/${g.data.dictionary}.json`);
  for (const x of crosswalks)
    if (x.file !== `crosswalks/${x.data.id}.json`)
      errors.push(`${x.file}: holds crosswalk ${x.data.id}; name it crosswalks/${x.data.id}.json`);
  return { frameworks, changesets, glossary, crosswalks };
}

function normaliseText(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Every rule the content must keep: schemas, references that resolve, unique ids, texts that are
 * neither empty nor copied (the same text twice anywhere, or a summary that repeats its title), and
 * content hashes that change only with a new version. `strict` (CI) also fails on files missing
 * from the lock and on glossary links to terms that do not exist.
 */
export function checkContent(root = CONTENT_ROOT, opts: { strict?: boolean } = {}): ContentReport {
  const errors: string[] = [];
  const warnings: string[] = [];
  const set = readContent(root, errors);

  // Latest version of each dictionary: what references resolve against.
  const latest = new Map<string, FrameworkContent>();
  const seenKeys = new Set<string>();
  for (const { data: f, file, key } of set.frameworks) {
    if (seenKeys.has(key)) errors.push(`${file}: dictionary ${key} is defined twice`);
    seenKeys.add(key);
    const cur = latest.get(f.id);
    if (!cur || compareSemver(f.version, cur.version) > 0) latest.set(f.id, f);
  }
  const clauseRefs = new Map([...latest].map(([id, f]) => [id, new Set(f.clauses.map((c) => c.ref))]));
  // One statement per dated provision: the classifier's class clauses each give one date, and no date is written into code.
  errors.push(
    ...checkClassifierDates(
      root,
      set.frameworks.filter((f) => f.data.id === 'eu-ai-act').map((f) => f.data),
    ),
  );
  if (root === CONTENT_ROOT) errors.push(...checkCodeDates(join(CONTENT_ROOT, '..', 'src')));
  const controlIds = new Map([...latest].map(([id, f]) => [id, new Set(f.controls.map((c) => c.id))]));

  // Texts: long prose must be real and written once.
  const texts = new Map<string, string>();
  const prose = (where: string, text: string, title?: string) => {
    if (text.trim().length < 20) errors.push(`${where}: text too short to be a real summary ("${text.trim()}")`);
    if (title !== undefined && normaliseText(text) === normaliseText(title)) errors.push(`${where}: summary only repeats the title`);
    const n = normaliseText(text);
    const first = texts.get(n);
    if (first) errors.push(`${where}: same text as ${first}`);
    else texts.set(n, where);
  };
  // A version built from a changeset repeats the texts of the one it amends: only what it adds or rewrites is new.
  for (const { data: cs, file } of set.changesets) {
    prose(`${file} summary`, cs.summary);
    cs.changes.forEach((ch, i) => {
      const fields = ch.op === 'add' ? ch.value : ch.op === 'amend' ? ch.set : {};
      for (const field of ['summary', 'description', 'text'] as const) {
        const text = fields[field];
        if (typeof text === 'string')
          prose(`${file} change ${i} ${field}`, text, typeof fields.title === 'string' ? fields.title : undefined);
      }
    });
  }
  for (const { data: f, file } of set.frameworks) {
    if (file.startsWith('frameworks/changes/')) continue;
    prose(`${file} description`, f.description);
    for (const c of f.clauses) prose(`${file} clause ${c.ref}`, c.summary, c.title);
    for (const c of f.controls) prose(`${file} control ${c.id}`, c.description, c.title);
    for (const q of f.questions) prose(`${file} question ${q.id}`, q.text);
    for (const o of f.obligations) prose(`${file} obligation ${o.id}`, o.description, o.title);
  }

  // Glossary: a term belongs to a known dictionary, cites a real clause, links real terms.
  const termIds = new Set<string>();
  const glossaryOf = new Set<string>();
  for (const { data: g, file } of set.glossary) {
    if (glossaryOf.has(g.dictionary)) errors.push(`${file}: a second glossary for ${g.dictionary}`);
    glossaryOf.add(g.dictionary);
    if (!latest.has(g.dictionary)) errors.push(`${file}: terms tied to unknown dictionary ${g.dictionary}`);
    for (const t of g.terms) {
      if (termIds.has(t.id)) errors.push(`${file}: duplicate term ${t.id}`);
      termIds.add(t.id);
      if (t.clauseRef && !clauseRefs.get(g.dictionary)?.has(t.clauseRef))
        errors.push(`${file}: term ${t.id} cites unknown clause ${g.dictionary}#${t.clauseRef}`);
      prose(`${file} term ${t.id}`, t.definition, t.term);
    }
  }
  const stated = new Map<string, string>();
  for (const { data: g } of set.glossary) for (const t of g.terms) for (const r of t.related) stated.set(`${t.id} ${r.term}`, r.relation);
  const inverse: Record<string, string> = { broader: 'narrower', narrower: 'broader', equivalent: 'equivalent', related: 'related' };
  for (const { data: g, file } of set.glossary)
    for (const t of g.terms)
      for (const r of t.related) {
        const back = stated.get(`${r.term} ${t.id}`);
        if (back !== undefined && back !== inverse[r.relation] && t.id < r.term)
          errors.push(`${file}: ${t.id} calls ${r.term} ${r.relation}, but ${r.term} calls it ${back}`);
        if (termIds.has(r.term)) continue;
        const msg = `${file}: term ${t.id} links unknown term ${r.term}`;
        if (opts.strict) errors.push(msg);
        else warnings.push(msg);
      }

  // Crosswalks: both ends exist; one pair of requirements is mapped once across all files.
  const pairs = new Map<string, string>();
  const edgesPer = new Map<string, number>();
  let officialEdges = 0;
  for (const { data: x, file } of set.crosswalks) {
    const ok = [x.from, x.to].every((d) => {
      if (latest.has(d)) return true;
      errors.push(`${file}: unknown dictionary ${d}`);
      return false;
    });
    if (x.source.kind === 'official') officialEdges += x.edges.length;
    for (const e of x.edges) {
      edgesPer.set(x.from, (edgesPer.get(x.from) ?? 0) + 1);
      edgesPer.set(x.to, (edgesPer.get(x.to) ?? 0) + 1);
      if (ok)
        for (const [dict, end] of [
          [x.from, e.from],
          [x.to, e.to],
        ] as const) {
          const { kind, ref } = parseEndpoint(end);
          const known = kind === 'control' ? controlIds.get(dict)?.has(ref) : clauseRefs.get(dict)?.has(ref);
          if (!known) errors.push(`${file}: edge ${e.from} -> ${e.to}: unknown ${kind} ${dict}#${ref}`);
        }
      const pair = `${x.from}#${e.from} ${x.to}#${e.to}`;
      const before = pairs.get(pair);
      if (before && before !== file) errors.push(`${file}: edge ${e.from} -> ${e.to} is also in ${before}`);
      pairs.set(pair, file);
      prose(`${file} edge ${e.from} -> ${e.to}`, e.note);
    }
  }

  // Versions: a file whose hash moved must carry a new version.
  const hashes: Record<string, string> = {};
  for (const kind of ['frameworks', 'glossary', 'crosswalks'] as const) for (const f of set[kind]) hashes[`${kind}/${f.key}`] = f.hash;
  const lock = readLock(root);
  for (const kind of ['frameworks', 'glossary', 'crosswalks'] as const)
    for (const f of set[kind]) {
      const k = `${kind}/${f.key}`;
      const locked = lock[k];
      if (locked && locked !== f.hash) errors.push(`${f.file}: content of ${f.key} changed without a new version (bump "version")`);
      if (!locked) {
        const msg = `${f.file}: ${f.key} is not in ${LOCK_FILE} yet (pnpm content:lock records it)`;
        if (opts.strict) errors.push(msg);
        else warnings.push(msg);
      }
    }

  const termsPer = new Map(set.glossary.map((g) => [g.data.dictionary, g.data.terms.length]));
  const dictionaries = [...latest.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((f) => ({
      id: f.id,
      version: f.version,
      clauses: f.clauses.length,
      controls: f.controls.length,
      questions: f.questions.length,
      obligations: f.obligations.length,
      terms: termsPer.get(f.id) ?? 0,
      edges: edgesPer.get(f.id) ?? 0,
    }));
  return {
    errors,
    warnings,
    dictionaries,
    totals: {
      dictionaries: latest.size,
      terms: termIds.size,
      edges: set.crosswalks.reduce((n, x) => n + x.data.edges.length, 0),
      crosswalks: set.crosswalks.length,
      officialEdges,
    },
    hashes,
  };
}

export function readLock(root = CONTENT_ROOT): Record<string, string> {
  const p = join(root, LOCK_FILE);
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Record<string, string>) : {};
}

/** Records the hash of every version not in the lock yet; a locked version is never rewritten. */
export function updateLock(root = CONTENT_ROOT, hashes: Record<string, string>): string[] {
  const lock = readLock(root);
  const added = Object.keys(hashes).filter((k) => !(k in lock));
  for (const k of added) lock[k] = hashes[k] as string;
  const sorted = Object.fromEntries(Object.entries(lock).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(root, LOCK_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
  return added;
}

export const README_START = '<!-- content:start (written by pnpm content:check --readme) -->';
export const README_END = '<!-- content:end -->';

/** The README's list of dictionaries: where each comes from, its licence and its size. */
export function readmeContentBlock(root = CONTENT_ROOT): string {
  const set = readContent(root);
  const report = checkContent(root);
  const counts = new Map(report.dictionaries.map((d) => [d.id, d]));
  const latest = new Map<string, FrameworkContent>();
  for (const { data: f } of set.frameworks) {
    const cur = latest.get(f.id);
    if (!cur || compareSemver(f.version, cur.version) > 0) latest.set(f.id, f);
  }
  const lines = [...latest.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((f) => {
      const c = counts.get(f.id);
      const size = c
        ? `${c.clauses} clauses, ${c.controls} controls, ${c.questions} questions, ${c.obligations} obligations, ${c.terms} glossary terms`
        : '';
      return `- \`${f.id}@${f.version}\`: ${f.title} (${f.publisher}, ${f.publishedAt}; ${f.sourceUrl ?? 'no public URL'}). ${size}. Licence: ${f.license}`;
    });
  const crosswalks = [...set.crosswalks]
    .sort((a, b) => a.data.id.localeCompare(b.data.id))
    .map(({ data: x }) => `- \`${x.id}@${x.version}\`: ${x.edges.length} edges, ${x.source.kind} (${x.source.title}). ${x.source.license}`);
  const t = report.totals;
  return [
    README_START,
    `${t.dictionaries} dictionaries, ${t.terms} glossary terms, ${t.edges} crosswalk edges.`,
    '',
    ...lines,
    '',
    'Crosswalks:',
    '',
    ...crosswalks,
    README_END,
  ].join('\n');
}
