import {
  type CreateVendorAssessmentBody,
  type CreateVendorBody,
  type CreateVendorContractBody,
  type CreateVendorMonitoringEventBody,
  VENDOR_DOMAINS,
  VENDOR_SEVERITY_WEIGHTS,
  Vendor,
  type VendorContract,
  type VendorContractStateAt,
  type VendorOrigin,
  type VendorRiskChange,
  type VendorScorecard,
  type vendorRiskAssessments,
  type vendorRiskContracts,
  type vendorRiskMonitoring,
  vendorRiskRatingOf,
  type vendorRiskVendors,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, notFound } from '../../errors.ts';
import type {
  VendorRiskAssessment as AssessmentRow,
  VendorRiskContract as ContractRow,
  VendorRiskMonitoringEvent as EventRow,
  VendorRiskVendor as VendorRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { pastMoment } from '../../platform/moments.ts';
import { createUnique, recorded, stampsOf } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';

/**
 * The vendor_risk rail: vendors, assessments, contracts and monitoring events, and the scorecard
 * computed from them (the formula is documented in the contract, packages/contract/src/rails/
 * vendor-risk/schemas.ts). Every write that can move a vendor's score recomputes it in the same
 * transaction and, when it moved, records `vendor.risk_changed` with the scores before and after.
 */

const DAY_MS = 86_400_000;
const HALF_LIFE_DAYS = 90;
const EXPIRED_PENALTY = 15;
const EXPIRING_PENALTY = 5;
const CONTRACT_PART_MAX = 30;
const round = (n: number, places: number) => {
  const f = 10 ** places;
  return Math.round((n + Number.EPSILON) * f) / f;
};
const round2 = (n: number) => round(n, 2);

type VendorOut = z.infer<typeof Vendor>;
type ContractOut = z.infer<typeof VendorContract>;
type ScorecardOut = z.infer<typeof VendorScorecard>;
type Domain = (typeof VENDOR_DOMAINS)[number];
type DomainScores = Partial<Record<Domain, number>>;
type ContractState = ContractOut['state'];

interface Renewal {
  renewedAt: string;
  previousEndDate: string;
  newEndDate: string;
}

// ---------------------------------------------------------------- calendar dates (UTC days)

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayOf(date: string): number {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** The `YYYY-MM-DD` of a day number. */
export function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export const addDays = (date: string, n: number) => dateOf(dayOf(date) + n);

/** `date` plus `months` calendar months; a day the target month lacks becomes its last day. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ty = Math.floor(total / 12);
  const tm = total % 12;
  const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate();
  return dateOf(Math.floor(Date.UTC(ty, tm, Math.min(d, last)) / DAY_MS));
}

/** The last day of the term that follows a term ending on `end`: it starts the next day and lasts `months` months. */
export const nextTermEnd = (end: string, months: number) => addDays(addMonths(addDays(end, 1), months), -1);

// ---------------------------------------------------------------- contract state

interface ContractFacts {
  id: string;
  startDate: string;
  endDate: string;
  autoRenew: boolean;
  renewalTermMonths: number;
  noticePeriodDays: number;
  renewals: unknown;
  terminatedAt: Date | string | null;
}

export interface DerivedState {
  state: ContractState;
  termStartDate: string;
  contractEndDate: string;
  noticeDeadline: string;
  automaticRenewals: number;
  manualRenewals: number;
  daysToEnd: number;
}

const renewalsOf = (c: { renewals: unknown }) => (Array.isArray(c.renewals) ? (c.renewals as Renewal[]) : []);

/**
 * The state of a contract on the day `at` (`YYYY-MM-DD`). The contract's end as known that day is
 * that of the latest manual renewal made on or before it (else the agreed end); an auto-renewing
 * contract then rolls its term over until the day falls in it. The day is in a renewal term when a
 * roll-over happened or it lies after the end a counted manual renewal extended. Terminated from
 * the day it was terminated.
 */
export function contractStateAt(c: ContractFacts, at: string): DerivedState {
  const atDay = dayOf(at);
  const manual = renewalsOf(c).filter((r) => dayOf(r.renewedAt.slice(0, 10)) <= atDay);
  let end = manual.at(-1)?.newEndDate ?? c.endDate;
  let termStart = c.startDate;
  for (const r of manual) if (atDay > dayOf(r.previousEndDate)) termStart = addDays(r.previousEndDate, 1);
  const inManualRenewal = termStart !== c.startDate;
  let automatic = 0;
  if (c.autoRenew) {
    while (atDay > dayOf(end)) {
      termStart = addDays(end, 1);
      end = nextTermEnd(end, c.renewalTermMonths);
      automatic++;
    }
  }
  const endDay = dayOf(end);
  const terminatedDay = c.terminatedAt ? dayOf(iso(c.terminatedAt).slice(0, 10)) : null;
  let state: ContractState;
  if (terminatedDay !== null && atDay >= terminatedDay) state = 'terminated';
  else if (atDay < dayOf(c.startDate)) state = 'pending';
  else if (atDay > endDay) state = 'expired';
  else if (atDay >= endDay - c.noticePeriodDays) state = 'expiring';
  else if (inManualRenewal || automatic > 0) state = 'renewed';
  else state = 'active';
  return {
    state,
    termStartDate: termStart,
    contractEndDate: end,
    noticeDeadline: addDays(end, -c.noticePeriodDays),
    automaticRenewals: automatic,
    manualRenewals: manual.length,
    daysToEnd: endDay - atDay,
  };
}

const today = () => new Date().toISOString().slice(0, 10);

// ---------------------------------------------------------------- rendering

export const renderVendor = rendererOf<VendorRow>()(Vendor, {
  services: (r) => r.services ?? [],
  dataAccess: (r) => (r.dataAccess ?? []) as VendorOut['dataAccess'],
  riskRating: (r) => vendorRiskRatingOf(r.riskScore),
  origin: (r) => (r.origin ?? null) as z.infer<typeof VendorOrigin> | null,
});

export function renderContract(r: ContractRow, at = today()): ContractOut {
  const derived = contractStateAt(r, at);
  return {
    object: 'svc.vendor_risk.vendor_contract',
    id: r.id,
    vendorId: r.vendorId,
    title: r.title,
    startDate: r.startDate,
    endDate: r.endDate,
    currentEndDate: derived.contractEndDate,
    autoRenew: r.autoRenew,
    renewalTermMonths: r.renewalTermMonths,
    noticePeriodDays: r.noticePeriodDays,
    noticeDeadline: derived.noticeDeadline,
    value: r.value,
    currency: r.currency,
    status: r.status as ContractOut['status'],
    state: derived.state,
    renewals: renewalsOf(r).map((x) => ({ ...x })),
    terminatedAt: isoOrNull(r.terminatedAt),
    ...stampsOf(r),
  };
}

// ---------------------------------------------------------------- scorecard

interface ScoreInputs {
  vendor: VendorRow;
  assessments: readonly AssessmentRow[];
  contracts: readonly ContractRow[];
  events: readonly EventRow[];
}

/** The scorecard of a vendor at `at`, every part shown; the rows are the vendor's. */
export function computeScorecard({ vendor, assessments, contracts, events }: ScoreInputs, at: Date): ScorecardOut {
  const atMs = at.getTime();
  const completed = assessments
    .filter((a) => a.status === 'completed' && a.completedAt && new Date(a.completedAt).getTime() <= atMs)
    .sort((a, b) => new Date(b.completedAt as Date).getTime() - new Date(a.completedAt as Date).getTime() || (a.id < b.id ? 1 : -1));
  const domains = VENDOR_DOMAINS.map((domain) => {
    const latest = completed.find((a) => typeof (a.domainScores as DomainScores | null)?.[domain] === 'number');
    const score = latest ? ((latest.domainScores as DomainScores)[domain] as number) : null;
    return {
      domain,
      score,
      assessmentId: latest?.id ?? null,
      completedAt: isoOrNull(latest?.completedAt),
    };
  });
  const mean = domains.reduce((s, d) => s + (d.score ?? 0), 0) / domains.length;
  const assessmentPart = round2(100 - mean);

  const day = at.toISOString().slice(0, 10);
  const contractItems = contracts.map((c) => {
    const state = contractStateAt(c, day).state;
    return {
      contractId: c.id,
      title: c.title,
      state,
      penalty: state === 'expired' ? EXPIRED_PENALTY : state === 'expiring' ? EXPIRING_PENALTY : 0,
    };
  });
  const contractPart = Math.min(
    CONTRACT_PART_MAX,
    contractItems.reduce((s, c) => s + c.penalty, 0),
  );

  const monitoringItems = events
    .filter((e) => new Date(e.occurredAt).getTime() <= atMs)
    .sort((a, b) => new Date(b.occurredAt).getTime() - new Date(a.occurredAt).getTime() || (a.id < b.id ? 1 : -1))
    .map((e) => {
      const ageDays = (atMs - new Date(e.occurredAt).getTime()) / DAY_MS;
      const weight = VENDOR_SEVERITY_WEIGHTS[e.severity as keyof typeof VENDOR_SEVERITY_WEIGHTS] ?? 0;
      const decay = 0.5 ** (ageDays / HALF_LIFE_DAYS);
      return {
        eventId: e.id,
        type: e.type,
        severity: e.severity,
        occurredAt: iso(e.occurredAt),
        ageDays: round2(ageDays),
        weight,
        decay: round(decay, 4),
        penalty: round2(weight * decay),
      };
    });
  const monitoringPart = Math.min(100, round2(monitoringItems.reduce((s, e) => s + e.penalty, 0)));
  const score = Math.min(100, round2(assessmentPart + contractPart + monitoringPart));
  return {
    object: 'svc.vendor_risk.scorecard',
    vendorId: vendor.id,
    name: vendor.name,
    criticality: vendor.criticality as ScorecardOut['criticality'],
    status: vendor.status as ScorecardOut['status'],
    at: at.toISOString(),
    score,
    rating: vendorRiskRatingOf(score),
    assessment: { part: assessmentPart, meanDomainScore: round2(mean), domains },
    contracts: { part: contractPart, items: contractItems },
    monitoring: { part: monitoringPart, items: monitoringItems },
  };
}

async function inputsOf(db: Tx, tenantId: string, vendor: VendorRow): Promise<ScoreInputs> {
  const scoped = scopeToTenant(db, tenantId);
  const [assessments, contracts, events] = await Promise.all([
    scoped.vendorRiskAssessment.findMany({ where: { vendorId: vendor.id, status: 'completed' } }),
    scoped.vendorRiskContract.findMany({ where: { vendorId: vendor.id }, orderBy: { id: 'asc' } }),
    scoped.vendorRiskMonitoringEvent.findMany({ where: { vendorId: vendor.id } }),
  ]);
  return { vendor, assessments, contracts, events };
}

async function findVendor(db: Tx, tenantId: string, id: string): Promise<VendorRow> {
  const row = await scopeToTenant(db, tenantId).vendorRiskVendor.findFirst({ where: { id } });
  if (!row) throw notFound('Vendor', id);
  return row;
}

/** The vendor of a new assessment, contract or event: the tenant's (404), active (409). */
async function activeVendor(db: Tx, tenantId: string, id: string, what: string): Promise<VendorRow> {
  const vendor = await findVendor(db, tenantId, id);
  if (vendor.status !== 'active') {
    throw new ApiError('conflict', `Vendor ${id} is ${vendor.status}; ${what} needs an active vendor.`, [
      { field: 'vendorId', issue: 'invalid_value', message: `current state: ${vendor.status}` },
    ]);
  }
  return vendor;
}

/**
 * Recomputes the vendor's risk score at now and stores it; when it moved, records
 * `vendor.risk_changed` (from, to) caused by `cause` on `causeId`. In the caller's transaction.
 */
export async function recomputeVendorRisk(tx: Tx, who: Actor, vendorId: string, cause: string, causeId: string): Promise<void> {
  const vendor = await findVendor(tx, who.tenantId, vendorId);
  const now = new Date();
  const card = computeScorecard(await inputsOf(tx, who.tenantId, vendor), now);
  await scopeToTenant(tx, who.tenantId).vendorRiskVendor.updateMany({
    where: { id: vendorId },
    data: { riskScore: card.score, riskScoredAt: now, updatedAt: now },
  });
  if (card.score === vendor.riskScore) return;
  const change: z.infer<typeof VendorRiskChange> = {
    object: 'svc.vendor_risk.risk_change',
    vendorId,
    name: vendor.name,
    from: vendor.riskScore,
    to: card.score,
    fromRating: vendorRiskRatingOf(vendor.riskScore),
    toRating: card.rating,
    cause,
    causeId,
    at: now.toISOString(),
  };
  const data = { from: change.from, to: change.to, cause, causeId };
  await recorded(tx, who, change, { action: 'vendor.risk_changed', resourceType: 'svc.vendor_risk.vendor', resourceId: vendorId, data });
}

// ---------------------------------------------------------------- vendors

type CreateVendor = z.infer<typeof CreateVendorBody>;
const nameKeyOf = (name: string) => name.trim().toLowerCase();

const nameTaken = (name: string, id: string) =>
  new ApiError('conflict', `A vendor named ${name} exists: ${id}.`, [{ field: 'name', issue: 'invalid_value', message: 'taken' }]);

/** The row of a new vendor after its checks (name free in the tenant), scored with no assessment yet. */
async function vendorData(db: Tx, who: Actor, body: CreateVendor, now: Date) {
  const nameKey = nameKeyOf(body.name);
  const taken = await scopeToTenant(db, who.tenantId).vendorRiskVendor.findFirst({ where: { nameKey }, select: { id: true } });
  if (taken) throw nameTaken(body.name, taken.id);
  const draft = {
    name: body.name.trim(),
    nameKey,
    criticality: body.criticality,
    services: [...new Set(body.services ?? [])],
    dataAccess: [...new Set(body.dataAccess ?? [])],
    status: 'active',
    origin: null as unknown,
    offboardedAt: null,
    createdBy: who.actor,
  };
  const card = computeScorecard(
    {
      vendor: { ...draft, id: '', tenantId: who.tenantId, riskScore: 0, riskScoredAt: now, createdAt: now, updatedAt: now } as VendorRow,
      assessments: [],
      contracts: [],
      events: [],
    },
    now,
  );
  return { ...draft, riskScore: card.score, riskScoredAt: now };
}

const vendorAuditData = (v: VendorOut) => ({ name: v.name, criticality: v.criticality, riskScore: v.riskScore, origin: v.origin });

/** Contracts of the vendor still running today: offboarding waits for them. */
async function runningContracts(tx: Tx, tenantId: string, vendorId: string) {
  const day = today();
  return (
    await scopeToTenant(tx, tenantId).vendorRiskContract.findMany({ where: { vendorId, status: 'in_force' }, orderBy: { id: 'asc' } })
  )
    .map((c) => ({ id: c.id, state: contractStateAt(c, day).state }))
    .filter((c) => c.state !== 'expired' && c.state !== 'terminated');
}

export const vendorStore: Store<typeof vendorRiskVendors> = {
  model: 'vendorRiskVendor',
  render: renderVendor,
  create: async ({ db, who, body }) => vendorData(db, who, body, new Date()),
  auditData: vendorAuditData,
  transitions: {
    // `active` -> `offboarded`; refused (409) while a contract of the vendor is neither terminated nor expired today.
    offboard: {
      set: (_row, now) => ({ offboardedAt: now }),
      guard: async ({ tx, who, row }) => {
        const { id } = row as VendorRow;
        const live = await runningContracts(tx, who.tenantId, id);
        if (live.length > 0) {
          throw new ApiError(
            'conflict',
            `Vendor ${id} is active with ${live.length} contract(s) still running (${live.map((c) => `${c.id}: ${c.state}`).join(', ')}); terminate them before offboarding.`,
            live.map((c) => ({ field: 'contracts', issue: 'invalid_value', message: `${c.id} is ${c.state}` })),
          );
        }
      },
    },
  },
};

/**
 * Adds a vendor in the caller's transaction, audited as `vendor.added` (emitted): the vendor
 * route and procurement's onboarding both come here.
 */
export async function addVendor(
  tx: Tx,
  who: Actor,
  body: CreateVendor,
  origin: z.infer<typeof VendorOrigin> | null = null,
  id = newId('vnd'),
): Promise<VendorOut> {
  const now = new Date();
  const data = await vendorData(tx, who, body, now);
  const row = await createUnique(
    tx.vendorRiskVendor.create({
      data: { ...data, origin: origin ?? undefined, id, tenantId: who.tenantId, createdAt: now, updatedAt: now } as never,
    }),
    () => nameTaken(body.name, 'another vendor'),
  );
  const out = renderVendor(row);
  return recorded(tx, who, out, {
    action: 'vendor.added',
    resourceType: 'svc.vendor_risk.vendor',
    resourceId: id,
    data: vendorAuditData(out),
  });
}

// ---------------------------------------------------------------- assessments

const ANSWER_SCORES = { yes: 100, partial: 50, no: 0 } as const;

/** The domain scores of an assessment: given directly, or the mean of a domain's answers (not applicable left out). */
function domainScoresOf(body: z.infer<typeof CreateVendorAssessmentBody>): DomainScores {
  const scores: DomainScores = { ...(body.domainScores ?? {}) };
  const answers = body.answers ?? [];
  for (const domain of VENDOR_DOMAINS) {
    const mine = answers.filter((a) => a.domain === domain);
    if (mine.length === 0) continue;
    if (scores[domain] !== undefined) {
      throw new ApiError('validation_failed', `The ${domain} domain is both scored and answered; give one or the other.`, [
        { field: 'answers', issue: 'invalid_value', message: `${domain} is in domainScores too` },
      ]);
    }
    const counted = mine.filter((a) => a.answer !== 'not_applicable');
    if (counted.length === 0) continue;
    const total = counted.reduce((s, a) => s + ANSWER_SCORES[a.answer as keyof typeof ANSWER_SCORES], 0);
    scores[domain] = round2(total / counted.length);
  }
  if (Object.keys(scores).length === 0) {
    throw new ApiError('validation_failed', 'The assessment scores no domain: give domainScores or answers that apply.', [
      { field: 'domainScores', issue: 'missing', message: 'no domain scored' },
    ]);
  }
  // Keep the domains in their fixed order.
  return Object.fromEntries(VENDOR_DOMAINS.filter((d) => scores[d] !== undefined).map((d) => [d, scores[d]]));
}

async function assessmentData(db: Tx, who: Actor, body: z.infer<typeof CreateVendorAssessmentBody>) {
  const domainScores = domainScoresOf(body);
  await activeVendor(db, who.tenantId, body.vendorId, 'an assessment');
  return {
    vendorId: body.vendorId,
    title: body.title,
    answers: body.answers ?? [],
    domainScores,
    status: 'in_progress',
    completedAt: null,
    createdBy: who.actor,
  };
}

/** The vendor's score moves with its completed assessments, contracts and monitoring events. */
const rescore =
  (action: string) =>
  async ({ tx, who, record }: { tx: Tx; who: Actor; record: { id: string; vendorId: string } }) =>
    recomputeVendorRisk(tx, who, record.vendorId, action, record.id);

export const assessmentStore: Store<typeof vendorRiskAssessments> = {
  model: 'vendorRiskAssessment',
  create: async ({ db, who, body }) => assessmentData(db, who, body),
  auditData: (a) => ({ vendorId: a.vendorId, domainScores: a.domainScores }),
  transitions: {
    // `in_progress` -> `completed`, and the vendor's risk score recomputed (`vendor.risk_changed` when it moved).
    complete: {
      set: (_row, now) => ({ completedAt: now }),
      auditData: (a) => ({ vendorId: a.vendorId, domainScores: a.domainScores }),
      after: rescore('vendor.assessed'),
    },
  },
};

// ---------------------------------------------------------------- contracts

async function contractData(db: Tx, who: Actor, body: z.infer<typeof CreateVendorContractBody>) {
  if (dayOf(body.endDate) < dayOf(body.startDate)) {
    throw new ApiError('validation_failed', `endDate ${body.endDate} is before startDate ${body.startDate}.`, [
      { field: 'endDate', issue: 'invalid_value', message: 'before startDate' },
    ]);
  }
  await activeVendor(db, who.tenantId, body.vendorId, 'a contract');
  return {
    vendorId: body.vendorId,
    title: body.title,
    startDate: body.startDate,
    endDate: body.endDate,
    autoRenew: body.autoRenew ?? false,
    renewalTermMonths: body.renewalTermMonths ?? 12,
    noticePeriodDays: body.noticePeriodDays ?? 30,
    value: body.value,
    currency: body.currency,
    status: 'in_force',
    renewals: [],
    terminatedAt: null,
    createdBy: who.actor,
  };
}

export const contractStore: Store<typeof vendorRiskContracts> = {
  model: 'vendorRiskContract',
  render: (r: ContractRow) => renderContract(r),
  create: async ({ db, who, body }) => contractData(db, who, body),
  auditData: (c) => ({ vendorId: c.vendorId, startDate: c.startDate, endDate: c.endDate, autoRenew: c.autoRenew, state: c.state }),
  afterCreate: rescore('vendor.contract_added'),
  transitions: {
    // A renewal extends the running term by the renewal term; the contract stays in force.
    renew: {
      set: (row, now) => {
        const current = row as ContractRow;
        const running = contractStateAt(current, now.toISOString().slice(0, 10));
        const renewal: Renewal = {
          renewedAt: now.toISOString(),
          previousEndDate: running.contractEndDate,
          newEndDate: nextTermEnd(running.contractEndDate, current.renewalTermMonths),
        };
        return { renewals: [...renewalsOf(current), renewal] };
      },
      auditData: (c) => {
        const last = c.renewals[c.renewals.length - 1];
        return last ? { previousEndDate: last.previousEndDate, newEndDate: last.newEndDate } : {};
      },
      after: rescore('vendor.contract_renewed'),
    },
    terminate: { set: (_row, now) => ({ terminatedAt: now }), after: rescore('vendor.contract_terminated') },
  },
};

export async function contractState(
  prisma: Prisma,
  tenantId: string,
  id: string,
  at?: string,
): Promise<z.infer<typeof VendorContractStateAt>> {
  const row = await scopeToTenant(prisma, tenantId).vendorRiskContract.findFirst({ where: { id } });
  if (!row) throw notFound('Contract', id);
  const day = at ?? today();
  return { object: 'svc.vendor_risk.contract_state', contractId: id, at: day, ...contractStateAt(row, day) };
}

// ---------------------------------------------------------------- monitoring

async function eventData(db: Tx, who: Actor, body: z.infer<typeof CreateVendorMonitoringEventBody>) {
  const occurredAt = pastMoment('occurredAt', body.occurredAt);
  await activeVendor(db, who.tenantId, body.vendorId, 'a monitoring event');
  return {
    vendorId: body.vendorId,
    type: body.type,
    severity: body.severity,
    title: body.title,
    details: body.details ?? null,
    sourceUrl: body.sourceUrl ?? null,
    occurredAt,
    createdBy: who.actor,
  };
}

export const monitoringStore: Store<typeof vendorRiskMonitoring> = {
  model: 'vendorRiskMonitoringEvent',
  create: async ({ db, who, body }) => eventData(db, who, body),
  auditData: (e) => ({ vendorId: e.vendorId, type: e.type, severity: e.severity, occurredAt: e.occurredAt }),
  afterCreate: rescore('vendor.monitoring_recorded'),
};

// ---------------------------------------------------------------- scorecards

export async function scorecard(prisma: Prisma, tenantId: string, vendorId: string, at?: string): Promise<ScorecardOut> {
  const vendor = await findVendor(prisma, tenantId, vendorId);
  return computeScorecard(await inputsOf(prisma, tenantId, vendor), at ? new Date(at) : new Date());
}

/** Every vendor's scorecard at `at`, sorted by score; the cursor is the offset of the next page. */
export async function listScorecards(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; at?: string; sort: 'score_desc' | 'score_asc'; status?: string },
): Promise<{ data: ScorecardOut[]; cursor: string | null }> {
  const offset = decodeCursor(query.cursor, 'number') ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new ApiError('bad_request', 'The cursor is not valid for this list.', [{ field: 'cursor', issue: 'invalid_format' }]);
  }
  const db = scopeToTenant(prisma, tenantId);
  const at = query.at ? new Date(query.at) : new Date();
  const [vendors, assessments, contracts, events] = await Promise.all([
    db.vendorRiskVendor.findMany({ where: query.status ? { status: query.status } : {}, orderBy: { id: 'desc' } }),
    db.vendorRiskAssessment.findMany({ where: { status: 'completed' } }),
    db.vendorRiskContract.findMany({ orderBy: { id: 'asc' } }),
    db.vendorRiskMonitoringEvent.findMany({}),
  ]);
  const by = <T extends { vendorId: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(r.vendorId, [...(m.get(r.vendorId) ?? []), r]);
    return m;
  };
  const [a, c, e] = [by(assessments), by(contracts), by(events)];
  const cards = vendors.map((v) =>
    computeScorecard({ vendor: v, assessments: a.get(v.id) ?? [], contracts: c.get(v.id) ?? [], events: e.get(v.id) ?? [] }, at),
  );
  const sign = query.sort === 'score_asc' ? 1 : -1;
  // Stable: vendors are newest first, so equal scores keep that order.
  cards.sort((x, y) => sign * (x.score - y.score));
  const page = cards.slice(offset, offset + query.limit);
  const next = offset + query.limit;
  return { data: page, cursor: next < cards.length ? encodeCursor(next) : null };
}
