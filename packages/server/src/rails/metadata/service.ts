import type { MetadataFacets, MetadataItem, MetadataResourceType, metadataLabels } from '@svc/contract';
import { METADATA_RESOURCE_TYPES, MetadataLabel } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, encodeCursor, keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { MetadataLabel as LabelRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { assertNotHeld, logRefusal } from '../../platform/ledger/hold-guard.ts';
import { isUniqueViolation } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';

/**
 * The metadata rail: `key=value` labels on the tenant's records of any kind. A label is attached
 * only to a record that exists for the tenant; facets, search and items read the labels through
 * the tenant scope, so another tenant's labels are never seen or counted.
 */

type Label = z.infer<typeof MetadataLabel>;
type Page<T> = { data: T[]; cursor: string | null };
type Where = Record<string, unknown>;

const OBJECT = 'svc.metadata.label';

/** Prisma model (delegate) that holds each kind of labelled record; `tenant` is the tenant itself. */
const MODEL_OF: Readonly<Record<Exclude<MetadataResourceType, 'tenant'>, string>> = {
  api_key: 'apiKey',
  assessment: 'assessment',
  evidence: 'evidence',
  attestation: 'attestation',
  obligation: 'obligation',
  framework_activation: 'frameworkActivation',
  webhook_subscription: 'webhookSubscription',
  drift_finding: 'driftFinding',
};

/** Words for messages: `webhook_subscription` -> `Webhook subscription`. */
const words = (type: string) => (type.charAt(0).toUpperCase() + type.slice(1)).replaceAll('_', ' ');

/** 404 unless the record exists for the tenant (another tenant's record is absent too). */
async function requireResource(prisma: Tx, tenantId: string, type: MetadataResourceType, id: string): Promise<void> {
  if (type === 'tenant') {
    if (id === tenantId) return;
  } else {
    const delegate = (scopeToTenant(prisma, tenantId) as unknown as Record<string, { count(args: unknown): Promise<number> }>)[
      MODEL_OF[type]
    ];
    if (!delegate) throw new Error(`metadata: no model for resource type ${type}`);
    if ((await delegate.count({ where: { id } })) > 0) return;
  }
  throw new ApiError('not_found', `${words(type)} ${id} was not found.`, [{ field: 'resourceId', issue: 'invalid_value' }]);
}

export const renderLabel = rendererOf<LabelRow>()(MetadataLabel, {});

const changeData = (l: Label) => ({ resourceType: l.resourceType, resourceId: l.resourceId, key: l.key, value: l.value });

export interface LabelInput {
  resourceType: MetadataResourceType;
  resourceId: string;
  key: string;
  value: string;
}

/**
 * Attaches `key=value` to a record of the tenant. Idempotent on (record, key, value): a second
 * call returns the first label and records nothing; the unique index decides a race.
 */
export async function addLabel(prisma: Prisma, who: Actor, input: LabelInput): Promise<{ created: boolean; label: Label }> {
  await requireResource(prisma, who.tenantId, input.resourceType, input.resourceId);
  const triple = { resourceType: input.resourceType, resourceId: input.resourceId, key: input.key, value: input.value };
  const existing = async () => {
    const row = await scopeToTenant(prisma, who.tenantId).metadataLabel.findFirst({ where: triple });
    return row ? renderLabel(row) : undefined;
  };
  const before = await existing();
  if (before) return { created: false, label: before };
  try {
    const label = await prisma.$transaction(async (tx) => {
      const row = await scopeToTenant(tx, who.tenantId).metadataLabel.create({
        data: { id: newId('lbl'), tenantId: who.tenantId, ...triple, createdBy: who.actor },
      });
      const label = renderLabel(row);
      await recordChange(tx, {
        ...who,
        action: 'label.added',
        resourceType: OBJECT,
        resourceId: label.id,
        data: changeData(label),
        resource: label,
      });
      return label;
    });
    return { created: true, label };
  } catch (err) {
    if (isUniqueViolation(err)) {
      const after = await existing();
      if (after) return { created: false, label: after };
    }
    throw err;
  }
}

/** Removes labels in one transaction, one `label.removed` event each; returns those it removed. */
async function removeRows(prisma: Prisma, who: Actor, where: Where): Promise<Label[]> {
  try {
    return await removeUnheldRows(prisma, who, where);
  } catch (err) {
    await logRefusal(prisma, who, err);
    throw err;
  }
}

async function removeUnheldRows(prisma: Prisma, who: Actor, where: Where): Promise<Label[]> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const rows = await db.metadataLabel.findMany({ where, orderBy: { id: 'asc' } });
    // A label under a legal hold is not removed: 409 naming the hold (logged once rolled back).
    await assertNotHeld(
      tx,
      who.tenantId,
      rows.map((r) => ({ type: 'metadata_label', id: r.id })),
    );
    const removed: Label[] = [];
    for (const row of rows) {
      // Conditional on the row still being there: a concurrent removal records nothing twice.
      const { count } = await db.metadataLabel.deleteMany({ where: { id: row.id } });
      if (count === 0) continue;
      const label = renderLabel(row);
      await recordChange(tx, {
        ...who,
        action: 'label.removed',
        resourceType: OBJECT,
        resourceId: label.id,
        data: changeData(label),
        resource: label,
      });
      removed.push(label);
    }
    return removed;
  });
}

export async function removeLabel(prisma: Prisma, who: Actor, id: string): Promise<Label> {
  const [removed] = await removeRows(prisma, who, { id });
  if (!removed) throw notFound('Label', id);
  return removed;
}

export async function unlabel(
  prisma: Prisma,
  who: Actor,
  input: Omit<LabelInput, 'value'> & { value?: string | undefined },
): Promise<{ object: 'svc.metadata.unlabel_result'; removed: Label[] }> {
  await requireResource(prisma, who.tenantId, input.resourceType, input.resourceId);
  const where: Where = { resourceType: input.resourceType, resourceId: input.resourceId, key: input.key };
  if (input.value !== undefined) where.value = input.value;
  return { object: 'svc.metadata.unlabel_result', removed: await removeRows(prisma, who, where) };
}

/** The labels' list (the kit's); adding and removing stay hand-written. */
export const labelStore: Store<typeof metadataLabels> = { model: 'metadataLabel', render: renderLabel };

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchLabels(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; key?: string; valuePrefix?: string; q?: string; resourceType?: string },
): Promise<Page<Label>> {
  const where: Where = {};
  const and: Where[] = [];
  if (query.valuePrefix !== undefined) and.push({ value: { startsWith: literal(query.valuePrefix), mode: 'insensitive' } });
  if (query.q !== undefined) {
    const q = literal(query.q);
    and.push({ OR: [{ key: { contains: q, mode: 'insensitive' } }, { value: { contains: q, mode: 'insensitive' } }] });
  }
  if (and.length > 0) where.AND = and;
  return keysetList(scopeToTenant(prisma, tenantId).metadataLabel, query, {
    where,
    filters: ['key', 'resourceType'],
    render: renderLabel,
  });
}

const byCountThen =
  <T extends { count: number }>(name: (t: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

export async function facets(
  prisma: Prisma,
  tenantId: string,
  query: { resourceType?: MetadataResourceType; key?: string },
): Promise<z.infer<typeof MetadataFacets>> {
  const db = scopeToTenant(prisma, tenantId);
  const where: Where = {};
  if (query.resourceType) where.resourceType = query.resourceType;
  if (query.key) where.key = query.key;
  const group = (by: string[]) =>
    (db.metadataLabel.groupBy as unknown as (args: unknown) => Promise<(Record<string, string> & { _count: { _all: number } })[]>)({
      by,
      where,
      _count: { _all: true },
    });
  const [pairs, keyResources, resources, types] = await Promise.all([
    group(['key', 'value']),
    group(['key', 'resourceType', 'resourceId']),
    group(['resourceType', 'resourceId']),
    group(['resourceType']),
  ]);
  const keys = new Map<string, { key: string; count: number; resources: number; values: { value: string; count: number }[] }>();
  const entry = (key: string) => {
    const found = keys.get(key);
    if (found) return found;
    const created = { key, count: 0, resources: 0, values: [] as { value: string; count: number }[] };
    keys.set(key, created);
    return created;
  };
  let total = 0;
  for (const p of pairs) {
    const e = entry(p.key as string);
    e.count += p._count._all;
    e.values.push({ value: p.value as string, count: p._count._all });
    total += p._count._all;
  }
  for (const r of keyResources) entry(r.key as string).resources += 1;
  const sortedKeys = [...keys.values()].sort(byCountThen((k) => k.key));
  for (const k of sortedKeys) k.values.sort(byCountThen((v) => v.value));
  return {
    object: 'svc.metadata.facets',
    resourceType: query.resourceType ?? null,
    total,
    resources: resources.length,
    keys: sortedKeys,
    resourceTypes: types
      .map((t) => ({ resourceType: t.resourceType as MetadataResourceType, count: t._count._all }))
      .sort(byCountThen((t) => t.resourceType)),
  };
}

/** Cursor of the items list: the last record's kind and id. */
function itemsAfter(cursor: string | undefined): { resourceType: string; resourceId: string } | undefined {
  const raw = decodeCursor(cursor, 'string');
  if (raw === undefined) return undefined;
  const at = raw.indexOf('\n');
  const resourceType = raw.slice(0, at);
  if (at < 0 || !(METADATA_RESOURCE_TYPES as readonly string[]).includes(resourceType)) {
    throw new ApiError('bad_request', 'The cursor is not valid for this list.', [{ field: 'cursor', issue: 'invalid_format' }]);
  }
  return { resourceType, resourceId: raw.slice(at + 1) };
}

export async function items(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; key: string; value?: string; resourceType?: MetadataResourceType },
): Promise<Page<z.infer<typeof MetadataItem>>> {
  const db = scopeToTenant(prisma, tenantId);
  const where: Where = { key: query.key };
  if (query.value !== undefined) where.value = query.value;
  if (query.resourceType) where.resourceType = query.resourceType;
  const after = itemsAfter(query.cursor);
  if (after) {
    where.OR = [{ resourceType: { gt: after.resourceType } }, { resourceType: after.resourceType, resourceId: { gt: after.resourceId } }];
  }
  const groups = await (db.metadataLabel.groupBy as unknown as (args: unknown) => Promise<{ resourceType: string; resourceId: string }[]>)({
    by: ['resourceType', 'resourceId'],
    where,
    orderBy: [{ resourceType: 'asc' }, { resourceId: 'asc' }],
    take: query.limit + 1,
  });
  const more = groups.length > query.limit;
  const page = more ? groups.slice(0, query.limit) : groups;
  const labels =
    page.length === 0
      ? []
      : await db.metadataLabel.findMany({
          where: { OR: page.map((g) => ({ resourceType: g.resourceType, resourceId: g.resourceId })) },
          orderBy: [{ key: 'asc' }, { value: 'asc' }],
        });
  const of = new Map<string, { id: string; key: string; value: string }[]>();
  for (const l of labels) {
    const k = `${l.resourceType}\n${l.resourceId}`;
    const list = of.get(k) ?? [];
    list.push({ id: l.id, key: l.key, value: l.value });
    of.set(k, list);
  }
  const last = page[page.length - 1];
  return {
    data: page.map((g) => ({
      object: 'svc.metadata.item' as const,
      resourceType: g.resourceType as MetadataResourceType,
      resourceId: g.resourceId,
      labels: of.get(`${g.resourceType}\n${g.resourceId}`) ?? [],
    })),
    cursor: more && last ? encodeCursor(`${last.resourceType}\n${last.resourceId}`) : null,
  };
}
