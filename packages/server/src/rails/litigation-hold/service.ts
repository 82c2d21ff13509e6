import { createHash } from 'node:crypto';
import type {
  CreateLegalHoldBody,
  CreateLegalHoldCustodianBody,
  CreateLegalHoldExportBody,
  LegalHeldRecords,
  LegalHold,
  LegalHoldCustodian,
  LegalHoldEdiscoveryExport,
  LegalHoldPreservationEntry,
  legalHoldCustodians,
  legalHoldPreservation,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { HOLD_TYPES, type HoldCriteria, type HoldTarget, idsHeldBy, modelOf } from '../../platform/ledger/hold-guard.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null | undefined) => (d ? iso(d) : null);

// ---------------------------------------------------------------- generic write helpers (also used by insurance)

type Row = Record<string, unknown>;
type AnyDelegate = {
  create(args: unknown): Promise<Row>;
  findFirst(args: unknown): Promise<Row | null>;
  updateMany(args: unknown): Promise<{ count: number }>;
};
const delegate = (db: Tx, model: string) => (db as unknown as Record<string, AnyDelegate>)[model] as AnyDelegate;

export interface CreateSpec<Out> {
  model: string;
  object: string;
  action: string;
  id: string;
  data: Row;
  render: (row: never) => Out;
  auditData?: (out: Out) => Record<string, unknown>;
  /** More writes in the same transaction, once the record exists. */
  after?: (tx: Tx, out: Out) => Promise<void>;
}

/** Inserts a record, its audit event (and webhook) and `after`'s writes in one transaction. */
export async function createRecord<Out>(prisma: Prisma, who: Actor, spec: CreateSpec<Out>): Promise<Out> {
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const row = await delegate(tx, spec.model).create({
      data: { createdAt: now, ...spec.data, id: spec.id, tenantId: who.tenantId },
    });
    const out = (spec.render as (r: Row) => Out)(row);
    await recordChange(tx, {
      ...who,
      action: spec.action,
      resourceType: spec.object,
      resourceId: spec.id,
      data: spec.auditData?.(out) ?? {},
      resource: out,
    });
    await spec.after?.(tx, out);
    return out;
  });
}

export interface TransitionSpec<Out> {
  model: string;
  object: string;
  label: string;
  id: string;
  verb: string;
  from: readonly string[];
  to: string;
  action: string;
  reason?: string | undefined;
  statusField?: string;
  render: (row: never) => Out;
  /** Checks and fields the move sets besides the status, from the current row. */
  extra?: (row: Row, tx: Tx) => Promise<Row> | Row;
  after?: (tx: Tx, out: Out, row: Row) => Promise<void>;
  /** Data added to the audit event besides from, to and reason. */
  auditData?: (out: Out) => Record<string, unknown>;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A state change with logic the kit's SQL transitions cannot hold (checks against other records,
 * computed fields, more writes): 404, then 409 naming the current state, then `extra`'s checks;
 * the update is conditional on the state read, and the audit event carries from, to and reason,
 * as the kit's do.
 */
export async function moveRecord<Out>(prisma: Prisma, who: Actor, spec: TransitionSpec<Out>): Promise<Out> {
  const field = spec.statusField ?? 'status';
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await delegate(db, spec.model).findFirst({ where: { id: spec.id } });
    if (!row) throw new ApiError('not_found', `${cap(spec.label)} ${spec.id} was not found.`);
    const state = String(row[field]);
    const conflict = () =>
      new ApiError('conflict', `${cap(spec.label)} ${spec.id} is ${state}; ${spec.verb} is allowed from ${spec.from.join(', ')}.`, [
        { field, issue: 'invalid_value', message: `current state: ${state}` },
      ]);
    if (!spec.from.includes(state)) throw conflict();
    const data = (await spec.extra?.(row, tx)) ?? {};
    const updatedAt = new Date(Math.max(Date.now(), new Date((row.updatedAt as Date | undefined) ?? 0).getTime() + 1));
    const { count } = await delegate(db, spec.model).updateMany({
      where: { id: spec.id, [field]: { in: [...spec.from] } },
      data: { ...data, [field]: spec.to, ...('updatedAt' in row ? { updatedAt } : {}) },
    });
    if (count === 0) throw conflict();
    const saved = (await delegate(db, spec.model).findFirst({ where: { id: spec.id } })) as Row;
    const out = (spec.render as (r: Row) => Out)(saved);
    await recordChange(tx, {
      ...who,
      action: spec.action,
      resourceType: spec.object,
      resourceId: spec.id,
      data: { from: state, to: spec.to, ...(spec.reason ? { reason: spec.reason } : {}), ...(spec.auditData?.(out) ?? {}) },
      resource: out,
    });
    await spec.after?.(tx, out, saved);
    return out;
  });
}

// ---------------------------------------------------------------- preservation log

type PreservationEvent = z.infer<typeof LegalHoldPreservationEntry>['event'];

/** Appends one entry to the preservation log (never updated nor deleted). */
export async function logPreservation(
  tx: Tx,
  tenantId: string,
  entry: {
    holdId: string | null;
    event: PreservationEvent;
    targetType?: string | null;
    targetId?: string | null;
    actor?: string | null;
    detail?: Row;
  },
): Promise<void> {
  await tx.legalHoldLogEntry.create({
    data: {
      id: newId('lpl'),
      tenantId,
      holdId: entry.holdId,
      event: entry.event,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      actor: entry.actor ?? null,
      detail: (entry.detail ?? {}) as object,
      at: new Date(),
    },
  });
}

interface LogRow {
  id: string;
  holdId: string | null;
  event: string;
  targetType: string | null;
  targetId: string | null;
  actor: string | null;
  detail: unknown;
  at: Date;
}

export const renderEntry = (r: LogRow): z.infer<typeof LegalHoldPreservationEntry> => ({
  object: 'svc.litigation_hold.preservation_entry',
  id: r.id,
  holdId: r.holdId,
  event: r.event as PreservationEvent,
  targetType: r.targetType,
  targetId: r.targetId,
  actor: r.actor,
  detail: (r.detail ?? {}) as Record<string, unknown>,
  at: iso(r.at),
});

export const preservationStore: Store<typeof legalHoldPreservation> = { model: 'legalHoldLogEntry', render: renderEntry };

// ---------------------------------------------------------------- holds

interface HoldRow {
  id: string;
  matter: string;
  description: string | null;
  status: string;
  records: unknown;
  criteria: unknown;
  releaseReason: string | null;
  releasedBy: string | null;
  releasedAt: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

type HoldOut = z.infer<typeof LegalHold>;

export const renderHold = (r: HoldRow): HoldOut => ({
  object: 'svc.litigation_hold.hold',
  id: r.id,
  matter: r.matter,
  description: r.description,
  status: r.status as HoldOut['status'],
  records: (Array.isArray(r.records) ? r.records : []) as HoldOut['records'],
  criteria: (r.criteria ?? null) as HoldOut['criteria'],
  releaseReason: r.releaseReason,
  releasedBy: r.releasedBy,
  releasedAt: isoOrNull(r.releasedAt),
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const HOLD = { model: 'legalHold', object: 'svc.litigation_hold.hold', label: 'hold', render: renderHold };

export async function createHold(prisma: Prisma, who: Actor, body: z.infer<typeof CreateLegalHoldBody>): Promise<HoldOut> {
  const db = scopeToTenant(prisma, who.tenantId);
  const records: HoldTarget[] = [];
  const seen = new Set<string>();
  for (const [i, t] of (body.records ?? []).entries()) {
    const key = `${t.type}:${t.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const m = modelOf(t.type);
    if (m) {
      const found = await (db as unknown as Record<string, AnyDelegate>)[m.delegate]?.findFirst({
        where: { id: t.id },
        select: { id: true },
      });
      if (!found) {
        throw new ApiError('validation_failed', `${t.type} ${t.id} is not a record of this tenant.`, [
          { field: `records[${i}].id`, issue: 'invalid_value', message: `unknown ${t.type}` },
        ]);
      }
    }
    records.push({ type: t.type, id: t.id });
  }
  const id = newId('lhd');
  return createRecord(prisma, who, {
    ...HOLD,
    action: 'legal_hold.created',
    id,
    data: {
      matter: body.matter,
      description: body.description ?? null,
      status: 'active',
      records: records as unknown as object,
      criteria: (body.criteria ?? undefined) as object | undefined,
      createdBy: who.actor,
      updatedAt: new Date(),
    },
    auditData: (h) => ({ matter: h.matter, records: h.records.length, criteria: h.criteria }),
    after: (tx, h) =>
      logPreservation(tx, who.tenantId, {
        holdId: h.id,
        event: 'hold_created',
        targetType: 'hold',
        targetId: h.id,
        actor: who.actor,
        detail: { matter: h.matter, records: h.records, criteria: h.criteria, correlationId: who.correlationId },
      }),
  });
}

export async function releaseHold(prisma: Prisma, who: Actor, id: string, reason: string | undefined): Promise<HoldOut> {
  return moveRecord(prisma, who, {
    ...HOLD,
    id,
    verb: 'release',
    from: ['active'],
    to: 'released',
    action: 'legal_hold.released',
    reason,
    extra: () => {
      if (!reason?.trim()) {
        throw new ApiError('validation_failed', 'A hold is released with a reason.', [
          { field: 'reason', issue: 'required', message: 'a release needs a reason' },
        ]);
      }
      return { releaseReason: reason, releasedBy: who.actor, releasedAt: new Date() };
    },
    after: (tx, h) =>
      logPreservation(tx, who.tenantId, {
        holdId: h.id,
        event: 'hold_released',
        targetType: 'hold',
        targetId: h.id,
        actor: who.actor,
        detail: { reason, correlationId: who.correlationId },
      }),
  });
}

/** Every record a hold covers now (none when released), by kind then id. */
export async function resolveHold(tx: Tx, tenantId: string, row: HoldRow): Promise<z.infer<typeof LegalHeldRecords>['records']> {
  if (row.status !== 'active') return [];
  const explicit = new Set((Array.isArray(row.records) ? (row.records as HoldTarget[]) : []).map((r) => `${r.type}:${r.id}`));
  const out: z.infer<typeof LegalHeldRecords>['records'] = [];
  for (const type of HOLD_TYPES) {
    const ids = await idsHeldBy(tx, tenantId, { id: row.id, records: row.records, criteria: row.criteria }, type);
    for (const id of [...ids].sort()) {
      out.push({
        type: type as z.infer<typeof LegalHeldRecords>['records'][number]['type'],
        id,
        via: explicit.has(`${type}:${id}`) ? 'explicit' : 'criteria',
      });
    }
  }
  return out;
}

async function findHold(db: Tx, id: string): Promise<HoldRow> {
  const row = (await db.legalHold.findFirst({ where: { id } })) as HoldRow | null;
  if (!row) throw new ApiError('not_found', `Hold ${id} was not found.`);
  return row;
}

export async function heldRecords(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof LegalHeldRecords>> {
  const db = scopeToTenant(prisma, tenantId);
  const row = await findHold(db, id);
  return {
    object: 'svc.litigation_hold.held_records',
    holdId: row.id,
    status: row.status as 'active' | 'released',
    records: await resolveHold(prisma, tenantId, row),
  };
}

// ---------------------------------------------------------------- custodians

interface CustodianRow {
  id: string;
  holdId: string;
  stakeholderUserId: string | null;
  name: string;
  email: string | null;
  status: string;
  noticeSentAt: Date;
  acknowledgedAt: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

type CustodianOut = z.infer<typeof LegalHoldCustodian>;

export const renderCustodian = (r: CustodianRow): CustodianOut => ({
  object: 'svc.litigation_hold.custodian',
  id: r.id,
  holdId: r.holdId,
  stakeholderUserId: r.stakeholderUserId,
  name: r.name,
  email: r.email,
  status: r.status as CustodianOut['status'],
  noticeSentAt: iso(r.noticeSentAt),
  acknowledgedAt: isoOrNull(r.acknowledgedAt),
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const custodianStore: Store<typeof legalHoldCustodians> = { model: 'legalHoldCustodian', render: renderCustodian };

async function activeHoldFor(db: Tx, holdId: string, field: string): Promise<HoldRow> {
  const hold = (await db.legalHold.findFirst({ where: { id: holdId } })) as HoldRow | null;
  if (!hold) {
    throw new ApiError('validation_failed', `Hold ${holdId} does not exist in this tenant.`, [
      { field, issue: 'invalid_value', message: 'unknown hold' },
    ]);
  }
  if (hold.status !== 'active') {
    throw new ApiError('conflict', `Hold ${holdId} is ${hold.status}; it holds nothing.`, [
      { field, issue: 'invalid_value', message: `hold ${hold.status}` },
    ]);
  }
  return hold;
}

export async function addCustodian(prisma: Prisma, who: Actor, body: z.infer<typeof CreateLegalHoldCustodianBody>): Promise<CustodianOut> {
  const db = scopeToTenant(prisma, who.tenantId);
  await activeHoldFor(db, body.holdId, 'holdId');
  let name = body.name ?? null;
  let email = body.email?.toLowerCase() ?? null;
  if (body.stakeholderUserId) {
    const user = await db.stakeholderUser.findFirst({ where: { id: body.stakeholderUserId } });
    if (!user) {
      throw new ApiError('validation_failed', `Person ${body.stakeholderUserId} is not a stakeholder of this tenant.`, [
        { field: 'stakeholderUserId', issue: 'invalid_value', message: 'unknown person' },
      ]);
    }
    name ??= user.name;
    email ??= user.email.toLowerCase();
  }
  if (!name) {
    throw new ApiError('validation_failed', 'A custodian needs a name or a stakeholderUserId.', [
      { field: 'name', issue: 'required', message: 'name or stakeholderUserId' },
    ]);
  }
  const or: Row[] = [];
  if (body.stakeholderUserId) or.push({ stakeholderUserId: body.stakeholderUserId });
  if (email) or.push({ email });
  if (or.length > 0) {
    const dup = await db.legalHoldCustodian.findFirst({ where: { holdId: body.holdId, OR: or }, select: { id: true } });
    if (dup) throw new ApiError('conflict', `This person is already a custodian of hold ${body.holdId}: ${dup.id}.`);
  }
  const now = new Date();
  return createRecord(prisma, who, {
    model: 'legalHoldCustodian',
    object: 'svc.litigation_hold.custodian',
    action: 'custodian.notified',
    id: newId('lcu'),
    render: renderCustodian,
    data: {
      holdId: body.holdId,
      stakeholderUserId: body.stakeholderUserId ?? null,
      name,
      email,
      status: 'notified',
      noticeSentAt: now,
      acknowledgedAt: null,
      createdBy: who.actor,
      createdAt: now,
      updatedAt: now,
    },
    auditData: (c) => ({ holdId: c.holdId, name: c.name }),
    after: (tx, c) =>
      logPreservation(tx, who.tenantId, {
        holdId: c.holdId,
        event: 'custodian_notified',
        targetType: 'custodian',
        targetId: c.id,
        actor: who.actor,
        detail: { name: c.name, email: c.email, correlationId: who.correlationId },
      }),
  });
}

export async function acknowledgeCustodian(prisma: Prisma, who: Actor, id: string, reason: string | undefined): Promise<CustodianOut> {
  return moveRecord(prisma, who, {
    model: 'legalHoldCustodian',
    object: 'svc.litigation_hold.custodian',
    label: 'custodian',
    id,
    verb: 'acknowledge',
    from: ['notified'],
    to: 'acknowledged',
    action: 'custodian.acknowledged',
    reason,
    render: renderCustodian,
    extra: () => ({ acknowledgedAt: new Date() }),
    after: (tx, c) =>
      logPreservation(tx, who.tenantId, {
        holdId: c.holdId,
        event: 'custodian_acknowledged',
        targetType: 'custodian',
        targetId: c.id,
        actor: who.actor,
        detail: { name: c.name, correlationId: who.correlationId },
      }),
  });
}

// ---------------------------------------------------------------- ediscovery

/** JSON with object keys sorted at every level and no spaces: what the digests are taken of. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(',')}}`;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** A stored row as plain JSON: timestamps in ISO 8601, big integers as numbers or strings, bytes in base64. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      return Object.fromEntries(Object.entries(value as Row).map(([k, v]) => [k, plain(v)]));
    }
    return String(value);
  }
  return value;
}

/** Fields no role may read, never exported: sealed identities, access-code hashes, secrets, tokens, keys. */
const SECRET_FIELD = /sealed|secret|password|token|privateKey|accessCodeHash/i;

interface ExportRow {
  id: string;
  holdId: string;
  recordCount: number;
  records: unknown;
  manifest: unknown;
  manifestHash: string;
  createdBy: string;
  createdAt: Date;
}

type ExportOut = z.infer<typeof LegalHoldEdiscoveryExport>;

export const renderExport = (r: ExportRow): ExportOut => ({
  object: 'svc.litigation_hold.ediscovery_export',
  id: r.id,
  holdId: r.holdId,
  recordCount: r.recordCount,
  manifest: r.manifest as ExportOut['manifest'],
  manifestHash: r.manifestHash,
  records: (r.records ?? []) as ExportOut['records'],
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

export async function createExport(prisma: Prisma, who: Actor, body: z.infer<typeof CreateLegalHoldExportBody>): Promise<ExportOut> {
  const db = scopeToTenant(prisma, who.tenantId);
  const hold = await activeHoldFor(db, body.holdId, 'holdId');
  const held = await resolveHold(prisma, who.tenantId, hold);
  const records: ExportOut['records'] = [];
  for (const h of held) {
    const m = modelOf(h.type);
    const row = m ? await (db as unknown as Record<string, AnyDelegate>)[m.delegate]?.findFirst({ where: { id: h.id } }) : null;
    if (!row) continue;
    const { tenantId: _t, ...rest } = row;
    const redactedFields = Object.keys(rest)
      .filter((k) => SECRET_FIELD.test(k))
      .sort();
    for (const k of redactedFields) delete rest[k];
    const content = plain(rest) as Record<string, unknown>;
    records.push({ type: h.type, id: h.id, sha256: sha256(canonicalJson(content)), content, redactedFields });
  }
  const now = new Date();
  const manifest: ExportOut['manifest'] = {
    holdId: hold.id,
    matter: hold.matter,
    algorithm: 'sha256',
    generatedAt: now.toISOString(),
    records: records.map((r) => ({ type: r.type, id: r.id, sha256: r.sha256 })),
  };
  return createRecord(prisma, who, {
    model: 'legalHoldExport',
    object: 'svc.litigation_hold.ediscovery_export',
    action: 'ediscovery_export.created',
    id: newId('led'),
    render: renderExport,
    data: {
      holdId: hold.id,
      recordCount: records.length,
      records: records as unknown as object,
      manifest: manifest as unknown as object,
      manifestHash: sha256(canonicalJson(manifest)),
      createdBy: who.actor,
      createdAt: now,
    },
    auditData: (e) => ({ holdId: e.holdId, recordCount: e.recordCount, manifestHash: e.manifestHash }),
    after: (tx, e) =>
      logPreservation(tx, who.tenantId, {
        holdId: e.holdId,
        event: 'export_created',
        targetType: 'ediscovery_export',
        targetId: e.id,
        actor: who.actor,
        detail: { recordCount: e.recordCount, manifestHash: e.manifestHash, correlationId: who.correlationId },
      }),
  });
}

export const exportStore = { model: 'legalHoldExport' as const, render: renderExport };
export const holdStore = { model: 'legalHold' as const, render: renderHold };
export type { HoldCriteria };
