import { createHash } from 'node:crypto';
import {
  type Classification,
  type ClauseExtraction,
  CONTEXT_FILE_MEDIA_TYPES,
  CONTEXT_TEXT_MAX_BYTES,
  ContextDocument,
  type DOCUMENT_TYPES,
  type documents,
  type GapAnalysis,
  type MappingResult,
  type Recommendations,
  type UploadDocumentBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound } from '../../errors.ts';
import type { ContextDocument as DocumentRow } from '../../generated/prisma/client.ts';
import { unstorable } from '../../http/input-guard.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { recorded } from '../../platform/records.ts';
import { iso, rendererOf } from '../../platform/render.ts';
import { fileKindOf, fileText } from './extract.ts';
import { FRAMEWORK_MIN_POINTS, FRAMEWORK_RULES, MAX_MATCHES_PER_RULE, STOP_WORDS, type TextRule, TYPE_RULES } from './rules.ts';

/**
 * The context rail: documents and the computations over their text. Classification and clause
 * extraction are rules over the text (context-rules.ts); mapping scores passages against the
 * controls of the framework dictionaries; gap analysis and recommendations read the tenant's
 * activations, evidence, obligations, stored mappings and the crosswalks. Offsets are in UTF-16
 * code units of the stored text.
 */

type Doc = z.infer<typeof ContextDocument>;
type DocumentType = (typeof DOCUMENT_TYPES)[number];
interface Span {
  start: number;
  end: number;
  text: string;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const PREVIEW_CHARS = 200;

// ---------------------------------------------------------------- documents

export const renderDocument = rendererOf<DocumentRow>()(ContextDocument, {
  metadata: (r) => (r.metadata ?? {}) as Record<string, string>,
  documentType: (r) => (r.documentType as DocumentType | null) ?? null,
  frameworks: (r) => r.frameworks ?? [],
});

/** The kit serves the list and get routes; upload is hand-written (the text goes to its own table). */
export const documentStore: Store<typeof documents> = { model: 'contextDocument', render: renderDocument };

const tooBig = (field: string, bytes: number) =>
  new ApiError(
    'bad_request',
    `The document text is ${bytes} bytes; at most ${CONTEXT_TEXT_MAX_BYTES} bytes (1 MiB) of UTF-8 are accepted.`,
    [{ field, issue: 'too_big', message: `at most ${CONTEXT_TEXT_MAX_BYTES} bytes` }],
  );
const invalidText = (field: string, why: string) => invalid(field, `${field} ${why}.`);

/**
 * The text of an upload body: `text` as given, `contentBase64` decoded as UTF-8, or, when
 * `mediaType` declares a PDF or DOCX file, the text extracted from it (extract.ts); size checked.
 */
async function uploadedText(body: z.infer<typeof UploadDocumentBody>): Promise<string> {
  const kind = fileKindOf(body.mediaType);
  if (kind && body.contentBase64 !== undefined) return fileText(kind, Buffer.from(body.contentBase64, 'base64'));
  if (body.text !== undefined) {
    const bytes = Buffer.byteLength(body.text, 'utf8');
    if (bytes > CONTEXT_TEXT_MAX_BYTES) throw tooBig('text', bytes);
    if (body.text.trim() === '') throw invalidText('text', 'is blank');
    return body.text;
  }
  const raw = Buffer.from(body.contentBase64 as string, 'base64');
  if (raw.length > CONTEXT_TEXT_MAX_BYTES) throw tooBig('contentBase64', raw.length);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw invalidText('contentBase64', 'does not decode to UTF-8 text');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const why = unstorable(text);
  if (why) throw invalidText('contentBase64', `decodes to text that ${why}`);
  if (text.trim() === '') throw invalidText('contentBase64', 'decodes to blank text');
  return text;
}

function previewOf(text: string): string {
  let p = text.slice(0, PREVIEW_CHARS);
  // Never end on half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(p)) p = p.slice(0, -1);
  return p;
}

export async function uploadDocument(prisma: Prisma, who: Actor, body: z.infer<typeof UploadDocumentBody>): Promise<Doc> {
  const text = await uploadedText(body);
  const kind = fileKindOf(body.mediaType);
  const id = newId('doc');
  return prisma.$transaction(async (tx) => {
    const row = await tx.contextDocument.create({
      data: {
        id,
        tenantId: who.tenantId,
        title: body.title,
        mediaType: (kind ? CONTEXT_FILE_MEDIA_TYPES[kind] : body.mediaType) ?? 'text/plain',
        source: body.source ?? null,
        metadata: body.metadata ?? {},
        sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
        sizeBytes: Buffer.byteLength(text, 'utf8'),
        characters: text.length,
        preview: previewOf(text),
        frameworks: [],
        createdBy: who.actor,
        createdAt: new Date(),
      },
    });
    await tx.contextDocumentText.create({ data: { id, tenantId: who.tenantId, text } });
    const out = renderDocument(row);
    const data = { title: out.title, sha256: out.sha256, sizeBytes: out.sizeBytes };
    return recorded(tx, who, out, { action: 'document.uploaded', data });
  });
}

async function loadDocument(db: Tx, tenantId: string, id: string): Promise<{ row: DocumentRow; text: string }> {
  const scoped = scopeToTenant(db, tenantId);
  const [row, text] = await Promise.all([
    scoped.contextDocument.findFirst({ where: { id } }),
    scoped.contextDocumentText.findFirst({ where: { id } }),
  ]);
  if (!row || !text) throw new ApiError('not_found', `Document ${id} was not found.`, [{ field: 'documentId', issue: 'not_found' }]);
  return { row, text: text.text };
}

export async function documentText(prisma: Prisma, tenantId: string, id: string) {
  const { row, text } = await loadDocument(prisma, tenantId, id).catch((err) => {
    if (err instanceof ApiError) throw notFound('Document', id);
    throw err;
  });
  return { object: 'svc.context.document_text' as const, id: row.id, sha256: row.sha256, text };
}

// ---------------------------------------------------------------- rules over text

function compile(rule: TextRule): RegExp {
  return new RegExp(rule.pattern, `g${rule.flags}u`);
}
const COMPILED = new Map<string, RegExp>();
function regexOf(rule: TextRule): RegExp {
  let re = COMPILED.get(rule.id);
  if (!re) {
    re = compile(rule);
    COMPILED.set(rule.id, re);
  }
  re.lastIndex = 0;
  return re;
}

interface RuleHit {
  rule: string;
  kind: 'keyword' | 'citation';
  weight: number;
  matches: Span[];
  matchCount: number;
}

function applyRules(text: string, rules: readonly TextRule[]): { points: number; evidence: RuleHit[] } {
  let points = 0;
  const evidence: RuleHit[] = [];
  for (const rule of rules) {
    const re = regexOf(rule);
    const spans: Span[] = [];
    let count = 0;
    for (const m of text.matchAll(re)) {
      count++;
      if (spans.length < 5) spans.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
    }
    if (count === 0) continue;
    points += Math.min(count, MAX_MATCHES_PER_RULE) * rule.weight;
    evidence.push({ rule: rule.id, kind: rule.kind, weight: rule.weight, matches: spans, matchCount: count });
  }
  return { points, evidence };
}

const scoreOf = (points: number) => round4(points / (points + 3));

type Classified = Omit<z.infer<typeof Classification>, 'object' | 'documentId' | 'stored' | 'classifiedAt'>;

/** Document type and frameworks of a text, each with the rules that fired. */
export function classifyText(text: string): Classified {
  const candidates = Object.entries(TYPE_RULES)
    .map(([type, rules]) => ({ documentType: type as DocumentType, ...applyRules(text, rules) }))
    .filter((c) => c.points > 0)
    .map((c) => ({ documentType: c.documentType, score: scoreOf(c.points), points: c.points, evidence: c.evidence }))
    .sort((a, b) => b.points - a.points || a.documentType.localeCompare(b.documentType));
  const frameworks = Object.entries(FRAMEWORK_RULES)
    .map(([framework, rules]) => ({ framework, ...applyRules(text, rules) }))
    .filter((f) => f.points >= FRAMEWORK_MIN_POINTS)
    .map((f) => ({ framework: f.framework, score: scoreOf(f.points), points: f.points, evidence: f.evidence }))
    .sort((a, b) => b.points - a.points || a.framework.localeCompare(b.framework));
  const best = candidates[0];
  return { documentType: best?.documentType ?? null, score: best?.score ?? 0, candidates, frameworks };
}

export async function classify(
  prisma: Prisma,
  who: Actor,
  body: { documentId?: string | undefined; text?: string | undefined },
): Promise<z.infer<typeof Classification>> {
  const now = new Date();
  if (body.documentId === undefined) {
    return {
      object: 'svc.context.classification',
      documentId: null,
      ...classifyText(body.text ?? ''),
      stored: false,
      classifiedAt: iso(now),
    };
  }
  const documentId = body.documentId;
  const { text } = await loadDocument(prisma, who.tenantId, documentId);
  const result = classifyText(text);
  const out: z.infer<typeof Classification> = {
    object: 'svc.context.classification',
    documentId: body.documentId,
    ...result,
    stored: true,
    classifiedAt: iso(now),
  };
  await prisma.$transaction(async (tx) => {
    const updated = await scopeToTenant(tx, who.tenantId).contextDocument.updateMany({
      where: { id: body.documentId },
      data: {
        documentType: result.documentType,
        frameworks: result.frameworks.map((f) => f.framework),
        classification: { score: result.score, candidates: result.candidates, frameworks: result.frameworks },
        classifiedAt: now,
      },
    });
    if (updated.count !== 1) throw notFound('Document', documentId);
    const row = await scopeToTenant(tx, who.tenantId).contextDocument.findFirstOrThrow({ where: { id: body.documentId } });
    await recordChange(tx, {
      ...who,
      action: 'document.classified',
      resourceType: 'svc.context.document',
      resourceId: row.id,
      data: { documentType: result.documentType, score: result.score, frameworks: result.frameworks.map((f) => f.framework) },
      resource: renderDocument(row),
    });
  });
  return out;
}

// ---------------------------------------------------------------- references and obligations

type RefKind = 'article' | 'annex' | 'recital' | 'section' | 'clause';
interface Reference extends Span {
  kind: RefKind;
  ref: string;
  /** Refs to try in the dictionaries, most specific first. */
  candidates: string[];
  namedFramework: string | null;
}

const SUBS = String.raw`((?:\s?\(\s?[0-9]{1,3}[a-z]?\s?\)|\s?\(\s?[a-z]{1,4}\s?\))*)`;
const REFERENCE_PATTERNS: readonly { kind: RefKind; re: RegExp }[] = [
  { kind: 'article', re: new RegExp(String.raw`\b(?:Articles?|Art\.)\s?(\d{1,3}[a-z]?)${SUBS}`, 'g') },
  { kind: 'annex', re: /\bAnnex\s([IVXLC]{1,6})\b/g },
  { kind: 'recital', re: /\bRecitals?\s(\d{1,3})\b/g },
  { kind: 'section', re: new RegExp(String.raw`(?:§§?|\bSection|\bSec\.)\s?(\d{1,6}(?:[.-]\d{1,6}){0,3})${SUBS}`, 'g') },
  { kind: 'clause', re: /\b([AB]\.\d{1,2}(?:\.\d{1,2}){0,3})\b/g },
  { kind: 'clause', re: /\bClause\s(\d{1,2}(?:\.\d{1,2}){0,3})\b/g },
];

const subParts = (subs: string | undefined) =>
  [...(subs ?? '').matchAll(/\(\s?([0-9a-z]+)\s?\)/g)].map((m) => (m[1] as string).toLowerCase());

/** The ref of a match in dictionary form and the refs to try, most specific first. */
function normalise(kind: RefKind, main: string, subs: string | undefined): { ref: string; candidates: string[] } {
  const chain = (base: string, parts: string[]) => {
    const out: string[] = [];
    for (let n = parts.length; n >= 0; n--) out.push([base, ...parts.slice(0, n)].join('-'));
    return out;
  };
  switch (kind) {
    case 'article': {
      const c = chain(`art-${main.toLowerCase()}`, subParts(subs));
      return { ref: c[0] as string, candidates: c };
    }
    case 'section': {
      const c = chain(`sec-${main.replace(/[.]/g, '-')}`, subParts(subs));
      return { ref: c[0] as string, candidates: c };
    }
    case 'annex':
      return { ref: `annex-${main.toLowerCase()}`, candidates: [`annex-${main.toLowerCase()}`] };
    case 'recital':
      return { ref: `recital-${main}`, candidates: [`recital-${main}`] };
    case 'clause': {
      const parts = main.split('.');
      const out: string[] = [];
      for (let n = parts.length; n >= Math.min(parts.length, 2); n--) out.push(parts.slice(0, n).join('.'));
      return { ref: main, candidates: out };
    }
  }
}

const STICKY = new Map<string, RegExp>();
const NAMED_PREFIX = /^[\s,]*(?:(?:of|in|under|from|pursuant to)\s+)?(?:the\s+)?/y;

/** The framework named right after a reference (`Article 9 of the GDPR`), when one is. */
function namedFrameworkAt(text: string, end: number): string | null {
  const window = text.slice(end, end + 90);
  NAMED_PREFIX.lastIndex = 0;
  const m = NAMED_PREFIX.exec(window);
  const rest = window.slice(m ? m[0].length : 0);
  for (const [framework, rules] of Object.entries(FRAMEWORK_RULES)) {
    for (const rule of rules) {
      if (rule.kind !== 'citation') continue;
      let re = STICKY.get(rule.id);
      if (!re) {
        re = new RegExp(rule.pattern, `y${rule.flags}u`);
        STICKY.set(rule.id, re);
      }
      re.lastIndex = 0;
      if (re.test(rest)) return framework;
    }
  }
  return null;
}

const MAX_ITEMS = 1000;

export function findReferences(text: string): Reference[] {
  const out: Reference[] = [];
  for (const { kind, re } of REFERENCE_PATTERNS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const matched = m[0].replace(/\s+$/, '');
      const { ref, candidates } = normalise(kind, m[1] as string, m[2]);
      const end = m.index + matched.length;
      out.push({ start: m.index, end, text: matched, kind, ref, candidates, namedFramework: namedFrameworkAt(text, end) });
    }
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  // A `§ 1798.100` inside a longer match, or two patterns on one span, is reported once.
  const kept: Reference[] = [];
  for (const r of out) {
    const last = kept.at(-1);
    if (last && r.start < last.end) continue;
    kept.push(r);
    if (kept.length >= MAX_ITEMS) break;
  }
  return kept;
}

const ABBREVIATIONS = new Set([
  'art',
  'arts',
  'no',
  'nos',
  'sec',
  'para',
  'paras',
  'e.g',
  'i.e',
  'cf',
  'etc',
  'vs',
  'mr',
  'ms',
  'dr',
  'st',
  'p',
  'pp',
  'ibid',
  'ref',
]);

/** Sentence spans (trimmed): ends at . ! ? before a capital or digit, at blank lines, and at line breaks after punctuation or before bullets. */
export function sentences(text: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  const push = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s] as string)) s++;
    while (e > s && /\s/.test(text[e - 1] as string)) e--;
    if (e > s) out.push({ start: s, end: e, text: text.slice(s, e) });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\n') {
      let j = i - 1;
      while (j >= start && /\s/.test(text[j] as string)) j--;
      const last = j >= start ? (text[j] as string) : '';
      const rest = text.slice(i + 1, i + 8);
      // A paragraph break, a line ending in punctuation, or a bullet on the next line ends the sentence.
      if (/^[ \t]*(?:\n|$)/.test(rest) || /[.!?:;]/.test(last) || /^[ \t]*(?:[-*•]|\d{1,2}[.)])\s/.test(rest)) push(i + 1);
      continue;
    }
    if (ch !== '.' && ch !== '!' && ch !== '?') continue;
    const next = text[i + 1];
    if (next !== undefined && !/\s/.test(next)) continue;
    const following = /\S/.exec(text.slice(i + 1, i + 40))?.[0];
    if (following !== undefined && !/[A-Z0-9("'“‘§]/.test(following)) continue;
    if (ch === '.') {
      const word = /([A-Za-z.]+)$/.exec(text.slice(Math.max(start, i - 12), i))?.[1] ?? '';
      if (ABBREVIATIONS.has(word.toLowerCase()) || /^[A-Z]$/.test(word)) continue;
    }
    push(i + 1);
  }
  push(text.length);
  return out;
}

const MODALS =
  /\b(shall not|shall|must not|must|(?:is|are) required to|(?:is|are) obliged to|(?:is|are) obligated to|(?:is|are) prohibited from|(?:has|have) to|(?:is|are) responsible for)\b/i;

export async function clauseExtract(
  prisma: Prisma,
  tenantId: string,
  body: { documentId?: string | undefined; text?: string | undefined; framework?: string | undefined },
): Promise<z.infer<typeof ClauseExtraction>> {
  if (body.framework) await knownFramework(prisma, body.framework);
  const text = body.documentId ? (await loadDocument(prisma, tenantId, body.documentId)).text : (body.text ?? '');
  const refs = findReferences(text);
  const considered = body.framework ? [body.framework] : await defaultFrameworks(prisma, tenantId, text);
  const resolved = await resolveReferences(prisma, refs, considered, body.framework !== undefined);
  const obligations: z.infer<typeof ClauseExtraction>['obligations'] = [];
  let ri = 0;
  for (const s of sentences(text)) {
    const m = MODALS.exec(s.text);
    while (ri < refs.length && (refs[ri] as Reference).start < s.start) ri++;
    if (!m) continue;
    const inside: Reference[] = [];
    for (let k = ri; k < refs.length && (refs[k] as Reference).start < s.end; k++) {
      if ((refs[k] as Reference).end <= s.end) inside.push(refs[k] as Reference);
    }
    const modal = (m[1] as string).toLowerCase().replace(/\s+/g, ' ');
    obligations.push({ ...s, modal, negated: /\bnot\b|prohibited/.test(modal), references: [...new Set(inside.map((r) => r.ref))] });
    if (obligations.length >= MAX_ITEMS) break;
  }
  return {
    object: 'svc.context.clause_extraction',
    documentId: body.documentId ?? null,
    frameworksConsidered: considered,
    references: refs.map((r, i) => ({
      start: r.start,
      end: r.end,
      text: r.text,
      kind: r.kind,
      ref: r.ref,
      namedFramework: r.namedFramework,
      resolved: resolved[i] ?? [],
    })),
    obligations,
  };
}

// ---------------------------------------------------------------- dictionaries

interface Version {
  framework: string;
  versionKey: string;
}

const unknownFramework = (id: string) => invalid('framework', `Framework ${id} is in no dictionary.`);

/** The latest version of a framework dictionary; 422 naming `framework` when there is none. */
async function knownFramework(prisma: Tx, id: string): Promise<Version> {
  const f = await prisma.framework.findUnique({ where: { id }, select: { id: true, latestVersion: true } });
  if (!f) throw unknownFramework(id);
  return { framework: f.id, versionKey: `${f.id}@${f.latestVersion}` };
}

async function activations(prisma: Prisma, tenantId: string): Promise<Version[]> {
  const rows = await scopeToTenant(prisma, tenantId).frameworkActivation.findMany({
    select: { frameworkId: true, versionKey: true },
    orderBy: { frameworkId: 'asc' },
  });
  return rows.map((r) => ({ framework: r.frameworkId, versionKey: r.versionKey }));
}

/** The activated version of a framework: 422 when it is in no dictionary, 409 when the tenant has not activated it. */
async function activatedFramework(prisma: Prisma, tenantId: string, id: string): Promise<Version> {
  await knownFramework(prisma, id);
  const active = (await activations(prisma, tenantId)).find((a) => a.framework === id);
  if (!active) {
    throw new ApiError('conflict', `The tenant has not activated framework ${id}; activate it at /v1/frameworks/${id}/activate first.`, [
      { field: 'framework', issue: 'invalid_value', message: 'not activated' },
    ]);
  }
  return active;
}

/** Frameworks references are resolved against: those the text cites, else the activated ones, else every dictionary. */
async function defaultFrameworks(prisma: Prisma, tenantId: string, text: string): Promise<string[]> {
  const cited = classifyText(text).frameworks.map((f) => f.framework);
  const known = new Set((await prisma.framework.findMany({ select: { id: true } })).map((f) => f.id));
  const citedKnown = cited.filter((f) => known.has(f)).sort();
  if (citedKnown.length > 0) return citedKnown;
  const active = (await activations(prisma, tenantId)).map((a) => a.framework);
  if (active.length > 0) return active;
  return [...known].sort();
}

type Resolved = z.infer<typeof ClauseExtraction>['references'][number]['resolved'];

/** For each reference, the clauses it names: its named framework's, else those of the frameworks considered. */
async function resolveReferences(prisma: Prisma, refs: Reference[], considered: string[], onlyConsidered: boolean): Promise<Resolved[]> {
  const frameworks = new Set(considered);
  if (!onlyConsidered) for (const r of refs) if (r.namedFramework) frameworks.add(r.namedFramework);
  if (refs.length === 0 || frameworks.size === 0) return refs.map(() => []);
  const latest = await prisma.framework.findMany({ where: { id: { in: [...frameworks] } }, select: { id: true, latestVersion: true } });
  const keyOf = new Map(latest.map((f) => [f.id, `${f.id}@${f.latestVersion}`]));
  const wanted = [...new Set(refs.flatMap((r) => r.candidates))];
  const rows = await prisma.frameworkClause.findMany({
    where: { versionKey: { in: [...keyOf.values()] }, ref: { in: wanted } },
    select: { versionKey: true, ref: true, title: true },
  });
  const byKey = new Map(rows.map((r) => [`${r.versionKey}|${r.ref}`, r]));
  return refs.map((r) => {
    const targets = r.namedFramework && !onlyConsidered ? [r.namedFramework] : considered;
    const out: Resolved = [];
    for (const fw of targets) {
      const key = keyOf.get(fw);
      if (!key) continue;
      for (const cand of r.candidates) {
        const row = byKey.get(`${key}|${cand}`);
        if (row) {
          out.push({ framework: fw, dictionaryVersion: key, ref: row.ref, title: row.title, exact: cand === r.ref });
          break;
        }
      }
    }
    return out;
  });
}

// ---------------------------------------------------------------- map

/** Lower case, light suffix stripping: `policies` -> `policy`, `processes` -> `process`, `managed` -> `manag`. */
function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 'e', 's']) {
    if (suffix === 's' && w.endsWith('ss')) break;
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z][A-Za-z'’-]{2,}/g)) {
    const word = m[0].toLowerCase();
    if (STOP_WORDS.has(word)) continue;
    for (const part of word.split('-')) if (part.length >= 3 && !STOP_WORDS.has(part)) out.add(stem(part));
  }
  return out;
}

const PASSAGE_MAX_CHARS = 500;
const MAX_PASSAGES = 2000;
const MAP_MIN_SCORE = 0.3;
const PER_PASSAGE = 3;

/** Paragraphs (split at blank lines); a paragraph over 500 characters is split into its sentences. */
export function passages(text: string): Span[] {
  const out: Span[] = [];
  const all = sentences(text);
  for (const m of text.matchAll(/[^\n]+(?:\n(?![ \t]*\n)[^\n]*)*/g)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const start = m.index + lead;
    const end = m.index + raw.trimEnd().length;
    if (end <= start) continue;
    if (end - start <= PASSAGE_MAX_CHARS) out.push({ start, end, text: text.slice(start, end) });
    else out.push(...all.filter((s) => s.start >= start && s.end <= end));
    if (out.length >= MAX_PASSAGES) break;
  }
  return out.slice(0, MAX_PASSAGES);
}

const related = (a: string, b: string) =>
  a === b || b.startsWith(`${a}-`) || a.startsWith(`${b}-`) || b.startsWith(`${a}.`) || a.startsWith(`${b}.`);

interface ControlTerms {
  id: string;
  title: string;
  clauseRefs: string[];
  titleTerms: string[];
  descriptionTerms: string[];
}

type Mapping = z.infer<typeof MappingResult>['mappings'][number];

/** Scores each passage against the controls of one framework: cited clauses of the control, then title and description terms. */
function mapPassages(
  text: string,
  framework: string,
  controls: ControlTerms[],
  refs: Reference[],
  citedFrameworks: ReadonlySet<string>,
): Mapping[] {
  const out: Mapping[] = [];
  // An unnamed reference counts for this framework unless the text cites other frameworks only.
  const countsHere = (r: Reference) =>
    r.namedFramework ? r.namedFramework === framework : citedFrameworks.size === 0 || citedFrameworks.has(framework);
  for (const p of passages(text)) {
    const pTerms = terms(p.text);
    const cited = refs.filter((r) => r.start >= p.start && r.end <= p.end && countsHere(r));
    const scored: Mapping[] = [];
    for (const c of controls) {
      // 1 when the passage cites a clause of the control (or a sub-clause of one), 0.5 when it cites a parent of one.
      let cites = 0;
      const citing: Reference[] = [];
      for (const r of cited) {
        const part = c.clauseRefs.some((ref) => r.candidates.includes(ref)) ? 1 : c.clauseRefs.some((ref) => related(r.ref, ref)) ? 0.5 : 0;
        if (part > 0) citing.push(r);
        cites = Math.max(cites, part);
      }
      const titleHit = c.titleTerms.filter((t) => pTerms.has(t));
      const descHit = c.descriptionTerms.filter((t) => pTerms.has(t));
      const titleShare = c.titleTerms.length ? titleHit.length / c.titleTerms.length : 0;
      const descShare = c.descriptionTerms.length ? descHit.length / c.descriptionTerms.length : 0;
      const score = round4(0.5 * cites + 0.5 * (0.7 * titleShare + 0.3 * descShare));
      if (score < MAP_MIN_SCORE) continue;
      const why: string[] = [];
      if (citing.length > 0) {
        why.push(
          `cites ${[...new Set(citing.map((r) => r.ref))].join(', ')} (${cites === 1 ? 'a clause of the control' : 'a parent of a clause of the control'})`,
        );
      }
      why.push(`title terms ${titleHit.length}/${c.titleTerms.length}${titleHit.length ? ` (${titleHit.join(', ')})` : ''}`);
      why.push(`description terms ${descHit.length}/${c.descriptionTerms.length}`);
      scored.push({ passage: p, control: c.id, controlTitle: c.title, framework, score, reason: why.join('; ') });
    }
    scored.sort((a, b) => b.score - a.score || a.control.localeCompare(b.control));
    out.push(...scored.slice(0, PER_PASSAGE));
  }
  return out;
}

async function controlTerms(prisma: Tx, versionKey: string): Promise<ControlTerms[]> {
  const rows = await prisma.frameworkControl.findMany({
    where: { versionKey },
    select: { id: true, title: true, description: true, clauseRefs: true },
    orderBy: { ord: 'asc' },
  });
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    clauseRefs: r.clauseRefs,
    titleTerms: [...terms(r.title)],
    descriptionTerms: [...terms(r.description)],
  }));
}

export async function mapDocument(
  prisma: Prisma,
  who: Actor,
  body: { documentId: string; framework?: string | undefined },
): Promise<z.infer<typeof MappingResult>> {
  let targets: Version[];
  const active = await activations(prisma, who.tenantId);
  if (body.framework) {
    const latest = await knownFramework(prisma, body.framework);
    targets = [active.find((a) => a.framework === body.framework) ?? latest];
  } else {
    targets = active;
    if (targets.length === 0) {
      throw invalid('framework', 'The tenant has activated no framework: give `framework`, or activate one first.', 'missing');
    }
  }
  const { text } = await loadDocument(prisma, who.tenantId, body.documentId);
  const refs = findReferences(text);
  const cited = new Set(classifyText(text).frameworks.map((f) => f.framework));
  const perFramework = await Promise.all(
    targets.map(async (v) => ({ v, mappings: mapPassages(text, v.framework, await controlTerms(prisma, v.versionKey), refs, cited) })),
  );
  const now = new Date();
  return prisma.$transaction(async (tx) => {
    const frameworks: z.infer<typeof MappingResult>['frameworks'] = [];
    for (const { v, mappings } of perFramework) {
      const controlIds = [...new Set(mappings.map((m) => m.control))].sort();
      const row = await tx.contextMapping.upsert({
        where: { tenantId_documentId_frameworkId: { tenantId: who.tenantId, documentId: body.documentId, frameworkId: v.framework } },
        create: {
          id: newId('cxm'),
          tenantId: who.tenantId,
          documentId: body.documentId,
          frameworkId: v.framework,
          versionKey: v.versionKey,
          controlIds,
          mappings,
          createdBy: who.actor,
          createdAt: now,
          updatedAt: now,
        },
        update: { versionKey: v.versionKey, controlIds, mappings, createdBy: who.actor, updatedAt: now },
      });
      frameworks.push({ framework: v.framework, dictionaryVersion: v.versionKey, mappingId: row.id, controls: controlIds.length });
    }
    const out: z.infer<typeof MappingResult> = {
      object: 'svc.context.mapping',
      documentId: body.documentId,
      frameworks,
      mappings: perFramework.flatMap((f) => f.mappings).sort((a, b) => a.passage.start - b.passage.start || b.score - a.score),
      mappedAt: iso(now),
    };
    const data = { frameworks: frameworks.map((f) => ({ framework: f.framework, mappingId: f.mappingId, controls: f.controls })) };
    return recorded(tx, who, out, { action: 'document.mapped', resourceType: 'svc.context.document', resourceId: body.documentId, data });
  });
}

// ---------------------------------------------------------------- gaps and recommendations

type Gap = z.infer<typeof GapAnalysis>['gaps'][number];
interface FrameworkGaps {
  version: Version;
  controls: { id: string; title: string; clauseRefs: string[] }[];
  gaps: Gap[];
}

async function gapsOf(prisma: Prisma, tenantId: string, version: Version, at: Date): Promise<FrameworkGaps> {
  const db = scopeToTenant(prisma, tenantId);
  const controls = await prisma.frameworkControl.findMany({
    where: { versionKey: version.versionKey },
    select: { id: true, title: true, clauseRefs: true },
    orderBy: { ord: 'asc' },
  });
  const ids = controls.map((c) => c.id);
  const [evidence, mappings] = await Promise.all([
    ids.length
      ? db.evidence.findMany({
          where: { controlIds: { hasSome: ids }, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
          select: { id: true, controlIds: true },
          orderBy: { id: 'asc' },
        })
      : [],
    db.contextMapping.findMany({
      where: { frameworkId: version.framework },
      select: { documentId: true, controlIds: true },
      orderBy: { documentId: 'asc' },
    }),
  ]);
  const gaps: Gap[] = [];
  for (const c of controls) {
    const evidenceIds = evidence.filter((e) => e.controlIds.includes(c.id)).map((e) => e.id);
    const documentIds = mappings.filter((m) => m.controlIds.includes(c.id)).map((m) => m.documentId);
    const missing: Gap['missing'] = [];
    if (evidenceIds.length === 0) missing.push('evidence');
    if (documentIds.length === 0) missing.push('document');
    if (missing.length > 0) gaps.push({ control: c.id, title: c.title, missing, evidenceIds, documentIds });
  }
  return { version, controls, gaps };
}

export async function gapAnalysis(prisma: Prisma, tenantId: string, framework: string): Promise<z.infer<typeof GapAnalysis>> {
  const at = new Date();
  const version = await activatedFramework(prisma, tenantId, framework);
  const g = await gapsOf(prisma, tenantId, version, at);
  return {
    object: 'svc.context.gap_analysis',
    framework,
    dictionaryVersion: version.versionKey,
    controls: g.controls.length,
    covered: g.controls.length - g.gaps.length,
    gaps: g.gaps,
    computedAt: iso(at),
  };
}

const WEIGHTS = {
  missing: { weight: 1, cap: 2 },
  obligations_in_force: { weight: 0.4, cap: 5 },
  crosswalk_reach: { weight: 0.1, cap: 10 },
} as const;

export const PRIORITY_METHOD =
  'priority = 1.0 × missing (2 when evidence and document are missing, 1 when one is) + 0.4 × obligations in force (the tenant’s open or in-progress obligations of the framework whose due date has passed, on a clause of the control or a sub-clause; at most 5) + 0.1 × crosswalk reach (distinct requirements of other dictionaries linked by a crosswalk edge to the control or its clauses; at most 10)';

export async function recommendations(
  prisma: Prisma,
  tenantId: string,
  query: { framework?: string | undefined; limit: number },
): Promise<z.infer<typeof Recommendations>> {
  const at = new Date();
  const versions = query.framework ? [await activatedFramework(prisma, tenantId, query.framework)] : await activations(prisma, tenantId);
  const all: z.infer<typeof Recommendations>['recommendations'] = [];
  for (const version of versions) {
    const g = await gapsOf(prisma, tenantId, version, at);
    if (g.gaps.length === 0) continue;
    const [obligations, edges] = await Promise.all([
      scopeToTenant(prisma, tenantId).obligation.findMany({
        where: { frameworkId: version.framework, status: { in: ['open', 'in_progress'] }, dueDate: { lte: at } },
        select: { clauseRef: true },
      }),
      prisma.crosswalkEdge.findMany({
        where: { OR: [{ fromDict: version.framework }, { toDict: version.framework }], relationship: { not: 'not_related' } },
        select: { fromDict: true, fromKind: true, fromRef: true, toDict: true, toKind: true, toRef: true },
      }),
    ]);
    const byId = new Map(g.controls.map((c) => [c.id, c]));
    for (const gap of g.gaps) {
      const c = byId.get(gap.control);
      if (!c) continue;
      const inForce = obligations.filter((o) => c.clauseRefs.some((ref) => related(ref, o.clauseRef))).length;
      const touches = (kind: string, ref: string) => (kind === 'control' ? ref === c.id : c.clauseRefs.includes(ref));
      const reach = new Set<string>();
      for (const e of edges) {
        if (e.fromDict === version.framework && touches(e.fromKind, e.fromRef) && e.toDict !== version.framework)
          reach.add(`${e.toDict}|${e.toKind}|${e.toRef}`);
        if (e.toDict === version.framework && touches(e.toKind, e.toRef) && e.fromDict !== version.framework)
          reach.add(`${e.fromDict}|${e.fromKind}|${e.fromRef}`);
      }
      const values = { missing: gap.missing.length, obligations_in_force: inForce, crosswalk_reach: reach.size };
      const parts = (Object.keys(WEIGHTS) as (keyof typeof WEIGHTS)[]).map((name) => {
        const { weight, cap } = WEIGHTS[name];
        return { name, value: values[name], weight, cap, points: round4(Math.min(values[name], cap) * weight) };
      });
      const needs = [
        gap.missing.includes('evidence') ? `record evidence for ${c.id}` : '',
        gap.missing.includes('document') ? 'upload and map a document that covers it' : '',
      ].filter(Boolean);
      const action = needs.join(' and ');
      all.push({
        rank: 0,
        framework: version.framework,
        control: c.id,
        title: c.title,
        missing: gap.missing,
        priority: round4(parts.reduce((n, p) => n + p.points, 0)),
        parts,
        action: `${action.charAt(0).toUpperCase()}${action.slice(1)}.`,
      });
    }
  }
  all.sort((a, b) => b.priority - a.priority || a.framework.localeCompare(b.framework) || a.control.localeCompare(b.control));
  return {
    object: 'svc.context.recommendations',
    frameworks: versions.map((v) => v.framework),
    method: PRIORITY_METHOD,
    total: all.length,
    recommendations: all.slice(0, query.limit).map((r, i) => ({ ...r, rank: i + 1 })),
    computedAt: iso(at),
  };
}
