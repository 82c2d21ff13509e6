import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BundleHash,
  type BundleRepin,
  canonicalJson,
  EVIDENCE_KINDS,
  type EvidenceType,
  type Jurisdiction,
  REGULATOR_KINDS,
  type Regulator,
  type RiskClass,
  TaxonomyClause,
  TaxonomyControl,
  type TaxonomyFramework,
  type TaxonomyRole,
} from '@svc/contract';
import { z } from 'zod';
import { compareSemver } from '../../content/frameworks.ts';
import { contentGeneration, contentPath, SHIPPED_CONTENT } from '../../content/paths.ts';
import { DictionaryDate } from '../../content/provision-dates.ts';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, encodeCursor, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { FrameworkClause, FrameworkControl, TaxonomyPin } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { isUniqueViolation, lockKey } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';
import { resolveVersion } from '../frameworks/service.ts';

type Page<T> = { data: T[]; cursor: string | null };
type Out<S extends z.ZodType> = z.infer<S>;

// ---------------------------------------------------------------------------------------------
// The taxonomy files (content/taxonomy/<name>.json): versioned, checked by these schemas.

/** Where the shipped taxonomy files are. */
export const TAXONOMY_DIR = join(SHIPPED_CONTENT, 'taxonomy');

const Id = z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/);
const CodeId = z.string().regex(/^[a-z][a-z0-9-]{1,31}$/);
const Text = z.string().min(1);
const ClauseLink = z.strictObject({ framework: Id, clauseRef: z.string().min(1).max(64) });

const file = <N extends string, I extends z.ZodType>(name: N, item: I) =>
  z.strictObject({
    id: z.literal(name),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    title: Text,
    description: Text,
    items: z.array(item).min(1),
  });

export const TaxonomyFiles = {
  'evidence-types': file(
    'evidence-types',
    z.strictObject({
      id: Id,
      title: Text,
      evidenceKind: z.enum(EVIDENCE_KINDS),
      description: Text,
      requiredBy: z.array(ClauseLink).min(1),
    }),
  ),
  jurisdictions: file(
    'jurisdictions',
    z.strictObject({
      code: CodeId,
      name: Text,
      kind: z.enum(['global', 'supranational', 'country', 'subdivision']),
      parent: CodeId.nullable(),
      euMember: z.boolean(),
      description: Text,
    }),
  ),
  regulators: file(
    'regulators',
    z.strictObject({
      id: Id,
      name: Text,
      shortName: Text,
      jurisdiction: CodeId,
      kind: z.enum(REGULATOR_KINDS),
      url: z.url(),
      dictionaries: z.array(Id).min(1),
      description: Text,
    }),
  ),
  'risk-classes': file(
    'risk-classes',
    z.strictObject({
      id: Id,
      name: Text,
      riskLevel: z.enum(['prohibited', 'high', 'limited', 'minimal', 'gpai']),
      systemicRisk: z.boolean(),
      framework: Id,
      articleRefs: z.array(z.string().min(1).max(64)).min(1),
      /** In the file the provision (`{ dictionary, clause }`) the class's duties apply from; its dictionary's date once read. */
      applicableFrom: DictionaryDate.nullable(),
      description: Text,
    }),
  ),
  roles: file(
    'roles',
    z.strictObject({
      id: Id,
      name: Text,
      description: Text,
      definedBy: z.array(ClauseLink.extend({ actor: z.string().min(1) })).min(1),
    }),
  ),
} as const;

export type TaxonomyName = keyof typeof TaxonomyFiles;
export const TAXONOMY_NAMES = Object.keys(TaxonomyFiles).sort() as TaxonomyName[];

export type TaxonomyContent = { [N in TaxonomyName]: z.infer<(typeof TaxonomyFiles)[N]> & { contentHash: string } };

/** `sha256:<hex>` of the canonical JSON (keys sorted at every level) of a value. */
export function canonicalHash(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** Reads and validates every taxonomy file of a directory; a broken file is an error naming it. */
export function readTaxonomy(dir = TAXONOMY_DIR): TaxonomyContent {
  const out: Partial<Record<TaxonomyName, unknown>> = {};
  for (const name of TAXONOMY_NAMES) {
    const parsed = TaxonomyFiles[name].safeParse(JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')));
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.')} ${i.message}`)
        .join('; ');
      throw new Error(`content/taxonomy/${name}.json: ${issues}`);
    }
    const keys = parsed.data.items.map((i: Record<string, unknown>) => String(i.id ?? i.code));
    const dup = keys.find((k, i) => keys.indexOf(k) !== i);
    if (dup) throw new Error(`content/taxonomy/${name}.json: duplicate item ${dup}`);
    out[name] = { ...parsed.data, contentHash: canonicalHash(parsed.data) };
  }
  return out as TaxonomyContent;
}

/** What a dictionary offers for references: its clause refs, obligation actors and jurisdiction. */
export interface DictionaryFacts {
  clauses: ReadonlySet<string>;
  actors: ReadonlySet<string>;
  jurisdiction: string;
}

/** Every reference of the taxonomy that does not resolve (empty when all do). */
export function unresolvedReferences(t: TaxonomyContent, dictionaries: ReadonlyMap<string, DictionaryFacts>): string[] {
  const problems: string[] = [];
  const codes = new Set(t.jurisdictions.items.map((j) => j.code));
  const clause = (where: string, framework: string, ref: string) => {
    const d = dictionaries.get(framework);
    if (!d) problems.push(`${where}: unknown dictionary ${framework}`);
    else if (!d.clauses.has(ref)) problems.push(`${where}: ${framework} has no clause ${ref}`);
    return d;
  };
  for (const j of t.jurisdictions.items) {
    if (j.parent !== null && !codes.has(j.parent)) problems.push(`jurisdictions/${j.code}: unknown parent ${j.parent}`);
  }
  for (const [id, d] of dictionaries) {
    if (!codes.has(d.jurisdiction)) problems.push(`frameworks/${id}: jurisdiction ${d.jurisdiction} is not in taxonomy/jurisdictions`);
  }
  for (const r of t.regulators.items) {
    if (!codes.has(r.jurisdiction)) problems.push(`regulators/${r.id}: unknown jurisdiction ${r.jurisdiction}`);
    for (const d of r.dictionaries) if (!dictionaries.has(d)) problems.push(`regulators/${r.id}: unknown dictionary ${d}`);
  }
  for (const c of t['risk-classes'].items) for (const a of c.articleRefs) clause(`risk-classes/${c.id}`, c.framework, a);
  for (const r of t.roles.items) {
    for (const d of r.definedBy) {
      const dict = clause(`roles/${r.id}`, d.framework, d.clauseRef);
      if (dict && !dict.actors.has(d.actor)) problems.push(`roles/${r.id}: ${d.framework} obligations name no actor ${d.actor}`);
    }
  }
  for (const e of t['evidence-types'].items) for (const q of e.requiredBy) clause(`evidence-types/${e.id}`, q.framework, q.clauseRef);
  return problems;
}

let cached: { dir: string; generation: number; content: TaxonomyContent } | undefined;

/**
 * The taxonomy files the service serves: `$SVC_CONTENT_DIR/taxonomy` when that folder exists,
 * else the shipped ones; read and validated once per process.
 */
export function taxonomy(): TaxonomyContent {
  const dir = contentPath('taxonomy');
  if (cached?.dir !== dir || cached.generation !== contentGeneration())
    cached = { dir, generation: contentGeneration(), content: readTaxonomy(dir) };
  return cached.content;
}

// ---------------------------------------------------------------------------------------------
// Lists.

/** A page of an in-memory list in its given order; the cursor is the position of the last item. */
function pageOf<T, R>(items: readonly T[], q: { limit: number; cursor?: string }, render: (t: T) => R): Page<R> {
  const after = decodeCursor(q.cursor, 'number') ?? -1;
  const start = after + 1;
  const slice = items.slice(start, start + q.limit);
  const more = start + q.limit < items.length;
  return { data: slice.map(render), cursor: more ? encodeCursor(start + q.limit - 1) : null };
}

const dv = (name: TaxonomyName) => `taxonomy/${name}@${taxonomy()[name].version}`;

export function listEvidenceTypes(q: {
  limit: number;
  cursor?: string;
  framework?: string;
  kind?: string;
}): Page<Out<typeof EvidenceType>> {
  const items = taxonomy()['evidence-types'].items.filter(
    (e) => (!q.framework || e.requiredBy.some((r) => r.framework === q.framework)) && (!q.kind || e.evidenceKind === q.kind),
  );
  const version = dv('evidence-types');
  return pageOf(items, q, (e) => ({ object: 'svc.taxonomy.evidence_type' as const, dictionaryVersion: version, ...e }));
}

export function listJurisdictions(q: { limit: number; cursor?: string; parent?: string; kind?: string }): Page<Out<typeof Jurisdiction>> {
  const items = taxonomy().jurisdictions.items.filter((j) => (!q.parent || j.parent === q.parent) && (!q.kind || j.kind === q.kind));
  const version = dv('jurisdictions');
  return pageOf(items, q, (j) => ({ object: 'svc.taxonomy.jurisdiction' as const, dictionaryVersion: version, ...j }));
}

/** The code and every code inside it (`de` -> `de`, `de-by`, ...). */
function withinCodes(code: string): Set<string> {
  const items = taxonomy().jurisdictions.items;
  const out = new Set([code]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const j of items) {
      if (j.parent !== null && out.has(j.parent) && !out.has(j.code)) {
        out.add(j.code);
        grew = true;
      }
    }
  }
  return out;
}

export function listRegulators(q: {
  limit: number;
  cursor?: string;
  jurisdiction?: string;
  framework?: string;
}): Page<Out<typeof Regulator>> {
  const within = q.jurisdiction ? withinCodes(q.jurisdiction) : undefined;
  const items = taxonomy().regulators.items.filter(
    (r) => (!within || within.has(r.jurisdiction)) && (!q.framework || r.dictionaries.includes(q.framework)),
  );
  const version = dv('regulators');
  return pageOf(items, q, (r) => ({ object: 'svc.taxonomy.regulator' as const, dictionaryVersion: version, ...r }));
}

export function listRoles(q: { limit: number; cursor?: string; framework?: string }): Page<Out<typeof TaxonomyRole>> {
  const items = taxonomy().roles.items.filter((r) => !q.framework || r.definedBy.some((d) => d.framework === q.framework));
  const version = dv('roles');
  return pageOf(items, q, (r) => ({ object: 'svc.taxonomy.role' as const, dictionaryVersion: version, ...r }));
}

export async function listRiskClasses(prisma: Tx, q: { limit: number; cursor?: string }): Promise<Page<Out<typeof RiskClass>>> {
  const version = dv('risk-classes');
  const page = pageOf(taxonomy()['risk-classes'].items, q, (c) => c);
  // Article titles from the latest version of the dictionary each class names.
  const titles = new Map<string, string>();
  for (const framework of new Set(page.data.map((c) => c.framework))) {
    const fw = await prisma.framework.findUnique({ where: { id: framework } });
    if (!fw) continue;
    const refs = page.data.filter((c) => c.framework === framework).flatMap((c) => c.articleRefs);
    const rows = await prisma.frameworkClause.findMany({ where: { versionKey: `${framework}@${fw.latestVersion}`, ref: { in: refs } } });
    for (const r of rows) titles.set(`${framework}|${r.ref}`, r.title);
  }
  return {
    data: page.data.map(({ articleRefs, ...c }) => ({
      object: 'svc.taxonomy.risk_class' as const,
      dictionaryVersion: version,
      ...c,
      articles: articleRefs.map((ref) => ({ ref, title: titles.get(`${c.framework}|${ref}`) ?? null })),
    })),
    cursor: page.cursor,
  };
}

export async function listFrameworks(
  prisma: Tx,
  q: { limit: number; cursor?: string; jurisdiction?: string; kind?: string },
): Promise<Page<Out<typeof TaxonomyFramework>>> {
  const after = decodeCursor(q.cursor, 'string');
  const rows = await prisma.framework.findMany({
    where: {
      ...(q.jurisdiction ? { jurisdiction: q.jurisdiction } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(after !== undefined ? { id: { gt: after } } : {}),
    },
    orderBy: { id: 'asc' },
    take: q.limit + 1,
  });
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const versions = await prisma.frameworkVersion.findMany({ where: { frameworkId: { in: page.map((r) => r.id) } } });
  const data = page.map((fw) => {
    const own = versions.filter((v) => v.frameworkId === fw.id);
    const latest = own.find((v) => v.version === fw.latestVersion);
    return {
      object: 'svc.taxonomy.framework' as const,
      id: fw.id,
      version: fw.latestVersion,
      dictionaryVersion: `${fw.id}@${fw.latestVersion}`,
      versions: own.map((v) => v.version).sort(compareSemver),
      title: fw.title,
      shortTitle: fw.shortTitle,
      kind: fw.kind as 'regulation' | 'standard' | 'framework',
      publisher: fw.publisher,
      jurisdiction: fw.jurisdiction,
      contentHash: latest?.contentHash ?? '',
    };
  });
  const last = page.at(-1);
  return { data, cursor: more && last ? encodeCursor(last.id) : null };
}

/** The version keys a controls or clauses view walks: one dictionary's, or every latest one. */
async function versionKeys(prisma: Tx, framework: string | undefined): Promise<string[]> {
  if (framework) return [(await resolveVersion(prisma, framework)).key];
  const all = await prisma.framework.findMany({ select: { id: true, latestVersion: true } });
  return all.map((f) => `${f.id}@${f.latestVersion}`).sort();
}

/** Keyset over (versionKey, ord): the cursor is `<versionKey>|<ord>` of the last row. */
function afterKey(cursor: string | undefined): Record<string, unknown> {
  const raw = decodeCursor(cursor, 'string');
  if (raw === undefined) return {};
  const at = raw.lastIndexOf('|');
  const key = raw.slice(0, at);
  const ord = Number(raw.slice(at + 1));
  if (at < 1 || !Number.isInteger(ord)) {
    throw new ApiError('bad_request', 'The cursor is not valid for this list.', [{ field: 'cursor', issue: 'invalid_format' }]);
  }
  return { OR: [{ versionKey: { gt: key } }, { versionKey: key, ord: { gt: ord } }] };
}

const frameworkOf = (versionKey: string) => versionKey.split('@')[0] ?? versionKey;
/** The cursor key of a control or clause, read back by afterKey. */
const versionOrdKey = (r: { versionKey: string; ord: number }) => `${r.versionKey}|${r.ord}`;

const renderControl = rendererOf<FrameworkControl>()(TaxonomyControl, {
  framework: (r) => frameworkOf(r.versionKey),
  dictionaryVersion: (r) => r.versionKey,
});

const renderClause = rendererOf<FrameworkClause>()(TaxonomyClause, {
  framework: (r) => frameworkOf(r.versionKey),
  dictionaryVersion: (r) => r.versionKey,
});

export async function listControls(
  prisma: Tx,
  q: { limit: number; cursor?: string; framework?: string; category?: string },
): Promise<Page<Out<typeof TaxonomyControl>>> {
  const keys = await versionKeys(prisma, q.framework);
  const rows = await prisma.frameworkControl.findMany({
    where: { versionKey: { in: keys }, ...(q.category ? { category: q.category } : {}), ...afterKey(q.cursor) },
    orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }],
    take: q.limit + 1,
  });
  return toPage(rows, q.limit, versionOrdKey, renderControl);
}

export async function listClauses(
  prisma: Tx,
  q: { limit: number; cursor?: string; framework?: string },
): Promise<Page<Out<typeof TaxonomyClause>>> {
  const keys = await versionKeys(prisma, q.framework);
  const rows = await prisma.frameworkClause.findMany({
    where: { versionKey: { in: keys }, ...afterKey(q.cursor) },
    orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }],
    take: q.limit + 1,
  });
  return toPage(rows, q.limit, versionOrdKey, renderClause);
}

// ---------------------------------------------------------------------------------------------
// The bundle: its hash, the tenant's pin and the re-pin.

export type Components = Record<string, { version: string; contentHash: string }>;

export interface Bundle {
  hash: string;
  versions: Record<string, string>;
  components: Components;
}

/** The hash of a bundle: SHA-256 of the canonical JSON of its components. */
export function bundleOf(components: Components): Bundle {
  const versions = Object.fromEntries(
    Object.entries(components)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, v.version]),
  );
  return { hash: canonicalHash(components), versions, components };
}

/** The bundle the service holds now: every dictionary's latest version and every taxonomy file. */
export async function currentBundle(prisma: Tx): Promise<Bundle> {
  const frameworks = await prisma.framework.findMany({ select: { id: true, latestVersion: true } });
  const rows = await prisma.frameworkVersion.findMany({
    where: { key: { in: frameworks.map((f) => `${f.id}@${f.latestVersion}`) } },
    select: { frameworkId: true, version: true, contentHash: true },
  });
  const components: Components = {};
  for (const r of rows) components[r.frameworkId] = { version: r.version, contentHash: r.contentHash };
  const t = taxonomy();
  for (const name of TAXONOMY_NAMES) components[`taxonomy/${name}`] = { version: t[name].version, contentHash: t[name].contentHash };
  return bundleOf(components);
}

function changesBetween(pinned: Components, current: Components) {
  const names = [...new Set([...Object.keys(pinned), ...Object.keys(current)])].sort();
  return names
    .filter((n) => pinned[n]?.contentHash !== current[n]?.contentHash)
    .map((n) => ({ component: n, pinned: pinned[n]?.version ?? null, current: current[n]?.version ?? null }));
}

const latestPin = (db: Tx, tenantId: string) => scopeToTenant(db, tenantId).taxonomyPin.findFirst({ orderBy: { seq: 'desc' } });

function renderRepin(pin: TaxonomyPin, previousHash: string | null, changed: boolean, changes: ReturnType<typeof changesBetween>) {
  return {
    object: 'svc.taxonomy.bundle_repin' as const,
    id: pin.id,
    previousHash,
    hash: pin.hash,
    versions: pin.versions as Record<string, string>,
    changed,
    seq: pin.seq,
    pinnedAt: pin.pinnedAt.toISOString(),
    changes,
  } satisfies Out<typeof BundleRepin>;
}

/** Adds a pin of `bundle` after `previous`, with its audit event, in the transaction `tx`. */
async function addPin(
  tx: Tx,
  who: Actor,
  bundle: Bundle,
  previous: TaxonomyPin | null,
  action: 'taxonomy.bundle_pinned' | 'taxonomy.bundle_repinned',
  reason: string | undefined,
): Promise<TaxonomyPin> {
  const changes = changesBetween((previous?.components ?? {}) as Components, bundle.components);
  const pin = await scopeToTenant(tx, who.tenantId).taxonomyPin.create({
    data: {
      id: newId('txp'),
      tenantId: who.tenantId,
      seq: (previous?.seq ?? 0) + 1,
      hash: bundle.hash,
      versions: bundle.versions,
      components: bundle.components,
      previousHash: previous?.hash ?? null,
      pinnedBy: who.actor,
      reason: reason ?? null,
    },
  });
  await recordChange(tx, {
    ...who,
    action,
    resourceType: 'svc.taxonomy.bundle_hash',
    resourceId: pin.id,
    data: {
      previousHash: previous?.hash ?? null,
      hash: bundle.hash,
      versions: bundle.versions,
      changes,
      ...(reason ? { reason } : {}),
    },
    resource: renderRepin(pin, previous?.hash ?? null, true, changes),
  });
  return pin;
}

/** The tenant's pinned bundle beside the current one; the first read pins the current bundle. */
export async function getBundleHash(prisma: Prisma, who: Actor): Promise<Out<typeof BundleHash>> {
  const current = await currentBundle(prisma);
  let pin = await latestPin(prisma, who.tenantId);
  if (!pin) {
    try {
      pin = await prisma.$transaction((tx) => addPin(tx, who, current, null, 'taxonomy.bundle_pinned', undefined));
    } catch (err) {
      // A concurrent first read pinned first: serve its pin.
      if (!isUniqueViolation(err)) throw err;
      pin = await latestPin(prisma, who.tenantId);
      if (!pin) throw err;
    }
  }
  return {
    object: 'svc.taxonomy.bundle_hash',
    id: pin.id,
    hash: pin.hash,
    versions: pin.versions as Record<string, string>,
    seq: pin.seq,
    pinnedAt: pin.pinnedAt.toISOString(),
    pinnedBy: pin.pinnedBy,
    current: { hash: current.hash, versions: current.versions },
    upToDate: pin.hash === current.hash,
    changes: changesBetween(pin.components as Components, current.components),
  };
}

/** Moves the tenant's pin to the current bundle; a no-op (nothing written) when it is there already. */
export async function repin(
  prisma: Prisma,
  who: Actor,
  body: { reason?: string; expectedHash?: string } | undefined,
): Promise<Out<typeof BundleRepin>> {
  const current = await currentBundle(prisma);
  if (body?.expectedHash && body.expectedHash !== current.hash) {
    throw new ApiError('conflict', `The current bundle is ${current.hash}, not the expected ${body.expectedHash}; nothing was re-pinned.`, [
      { field: 'expectedHash', issue: 'invalid_value' },
    ]);
  }
  // Re-pins of one tenant queue here: the first moves the pin, the next find it there (a no-op).
  return prisma.$transaction(async (tx) => {
    await lockKey(tx, `svc.taxonomy.pin:${who.tenantId}`);
    const previous = await latestPin(tx, who.tenantId);
    if (previous && previous.hash === current.hash) return renderRepin(previous, previous.hash, false, []);
    const pin = await addPin(tx, who, current, previous, 'taxonomy.bundle_repinned', body?.reason);
    return renderRepin(pin, previous?.hash ?? null, true, changesBetween((previous?.components ?? {}) as Components, current.components));
  });
}
