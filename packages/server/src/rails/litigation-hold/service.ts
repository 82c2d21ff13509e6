import { createHash } from 'node:crypto';
import {
  type CreateLegalHoldCustodianBody,
  canonicalJson,
  type LegalHeldRecords,
  type LegalHold,
  type LegalHoldCustodian,
  type LegalHoldEdiscoveryExport,
  type LegalHoldPreservationEntry,
  type legalHoldCustodians,
  type legalHoldExports,
  type legalHoldPreservation,
  type legalHolds,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { LegalHold as HoldRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { HOLD_TYPES, type HoldTarget, idsHeldBy, modelOf } from '../../platform/ledger/hold-guard.ts';
import { orNotFound } from '../../platform/queries.ts';
import { lockRecord } from '../../platform/records.ts';

/**
 * The litigation_hold rail's behaviour. Holds, custodians and eDiscovery exports are the kit's
 * (rails/litigation-hold/router.ts): their stores check and compute here, and write the
 * preservation-log entry in the transaction of the change. Served by hand: the resolution of a
 * hold to the records it covers.
 */

type Row = Record<string, unknown>;
type FindFirst = { findFirst(args: unknown): Promise<Row | null> };
/** The delegate of a model that holds a kind of held record. */
const delegateOf = (db: Tx, delegate: string) => (db as unknown as Record<string, FindFirst | undefined>)[delegate];

// ---------------------------------------------------------------- preservation log

type PreservationEvent = z.infer<typeof LegalHoldPreservationEntry>['event'];

/** Appends one entry to the preservation log (never updated nor deleted), as `who` in its transaction. */
export async function logPreservation(
  tx: Tx,
  who: Actor,
  entry: { holdId: string | null; event: PreservationEvent; targetType: string; targetId: string; detail: Row },
): Promise<void> {
  await tx.legalHoldLogEntry.create({
    data: {
      id: newId('lpl'),
      tenantId: who.tenantId,
      ...entry,
      actor: who.actor,
      detail: { ...entry.detail, correlationId: who.correlationId } as object,
      at: new Date(),
    },
  });
}

export const preservationStore: Store<typeof legalHoldPreservation> = { model: 'legalHoldLogEntry' };

// ---------------------------------------------------------------- holds

type HoldOut = z.infer<typeof LegalHold>;

export const holdStore: Store<typeof legalHolds> = {
  model: 'legalHold',
  computed: { records: (r: HoldRow) => (Array.isArray(r.records) ? r.records : []) as HoldOut['records'] },
  // The named records, each once; a record of a kind stored here must be the tenant's (422).
  create: async ({ db, who, body }) => {
    const records: HoldTarget[] = [];
    const seen = new Set<string>();
    for (const [i, t] of (body.records ?? []).entries()) {
      const key = `${t.type}:${t.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const m = modelOf(t.type);
      if (m && !(await delegateOf(db, m.delegate)?.findFirst({ where: { id: t.id }, select: { id: true } }))) {
        throw invalid(`records[${i}].id`, `${t.type} ${t.id} is not a record of this tenant.`);
      }
      records.push({ type: t.type, id: t.id });
    }
    return {
      matter: body.matter,
      description: body.description ?? null,
      status: 'active',
      records,
      criteria: body.criteria ?? null,
      createdBy: who.actor,
    };
  },
  auditData: (h) => ({ matter: h.matter, records: h.records.length, criteria: h.criteria }),
  afterCreate: ({ tx, who, record: h }) =>
    logPreservation(tx, who, {
      holdId: h.id,
      event: 'hold_created',
      targetType: 'hold',
      targetId: h.id,
      detail: { matter: h.matter, records: h.records, criteria: h.criteria },
    }),
  transitions: {
    // `active` -> `released` with its reason, required (422 after the kit's 404 and 409) and
    // stored on the hold with who released it; the release is written to the preservation log.
    release: {
      guard: async ({ body }) => {
        if (!body?.reason?.trim()) throw invalid('reason', 'A hold is released with a reason.', 'required');
      },
      set: (_row, now, body, who) => ({ releaseReason: body?.reason, releasedBy: who.actor, releasedAt: now }),
      after: ({ tx, who, record }) =>
        logPreservation(tx, who, {
          holdId: record.id,
          event: 'hold_released',
          targetType: 'hold',
          targetId: record.id,
          detail: { reason: record.releaseReason },
        }),
    },
  },
};

type HeldRecord = z.infer<typeof LegalHeldRecords>['records'][number];

/** Every record a hold covers now (none when released), by kind then id. */
export async function resolveHold(tx: Tx, tenantId: string, row: HoldRow): Promise<HeldRecord[]> {
  if (row.status !== 'active') return [];
  const explicit = new Set((Array.isArray(row.records) ? (row.records as unknown as HoldTarget[]) : []).map((r) => `${r.type}:${r.id}`));
  const out: HeldRecord[] = [];
  for (const type of HOLD_TYPES) {
    const ids = await idsHeldBy(tx, tenantId, { id: row.id, records: row.records, criteria: row.criteria }, type);
    for (const id of [...ids].sort()) {
      out.push({ type: type as HeldRecord['type'], id, via: explicit.has(`${type}:${id}`) ? 'explicit' : 'criteria' });
    }
  }
  return out;
}

export async function heldRecords(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof LegalHeldRecords>> {
  const row = await orNotFound(scopeToTenant(prisma, tenantId).legalHold.findFirst({ where: { id } }), 'Hold', id);
  return {
    object: 'svc.litigation_hold.held_records',
    holdId: row.id,
    status: row.status as 'active' | 'released',
    records: await resolveHold(prisma, tenantId, row),
  };
}

/** The hold a custodian or an export names: the tenant's (422 otherwise) and active (409). */
async function activeHoldFor(db: Tx, holdId: string): Promise<HoldRow> {
  const hold = await db.legalHold.findFirst({ where: { id: holdId } });
  if (!hold) throw invalid('holdId', `Hold ${holdId} does not exist in this tenant.`);
  if (hold.status !== 'active') {
    throw new ApiError('conflict', `Hold ${holdId} is ${hold.status}; it holds nothing.`, [
      { field: 'holdId', issue: 'invalid_value', message: `hold ${hold.status}` },
    ]);
  }
  return hold;
}

// ---------------------------------------------------------------- custodians

type CustodianOut = z.infer<typeof LegalHoldCustodian>;

/** A custodian of an active hold: a stakeholder person or a name, not twice on the hold. */
async function custodianData(db: Tx, who: Actor, body: z.infer<typeof CreateLegalHoldCustodianBody>) {
  await activeHoldFor(db, body.holdId);
  let name = body.name ?? null;
  let email = body.email?.toLowerCase() ?? null;
  if (body.stakeholderUserId) {
    const user = await db.stakeholderUser.findFirst({ where: { id: body.stakeholderUserId } });
    if (!user) throw invalid('stakeholderUserId', `Person ${body.stakeholderUserId} is not a stakeholder of this tenant.`);
    name ??= user.name;
    email ??= user.email.toLowerCase();
  }
  if (!name) throw invalid('name', 'A custodian needs a name or a stakeholderUserId.', 'required');
  // The notice is sent as the custodian is added: one clock for both.
  const now = new Date();
  return {
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
  };
}

/** The preservation-log entry of a custodian's notice or acknowledgement. */
const logCustodian =
  (event: 'custodian_notified' | 'custodian_acknowledged') =>
  ({ tx, who, record: c }: { tx: Tx; who: Actor; record: CustodianOut }) =>
    logPreservation(tx, who, {
      holdId: c.holdId,
      event,
      targetType: 'custodian',
      targetId: c.id,
      detail: event === 'custodian_notified' ? { name: c.name, email: c.email } : { name: c.name },
    });

export const custodianStore: Store<typeof legalHoldCustodians> = {
  model: 'legalHoldCustodian',
  create: ({ db, who, body }) => custodianData(db, who, body),
  // Not twice on the hold (by person or email): checked with the hold locked, so two adds at once are one custodian and a 409.
  prepare: async ({ tx, who, data }) => {
    const holdId = data.holdId as string;
    await lockRecord(tx, 'legal_holds', who.tenantId, holdId);
    const or: Row[] = [];
    if (data.stakeholderUserId) or.push({ stakeholderUserId: data.stakeholderUserId });
    if (data.email) or.push({ email: data.email });
    if (or.length === 0) return;
    const dup = await scopeToTenant(tx, who.tenantId).legalHoldCustodian.findFirst({ where: { holdId, OR: or }, select: { id: true } });
    if (dup) throw new ApiError('conflict', `This person is already a custodian of hold ${holdId}: ${dup.id}.`);
  },
  auditData: (c) => ({ holdId: c.holdId, name: c.name }),
  afterCreate: logCustodian('custodian_notified'),
  transitions: {
    acknowledge: { set: (_row, now) => ({ acknowledgedAt: now }), after: logCustodian('custodian_acknowledged') },
  },
};

// ---------------------------------------------------------------- ediscovery

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

type ExportOut = z.infer<typeof LegalHoldEdiscoveryExport>;

export const exportStore: Store<typeof legalHoldExports> = {
  model: 'legalHoldExport',
  // Every record the hold covers now, each with the SHA-256 of its canonical JSON, sealed by the manifest's.
  create: async ({ db, who, body }) => {
    const hold = await activeHoldFor(db, body.holdId);
    const records: ExportOut['records'] = [];
    for (const h of await resolveHold(db, who.tenantId, hold)) {
      const m = modelOf(h.type);
      const row = m ? await delegateOf(db, m.delegate)?.findFirst({ where: { id: h.id } }) : null;
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
    return {
      holdId: hold.id,
      recordCount: records.length,
      records,
      manifest,
      manifestHash: sha256(canonicalJson(manifest)),
      createdBy: who.actor,
      createdAt: now,
    };
  },
  auditData: (e) => ({ holdId: e.holdId, recordCount: e.recordCount, manifestHash: e.manifestHash }),
  afterCreate: ({ tx, who, record: e }) =>
    logPreservation(tx, who, {
      holdId: e.holdId,
      event: 'export_created',
      targetType: 'ediscovery_export',
      targetId: e.id,
      detail: { recordCount: e.recordCount, manifestHash: e.manifestHash },
    }),
};
