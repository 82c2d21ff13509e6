import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, type StockWorkflow, WORKFLOW_SNAPSHOT_ACTION, WorkflowSnapshot, type workflowSnapshots } from '@svc/contract';
import type { Response } from 'express';
import { z } from 'zod';
import { contentGeneration, contentPath, SHIPPED_CONTENT } from '../../content/paths.ts';
import type { Database, Prisma } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import type { Row } from '../../db/rows.ts';
import { notFound } from '../../errors.ts';
import type { WorkflowSnapshot as SnapshotRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { appendVersion } from '../../platform/ledger/versioned.ts';
import { rendererOf } from '../../platform/render.ts';

/**
 * The workflows registry: the stock workflow catalogue (content/workflows/stock-workflows.json),
 * checked by a schema at load, served whole or filtered, and versioned per tenant by snapshots
 * that hash its canonical JSON.
 */

/** Where the stock catalogue is in a content folder. */
export const STOCK_WORKFLOWS_PATH = join('workflows', 'stock-workflows.json');
/** The shipped catalogue. */
export const STOCK_WORKFLOWS_FILE = join(SHIPPED_CONTENT, STOCK_WORKFLOWS_PATH);

const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/);
const Text = z.string().trim().min(10).max(1000);

const RefSchema = z.strictObject({
  framework: Slug,
  kind: z.enum(['clause', 'control']),
  ref: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
});

const StepSchema = z.strictObject({
  key: Slug,
  title: z.string().trim().min(3).max(200),
  owner: Slug,
  description: Text,
  refs: z.array(RefSchema).min(1).max(40),
});

const WorkflowSchema = z
  .strictObject({
    id: Slug,
    title: z.string().trim().min(3).max(200),
    category: Slug,
    description: Text,
    stakeholders: z.array(Slug).min(1).max(20),
    frameworks: z.array(Slug).min(1).max(20),
    steps: z.array(StepSchema).min(2).max(30),
  })
  .superRefine((w, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message: `workflow ${w.id}: ${message}` });
    if (new Set(w.stakeholders).size !== w.stakeholders.length) issue('stakeholders repeat a role');
    if (new Set(w.frameworks).size !== w.frameworks.length) issue('frameworks repeat an id');
    if ([...w.frameworks].sort().join() !== w.frameworks.join()) issue('frameworks are not sorted');
    const keys = w.steps.map((s) => s.key);
    if (new Set(keys).size !== keys.length) issue('step keys repeat');
    const cited = new Set<string>();
    const owners = new Set<string>();
    for (const s of w.steps) {
      owners.add(s.owner);
      if (!w.stakeholders.includes(s.owner)) issue(`step ${s.key}: owner ${s.owner} is not a stakeholder`);
      for (const r of s.refs) {
        cited.add(r.framework);
        if (!w.frameworks.includes(r.framework)) issue(`step ${s.key}: ${r.framework} is not among the workflow's frameworks`);
      }
    }
    for (const f of w.frameworks) if (!cited.has(f)) issue(`framework ${f} is cited by no step`);
    for (const role of w.stakeholders) if (!owners.has(role)) issue(`stakeholder ${role} owns no step`);
  });

/** The data file: a versioned list of workflows with unique ids. */
export const StockCatalogueSchema = z
  .strictObject({
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    workflows: z.array(WorkflowSchema).min(1).max(200),
  })
  .superRefine((c, ctx) => {
    const ids = c.workflows.map((w) => w.id);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup) ctx.addIssue({ code: 'custom', message: `workflow id ${dup} is used twice` });
  });
export type StockCatalogue = z.infer<typeof StockCatalogueSchema>;

/** What a dictionary offers to cite: its clause refs and control ids. */
export interface DictionaryRefs {
  id: string;
  clauses: ReadonlySet<string>;
  controls: ReadonlySet<string>;
}

/**
 * Every framework id and every cited clause or control must exist in the dictionaries: returns
 * the problems found (none for a sound catalogue).
 */
export function checkCatalogueRefs(catalogue: StockCatalogue, dictionaries: readonly DictionaryRefs[]): string[] {
  const byId = new Map(dictionaries.map((d) => [d.id, d]));
  const problems: string[] = [];
  for (const w of catalogue.workflows) {
    for (const f of w.frameworks) if (!byId.has(f)) problems.push(`workflow ${w.id}: unknown framework ${f}`);
    for (const s of w.steps) {
      for (const r of s.refs) {
        const d = byId.get(r.framework);
        if (!d) continue;
        const known = r.kind === 'clause' ? d.clauses : d.controls;
        if (!known.has(r.ref)) problems.push(`workflow ${w.id}, step ${s.key}: ${r.framework} has no ${r.kind} ${r.ref}`);
      }
    }
  }
  return problems;
}

/** Lowercase hex SHA-256 of the canonical JSON (sorted keys, no whitespace) of a value. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

type Record_ = z.infer<typeof StockWorkflow>;
type FileRef = z.infer<typeof RefSchema>;
/** A workflow record before its references are titled from the dictionary tables. */
type Untitled = Omit<Record_, 'steps'> & { steps: (Omit<Record_['steps'][number], 'refs'> & { refs: FileRef[] })[] };
type Page<T> = { data: T[]; cursor: string | null };

export interface LoadedCatalogue {
  catalogue: StockCatalogue;
  /** SHA-256 of the catalogue's canonical JSON. */
  hash: string;
  /** Each workflow's own hash, sorted by id. */
  workflowHashes: { id: string; hash: string }[];
  /** API records without reference titles, sorted by id. */
  records: Untitled[];
}

export function readCatalogue(file = contentPath(STOCK_WORKFLOWS_PATH)): StockCatalogue {
  const parsed = StockCatalogueSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(
      `${file}: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.')} ${i.message}`)
        .join('; ')}`,
    );
  }
  return parsed.data;
}

export function prepareCatalogue(catalogue: StockCatalogue): LoadedCatalogue {
  const sorted = [...catalogue.workflows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    catalogue,
    hash: canonicalHash(catalogue),
    workflowHashes: sorted.map((w) => ({ id: w.id, hash: canonicalHash(w) })),
    records: sorted.map((w) => ({
      object: 'svc.workflows_registry.workflow' as const,
      id: w.id,
      title: w.title,
      category: w.category,
      description: w.description,
      stakeholders: w.stakeholders,
      frameworks: w.frameworks,
      steps: w.steps.map((s, i) => ({ position: i + 1, ...s })),
      catalogueVersion: catalogue.version,
    })),
  };
}

let loaded: { file: string; generation: number; catalogue: LoadedCatalogue } | undefined;

/** The catalogue of the content folder in use (`SVC_CONTENT_DIR` or the shipped one), read and checked once per file. */
export function stockCatalogue(): LoadedCatalogue {
  const file = contentPath(STOCK_WORKFLOWS_PATH);
  if (loaded?.file !== file || loaded.generation !== contentGeneration())
    loaded = { file, generation: contentGeneration(), catalogue: prepareCatalogue(readCatalogue(file)) };
  return loaded.catalogue;
}

const refKey = (framework: string, kind: string, ref: string) => `${framework}|${kind}|${ref}`;

/**
 * The workflows with each reference titled from the dictionary tables (the latest loaded version
 * of each dictionary): two queries for the whole page.
 */
async function withTitles(prisma: Prisma, list: Untitled[]): Promise<Record_[]> {
  const refs = list.flatMap((w) => w.steps.flatMap((s) => s.refs));
  const frameworks = [...new Set(refs.map((r) => r.framework))];
  const titles = new Map<string, string>();
  if (frameworks.length > 0) {
    const latest = await prisma.framework.findMany({ where: { id: { in: frameworks } }, select: { id: true, latestVersion: true } });
    const keys = latest.map((f) => `${f.id}@${f.latestVersion}`);
    const of = (kind: FileRef['kind']) => [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.ref))];
    const [controls, clauses] = await Promise.all([
      prisma.frameworkControl.findMany({
        where: { versionKey: { in: keys }, id: { in: of('control') } },
        select: { versionKey: true, id: true, title: true },
      }),
      prisma.frameworkClause.findMany({
        where: { versionKey: { in: keys }, ref: { in: of('clause') } },
        select: { versionKey: true, ref: true, title: true },
      }),
    ]);
    const dictionary = (versionKey: string) => versionKey.slice(0, versionKey.lastIndexOf('@'));
    for (const c of controls) titles.set(refKey(dictionary(c.versionKey), 'control', c.id), c.title);
    for (const c of clauses) titles.set(refKey(dictionary(c.versionKey), 'clause', c.ref), c.title);
  }
  return list.map((w) => ({
    ...w,
    steps: w.steps.map((s) => ({
      ...s,
      refs: s.refs.map((r) => ({ ...r, title: titles.get(refKey(r.framework, r.kind, r.ref)) ?? null })),
    })),
  }));
}

export interface CatalogueFilter {
  framework?: string | undefined;
  role?: string | undefined;
  category?: string | undefined;
}

/** The workflows matching every given filter, in id order, one page after the cursor. */
export async function listWorkflows(
  prisma: Prisma,
  query: { limit: number; cursor?: string | undefined } & CatalogueFilter,
): Promise<Page<Record_>> {
  const after = decodeCursor(query.cursor, 'string');
  const rows = stockCatalogue().records.filter(
    (w) =>
      (after === undefined || w.id > after) &&
      (query.framework === undefined || w.frameworks.includes(query.framework)) &&
      (query.role === undefined || w.stakeholders.includes(query.role)) &&
      (query.category === undefined || w.category === query.category),
  );
  const page = toPage(
    rows.slice(0, query.limit + 1),
    query.limit,
    (w) => w.id,
    (w) => w,
  );
  return { data: await withTitles(prisma, page.data), cursor: page.cursor };
}

export async function getWorkflow(prisma: Prisma, id: string): Promise<Record_> {
  const w = stockCatalogue().records.find((r) => r.id === id);
  if (!w) throw notFound('Workflow', id);
  return (await withTitles(prisma, [w]))[0] as Record_;
}

// ---------------------------------------------------------------------------------------------
// Snapshots

type Snapshot = z.infer<typeof WorkflowSnapshot>;
type Changes = Snapshot['changes'];

export const renderSnapshot = rendererOf<SnapshotRow>()(WorkflowSnapshot, {
  workflows: (row) => row.workflows as Snapshot['workflows'],
  changes: (row) => row.changes as Changes,
});

/** Kit store of the snapshot list and get (the create is `createSnapshot`). */
export const snapshotStore: Store<typeof workflowSnapshots> = {
  model: 'workflowSnapshot',
  render: renderSnapshot,
};

/** What changed between two lists of workflow hashes. */
export function diffWorkflows(
  previous: { version: number; workflows: { id: string; hash: string }[] } | undefined,
  current: { id: string; hash: string }[],
): Changes {
  if (!previous) return { since: null, added: current.map((w) => w.id), removed: [], changed: [] };
  const before = new Map(previous.workflows.map((w) => [w.id, w.hash]));
  const now = new Map(current.map((w) => [w.id, w.hash]));
  return {
    since: previous.version,
    added: current.filter((w) => !before.has(w.id)).map((w) => w.id),
    removed: [...before.keys()].filter((id) => !now.has(id)).sort(),
    changed: current.filter((w) => before.has(w.id) && before.get(w.id) !== w.hash).map((w) => w.id),
  };
}

/** Records the tenant's next snapshot of the stock catalogue, with what changed (see appendVersion). */
export async function createSnapshot(
  database: Database,
  who: Actor,
  body: { note?: string | undefined },
  res: Response,
): Promise<Snapshot> {
  const { hash, catalogue, workflowHashes } = stockCatalogue();
  return appendVersion<{ version: number; workflows: { id: string; hash: string }[] }, Snapshot>(database, who, res, {
    model: 'workflowSnapshot',
    id: newId('wfs'),
    action: WORKFLOW_SNAPSHOT_ACTION,
    resourceType: 'svc.workflows_registry.snapshot',
    previousColumns: '"version", "workflows"',
    build: (previous) => ({
      hash,
      catalogueVersion: catalogue.version,
      workflowCount: catalogue.workflows.length,
      workflows: workflowHashes,
      changes: diffWorkflows(previous, workflowHashes),
      note: body.note ?? null,
      createdBy: who.actor,
      createdAt: new Date(),
    }),
    render: (row) => renderSnapshot(row as Row & SnapshotRow),
    eventData: (r) => ({ version: r.version, hash: r.hash, catalogueVersion: r.catalogueVersion }),
  });
}
