import type {
  Activation,
  ChangeImpact,
  DiffEntry,
  FrameworkDiff,
  FrameworkObligation,
  FrameworkRepin,
  FrameworkVersion,
  FrameworkVersionNotice,
} from '@svc/contract';
import type { z } from 'zod';
import type { Changelog } from '../../content/changesets.ts';
import { compareSemver } from '../../content/framework-schema.ts';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, keysetList, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { FrameworkObligation as ObligationRow, FrameworkVersion as VersionRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';

type Diff = z.infer<typeof FrameworkDiff>;
type Entry = z.infer<typeof DiffEntry>;
type Impact = z.infer<typeof ChangeImpact>;
type Kind = Entry['kind'];

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The changeset a version was built from; null for a dictionary's first version. */
function changelogOf(row: VersionRow): Changelog | null {
  return (row.changelog as Changelog | null) ?? null;
}

/** The day from which a version states the law: its amending act's entry into force, else its publication. */
export function lawFrom(row: VersionRow): string {
  return changelogOf(row)?.amendingAct?.inForceFrom ?? day(row.publishedAt);
}

async function versionsOf(prisma: Tx, frameworkId: string): Promise<VersionRow[]> {
  const rows = await prisma.frameworkVersion.findMany({ where: { frameworkId } });
  if (rows.length === 0) throw new ApiError('not_found', `Framework ${frameworkId} was not found.`);
  return rows.sort((a, b) => compareSemver(a.version, b.version));
}

function versionRow(rows: VersionRow[], frameworkId: string, version: string): VersionRow {
  const row = rows.find((r) => r.version === version);
  if (!row) throw new ApiError('not_found', `Framework ${frameworkId} has no version ${version}.`);
  return row;
}

function renderVersion(row: VersionRow): z.infer<typeof FrameworkVersion> {
  const log = changelogOf(row);
  return {
    object: 'svc.frameworks.version',
    framework: row.frameworkId,
    version: row.version,
    dictionaryVersion: row.key,
    basedOn: row.basedOn,
    publishedAt: day(row.publishedAt),
    lawFrom: lawFrom(row),
    contentHash: row.contentHash,
    summary: log?.summary ?? null,
    amendingAct: log?.amendingAct ? { ...log.amendingAct, note: log.amendingAct.note ?? null } : null,
    changes: (log?.changes ?? []).map((c) => ({
      op: c.op,
      kind: c.kind,
      id: c.op === 'add' ? String(c.value[c.kind === 'clause' ? 'ref' : 'id']) : c.id,
      fields:
        c.op === 'add'
          ? c.value
          : c.op === 'amend'
            ? c.set
            : c.op === 'repeal'
              ? { applicableUntil: c.applicableUntil, replacedBy: c.replacedBy }
              : {},
      source: c.source,
      sourceUrl: c.sourceUrl,
      note: c.note ?? null,
    })),
  };
}

/** Every version of a dictionary with its changelog, newest first. */
export async function listVersions(prisma: Prisma, ref: string, opts: { limit: number; cursor?: string }) {
  const frameworkId = ref.split('@')[0] ?? '';
  const rows = (await versionsOf(prisma, frameworkId)).reverse();
  const after = decodeCursor(opts.cursor, 'string');
  const start = after === undefined ? 0 : rows.findIndex((r) => r.version === after) + 1;
  if (after !== undefined && start === 0)
    throw new ApiError('bad_request', 'The cursor is not valid for this list.', [{ field: 'cursor', issue: 'invalid_format' }]);
  return toPage(rows.slice(start, start + opts.limit + 1), opts.limit, (r) => r.version, renderVersion);
}

/** One entry of a version, as compared: its fields without the storage columns. */
type Snapshot = Map<string, { title: string; ord: number; fields: Record<string, unknown> }>;

function norm(v: unknown): unknown {
  return v instanceof Date ? day(v) : v;
}

function snap<T extends { ord: number; versionKey: string }>(rows: T[], key: (r: T) => string, title: (r: T) => string): Snapshot {
  return new Map(
    rows.map((r) => {
      const { ord, versionKey: _v, ...rest } = r;
      const fields = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, norm(v)]));
      if (Array.isArray(fields.replacedBy) && fields.replacedBy.length === 0) delete fields.replacedBy;
      for (const k of Object.keys(fields)) if (fields[k] === null && (k === 'applicableUntil' || k === 'applicableFrom')) delete fields[k];
      return [key(r), { title: title(r), ord, fields }];
    }),
  );
}

async function snapshotOf(prisma: Tx, key: string): Promise<Record<Kind, Snapshot>> {
  const where = { where: { versionKey: key } };
  const [clauses, controls, questions, obligations] = await Promise.all([
    prisma.frameworkClause.findMany(where),
    prisma.frameworkControl.findMany(where),
    prisma.frameworkQuestion.findMany(where),
    prisma.frameworkObligation.findMany(where),
  ]);
  return {
    clause: snap(
      clauses,
      (r) => r.ref,
      (r) => r.title,
    ),
    control: snap(
      controls,
      (r) => r.id,
      (r) => r.title,
    ),
    question: snap(
      questions,
      (r) => r.id,
      (r) => r.text,
    ),
    obligation: snap(
      obligations,
      (r) => r.id,
      (r) => r.title,
    ),
  };
}

const KINDS: Kind[] = ['clause', 'control', 'question', 'obligation'];

/**
 * Every entry that differs between two versions, field by field, from the stored versions (so any
 * two compare, in either order); going forward, each change carries the changelog sources of the
 * versions between them.
 */
export async function diffVersions(prisma: Tx, frameworkId: string, fromVersion: string, toVersion: string): Promise<Diff> {
  const rows = await versionsOf(prisma, frameworkId);
  const from = versionRow(rows, frameworkId, fromVersion);
  const to = versionRow(rows, frameworkId, toVersion);
  const [a, b] = await Promise.all([snapshotOf(prisma, from.key), snapshotOf(prisma, to.key)]);
  const sources = new Map<string, Entry['sources']>();
  for (const r of rows) {
    if (compareSemver(r.version, from.version) <= 0 || compareSemver(r.version, to.version) > 0) continue;
    for (const c of changelogOf(r)?.changes ?? []) {
      const id = c.op === 'add' ? String(c.value[c.kind === 'clause' ? 'ref' : 'id']) : c.id;
      const k = `${c.kind} ${id}`;
      sources.set(k, [...(sources.get(k) ?? []), { version: r.version, source: c.source, sourceUrl: c.sourceUrl, note: c.note ?? null }]);
    }
  }
  const entries: Entry[] = [];
  for (const kind of KINDS) {
    const before = a[kind];
    const after = b[kind];
    const out: (Entry & { ord: number })[] = [];
    for (const [id, e] of after) {
      const old = before.get(id);
      const srcs = sources.get(`${kind} ${id}`) ?? [];
      if (!old) {
        out.push({ kind, id, change: 'added', title: e.title, fields: [], sources: srcs, ord: e.ord });
        continue;
      }
      const names = [...new Set([...Object.keys(old.fields), ...Object.keys(e.fields)])];
      const fields = names
        .filter((n) => JSON.stringify(old.fields[n]) !== JSON.stringify(e.fields[n]))
        .map((n) => ({ field: n, before: old.fields[n] ?? null, after: e.fields[n] ?? null }));
      if (fields.length === 0) continue;
      const repealed = fields.some((f) => f.field === 'applicableUntil' && f.after !== null);
      out.push({ kind, id, change: repealed ? 'repealed' : 'amended', title: e.title, fields, sources: srcs, ord: e.ord });
    }
    for (const [id, e] of before)
      if (!after.has(id))
        out.push({
          kind,
          id,
          change: 'removed',
          title: e.title,
          fields: [],
          sources: sources.get(`${kind} ${id}`) ?? [],
          ord: 1e9 + e.ord,
        });
    entries.push(...out.sort((x, y) => x.ord - y.ord).map(({ ord: _o, ...rest }) => rest));
  }
  const counts = { added: 0, amended: 0, repealed: 0, removed: 0 };
  for (const e of entries) counts[e.change]++;
  return { object: 'svc.frameworks.diff', framework: frameworkId, from: from.key, to: to.key, counts, entries };
}

export async function getDiff(prisma: Prisma, ref: string, query: { from: string; to?: string | undefined }) {
  const frameworkId = ref.split('@')[0] ?? '';
  const to = query.to ?? (await versionsOf(prisma, frameworkId)).at(-1)?.version ?? '';
  return diffVersions(prisma, frameworkId, query.from, to);
}

type ObligationStatus = z.infer<typeof FrameworkObligation>['status'];

function statusOn(o: { applicableFrom: Date; applicableUntil: Date | null }, asOf: string): ObligationStatus {
  if (o.applicableUntil && day(o.applicableUntil) <= asOf) return 'no_longer_applicable';
  return day(o.applicableFrom) <= asOf ? 'applicable' : 'not_yet_applicable';
}

/**
 * The obligations a dictionary states, each with whether it applies on `asOf`. Without a pinned
 * version, the version in force that day answers: the latest whose law applies from on or before it.
 */
export async function listObligationsAsOf(
  prisma: Prisma,
  ref: string,
  opts: { limit: number; cursor?: string; asOf?: string | undefined; status?: ObligationStatus | undefined },
): Promise<{ data: z.infer<typeof FrameworkObligation>[]; cursor: string | null }> {
  const [frameworkId = '', pinned] = ref.split('@');
  const asOf = opts.asOf ?? day(new Date());
  const rows = await versionsOf(prisma, frameworkId);
  const version = pinned
    ? versionRow(rows, frameworkId, pinned)
    : ([...rows].reverse().find((r) => lawFrom(r) <= asOf) ?? (rows[0] as VersionRow));
  const at = new Date(`${asOf}T00:00:00.000Z`);
  const statusWhere: Record<ObligationStatus, Record<string, unknown>> = {
    applicable: { applicableFrom: { lte: at }, OR: [{ applicableUntil: null }, { applicableUntil: { gt: at } }] },
    not_yet_applicable: { applicableFrom: { gt: at }, OR: [{ applicableUntil: null }, { applicableUntil: { gt: at } }] },
    no_longer_applicable: { applicableUntil: { lte: at } },
  };
  return keysetList(prisma.frameworkObligation, opts, {
    key: 'ord',
    order: 'asc',
    where: { versionKey: version.key, ...(opts.status ? statusWhere[opts.status] : {}) },
    render: (r: ObligationRow) => ({
      object: 'svc.frameworks.obligation' as const,
      id: r.id,
      framework: frameworkId,
      dictionaryVersion: version.key,
      title: r.title,
      description: r.description,
      clauseRef: r.clauseRef,
      actor: r.actor,
      applicableFrom: day(r.applicableFrom),
      applicableUntil: r.applicableUntil ? day(r.applicableUntil) : null,
      replacedBy: r.replacedBy,
      asOf,
      status: statusOn(r, asOf),
    }),
  });
}

const OPEN_ASSESSMENTS = ['draft', 'in_progress', 'in_review'];

/**
 * What a change between two versions touches of one tenant's records: its obligations of the
 * framework that the change names (by obligation or clause), the changed controls it holds evidence
 * or attestations for, its open assessments whose questions cite a changed question, control or
 * clause, and the systems of those assessments and that evidence.
 */
export async function impactOf(tx: Tx, tenantId: string, frameworkId: string, diff: Diff): Promise<Impact> {
  const db = scopeToTenant(tx, tenantId);
  const ids = (kind: Kind) => diff.entries.filter((e) => e.kind === kind).map((e) => e.id);
  const clauses = new Set(ids('clause'));
  const questions = new Set(ids('question'));
  const controls = new Set(ids('control'));
  if (clauses.size > 0) {
    const citing = await tx.frameworkControl.findMany({
      where: { versionKey: { in: [diff.from, diff.to] }, clauseRefs: { hasSome: [...clauses] } },
      select: { id: true },
    });
    for (const c of citing) controls.add(c.id);
  }
  const [obligations, evidence, attested, assessments] = await Promise.all([
    db.obligation.findMany({
      where: {
        frameworkId,
        status: { not: 'not_applicable' },
        OR: [{ sourceRef: { in: ids('obligation') } }, { clauseRef: { in: [...clauses] } }],
      },
      select: { id: true },
      orderBy: { id: 'asc' },
    }),
    controls.size > 0
      ? db.evidence.findMany({ where: { controlIds: { hasSome: [...controls] } }, select: { controlIds: true, systemId: true } })
      : [],
    controls.size > 0
      ? db.attestation.findMany({ where: { subjectType: 'control', subjectId: { in: [...controls] } }, select: { subjectId: true } })
      : [],
    db.assessment.findMany({
      where: {
        status: { in: OPEN_ASSESSMENTS },
        OR: [{ framework: frameworkId }, { dictionaryVersion: { startsWith: `${frameworkId}@` } }],
      },
      select: { id: true, systemId: true, questionSet: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const held = new Set<string>();
  const systems = new Set<string>();
  for (const e of evidence) {
    for (const c of e.controlIds) if (controls.has(c)) held.add(c);
    if (e.systemId) systems.add(e.systemId);
  }
  for (const a of attested) held.add(a.subjectId);
  const setIds = [...new Set(assessments.map((a) => a.questionSet).filter((s): s is string => s !== null))];
  const sets = setIds.length > 0 ? await tx.assessmentQuestionSet.findMany({ where: { id: { in: setIds } } }) : [];
  const touchedSets = new Set(
    sets
      .filter((s) => {
        const qs = ((s.questions as { questions?: unknown[] } | null)?.questions ?? []) as {
          key?: string;
          control?: string | null;
          source?: { framework?: string; clause?: string | null };
        }[];
        return qs.some(
          (q) =>
            (q.key && questions.has(q.key)) ||
            (q.control && controls.has(q.control)) ||
            (q.source?.framework === frameworkId && q.source.clause && clauses.has(q.source.clause)),
        );
      })
      .map((s) => s.id),
  );
  const touched = assessments.filter((a) => a.questionSet !== null && touchedSets.has(a.questionSet));
  for (const a of touched) systems.add(a.systemId);
  return {
    obligations: obligations.map((o) => o.id),
    controls: [...held].sort(),
    assessments: touched.map((a) => a.id),
    systems: [...systems].sort(),
  };
}

/**
 * Tells every tenant pinned to an older version of a dictionary that a new one exists: one
 * `framework.version_available` event each, in the caller's transaction (the one that loads the
 * version, so a version is announced exactly once), naming what the change touches of its records.
 * The tenants keep their version until they repin.
 */
export async function announceVersion(tx: Tx, frameworkId: string, version: string): Promise<number> {
  const key = `${frameworkId}@${version}`;
  const row = await tx.frameworkVersion.findUniqueOrThrow({ where: { key } });
  const activations = await tx.frameworkActivation.findMany({ where: { frameworkId, versionKey: { not: key } } });
  for (const a of activations) {
    const pinned = a.versionKey.split('@')[1] ?? '';
    if (compareSemver(pinned, version) >= 0) continue;
    const diff = await diffVersions(tx, frameworkId, pinned, version);
    const impact = await impactOf(tx, a.tenantId, frameworkId, diff);
    const log = changelogOf(row);
    const notice: z.infer<typeof FrameworkVersionNotice> = {
      object: 'svc.frameworks.version_notice',
      framework: frameworkId,
      activationId: a.id,
      pinned: a.versionKey,
      available: key,
      summary: log?.summary ?? null,
      amendingAct: log?.amendingAct ? { ...log.amendingAct, note: log.amendingAct.note ?? null } : null,
      counts: diff.counts,
      impact,
    };
    await recordChange(tx, {
      tenantId: a.tenantId,
      actor: 'system',
      action: 'framework.version_available',
      resourceType: 'svc.frameworks.activation',
      resourceId: a.id,
      correlationId: newId('cor'),
      data: { framework: frameworkId, pinned: a.versionKey, available: key, counts: diff.counts, impact },
      resource: notice,
    });
  }
  return activations.length;
}

export interface RepinOptions extends Actor {
  ref: string;
  version: string;
  dryRun: boolean;
}

/**
 * Moves the tenant's activation to another version, or on a dry run only says what that would do.
 * The tenant's obligations follow the new version: added ones are derived, changed ones rewritten,
 * repealed (as of today) and removed ones marked `not_applicable`. Assessments and agent decisions
 * keep the version they were made with.
 */
export async function repinFramework(prisma: Prisma, opts: RepinOptions) {
  const render = (a: ActivationRow, n: number) => renderActivation(frameworkId, a, n);
  const frameworkId = opts.ref.split('@')[0] ?? '';
  const run = async (tx: Tx): Promise<z.infer<typeof FrameworkRepin>> => {
    const db = scopeToTenant(tx, opts.tenantId);
    const activation = await db.frameworkActivation.findFirst({ where: { frameworkId } });
    if (!activation) throw new ApiError('not_found', `Framework ${frameworkId} is not active for this tenant; activate it first.`);
    const pinned = activation.versionKey.split('@')[1] ?? '';
    const diff = await diffVersions(tx, frameworkId, pinned, opts.version);
    const impact = await impactOf(tx, opts.tenantId, frameworkId, diff);
    const to = diff.to;
    const templates = await tx.frameworkObligation.findMany({ where: { versionKey: to }, orderBy: { ord: 'asc' } });
    const mine = await db.obligation.findMany({ where: { frameworkId } });
    const bySource = new Map(mine.map((o) => [o.sourceRef, o]));
    const today = day(new Date());
    const plan = {
      create: [] as typeof templates,
      update: [] as { id: string; data: Record<string, unknown> }[],
      withdraw: [] as string[],
    };
    for (const t of templates) {
      const have = bySource.get(t.id);
      const gone = t.applicableUntil !== null && day(t.applicableUntil) <= today;
      if (!have) {
        if (!gone) plan.create.push(t);
        continue;
      }
      const data: Record<string, unknown> = { versionKey: to };
      if (have.title !== t.title) data.title = t.title;
      if (have.description !== t.description) data.description = t.description;
      if (have.clauseRef !== t.clauseRef) data.clauseRef = t.clauseRef;
      if (have.actor !== t.actor) data.actor = t.actor;
      if (have.dueDate.getTime() !== t.applicableFrom.getTime()) data.dueDate = t.applicableFrom;
      if (gone && have.status !== 'not_applicable') data.status = 'not_applicable';
      plan.update.push({ id: have.id, data });
      if (data.status === 'not_applicable') plan.withdraw.push(have.id);
    }
    const inTo = new Set(templates.map((t) => t.id));
    for (const o of mine) if (!inTo.has(o.sourceRef) && o.status !== 'not_applicable') plan.withdraw.push(o.id);
    const counts = {
      added: plan.create.length,
      updated: plan.update.filter((u) => !plan.withdraw.includes(u.id) && Object.keys(u.data).some((k) => k !== 'versionKey')).length,
      withdrawn: plan.withdraw.length,
    };
    const body = (act: z.infer<typeof Activation> | null): z.infer<typeof FrameworkRepin> => ({
      object: 'svc.frameworks.repin',
      framework: frameworkId,
      from: activation.versionKey,
      to,
      dryRun: opts.dryRun,
      diff,
      impact,
      obligations: counts,
      activation: act,
    });
    if (opts.dryRun || activation.versionKey === to) return body(opts.dryRun ? null : render(activation, mine.length));
    for (const u of plan.update) await db.obligation.update({ where: { id: u.id }, data: u.data });
    const removed = mine.filter((o) => !inTo.has(o.sourceRef) && o.status !== 'not_applicable').map((o) => o.id);
    if (removed.length > 0) await db.obligation.updateMany({ where: { id: { in: removed } }, data: { status: 'not_applicable' } });
    if (plan.create.length > 0)
      await db.obligation.createMany({
        data: plan.create.map((t) => derivedObligation(t, { tenantId: opts.tenantId, frameworkId, versionKey: to })),
      });
    const moved = await db.frameworkActivation.update({ where: { id: activation.id }, data: { versionKey: to } });
    const result = body(render(moved, await db.obligation.count({ where: { versionKey: to } })));
    await recordChange(tx, {
      tenantId: opts.tenantId,
      actor: opts.actor,
      action: 'framework.repinned',
      resourceType: 'svc.frameworks.activation',
      resourceId: activation.id,
      correlationId: opts.correlationId,
      data: { framework: frameworkId, from: activation.versionKey, to, counts: diff.counts, obligations: counts },
      resource: result,
    });
    return result;
  };
  return opts.dryRun ? run(prisma) : prisma.$transaction(run);
}

/** A tenant's obligation derived from a dictionary obligation: open, due the day the provision applies. */
export function derivedObligation(
  t: Pick<ObligationRow, 'id' | 'title' | 'description' | 'clauseRef' | 'actor' | 'applicableFrom'>,
  where: { tenantId: string; frameworkId: string; versionKey: string },
) {
  return {
    id: newId('obl'),
    ...where,
    sourceRef: t.id,
    title: t.title,
    description: t.description,
    clauseRef: t.clauseRef,
    actor: t.actor,
    status: 'open',
    dueDate: t.applicableFrom,
  };
}

export interface ActivationRow {
  id: string;
  versionKey: string;
  createdAt: Date;
  activatedBy: string;
}

/** A tenant's activation of a dictionary, as the API renders it. */
export function renderActivation(
  frameworkId: string,
  a: ActivationRow,
  obligations: number,
  alreadyActive = true,
): z.infer<typeof Activation> {
  return {
    object: 'svc.frameworks.activation',
    id: a.id,
    framework: frameworkId,
    dictionaryVersion: a.versionKey,
    activatedAt: a.createdAt.toISOString(),
    activatedBy: a.activatedBy,
    obligations,
    alreadyActive,
  };
}
