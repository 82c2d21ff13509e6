import { createHash } from 'node:crypto';
import {
  type CloseFulfillmentItemBody,
  type CreateDsarDataStoreBody,
  type CreateDsarRedactionBody,
  canonicalJson,
  DSAR_OPEN_STATUSES,
  DSAR_REGIMES,
  type DsarDataStore,
  type DsarExport,
  type DsarFulfillment,
  type DsarFulfillmentItem,
  type DsarKind,
  type DsarRedaction,
  type DsarRegime,
  type DsarRequest,
  type DsarSla,
  type dsarExports,
  type dsarRedactions,
  type dsarRequests,
  type ExtendDsarRequestBody,
  type VerifyDsarBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type {
  DsarExport as ExportRow,
  DsarFulfillmentItem as ItemRow,
  DsarRedaction as RedactionRow,
  DsarRequest as RequestRow,
  DsarDataStore as StoreRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { assertNotHeld, logRefusal } from '../../platform/ledger/hold-guard.ts';
import { daysBetween, dsarRegimeRule, dsarRules, dsarRulesVersion, endOfDate, kindsOf, requestClocks, rulesFor } from './clocks.ts';

/**
 * The dsar rail's behaviour: requests whose dates are computed from receipt by the rules data
 * (dsar-clocks.ts), identity verification, fulfillment across the declared data stores, the
 * response packet (hashed, versioned), its redactions, and the SLA view. Every write runs in one
 * transaction with its audit event and webhook outbox rows (recordChange).
 */

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null | undefined) => (d ? iso(d) : null);
const CLOCK_SKEW_MS = 5_000;

type RequestOut = z.infer<typeof DsarRequest>;
type ItemOut = z.infer<typeof DsarFulfillmentItem>;
type VerificationRecord = RequestOut['verifications'][number];
type RecordRef = { type: string; id: string };
type Scoped = ReturnType<typeof scopeToTenant<Tx>>;

const OPEN: readonly string[] = DSAR_OPEN_STATUSES;
const REQUEST_OBJECT = 'svc.dsar.request';
const ITEM_OBJECT = 'svc.dsar.fulfillment_item';

// ---------------------------------------------------------------- requests

export function renderRequest(r: RequestRow): RequestOut {
  const regime = r.regime as DsarRegime;
  const kind = r.kind as DsarKind;
  const c = requestClocks({ regime, kind, receivedAt: new Date(r.receivedAt), extendedAt: r.extendedAt ? new Date(r.extendedAt) : null });
  const ext = c.rules.extension;
  return {
    object: REQUEST_OBJECT,
    id: r.id,
    regime,
    kind,
    kindSource: c.rules.kindSource,
    regulator: c.rules.regime.regulator,
    subject: { name: r.subjectName, email: r.subjectEmail, type: r.subjectType as RequestOut['subject']['type'] },
    description: r.description,
    status: r.status as RequestOut['status'],
    receivedAt: iso(r.receivedAt),
    dueDate: c.dueDate,
    dueAt: iso(c.dueAt),
    extendedDueDate: c.extendedDueDate,
    extendedDueAt: isoOrNull(c.extendedDueAt),
    deadline: { amount: c.rules.clock.amount, unit: c.rules.clock.unit, rule: c.rules.clock.rule, source: c.rules.clock.source },
    extension: {
      allowed: ext !== null,
      amount: ext?.amount ?? null,
      unit: ext?.unit ?? null,
      rule: ext?.rule ?? null,
      source: ext?.source ?? null,
      extendedAt: isoOrNull(r.extendedAt),
      reason: r.extensionReason,
      notice:
        r.extendedAt && ext
          ? { rule: ext.notice.rule, source: ext.notice.source, sendBy: c.dueDate, sentAt: iso(r.noticeSentAt ?? r.extendedAt) }
          : null,
    },
    receiptConfirmation:
      c.receiptConfirmationDate && c.rules.receiptConfirmation
        ? { dueDate: c.receiptConfirmationDate, rule: c.rules.receiptConfirmation.rule, source: c.rules.receiptConfirmation.source }
        : null,
    verifications: (Array.isArray(r.verifications) ? r.verifications : []) as VerificationRecord[],
    verifiedAt: isoOrNull(r.verifiedAt),
    startedAt: isoOrNull(r.startedAt),
    fulfilledAt: isoOrNull(r.fulfilledAt),
    rejectedAt: isoOrNull(r.rejectedAt),
    rejectionReason: r.rejectionReason,
    rulesVersion: dsarRulesVersion(),
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** 422 unless `at` lies between `notBefore` and now (with a few seconds of clock slack). */
function checkMoment(field: string, at: Date, notBefore?: { at: Date; what: string }): void {
  if (at.getTime() > Date.now() + CLOCK_SKEW_MS) {
    throw new ApiError('validation_failed', `${field} is in the future.`, [{ field, issue: 'invalid_value', message: 'in the future' }]);
  }
  if (notBefore && at < notBefore.at) {
    throw new ApiError('validation_failed', `${field} is before ${notBefore.what}.`, [
      { field, issue: 'invalid_value', message: `before ${notBefore.what}` },
    ]);
  }
}

const stateConflict = (id: string, state: string, verb: string, from: readonly string[]) =>
  new ApiError('conflict', `Request ${id} is ${state}; ${verb} is allowed from ${from.join(', ')}.`, [
    { field: 'status', issue: 'invalid_value', message: `current state: ${state}` },
  ]);

export const requestStore: Store<typeof dsarRequests> = {
  model: 'dsarRequest',
  render: renderRequest,
  create: async ({ who, body }) => {
    if (!rulesFor(body.regime, body.kind)) {
      const kinds = kindsOf(body.regime);
      throw new ApiError('validation_failed', `${body.regime} grants no ${body.kind} request; it grants ${kinds.join(', ')}.`, [
        { field: 'kind', issue: 'invalid_value', message: `one of ${kinds.join(', ')}` },
      ]);
    }
    const receivedAt = body.receivedAt ? new Date(body.receivedAt) : new Date();
    checkMoment('receivedAt', receivedAt);
    return {
      regime: body.regime,
      kind: body.kind,
      subjectName: body.subject.name,
      subjectEmail: body.subject.email?.toLowerCase() ?? null,
      subjectType: body.subject.type ?? 'customer',
      description: body.description ?? null,
      status: 'received',
      receivedAt,
      verifications: [],
      createdBy: who.actor,
    };
  },
  auditData: (r) => ({ regime: r.regime, kind: r.kind, receivedAt: r.receivedAt, dueDate: r.dueDate }),
};

const requestNotFound = (id: string) => new ApiError('not_found', `Request ${id} was not found.`);

async function findRequest(db: Scoped, id: string): Promise<RequestRow> {
  const row = await db.dsarRequest.findFirst({ where: { id } });
  if (!row) throw requestNotFound(id);
  return row;
}

/**
 * Writes the request only if its status is still one of `from` (and, when given, the extra
 * conditions hold): a concurrent change makes this one a 409.
 */
async function saveRequest(db: Scoped, row: RequestRow, from: readonly string[], data: Record<string, unknown>): Promise<RequestRow> {
  const updatedAt = new Date(Math.max(Date.now(), new Date(row.updatedAt).getTime() + 1));
  const res = await db.dsarRequest.updateMany({
    where: { id: row.id, status: { in: [...from] }, updatedAt: row.updatedAt },
    data: { ...data, updatedAt },
  });
  if (res.count === 0) throw new ApiError('conflict', `Request ${row.id} changed meanwhile; read it again and retry.`);
  return (await db.dsarRequest.findFirst({ where: { id: row.id } })) as RequestRow;
}

async function audit(
  tx: Tx,
  who: Actor,
  action: string,
  resourceType: string,
  resourceId: string,
  data: Record<string, unknown>,
  resource: unknown,
) {
  await recordChange(tx, { ...who, action, resourceType, resourceId, data, resource });
}

/** `fulfill` and `reject`: the kit's transitions with the rail's checks (state first, then the rule). */
export async function transitionRequest(
  prisma: Prisma,
  who: Actor,
  id: string,
  verb: 'fulfill' | 'reject',
  reason: string | undefined,
): Promise<RequestOut> {
  const from = verb === 'fulfill' ? ['in_progress'] : ['received', 'verified'];
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await findRequest(db, id);
    if (!from.includes(row.status)) throw stateConflict(id, row.status, verb, from);
    const now = new Date();
    let data: Record<string, unknown>;
    if (verb === 'fulfill') {
      const open = await db.dsarFulfillmentItem.findMany({ where: { requestId: id, status: 'pending' }, orderBy: { id: 'asc' } });
      if (open.length > 0) {
        throw new ApiError(
          'conflict',
          `Request ${id} has ${open.length} open fulfillment item(s): ${open.map((i) => `${i.id} (${i.storeName})`).join(', ')}; close each first.`,
          open.map((i) => ({ field: 'items', issue: 'invalid_value', message: `${i.id} is pending` })),
        );
      }
      data = { status: 'fulfilled', fulfilledAt: now };
    } else {
      if (!reason) {
        throw new ApiError('validation_failed', 'A rejection needs a reason.', [
          { field: 'reason', issue: 'missing', message: 'required' },
        ]);
      }
      data = { status: 'rejected', rejectedAt: now, rejectionReason: reason };
    }
    const saved = renderRequest(await saveRequest(db, row, from, data));
    await audit(
      tx,
      who,
      verb === 'fulfill' ? 'dsar.fulfilled' : 'dsar.rejected',
      REQUEST_OBJECT,
      id,
      {
        from: row.status,
        to: saved.status,
        ...(reason ? { reason } : {}),
      },
      saved,
    );
    return saved;
  });
}

export async function extendRequest(
  prisma: Prisma,
  who: Actor,
  id: string,
  body: z.infer<typeof ExtendDsarRequestBody>,
): Promise<RequestOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await findRequest(db, id);
    if (!OPEN.includes(row.status)) throw stateConflict(id, row.status, 'extend', OPEN);
    const current = renderRequest(row);
    const rule = rulesFor(current.regime, current.kind)?.extension ?? null;
    if (!rule) {
      throw new ApiError('conflict', `${current.regime} allows no extension of a ${current.kind} request; it is due ${current.dueDate}.`, [
        { field: 'id', issue: 'invalid_value', message: 'no extension under this regime' },
      ]);
    }
    if (row.extendedAt) {
      throw new ApiError(
        'conflict',
        `Request ${id} was extended already (to ${current.extendedDueDate}); the regime allows one extension.`,
        [{ field: 'id', issue: 'invalid_value', message: 'already extended' }],
      );
    }
    const receivedAt = new Date(row.receivedAt);
    const extendedAt = body.extendedAt ? new Date(body.extendedAt) : new Date();
    checkMoment('extendedAt', extendedAt, { at: receivedAt, what: 'receivedAt' });
    if (extendedAt > new Date(current.dueAt)) {
      throw new ApiError(
        'conflict',
        `Request ${id} was due ${current.dueDate}; an extension must be decided before the original due date.`,
        [{ field: 'extendedAt', issue: 'invalid_value', message: `after ${current.dueDate}` }],
      );
    }
    const noticeSentAt = body.noticeSentAt ? new Date(body.noticeSentAt) : extendedAt;
    checkMoment('noticeSentAt', noticeSentAt, { at: receivedAt, what: 'receivedAt' });
    if (noticeSentAt > endOfDate(current.dueDate)) {
      throw new ApiError(
        'validation_failed',
        `The notice of the extension must reach the subject by ${current.dueDate} (${rule.notice.source}).`,
        [{ field: 'noticeSentAt', issue: 'invalid_value', message: `after ${current.dueDate}` }],
      );
    }
    const saved = renderRequest(await saveRequest(db, row, OPEN, { extendedAt, extensionReason: body.reason, noticeSentAt }));
    await audit(
      tx,
      who,
      'dsar.extended',
      REQUEST_OBJECT,
      id,
      {
        reason: body.reason,
        dueDate: saved.dueDate,
        extendedDueDate: saved.extendedDueDate,
        noticeSendBy: saved.extension.notice?.sendBy ?? null,
        noticeSentAt: saved.extension.notice?.sentAt ?? null,
      },
      saved,
    );
    return saved;
  });
}

export async function verifyRequest(prisma: Prisma, who: Actor, body: z.infer<typeof VerifyDsarBody>): Promise<RequestOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await findRequest(db, body.requestId);
    if (row.status !== 'received') throw stateConflict(row.id, row.status, 'verify', ['received']);
    const verifiedAt = body.verifiedAt ? new Date(body.verifiedAt) : new Date();
    checkMoment('verifiedAt', verifiedAt, { at: new Date(row.receivedAt), what: 'receivedAt' });
    const check: VerificationRecord = {
      method: body.method,
      outcome: body.outcome,
      notes: body.notes ?? null,
      verifiedAt: verifiedAt.toISOString(),
      recordedBy: who.actor,
    };
    const verifications = [...((Array.isArray(row.verifications) ? row.verifications : []) as VerificationRecord[]), check];
    const passed = body.outcome === 'passed';
    const saved = renderRequest(
      await saveRequest(db, row, ['received'], passed ? { verifications, status: 'verified', verifiedAt } : { verifications }),
    );
    await audit(
      tx,
      who,
      passed ? 'dsar.verified' : 'dsar.verification_failed',
      REQUEST_OBJECT,
      row.id,
      { method: body.method, outcome: body.outcome, ...(passed ? { from: 'received', to: 'verified' } : {}) },
      saved,
    );
    return saved;
  });
}

// ---------------------------------------------------------------- data stores

const renderStore = (s: StoreRow): z.infer<typeof DsarDataStore> => ({
  object: 'svc.dsar.data_store',
  id: s.id,
  name: s.name,
  system: s.system,
  kind: s.kind as z.infer<typeof DsarDataStore>['kind'],
  categories: s.categories ?? [],
  subjectTypes: (s.subjectTypes ?? []) as z.infer<typeof DsarDataStore>['subjectTypes'],
  createdBy: s.createdBy,
  createdAt: iso(s.createdAt),
});

export async function listStores(prisma: Prisma, tenantId: string, query: { limit: number; cursor?: string; subjectType?: string }) {
  return keysetList(scopeToTenant(prisma, tenantId).dsarDataStore, query, {
    render: renderStore,
    filters: ['subjectType'],
    filterWhere: { subjectType: (v) => ({ subjectTypes: { has: v } }) },
  });
}

export async function getStore(prisma: Prisma, tenantId: string, id: string) {
  const row = await scopeToTenant(prisma, tenantId).dsarDataStore.findFirst({ where: { id } });
  if (!row) throw new ApiError('not_found', `Data store ${id} was not found.`);
  return renderStore(row);
}

export async function createStore(prisma: Prisma, who: Actor, body: z.infer<typeof CreateDsarDataStoreBody>) {
  return prisma.$transaction(async (tx) => {
    const row = await scopeToTenant(tx, who.tenantId).dsarDataStore.create({
      data: {
        id: newId('dst'),
        tenantId: who.tenantId,
        name: body.name,
        system: body.system,
        kind: body.kind,
        categories: [...new Set(body.categories)],
        subjectTypes: [...new Set(body.subjectTypes ?? ['customer'])],
        createdBy: who.actor,
        createdAt: new Date(),
      },
    });
    const out = renderStore(row);
    await audit(tx, who, 'dsar.store_declared', out.object, out.id, { name: out.name, system: out.system, kind: out.kind }, out);
    return out;
  });
}

// ---------------------------------------------------------------- fulfillment

export const renderItem = (i: ItemRow): ItemOut => ({
  object: ITEM_OBJECT,
  id: i.id,
  requestId: i.requestId,
  storeId: i.storeId,
  storeName: i.storeName,
  system: i.system,
  categories: i.categories ?? [],
  status: i.status as ItemOut['status'],
  notes: i.notes,
  records: (Array.isArray(i.records) ? i.records : []) as RecordRef[],
  closedAt: isoOrNull(i.closedAt),
  closedBy: i.closedBy,
  createdAt: iso(i.createdAt),
  updatedAt: iso(i.updatedAt),
});

export const itemStore = { model: 'dsarFulfillmentItem', render: renderItem } as const;

export async function startFulfillment(prisma: Prisma, who: Actor, requestId: string): Promise<z.infer<typeof DsarFulfillment>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await findRequest(db, requestId);
    if (row.status !== 'verified') throw stateConflict(requestId, row.status, 'starting fulfillment', ['verified']);
    const stores = await db.dsarDataStore.findMany({ where: { subjectTypes: { has: row.subjectType } }, orderBy: { id: 'asc' } });
    if (stores.length === 0) {
      throw new ApiError(
        'conflict',
        `No declared data store holds data of ${row.subjectType} subjects; declare one at /v1/dsar/stores first.`,
        [{ field: 'requestId', issue: 'invalid_value', message: `no store for ${row.subjectType}` }],
      );
    }
    const now = new Date();
    await db.dsarFulfillmentItem.createMany({
      data: stores.map((s) => ({
        id: newId('dsf'),
        tenantId: who.tenantId,
        requestId,
        storeId: s.id,
        storeName: s.name,
        system: s.system,
        categories: s.categories,
        status: 'pending',
        records: [],
        createdAt: now,
        updatedAt: now,
      })),
    });
    const saved = renderRequest(await saveRequest(db, row, ['verified'], { status: 'in_progress', startedAt: now }));
    const items = (await db.dsarFulfillmentItem.findMany({ where: { requestId }, orderBy: { id: 'asc' } })).map(renderItem);
    await audit(
      tx,
      who,
      'dsar.fulfillment_started',
      REQUEST_OBJECT,
      requestId,
      {
        from: 'verified',
        to: 'in_progress',
        items: items.map((i) => ({ id: i.id, storeId: i.storeId })),
      },
      saved,
    );
    return { object: 'svc.dsar.fulfillment', requestId, status: saved.status, items };
  });
}

const ITEM_VERBS = {
  complete: { to: 'done', action: 'dsar.item_completed' },
  mark_not_found: { to: 'not_found', action: 'dsar.item_not_found' },
  withhold: { to: 'withheld', action: 'dsar.item_withheld' },
} as const;
export type ItemVerb = keyof typeof ITEM_VERBS;

export async function closeItem(
  prisma: Prisma,
  who: Actor,
  id: string,
  verb: ItemVerb,
  body: z.infer<typeof CloseFulfillmentItemBody> | undefined,
): Promise<ItemOut> {
  const { to, action } = ITEM_VERBS[verb];
  try {
    return await prisma.$transaction(async (tx) => {
      const db = scopeToTenant(tx, who.tenantId);
      const item = await db.dsarFulfillmentItem.findFirst({ where: { id } });
      if (!item) throw new ApiError('not_found', `Fulfillment item ${id} was not found.`);
      if (item.status !== 'pending') {
        throw new ApiError('conflict', `Fulfillment item ${id} is ${item.status}; ${verb} is allowed from pending.`, [
          { field: 'status', issue: 'invalid_value', message: `current state: ${item.status}` },
        ]);
      }
      const request = await findRequest(db, item.requestId);
      if (request.status !== 'in_progress') {
        throw new ApiError('conflict', `Request ${request.id} is ${request.status}; its items close while it is in_progress.`, [
          { field: 'requestId', issue: 'invalid_value', message: `request is ${request.status}` },
        ]);
      }
      const notes = body?.notes ?? body?.reason ?? null;
      if (verb === 'withhold' && !notes) {
        throw new ApiError('validation_failed', 'Withholding needs the ground in `notes` (or `reason`).', [
          { field: 'notes', issue: 'missing', message: 'required to withhold' },
        ]);
      }
      const records = body?.records ?? [];
      if (verb === 'complete' && request.kind === 'erasure') {
        // Erasing data of a held request (or of a held record) would destroy what a hold preserves.
        await assertNotHeld(tx, who.tenantId, [{ type: 'dsar_request', id: request.id }, ...records]);
      }
      const now = new Date();
      const res = await db.dsarFulfillmentItem.updateMany({
        where: { id, status: 'pending' },
        data: { status: to, notes, records, closedAt: now, closedBy: who.actor, updatedAt: now },
      });
      if (res.count === 0) throw new ApiError('conflict', `Fulfillment item ${id} changed meanwhile; read it again and retry.`);
      const out = renderItem((await db.dsarFulfillmentItem.findFirst({ where: { id } })) as ItemRow);
      await audit(
        tx,
        who,
        action,
        ITEM_OBJECT,
        id,
        {
          from: 'pending',
          to,
          requestId: request.id,
          ...(body?.reason ? { reason: body.reason } : {}),
          ...(records.length ? { records } : {}),
        },
        out,
      );
      return out;
    });
  } catch (err) {
    await logRefusal(prisma, who, err);
    throw err;
  }
}

// ---------------------------------------------------------------- export

const sha256Of = (packet: unknown) => createHash('sha256').update(canonicalJson(packet)).digest('hex');

const renderExport = (e: ExportRow): z.infer<typeof DsarExport> => ({
  object: 'svc.dsar.export',
  id: e.id,
  requestId: e.requestId,
  version: e.version,
  parentExportId: e.parentExportId,
  redactionId: e.redactionId,
  packet: (e.packet ?? {}) as Record<string, unknown>,
  sha256: e.sha256,
  createdBy: e.createdBy,
  createdAt: iso(e.createdAt),
});

async function nextVersion(db: Scoped, requestId: string): Promise<number> {
  const agg = await db.dsarExport.aggregate({ where: { requestId }, _max: { version: true } });
  return (agg._max.version ?? 0) + 1;
}

const ITEM_RESULT: Record<string, string> = {
  pending: 'not searched yet',
  done: 'searched; the request was carried out',
  not_found: 'searched; no data of the subject',
  withheld: 'searched; data withheld',
};

/** The response packet of a request, built from its record, checks, per-store results and dates. */
export function buildPacket(request: RequestOut, items: ItemOut[]): Record<string, unknown> {
  const regime = dsarRegimeRule(request.regime);
  const count = (s: string) => items.filter((i) => i.status === s).length;
  const summary =
    items.length === 0
      ? 'Fulfillment has not started: no data store was searched yet.'
      : `${items.length} data store(s) searched: ${count('done')} done, ${count('not_found')} without data of the subject, ${count('withheld')} withheld, ${count('pending')} pending.`;
  return {
    request: {
      id: request.id,
      regime: request.regime,
      kind: request.kind,
      right: request.kindSource,
      subject: { name: request.subject.name, email: request.subject.email, type: request.subject.type },
      description: request.description,
      status: request.status,
    },
    verification: request.verifications.map((v) => ({ method: v.method, outcome: v.outcome, verifiedAt: v.verifiedAt })),
    stores: items.map((i) => ({
      storeId: i.storeId,
      store: i.storeName,
      system: i.system,
      categories: i.categories,
      status: i.status,
      result: ITEM_RESULT[i.status] ?? i.status,
      notes: i.notes,
      closedAt: i.closedAt,
    })),
    dates: {
      receivedAt: request.receivedAt,
      dueDate: request.dueDate,
      extendedDueDate: request.extendedDueDate,
      extensionNoticeSentAt: request.extension.notice?.sentAt ?? null,
      receiptConfirmationDueDate: request.receiptConfirmation?.dueDate ?? null,
      verifiedAt: request.verifiedAt,
      startedAt: request.startedAt,
      fulfilledAt: request.fulfilledAt,
    },
    answer: {
      title: regime.answer.title,
      source: regime.answer.source,
      regulator: regime.regulator,
      deadline: request.deadline.source,
      includes: regime.answer.includes,
      summary,
    },
    rulesVersion: request.rulesVersion,
  };
}

export const exportStore: Store<typeof dsarExports> = {
  model: 'dsarExport',
  render: renderExport,
  create: async ({ db, who, body }) => {
    const row = await findRequest(db, body.requestId);
    if (!['verified', 'in_progress', 'fulfilled'].includes(row.status)) {
      throw new ApiError('conflict', `Request ${row.id} is ${row.status}; a packet is exported once the request is verified.`, [
        { field: 'status', issue: 'invalid_value', message: `current state: ${row.status}` },
      ]);
    }
    const items = (await db.dsarFulfillmentItem.findMany({ where: { requestId: row.id }, orderBy: { id: 'asc' } })).map(renderItem);
    const packet = buildPacket(renderRequest(row), items);
    return {
      requestId: row.id,
      version: await nextVersion(db, row.id),
      parentExportId: null,
      redactionId: null,
      packet,
      sha256: sha256Of(packet),
      createdBy: who.actor,
    };
  },
  auditData: (e) => ({ requestId: e.requestId, version: e.version, sha256: e.sha256 }),
};

// ---------------------------------------------------------------- redact

type RedactionSpec = z.infer<typeof CreateDsarRedactionBody>['redactions'][number];
type Applied = z.infer<typeof DsarRedaction>['redactions'][number];

const decodePointer = (path: string) =>
  path
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
const marker = (reason: string) => `[REDACTED: ${reason}]`;

/** Applies one redaction to the packet in place; returns how many values or spans it replaced, 0 when it found none. */
function applyRedaction(packet: Record<string, unknown>, r: RedactionSpec, field: string): number {
  const bad = (f: string, message: string) =>
    new ApiError('validation_failed', `${field}.${f}: ${message}.`, [{ field: `${field}.${f}`, issue: 'invalid_value', message }]);
  if (r.text !== undefined) {
    const text = r.text;
    let n = 0;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const parts = v.split(text);
        n += parts.length - 1;
        return parts.join(marker(r.reason));
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    const out = walk(packet) as Record<string, unknown>;
    if (n === 0) throw bad('text', 'the text does not occur in the packet');
    for (const k of Object.keys(packet)) packet[k] = out[k];
    return n;
  }
  const keys = decodePointer(r.path as string);
  let parent: unknown = packet;
  for (const k of keys.slice(0, -1)) {
    parent = parent && typeof parent === 'object' ? (parent as Record<string, unknown>)[k] : undefined;
  }
  const last = keys[keys.length - 1] as string;
  const container = parent && typeof parent === 'object' ? (parent as Record<string, unknown>) : undefined;
  if (!container || !Object.hasOwn(container, last)) throw bad('path', 'the packet has no value at this path');
  const value = container[last];
  if (r.start !== undefined && r.end !== undefined) {
    if (typeof value !== 'string') throw bad('start', 'a span redacts a string value');
    if (r.end > value.length) throw bad('end', `past the end of the string (${value.length} characters)`);
    container[last] = value.slice(0, r.start) + marker(r.reason) + value.slice(r.end);
    return 1;
  }
  container[last] = marker(r.reason);
  return 1;
}

const renderRedaction = (d: RedactionRow): z.infer<typeof DsarRedaction> => ({
  object: 'svc.dsar.redaction',
  id: d.id,
  requestId: d.requestId,
  sourceExportId: d.sourceExportId,
  resultExportId: d.resultExportId,
  version: d.version,
  redactions: (Array.isArray(d.redactions) ? d.redactions : []) as Applied[],
  sha256Before: d.sha256Before,
  sha256After: d.sha256After,
  createdBy: d.createdBy,
  createdAt: iso(d.createdAt),
});

export const redactionStore: Store<typeof dsarRedactions> = {
  model: 'dsarRedaction',
  render: renderRedaction,
  // The route's handler is createRedaction (two rows in one transaction); the kit's create is replaced in rails/dsar/router.ts.
  create: () => Promise.reject(new Error('dsar redactions are created by createRedaction')),
};

export async function createRedaction(
  prisma: Prisma,
  who: Actor,
  body: z.infer<typeof CreateDsarRedactionBody>,
): Promise<z.infer<typeof DsarRedaction>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const source = await db.dsarExport.findFirst({ where: { id: body.exportId } });
    if (!source) throw new ApiError('not_found', `Export ${body.exportId} was not found.`);
    const packet = structuredClone(source.packet ?? {}) as Record<string, unknown>;
    const applied: Applied[] = body.redactions.map((r, i) => ({
      path: r.path ?? null,
      start: r.start ?? null,
      end: r.end ?? null,
      text: r.text ?? null,
      reason: r.reason,
      note: r.note ?? null,
      occurrences: applyRedaction(packet, r, `redactions[${i}]`),
    }));
    const version = await nextVersion(db, source.requestId);
    const now = new Date();
    const redactionId = newId('dsd');
    const resultExportId = newId('dsx');
    await db.dsarExport.create({
      data: {
        id: resultExportId,
        tenantId: who.tenantId,
        requestId: source.requestId,
        version,
        parentExportId: source.id,
        redactionId,
        packet: packet as never,
        sha256: sha256Of(packet),
        createdBy: who.actor,
        createdAt: now,
      },
    });
    const row = await db.dsarRedaction.create({
      data: {
        id: redactionId,
        tenantId: who.tenantId,
        requestId: source.requestId,
        sourceExportId: source.id,
        resultExportId,
        version,
        redactions: applied as never,
        sha256Before: source.sha256,
        sha256After: sha256Of(packet),
        createdBy: who.actor,
        createdAt: now,
      },
    });
    const out = renderRedaction(row);
    await audit(
      tx,
      who,
      'dsar.redacted',
      out.object,
      out.id,
      {
        requestId: out.requestId,
        sourceExportId: out.sourceExportId,
        resultExportId,
        version,
        reasons: applied.map((a) => a.reason),
      },
      out,
    );
    return out;
  });
}

// ---------------------------------------------------------------- SLA

export async function sla(prisma: Prisma, tenantId: string, q: { at?: string; regime?: DsarRegime }): Promise<z.infer<typeof DsarSla>> {
  const at = q.at ? new Date(q.at) : new Date();
  const db = scopeToTenant(prisma, tenantId);
  const rows = await db.dsarRequest.findMany({
    where: { status: { in: [...OPEN] }, receivedAt: { lte: at }, ...(q.regime ? { regime: q.regime } : {}) },
    orderBy: { id: 'asc' },
  });
  const items: z.infer<typeof DsarSla>['items'] = rows.map((row) => {
    const c = requestClocks({
      regime: row.regime as DsarRegime,
      kind: row.kind as DsarKind,
      receivedAt: new Date(row.receivedAt),
      extendedAt: row.extendedAt ? new Date(row.extendedAt) : null,
    });
    const daysRemaining = daysBetween(at, c.effectiveDueDate);
    const state = at > c.effectiveDueAt ? 'overdue' : daysRemaining <= c.rules.atRiskDays ? 'at_risk' : 'on_time';
    return {
      requestId: row.id,
      regime: row.regime as DsarRegime,
      kind: row.kind as DsarKind,
      status: row.status as RequestOut['status'],
      regulator: c.rules.regime.regulator,
      dueDate: c.effectiveDueDate,
      extended: c.extendedDueDate !== null,
      daysRemaining,
      state,
    };
  });
  items.sort((a, b) => (a.dueDate === b.dueDate ? (a.requestId < b.requestId ? -1 : 1) : a.dueDate < b.dueDate ? -1 : 1));
  const tally = (list: typeof items) => ({
    open: list.length,
    onTime: list.filter((i) => i.state === 'on_time').length,
    atRisk: list.filter((i) => i.state === 'at_risk').length,
    overdue: list.filter((i) => i.state === 'overdue').length,
  });
  const rules = dsarRules();
  const regimes = DSAR_REGIMES.filter((r) => !q.regime || r === q.regime).map((id) => {
    const regime = dsarRegimeRule(id);
    return {
      regime: id,
      regulator: regime.regulator,
      atRiskDays: regime.atRiskDays ?? rules.atRiskDays,
      ...tally(items.filter((i) => i.regime === id)),
    };
  });
  return { object: 'svc.dsar.sla', at: at.toISOString(), totals: tally(items), regimes, items };
}
