import { createHash } from 'node:crypto';
import {
  type CloseFulfillmentItemBody,
  type CreateDsarRedactionBody,
  canonicalJson,
  DSAR_OPEN_STATUSES,
  DSAR_REGIMES,
  type DsarDataStore,
  type DsarFulfillment,
  DsarFulfillmentItem,
  type DsarKind,
  type DsarRedaction,
  type DsarRegime,
  type DsarRequest,
  type DsarSla,
  type dsarExports,
  type dsarRedactions,
  dsarRequests,
  type dsarStores,
  type ExtendDsarRequestBody,
  fulfillmentItems,
  type PauseDsarRequestBody,
  type ResumeDsarRequestBody,
  type VerifyDsarBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { findRow, tableOf, updateRowIf } from '../../db/rows.ts';
import { sqlOf } from '../../db/sql.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound, stateConflict } from '../../errors.ts';
import type {
  DsarExport as ExportRow,
  DsarFulfillmentItem as ItemRow,
  DsarRedaction as RedactionRow,
  DsarRequest as RequestRow,
  DsarDataStore as StoreRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { assertNotHeld, logRefusal } from '../../platform/ledger/hold-guard.ts';
import { checkMoment, pastMoment } from '../../platform/moments.ts';
import { orNotFound } from '../../platform/queries.ts';
import { lockRecord, recorded, stampsOf } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';
import {
  daysBetween,
  dsarRegimeRule,
  dsarRules,
  dsarRulesVersion,
  endOfDate,
  kindsOf,
  pauseDays,
  requestClocksOf,
  rulesFor,
  storedPauses,
} from './clocks.ts';

/**
 * The dsar rail's behaviour: requests whose dates are computed from receipt by the rules data
 * (clocks.ts), identity verification, fulfillment across the declared data stores, the response
 * packet (hashed, versioned), its redactions, and the SLA view. Requests, data stores,
 * fulfillment items, packets and redactions are the kit's (rails/dsar/router.ts) with the stores
 * below, fulfil, reject, extension and two of an item's closings included; the changes the kit
 * cannot say (verification, the start of fulfillment, an item's completion, whose refused erasure
 * is logged after the rollback) are written out here, reading the row FOR UPDATE as the kit does.
 * Every write runs in one transaction with its audit event and webhook outbox rows (recordChange).
 */

type RequestOut = z.infer<typeof DsarRequest>;
type ItemOut = z.infer<typeof DsarFulfillmentItem>;
type VerificationRecord = RequestOut['verifications'][number];
type RecordRef = { type: string; id: string };

const OPEN: readonly string[] = DSAR_OPEN_STATUSES;

// ---------------------------------------------------------------- requests

export function renderRequest(r: RequestRow): RequestOut {
  const regime = r.regime as DsarRegime;
  const kind = r.kind as DsarKind;
  const c = requestClocksOf(r);
  const ext = c.rules.extension;
  const pause = c.pausable ? c.rules.pause : null;
  const now = new Date();
  return {
    object: 'svc.dsar.request',
    id: r.id,
    regime,
    kind,
    kindSource: c.rules.kindSource,
    regulator: c.rules.regime.regulator,
    subject: { name: r.subjectName, email: r.subjectEmail, type: r.subjectType as RequestOut['subject']['type'] },
    description: r.description,
    status: r.status as RequestOut['status'],
    receivedAt: iso(r.receivedAt),
    clockStartedAt: iso(c.startedAt),
    // Null without a statutory due date: received before the regime applies, or no period fixed (noDueDate says which).
    applicable: c.applicable,
    applicableFrom: {
      date: c.rules.applicableFrom.date,
      rule: c.rules.applicableFrom.rule,
      source: c.rules.applicableFrom.source,
    },
    noDueDate: c.noDueDate,
    dueDate: c.dueDate,
    dueAt: isoOrNull(c.dueAt),
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
        r.extendedAt && ext && c.dueDate
          ? { rule: ext.notice.rule, source: ext.notice.source, sendBy: c.dueDate, sentAt: iso(r.noticeSentAt ?? r.extendedAt) }
          : null,
    },
    clockPause: {
      allowed: pause !== null,
      rule: pause?.rule ?? null,
      source: pause?.source ?? null,
      pauses: storedPauses(r.pauses).map((p) => ({
        askedAt: iso(p.askedAt),
        reason: p.reason,
        answeredAt: isoOrNull(p.answeredAt),
        days: pause ? pauseDays(p, now) : 0,
      })),
      pausedDays: c.pausedDays,
    },
    receiptConfirmation:
      c.receiptConfirmationDate && c.rules.receiptConfirmation
        ? { dueDate: c.receiptConfirmationDate, rule: c.rules.receiptConfirmation.rule, source: c.rules.receiptConfirmation.source }
        : null,
    // Checks recorded before identity information was kept have none.
    verifications: ((Array.isArray(r.verifications) ? r.verifications : []) as VerificationRecord[]).map((v) => ({
      ...v,
      informationReceivedAt: v.informationReceivedAt ?? null,
    })),
    verifiedAt: isoOrNull(r.verifiedAt),
    startedAt: isoOrNull(r.startedAt),
    fulfilledAt: isoOrNull(r.fulfilledAt),
    rejectedAt: isoOrNull(r.rejectedAt),
    rejectionReason: r.rejectionReason,
    rulesVersion: dsarRulesVersion(),
    ...stampsOf(r),
  };
}

export const requestStore: Store<typeof dsarRequests> = {
  model: 'dsarRequest',
  render: renderRequest,
  create: async ({ who, body }) => {
    if (!rulesFor(body.regime, body.kind)) {
      throw invalid('kind', `${body.regime} grants no ${body.kind} request; it grants ${kindsOf(body.regime).join(', ')}.`);
    }
    const receivedAt = pastMoment('receivedAt', body.receivedAt);
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
  transitions: {
    // `in_progress` -> `fulfilled` once every fulfillment item is closed (409 naming the open ones).
    fulfill: {
      set: (_row, now) => ({ fulfilledAt: now }),
      guard: async ({ tx, who, row }) => {
        const { id } = row as RequestRow;
        const open = await scopeToTenant(tx, who.tenantId).dsarFulfillmentItem.findMany({
          where: { requestId: id, status: 'pending' },
          orderBy: { id: 'asc' },
        });
        if (open.length > 0) {
          throw new ApiError(
            'conflict',
            `Request ${id} has ${open.length} open fulfillment item(s): ${open.map((i) => `${i.id} (${i.storeName})`).join(', ')}; close each first.`,
            open.map((i) => ({ field: 'items', issue: 'invalid_value', message: `${i.id} is pending` })),
          );
        }
      },
    },
    // `received` or `verified` -> `rejected`, the reason kept on the request; required, checked
    // after the 404 and the 409 (the body is the kit's optional `{ reason }`).
    reject: {
      set: (_row, now, body) => ({ rejectedAt: now, rejectionReason: body?.reason ?? null }),
      guard: async ({ body }) => {
        if (!body?.reason) throw invalid('reason', 'A rejection needs a reason.', 'missing');
      },
    },
    // Once, by the regime's rule, decided by the original due date with the subject told by then.
    extend: {
      set: (row: RequestRow, now, body) => extension(row, now, body),
      auditData: (saved, _row, body) => ({
        reason: body.reason,
        dueDate: saved.dueDate,
        extendedDueDate: saved.extendedDueDate,
        noticeSendBy: saved.extension.notice?.sendBy ?? null,
        noticeSentAt: saved.extension.notice?.sentAt ?? null,
      }),
    },
    // UK GDPR Art. 12A: the clock stands still from the day the controller asks for information it needs.
    pause: {
      set: (row: RequestRow, now, body) => pauseClock(row, now, body),
      auditData: (saved, _row, body) => ({ reason: body.reason, dueDate: saved.dueDate, pausedDays: saved.clockPause.pausedDays }),
    },
    // ... and runs again from the day the answer arrives, the due date moved by the days it stood still.
    resume: {
      set: (row: RequestRow, now, body) => resumeClock(row, now, body),
      auditData: (saved) => ({ dueDate: saved.dueDate, pausedDays: saved.clockPause.pausedDays }),
    },
  },
};

/** The pauses of a request as stored: moments as ISO strings. */
function pausesJson(ps: ReturnType<typeof storedPauses>) {
  return ps.map((p) => ({ askedAt: p.askedAt.toISOString(), reason: p.reason, answeredAt: p.answeredAt?.toISOString() ?? null }));
}

/**
 * A new pause: 409 where the regime allows none for the request (kind, or received before the rule
 * applies), while one is open, or after the due date in force; 422 for a moment out of range.
 */
function pauseClock(row: RequestRow, now: Date, body: z.infer<typeof PauseDsarRequestBody>): Record<string, unknown> {
  const current = renderRequest(row);
  if (!current.clockPause.allowed || current.dueAt === null) {
    throw new ApiError(
      'conflict',
      `${current.regime} lets the clock of this ${current.kind} request run without a pause${current.noDueDate ? ` (${current.noDueDate.rule})` : ''}.`,
      [{ field: 'id', issue: 'invalid_value', message: 'no pause under this regime' }],
    );
  }
  const pauses = storedPauses(row.pauses);
  if (pauses.some((p) => p.answeredAt === null)) {
    throw new ApiError('conflict', `The clock of request ${row.id} stands still already; resume it when the answer arrives.`, [
      { field: 'id', issue: 'invalid_value', message: 'already paused' },
    ]);
  }
  const askedAt = body.askedAt ? new Date(body.askedAt) : now;
  checkMoment('askedAt', askedAt, { at: new Date(row.receivedAt), what: 'receivedAt' });
  const due = current.extendedDueAt ?? current.dueAt;
  if (askedAt > new Date(due)) {
    throw new ApiError(
      'conflict',
      `Request ${row.id} was due ${current.extendedDueDate ?? current.dueDate}; the clock cannot be stopped after it ran out.`,
      [{ field: 'askedAt', issue: 'invalid_value', message: 'after the due date' }],
    );
  }
  return { pauses: pausesJson([...pauses, { askedAt, answeredAt: null, reason: body.reason }]) };
}

/** The end of the open pause: 409 without one; 422 for a moment before it began or in the future. */
function resumeClock(row: RequestRow, now: Date, body: z.infer<typeof ResumeDsarRequestBody> | undefined): Record<string, unknown> {
  const pauses = storedPauses(row.pauses);
  const open = pauses.find((p) => p.answeredAt === null);
  if (!open) {
    throw new ApiError('conflict', `The clock of request ${row.id} is running; there is no pause to end.`, [
      { field: 'id', issue: 'invalid_value', message: 'not paused' },
    ]);
  }
  const answeredAt = body?.answeredAt ? new Date(body.answeredAt) : now;
  checkMoment('answeredAt', answeredAt, { at: open.askedAt, what: 'the pause' });
  open.answeredAt = answeredAt;
  return { pauses: pausesJson(pauses) };
}

/**
 * The fields of an extension of an open request: 409 for a regime or kind without one, a second
 * one, or one decided after the original due date; 422 for a moment out of range or a notice that
 * reaches the subject after the original due date.
 */
function extension(row: RequestRow, now: Date, body: z.infer<typeof ExtendDsarRequestBody>): Record<string, unknown> {
  const current = renderRequest(row);
  const rule = rulesFor(current.regime, current.kind)?.extension ?? null;
  if (current.dueDate === null || current.dueAt === null) {
    // Nothing to extend: received before the regime applies, or no statutory period for the kind.
    const why = current.noDueDate;
    throw new ApiError(
      'conflict',
      `Request ${row.id} has no statutory due date to extend: ${why?.rule ?? 'no period applies'} (${why?.source ?? current.deadline.source}).`,
      [{ field: 'id', issue: 'invalid_value', message: why?.reason ?? 'no statutory due date' }],
    );
  }
  if (!rule) {
    throw new ApiError('conflict', `${current.regime} allows no extension of a ${current.kind} request; it is due ${current.dueDate}.`, [
      { field: 'id', issue: 'invalid_value', message: 'no extension under this regime' },
    ]);
  }
  if (row.extendedAt) {
    throw new ApiError(
      'conflict',
      `Request ${row.id} was extended already (to ${current.extendedDueDate}); the regime allows one extension.`,
      [{ field: 'id', issue: 'invalid_value', message: 'already extended' }],
    );
  }
  const receivedAt = new Date(row.receivedAt);
  const extendedAt = body.extendedAt ? new Date(body.extendedAt) : now;
  checkMoment('extendedAt', extendedAt, { at: receivedAt, what: 'receivedAt' });
  if (extendedAt > new Date(current.dueAt)) {
    throw new ApiError(
      'conflict',
      `Request ${row.id} was due ${current.dueDate}; an extension must be decided before the original due date.`,
      [{ field: 'extendedAt', issue: 'invalid_value', message: `after ${current.dueDate}` }],
    );
  }
  const noticeSentAt = body.noticeSentAt ? new Date(body.noticeSentAt) : extendedAt;
  checkMoment('noticeSentAt', noticeSentAt, { at: receivedAt, what: 'receivedAt' });
  if (noticeSentAt > endOfDate(current.dueDate)) {
    throw invalid('noticeSentAt', `The notice of the extension must reach the subject by ${current.dueDate} (${rule.notice.source}).`);
  }
  return { extendedAt, extensionReason: body.reason, noticeSentAt };
}

/**
 * The request a hand-written change works on, read FOR UPDATE in its transaction as the kit reads
 * a transition's row: 404 when it is not the tenant's, 409 naming its state unless it is one of
 * `from`. `save` writes the change on it and records it (audit event, webhook) with the record.
 */
async function lockRequest(prisma: Prisma, tx: Tx, who: Actor, id: string, verb: string, from: readonly string[]) {
  const sql = sqlOf(tx);
  const table = tableOf(prisma, 'dsarRequest');
  const row = (await findRow(sql, table, who.tenantId, id, { forUpdate: true })) as RequestRow | undefined;
  if (!row) throw notFound('Request', id);
  if (!from.includes(row.status)) throw stateConflict('Request', id, row.status, verb, from);
  const save = async (data: Record<string, unknown>, action: string, auditData: (saved: RequestOut) => Record<string, unknown>) => {
    const key = { tenantId: who.tenantId, id, field: 'status', allowed: [row.status] };
    const saved = renderRequest((await updateRowIf(sql, table, key, { ...data, updatedAt: new Date() })) as RequestRow);
    return recorded(tx, who, saved, { action, resourceType: dsarRequests.object, resourceId: id, data: auditData(saved) });
  };
  return { row, save };
}

// ---------------------------------------------------------------- verification

/** Records an identity check: `passed` moves a `received` request to `verified`, `failed` is kept only. */
export async function verifyRequest(prisma: Prisma, who: Actor, body: z.infer<typeof VerifyDsarBody>): Promise<RequestOut> {
  return prisma.$transaction(async (tx) => {
    const { row, save } = await lockRequest(prisma, tx, who, body.requestId, 'verify', ['received']);
    const verifiedAt = body.verifiedAt ? new Date(body.verifiedAt) : new Date();
    checkMoment('verifiedAt', verifiedAt, { at: new Date(row.receivedAt), what: 'receivedAt' });
    const informationAt = body.informationReceivedAt ? new Date(body.informationReceivedAt) : null;
    if (informationAt) {
      checkMoment('informationReceivedAt', informationAt, { at: new Date(row.receivedAt), what: 'receivedAt' });
      if (informationAt > verifiedAt)
        throw invalid('informationReceivedAt', 'informationReceivedAt is after verifiedAt: the check uses the information.');
    }
    const check: VerificationRecord = {
      method: body.method,
      outcome: body.outcome,
      notes: body.notes ?? null,
      informationReceivedAt: informationAt?.toISOString() ?? null,
      verifiedAt: verifiedAt.toISOString(),
      recordedBy: who.actor,
    };
    const verifications = [...((Array.isArray(row.verifications) ? row.verifications : []) as VerificationRecord[]), check];
    const passed = body.outcome === 'passed';
    return save(
      passed ? { verifications, status: 'verified', verifiedAt } : { verifications },
      passed ? 'dsar.verified' : 'dsar.verification_failed',
      () => ({ method: body.method, outcome: body.outcome, ...(passed ? { from: 'received', to: 'verified' } : {}) }),
    );
  });
}

// ---------------------------------------------------------------- data stores

export const dataStoreStore: Store<typeof dsarStores> = {
  model: 'dsarDataStore',
  computed: {
    categories: (s: StoreRow) => s.categories ?? [],
    subjectTypes: (s: StoreRow) => (s.subjectTypes ?? []) as z.infer<typeof DsarDataStore>['subjectTypes'],
  },
  filterWhere: { subjectType: (v) => ({ subjectTypes: { has: v } }) },
  // Categories and subject types are kept once each, in the order given; customers when no subject type is given.
  create: async ({ who, body }) => ({
    name: body.name,
    system: body.system,
    kind: body.kind,
    categories: [...new Set(body.categories)],
    subjectTypes: [...new Set(body.subjectTypes ?? ['customer'])],
    createdBy: who.actor,
  }),
  auditData: (s) => ({ name: s.name, system: s.system, kind: s.kind }),
};

// ---------------------------------------------------------------- fulfillment

export const renderItem = rendererOf<ItemRow>()(DsarFulfillmentItem, {
  categories: (i) => i.categories ?? [],
  records: (i) => (Array.isArray(i.records) ? i.records : []) as RecordRef[],
});

type CloseBody = z.infer<typeof CloseFulfillmentItemBody> | undefined;

/** The request of an item, which must be `in_progress` for the item to close (409 naming its state otherwise). */
async function requestInProgress(tx: Tx, who: Actor, item: ItemRow) {
  const request = await orNotFound(
    scopeToTenant(tx, who.tenantId).dsarRequest.findFirst({ where: { id: item.requestId } }),
    'Request',
    item.requestId,
  );
  if (request.status !== 'in_progress') {
    throw new ApiError('conflict', `Request ${request.id} is ${request.status}; its items close while it is in_progress.`, [
      { field: 'requestId', issue: 'invalid_value', message: `request is ${request.status}` },
    ]);
  }
  return request;
}

/** What a closing writes on the item: its notes (the reason when none), the records it touched, when and by whom. */
const closedFields = (body: CloseBody, now: Date, who: Actor) => ({
  notes: body?.notes ?? body?.reason ?? null,
  records: body?.records ?? [],
  closedAt: now,
  closedBy: who.actor,
});

/** A closing the kit serves: the request must be in progress; withholding needs its ground. */
const closing = (verb: 'mark_not_found' | 'withhold') => ({
  guard: async ({ tx, who, row, body }: { tx: Tx; who: Actor; row: never; body: CloseBody }) => {
    const request = await requestInProgress(tx, who, row as ItemRow);
    if (verb === 'withhold' && !(body?.notes ?? body?.reason)) {
      throw invalid('notes', 'Withholding needs the ground in `notes` (or `reason`).', 'missing');
    }
    return { requestId: request.id, ...(body?.records?.length ? { records: body.records } : {}) };
  },
  set: (_row: never, now: Date, body: CloseBody, who: Actor) => closedFields(body, now, who),
});

/**
 * The kit serves the items' list, get and two closings; `complete` is completeItem, because a refused
 * erasure is logged after the rollback.
 */
export const itemStore: Store<typeof fulfillmentItems> = {
  model: 'dsarFulfillmentItem',
  render: renderItem,
  transitions: { mark_not_found: closing('mark_not_found'), withhold: closing('withhold') },
};

/** `verified` -> `in_progress`, with one `pending` item per declared store that holds data of the subject's type. */
export async function startFulfillment(prisma: Prisma, who: Actor, requestId: string): Promise<z.infer<typeof DsarFulfillment>> {
  return prisma.$transaction(async (tx) => {
    const { row, save } = await lockRequest(prisma, tx, who, requestId, 'starting fulfillment', ['verified']);
    const db = scopeToTenant(tx, who.tenantId);
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
    const items = (await db.dsarFulfillmentItem.findMany({ where: { requestId }, orderBy: { id: 'asc' } })).map(renderItem);
    const saved = await save({ status: 'in_progress', startedAt: now }, 'dsar.fulfillment_started', () => ({
      from: 'verified',
      to: 'in_progress',
      items: items.map((i) => ({ id: i.id, storeId: i.storeId })),
    }));
    return { object: 'svc.dsar.fulfillment', requestId, status: saved.status, items };
  });
}

/**
 * Completes a pending item with its notes and the records it touched, while its request is
 * `in_progress`; for an erasure request, refused while the request or a named record is under a
 * legal hold. Written out rather than a kit step: the refusal is logged to the preservation log
 * after the transaction rolled back (a row written inside it would roll back with it), and no kit
 * hook runs after a rollback. The item is read FOR UPDATE, as the kit does.
 */
export async function completeItem(prisma: Prisma, who: Actor, id: string, body: CloseBody): Promise<ItemOut> {
  const { from, to } = fulfillmentItems.spec.transitions!.complete;
  const table = tableOf(prisma, 'dsarFulfillmentItem');
  try {
    return await prisma.$transaction(async (tx) => {
      const sql = sqlOf(tx);
      const item = (await findRow(sql, table, who.tenantId, id, { forUpdate: true })) as ItemRow | undefined;
      if (!item) throw notFound('Fulfillment item', id);
      if (!(from as readonly string[]).includes(item.status)) throw stateConflict('Fulfillment item', id, item.status, 'complete', from);
      const request = await requestInProgress(tx, who, item);
      const records = body?.records ?? [];
      if (request.kind === 'erasure') {
        // Erasing data of a held request (or of a held record) would destroy what a hold preserves.
        await assertNotHeld(tx, who.tenantId, [{ type: 'dsar_request', id: request.id }, ...records]);
      }
      const now = new Date();
      const key = { tenantId: who.tenantId, id, field: 'status', allowed: from };
      const out = renderItem(
        (await updateRowIf(sql, table, key, { status: to, ...closedFields(body, now, who), updatedAt: now })) as ItemRow,
      );
      const data = {
        from: item.status,
        to,
        requestId: request.id,
        ...(body?.reason ? { reason: body.reason } : {}),
        ...(records.length ? { records } : {}),
      };
      return recorded(tx, who, out, {
        action: fulfillmentItems.actions.complete as string,
        resourceType: fulfillmentItems.object,
        resourceId: id,
        data,
      });
    });
  } catch (err) {
    await logRefusal(prisma, who, err);
    throw err;
  }
}

// ---------------------------------------------------------------- export

const sha256Of = (packet: unknown) => createHash('sha256').update(canonicalJson(packet)).digest('hex');

/**
 * The next packet version of a request, read in the write's transaction with the request's row
 * locked: exports and redactions of one request at once are numbered in turn, where they would
 * otherwise read the same latest version and all but one fail on the unique version.
 */
async function nextVersion(tx: Tx, tenantId: string, requestId: string): Promise<number> {
  await lockRecord(tx, 'dsar_requests', tenantId, requestId);
  const agg = await scopeToTenant(tx, tenantId).dsarExport.aggregate({ where: { requestId }, _max: { version: true } });
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
  create: async ({ db, who, body }) => {
    const row = await orNotFound(db.dsarRequest.findFirst({ where: { id: body.requestId } }), 'Request', body.requestId);
    if (!['verified', 'in_progress', 'fulfilled'].includes(row.status)) {
      throw new ApiError('conflict', `Request ${row.id} is ${row.status}; a packet is exported once the request is verified.`, [
        { field: 'status', issue: 'invalid_value', message: `current state: ${row.status}` },
      ]);
    }
    const items = (await db.dsarFulfillmentItem.findMany({ where: { requestId: row.id }, orderBy: { id: 'asc' } })).map(renderItem);
    const packet = buildPacket(renderRequest(row), items);
    return {
      requestId: row.id,
      parentExportId: null,
      redactionId: null,
      packet,
      sha256: sha256Of(packet),
      createdBy: who.actor,
    };
  },
  prepare: async ({ tx, who, data }) => {
    data.version = await nextVersion(tx, who.tenantId, data.requestId as string);
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
  const bad = (f: string, message: string) => invalid(`${field}.${f}`, `${field}.${f}: ${message}.`);
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

/** The packet with the redactions applied, in order, and what each replaced (422 naming one that finds nothing). */
function redact(source: ExportRow, specs: readonly RedactionSpec[]): { packet: Record<string, unknown>; applied: Applied[] } {
  const packet = structuredClone(source.packet ?? {}) as Record<string, unknown>;
  const applied = specs.map((r, i) => ({
    path: r.path ?? null,
    start: r.start ?? null,
    end: r.end ?? null,
    text: r.text ?? null,
    reason: r.reason,
    note: r.note ?? null,
    occurrences: applyRedaction(packet, r, `redactions[${i}]`),
  }));
  return { packet, applied };
}

export const redactionStore: Store<typeof dsarRedactions> = {
  model: 'dsarRedaction',
  computed: { redactions: (d: RedactionRow) => (Array.isArray(d.redactions) ? d.redactions : []) as Applied[] },
  // The redaction of a packet of the tenant (404 otherwise); its result is the next version of the request's packet.
  create: async ({ db, who, body }) => {
    const source = await orNotFound(db.dsarExport.findFirst({ where: { id: body.exportId } }), 'Export', body.exportId);
    const { packet, applied } = redact(source, body.redactions);
    return {
      requestId: source.requestId,
      sourceExportId: source.id,
      resultExportId: newId('dsx'),
      redactions: applied,
      sha256Before: source.sha256,
      sha256After: sha256Of(packet),
      createdBy: who.actor,
    };
  },
  prepare: async ({ tx, who, data }) => {
    data.version = await nextVersion(tx, who.tenantId, data.requestId as string);
  },
  auditData: (d) => ({
    requestId: d.requestId,
    sourceExportId: d.sourceExportId,
    resultExportId: d.resultExportId,
    version: d.version,
    reasons: d.redactions.map((a) => a.reason),
  }),
  // The new packet version, in the redaction's transaction: the source (kept unchanged) with the recorded redactions applied.
  afterCreate: async ({ tx, who, record: d }) => {
    const db = scopeToTenant(tx, who.tenantId);
    const source = (await db.dsarExport.findFirst({ where: { id: d.sourceExportId } })) as ExportRow;
    const specs = d.redactions.map((a) => ({
      reason: a.reason,
      ...(a.path === null ? {} : { path: a.path }),
      ...(a.start === null ? {} : { start: a.start }),
      ...(a.end === null ? {} : { end: a.end }),
      ...(a.text === null ? {} : { text: a.text }),
    }));
    const { packet } = redact(source, specs);
    await db.dsarExport.create({
      data: {
        id: d.resultExportId,
        tenantId: who.tenantId,
        requestId: d.requestId,
        version: d.version,
        parentExportId: d.sourceExportId,
        redactionId: d.id,
        packet: packet as never,
        sha256: sha256Of(packet),
        createdBy: d.createdBy,
        createdAt: new Date(d.createdAt),
      },
    });
  },
};

// ---------------------------------------------------------------- SLA

export async function sla(prisma: Prisma, tenantId: string, q: { at?: string; regime?: DsarRegime }): Promise<z.infer<typeof DsarSla>> {
  const at = q.at ? new Date(q.at) : new Date();
  const db = scopeToTenant(prisma, tenantId);
  const rows = await db.dsarRequest.findMany({
    where: { status: { in: [...OPEN] }, receivedAt: { lte: at }, ...(q.regime ? { regime: q.regime } : {}) },
    orderBy: { id: 'asc' },
  });
  const items: z.infer<typeof DsarSla>['items'] = rows.map((row) => {
    const c = requestClocksOf(row, at);
    // A request without a statutory due date (not yet applicable, or no period fixed) is open but neither on time nor late.
    const daysRemaining = c.effectiveDueDate ? daysBetween(at, c.effectiveDueDate) : null;
    const state =
      c.effectiveDueAt === null || daysRemaining === null
        ? 'no_deadline'
        : at > c.effectiveDueAt
          ? 'overdue'
          : daysRemaining <= c.rules.atRiskDays
            ? 'at_risk'
            : 'on_time';
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
      noDueDate: c.noDueDate?.reason ?? null,
    };
  });
  // Earliest due first; requests without a due date last, by id.
  const dueKey = (i: (typeof items)[number]) => i.dueDate ?? '9999-12-31';
  items.sort((a, b) => (dueKey(a) === dueKey(b) ? (a.requestId < b.requestId ? -1 : 1) : dueKey(a) < dueKey(b) ? -1 : 1));
  const tally = (list: typeof items) => ({
    open: list.length,
    onTime: list.filter((i) => i.state === 'on_time').length,
    atRisk: list.filter((i) => i.state === 'at_risk').length,
    overdue: list.filter((i) => i.state === 'overdue').length,
    noDeadline: list.filter((i) => i.state === 'no_deadline').length,
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
