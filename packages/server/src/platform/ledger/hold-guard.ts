/**
 * The legal-hold guard: which records of a tenant are under an active legal hold, and the check
 * every tenant-facing delete path (and the sandbox reset) runs before it removes a record.
 *
 * A hold covers records named explicitly (`{type, id}`) and/or records matched by criteria
 * (`types`, `systemId`, `createdFrom`, `createdTo`), resolved against the tables at the time of the
 * check, so a record created later that matches the criteria is held too. A released hold holds
 * nothing.
 *
 * Callers:
 * - `assertNotHeld(tx, tenantId, targets)` inside the deleting transaction: throws a 409 `conflict`
 *   naming the hold(s). A refusal is written to the preservation log: directly when `tx` is the
 *   root client (not inside a transaction), else by `logRefusal(prisma, who, err)` called by the
 *   caller after its transaction rolled back (a row written in the failing transaction would be
 *   rolled back with it).
 * - `heldIds(tx, tenantId, type)`: the ids of one record type held now (for bulk paths: skip them).
 */

import type { Tx } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { Prisma as PrismaNs } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';

/**
 * The record kinds a hold may cover, each mapped to the Prisma model(s) that store it. Kinds whose
 * tables other rails add (`dsar_request`, `vendor`, `whistleblower_report`) resolve only once their
 * model exists in the generated client; until then they hold by explicit id only.
 */
export const HOLD_TYPE_MODELS: Readonly<Record<string, readonly string[]>> = {
  evidence: ['Evidence'],
  assessment: ['Assessment'],
  attestation: ['Attestation'],
  context_document: ['ContextDocument'],
  incident_disclosure: ['IncidentDisclosure'],
  risk: ['RiskRegisterRisk'],
  risk_watch: ['RiskWatch'],
  policy: ['Policy'],
  metadata_label: ['MetadataLabel'],
  dsar_request: ['DsarRequest'],
  vendor: ['Vendor', 'VendorRiskVendor'],
  whistleblower_report: ['WhistleblowerReport', 'WhistleblowerCase'],
};

export const HOLD_TYPES = Object.keys(HOLD_TYPE_MODELS);

export interface HoldTarget {
  type: string;
  id: string;
}

export interface HoldCriteria {
  types?: string[] | null | undefined;
  systemId?: string | null | undefined;
  createdFrom?: string | null | undefined;
  createdTo?: string | null | undefined;
}

interface HoldRow {
  id: string;
  records: unknown;
  criteria: unknown;
}

const MODEL_NAMES = new Set<string>(Object.values(PrismaNs.ModelName));

/** The model of a record type present in the generated client, with its delegate name and fields. */
export function modelOf(type: string): { model: string; delegate: string; fields: Set<string> } | null {
  for (const model of HOLD_TYPE_MODELS[type] ?? []) {
    if (!MODEL_NAMES.has(model)) continue;
    const enumFields = (PrismaNs as unknown as Record<string, Record<string, string> | undefined>)[`${model}ScalarFieldEnum`];
    const fields = new Set(Object.keys(enumFields ?? {}));
    if (!fields.has('tenantId') || !fields.has('id')) continue;
    return { model, delegate: model.charAt(0).toLowerCase() + model.slice(1), fields };
  }
  return null;
}

type Delegate = { findMany: (args: unknown) => Promise<Record<string, unknown>[]> };
const delegateOf = (tx: Tx, name: string) => (tx as unknown as Record<string, Delegate | undefined>)[name];

/**
 * The `where` of the records of `type` a hold's criteria match, or null when the criteria cannot
 * match that type (not among its `types`, or a `systemId` on a table without one).
 */
export function criteriaWhere(type: string, criteria: HoldCriteria | null | undefined): Record<string, unknown> | null {
  if (!criteria) return null;
  if (criteria.types && criteria.types.length > 0 && !criteria.types.includes(type)) return null;
  const m = modelOf(type);
  if (!m) return null;
  const where: Record<string, unknown> = {};
  if (criteria.systemId) {
    if (!m.fields.has('systemId')) return null;
    where.systemId = criteria.systemId;
  }
  if (criteria.createdFrom || criteria.createdTo) {
    if (!m.fields.has('createdAt')) return null;
    where.createdAt = {
      ...(criteria.createdFrom ? { gte: new Date(criteria.createdFrom) } : {}),
      ...(criteria.createdTo ? { lte: new Date(criteria.createdTo) } : {}),
    };
  }
  return where;
}

const explicitOf = (h: HoldRow): HoldTarget[] => (Array.isArray(h.records) ? (h.records as HoldTarget[]) : []);
const criteriaOf = (h: HoldRow): HoldCriteria | null =>
  h.criteria && typeof h.criteria === 'object' ? (h.criteria as HoldCriteria) : null;

async function activeHolds(tx: Tx, tenantId: string): Promise<HoldRow[]> {
  return (await tx.legalHold.findMany({
    where: { tenantId, status: 'active' },
    select: { id: true, records: true, criteria: true },
    orderBy: { id: 'asc' },
  })) as HoldRow[];
}

/** The ids of the records of `type` that one hold covers now (explicit and by criteria). */
export async function idsHeldBy(tx: Tx, tenantId: string, hold: HoldRow, type: string): Promise<Set<string>> {
  const out = new Set(
    explicitOf(hold)
      .filter((r) => r.type === type)
      .map((r) => r.id),
  );
  const where = criteriaWhere(type, criteriaOf(hold));
  const m = modelOf(type);
  const delegate = m ? delegateOf(tx, m.delegate) : undefined;
  if (where && delegate) {
    const rows = await delegate.findMany({ where: { ...where, tenantId }, select: { id: true } });
    for (const r of rows) out.add(String(r.id));
  }
  return out;
}

/** The ids of the records of `type` under any active hold of the tenant. */
export async function heldIds(tx: Tx, tenantId: string, type: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const hold of await activeHolds(tx, tenantId)) {
    for (const id of await idsHeldBy(tx, tenantId, hold, type)) out.add(id);
  }
  return out;
}

/** For each target, the active holds covering it (targets no hold covers are absent). */
export async function holdsCovering(tx: Tx, tenantId: string, targets: HoldTarget[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (targets.length === 0) return out;
  const add = (t: HoldTarget, holdId: string) => {
    const key = `${t.type}:${t.id}`;
    const list = out.get(key) ?? [];
    if (!list.includes(holdId)) list.push(holdId);
    out.set(key, list);
  };
  for (const hold of await activeHolds(tx, tenantId)) {
    const explicit = explicitOf(hold);
    for (const t of targets) if (explicit.some((r) => r.type === t.type && r.id === t.id)) add(t, hold.id);
    const criteria = criteriaOf(hold);
    if (!criteria) continue;
    const byType = new Map<string, string[]>();
    for (const t of targets) byType.set(t.type, [...(byType.get(t.type) ?? []), t.id]);
    for (const [type, ids] of byType) {
      const where = criteriaWhere(type, criteria);
      const m = modelOf(type);
      const delegate = m ? delegateOf(tx, m.delegate) : undefined;
      if (!where || !delegate) continue;
      const rows = await delegate.findMany({ where: { ...where, tenantId, id: { in: ids } }, select: { id: true } });
      for (const r of rows) add({ type, id: String(r.id) }, hold.id);
    }
  }
  return out;
}

export interface Refusal {
  tenantId: string;
  targets: { type: string; id: string; holdIds: string[] }[];
}

/** The 409 a held record's deletion gets; carries what the preservation log records of it. */
export class HeldError extends ApiError {
  logged = false;
  constructor(readonly refusal: Refusal) {
    const parts = refusal.targets.map((t) => `${t.type} ${t.id} is under legal hold ${t.holdIds.join(', ')}`);
    super('conflict', `${parts.join('; ')}; it cannot be deleted until the hold is released.`, [
      ...refusal.targets.map((t) => ({ field: 'id', issue: 'invalid_value', message: `held by ${t.holdIds.join(', ')}` })),
    ]);
  }
}

async function writeRefusal(db: Tx, refusal: Refusal, actor: string | null, correlationId: string | null): Promise<void> {
  const at = new Date();
  for (const t of refusal.targets) {
    for (const holdId of t.holdIds) {
      await db.legalHoldLogEntry.create({
        data: {
          id: newId('lpl'),
          tenantId: refusal.tenantId,
          holdId,
          event: 'deletion_refused',
          targetType: t.type,
          targetId: t.id,
          actor,
          detail: { correlationId },
          at,
        },
      });
    }
  }
}

/**
 * Throws the 409 `conflict` naming the hold(s) when any target is held. When `tx` is the root
 * client (outside a transaction) the refusal is logged at once; inside a transaction the caller
 * logs it after the rollback with `logRefusal`.
 */
export async function assertNotHeld(tx: Tx, tenantId: string, targets: HoldTarget[]): Promise<void> {
  const covering = await holdsCovering(tx, tenantId, targets);
  if (covering.size === 0) return;
  const refusal: Refusal = {
    tenantId,
    targets: targets
      .filter((t) => covering.has(`${t.type}:${t.id}`))
      .map((t) => ({ type: t.type, id: t.id, holdIds: covering.get(`${t.type}:${t.id}`) ?? [] })),
  };
  const err = new HeldError(refusal);
  // The root client has `$connect`; a transaction client does not (Prisma denies it there).
  if (typeof (tx as { $connect?: unknown }).$connect === 'function') {
    await writeRefusal(tx, refusal, null, null);
    err.logged = true;
  }
  throw err;
}

/**
 * Writes the preservation-log entry of a refused deletion once its transaction rolled back; any
 * other error is ignored. Call it in a `catch` around the deleting transaction, then rethrow.
 */
export async function logRefusal(
  client: Tx,
  who: { actor: string; correlationId?: string | undefined } | null,
  err: unknown,
): Promise<void> {
  if (!(err instanceof HeldError) || err.logged) return;
  err.logged = true;
  try {
    await writeRefusal(client, err.refusal, who?.actor ?? null, who?.correlationId ?? null);
  } catch {
    // The refusal stands (409) even if its log entry could not be written.
  }
}
