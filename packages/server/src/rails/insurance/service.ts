import type {
  AcceptInsuranceOfferBody,
  INSURANCE_PERILS,
  InsuranceClaim,
  InsuranceCoverage,
  InsurancePolicy,
  InsurancePolicyStanding,
  InsuranceQuote,
  InsuranceQuoteComparison,
  insuranceClaims,
  insurancePolicies,
  insuranceQuotes,
  RecordInsuranceOfferBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { moveRecord } from '../litigation-hold/service.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null | undefined) => (d ? iso(d) : null);
const num = (v: bigint | number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
const CLOCK_SKEW_MS = 5_000;

type Peril = (typeof INSURANCE_PERILS)[number];
type PolicyOut = z.infer<typeof InsurancePolicy>;
type ClaimOut = z.infer<typeof InsuranceClaim>;
type QuoteOut = z.infer<typeof InsuranceQuote>;
type State = PolicyOut['state'];

/**
 * Which perils cover a risk of each risk-register domain: a risk is covered by a policy in force
 * whose perils include one of its domain's. Fixed here (and returned by the coverage view).
 */
export const DOMAIN_PERILS: Readonly<Record<string, readonly Peril[]>> = {
  ai: ['ai_liability', 'technology_errors'],
  privacy: ['privacy_liability', 'data_breach', 'regulatory_fines'],
  security: ['data_breach', 'ransomware'],
  'third-party': ['vendor_failure'],
  operational: ['business_interruption'],
  regulatory: ['regulatory_fines', 'management_liability'],
  financial: ['crime_fraud', 'management_liability'],
};

// ---------------------------------------------------------------- policies

interface PolicyRow {
  id: string;
  insurer: string;
  line: string;
  policyNumber: string | null;
  currency: string;
  limit: bigint | number;
  retention: bigint | number;
  premium: bigint | number | null;
  periodStart: Date;
  periodEnd: Date;
  perils: string[];
  exclusions: string[];
  status: string;
  cancelledAt: Date | null;
  quoteId: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A policy's standing at `at`: the period is [start, end), a cancellation ends it from `cancelledAt`. */
export function standingAt(p: Pick<PolicyRow, 'periodStart' | 'periodEnd' | 'cancelledAt'>, at: Date): State {
  const t = at.getTime();
  if (p.cancelledAt && t >= new Date(p.cancelledAt).getTime()) return 'cancelled';
  if (t < new Date(p.periodStart).getTime()) return 'scheduled';
  if (t >= new Date(p.periodEnd).getTime()) return 'expired';
  return 'in_force';
}

export const renderPolicy = (r: PolicyRow, now = new Date()): PolicyOut => ({
  object: 'svc.insurance.policy',
  id: r.id,
  insurer: r.insurer,
  line: r.line as PolicyOut['line'],
  policyNumber: r.policyNumber,
  currency: r.currency,
  limit: Number(r.limit),
  retention: Number(r.retention),
  premium: num(r.premium),
  periodStart: iso(r.periodStart),
  periodEnd: iso(r.periodEnd),
  perils: r.perils as PolicyOut['perils'],
  exclusions: r.exclusions,
  status: r.status as PolicyOut['status'],
  state: standingAt(r, now),
  cancelledAt: isoOrNull(r.cancelledAt),
  quoteId: r.quoteId,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

function checkPeriod(start: string, end: string): void {
  if (new Date(end) <= new Date(start)) {
    throw new ApiError('validation_failed', 'periodEnd is not after periodStart.', [
      { field: 'periodEnd', issue: 'invalid_value', message: 'not after periodStart' },
    ]);
  }
}

function checkUnique(field: string, values: readonly string[]): void {
  const i = values.findIndex((v, k) => values.indexOf(v) !== k);
  if (i >= 0) {
    throw new ApiError('validation_failed', `${values[i]} is named twice.`, [
      { field: `${field}[${i}]`, issue: 'invalid_value', message: 'duplicate' },
    ]);
  }
}

export const policyStore: Store<typeof insurancePolicies> = {
  model: 'insurancePolicy',
  render: (r: PolicyRow) => renderPolicy(r),
  create: async ({ who, body }) => {
    checkPeriod(body.periodStart, body.periodEnd);
    checkUnique('perils', body.perils);
    return {
      insurer: body.insurer,
      line: body.line,
      policyNumber: body.policyNumber ?? null,
      currency: body.currency,
      limit: BigInt(body.limit),
      retention: BigInt(body.retention),
      premium: body.premium === undefined ? null : BigInt(body.premium),
      periodStart: new Date(body.periodStart),
      periodEnd: new Date(body.periodEnd),
      perils: body.perils,
      exclusions: body.exclusions ?? [],
      status: 'active',
      cancelledAt: null,
      quoteId: null,
      createdBy: who.actor,
    };
  },
  auditData: (p) => ({ insurer: p.insurer, line: p.line, limit: p.limit, retention: p.retention, perils: p.perils }),
  transitions: { cancel: () => ({ cancelledAt: new Date() }) },
};

export async function standing(
  prisma: Prisma,
  tenantId: string,
  id: string,
  at: string | undefined,
): Promise<z.infer<typeof InsurancePolicyStanding>> {
  const db = scopeToTenant(prisma, tenantId);
  const row = (await db.insurancePolicy.findFirst({ where: { id } })) as PolicyRow | null;
  if (!row) throw new ApiError('not_found', `Policy ${id} was not found.`);
  const when = at ? new Date(at) : new Date();
  const state = standingAt(row, when);
  return { object: 'svc.insurance.policy_standing', policyId: id, at: when.toISOString(), state, inForce: state === 'in_force' };
}

// ---------------------------------------------------------------- claims

interface ClaimRow {
  id: string;
  policyId: string;
  riskId: string | null;
  title: string;
  description: string | null;
  lossDate: Date;
  currency: string;
  amountClaimed: bigint | number;
  policyLimit: bigint | number;
  policyRetention: bigint | number;
  approvedAmount: bigint | number | null;
  paidAmount: bigint | number | null;
  status: string;
  submittedAt: Date | null;
  decidedAt: Date | null;
  paidAt: Date | null;
  closedAt: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What the policy pays for one loss: the amount above the retention, up to the limit. */
export const payableOf = (claimed: number, retention: number, limit: number) => Math.min(Math.max(claimed - retention, 0), limit);

export const renderClaim = (r: ClaimRow): ClaimOut => ({
  object: 'svc.insurance.claim',
  id: r.id,
  policyId: r.policyId,
  riskId: r.riskId,
  title: r.title,
  description: r.description,
  lossDate: iso(r.lossDate),
  currency: r.currency,
  amountClaimed: Number(r.amountClaimed),
  policyLimit: Number(r.policyLimit),
  policyRetention: Number(r.policyRetention),
  payable: payableOf(Number(r.amountClaimed), Number(r.policyRetention), Number(r.policyLimit)),
  approvedAmount: num(r.approvedAmount),
  paidAmount: num(r.paidAmount),
  status: r.status as ClaimOut['status'],
  submittedAt: isoOrNull(r.submittedAt),
  decidedAt: isoOrNull(r.decidedAt),
  paidAt: isoOrNull(r.paidAt),
  closedAt: isoOrNull(r.closedAt),
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

/** Claims that use up a policy's aggregate limit: approved, paid, and closed after approval. */
const CONSUMING = ['approved', 'paid', 'closed'];

async function limitUsed(db: Tx, policyId: string, except?: string): Promise<number> {
  const rows = await db.insuranceClaim.findMany({
    where: { policyId, status: { in: CONSUMING }, approvedAmount: { not: null }, ...(except ? { id: { not: except } } : {}) },
    select: { approvedAmount: true },
  });
  return rows.reduce((s, r) => s + Number(r.approvedAmount ?? 0), 0);
}

export const claimStore: Store<typeof insuranceClaims> = {
  model: 'insuranceClaim',
  render: renderClaim,
  create: async ({ db, who, body }) => {
    const policy = (await db.insurancePolicy.findFirst({ where: { id: body.policyId } })) as PolicyRow | null;
    if (!policy) {
      throw new ApiError('validation_failed', `Policy ${body.policyId} does not exist in this tenant.`, [
        { field: 'policyId', issue: 'invalid_value', message: 'unknown policy' },
      ]);
    }
    const loss = new Date(body.lossDate);
    if (loss.getTime() > Date.now() + CLOCK_SKEW_MS) {
      throw new ApiError('validation_failed', 'lossDate is in the future.', [
        { field: 'lossDate', issue: 'invalid_value', message: 'in the future' },
      ]);
    }
    const state = standingAt(policy, loss);
    if (state !== 'in_force') {
      throw new ApiError('validation_failed', `Policy ${policy.id} was not in force at ${loss.toISOString()} (${state} then).`, [
        { field: 'lossDate', issue: 'invalid_value', message: `policy ${state} at the loss date` },
      ]);
    }
    if (body.riskId) {
      const risk = await db.riskRegisterRisk.findFirst({ where: { id: body.riskId }, select: { id: true } });
      if (!risk) {
        throw new ApiError('validation_failed', `Risk ${body.riskId} is not a risk of this tenant.`, [
          { field: 'riskId', issue: 'invalid_value', message: 'unknown risk' },
        ]);
      }
    }
    return {
      policyId: policy.id,
      riskId: body.riskId ?? null,
      title: body.title,
      description: body.description ?? null,
      lossDate: loss,
      currency: policy.currency,
      amountClaimed: BigInt(body.amountClaimed),
      policyLimit: BigInt(policy.limit),
      policyRetention: BigInt(policy.retention),
      approvedAmount: null,
      paidAmount: null,
      status: 'draft',
      createdBy: who.actor,
    };
  },
  auditData: (c) => ({ policyId: c.policyId, amountClaimed: c.amountClaimed, payable: c.payable }),
  transitions: {
    submit: () => ({ submittedAt: new Date() }),
    deny: () => ({ decidedAt: new Date() }),
    pay: (row: ClaimRow) => ({ paidAmount: row.approvedAmount, paidAt: new Date() }),
    close: () => ({ closedAt: new Date() }),
    reopen: () => ({ closedAt: null, decidedAt: null }),
  },
};

/** Approves a claim under review: the payable amount, capped by the aggregate limit left. */
export async function approveClaim(prisma: Prisma, who: Actor, id: string, reason: string | undefined): Promise<ClaimOut> {
  return moveRecord(prisma, who, {
    model: 'insuranceClaim',
    object: 'svc.insurance.claim',
    label: 'claim',
    id,
    verb: 'approve',
    from: ['under_review'],
    to: 'approved',
    action: 'insurance_claim.approved',
    reason,
    render: renderClaim,
    extra: async (row, tx) => {
      const c = row as unknown as ClaimRow;
      const used = await limitUsed(scopeToTenant(tx, who.tenantId), c.policyId, c.id);
      const limit = Number(c.policyLimit);
      const payable = payableOf(Number(c.amountClaimed), Number(c.policyRetention), limit);
      const approved = Math.max(Math.min(payable, limit - used), 0);
      return { approvedAmount: BigInt(approved), paidAmount: null, paidAt: null, decidedAt: new Date() };
    },
    auditData: (c) => ({ approvedAmount: c.approvedAmount, payable: c.payable }),
  });
}

// ---------------------------------------------------------------- coverage

export async function coverage(prisma: Prisma, tenantId: string, at: string | undefined): Promise<z.infer<typeof InsuranceCoverage>> {
  const db = scopeToTenant(prisma, tenantId);
  const when = at ? new Date(at) : new Date();
  const [policies, risks, claims] = await Promise.all([
    db.insurancePolicy.findMany({ orderBy: { id: 'asc' } }) as Promise<PolicyRow[]>,
    db.riskRegisterRisk.findMany({ where: { status: { not: 'closed' } }, orderBy: { id: 'asc' } }),
    db.insuranceClaim.findMany({
      where: { status: { in: CONSUMING }, approvedAmount: { not: null } },
      select: { policyId: true, approvedAmount: true },
    }),
  ]);
  const used = new Map<string, number>();
  for (const c of claims) used.set(c.policyId, (used.get(c.policyId) ?? 0) + Number(c.approvedAmount ?? 0));
  const inForce = policies.filter((p) => standingAt(p, when) === 'in_force');
  type Entry = z.infer<typeof InsuranceCoverage>['covered'][number];
  const covered: Entry[] = [];
  const uncovered: Entry[] = [];
  for (const r of risks) {
    const perils = [...(DOMAIN_PERILS[r.domain] ?? [])];
    const policiesFor = inForce
      .map((p) => ({ p, matched: perils.filter((x) => p.perils.includes(x)) }))
      .filter((m) => m.matched.length > 0)
      .map(({ p, matched }) => ({
        policyId: p.id,
        insurer: p.insurer,
        line: p.line as PolicyOut['line'],
        currency: p.currency,
        limit: Number(p.limit),
        retention: Number(p.retention),
        limitAvailable: Math.max(Number(p.limit) - (used.get(p.id) ?? 0), 0),
        matchedPerils: matched,
      }));
    const available: Record<string, number> = {};
    for (const p of policiesFor) available[p.currency] = (available[p.currency] ?? 0) + p.limitAvailable;
    const entry: Entry = {
      riskId: r.id,
      title: r.title,
      domain: r.domain,
      status: r.status,
      residualScore: r.residualLikelihood * r.residualImpact,
      perils,
      policies: policiesFor,
      limitAvailable: available,
    };
    (policiesFor.length > 0 ? covered : uncovered).push(entry);
  }
  const byScore = (a: Entry, b: Entry) => b.residualScore - a.residualScore || a.riskId.localeCompare(b.riskId);
  return {
    object: 'svc.insurance.coverage',
    at: when.toISOString(),
    policiesInForce: inForce.length,
    covered: covered.sort(byScore),
    uncovered: uncovered.sort(byScore),
    mapping: Object.fromEntries(Object.entries(DOMAIN_PERILS).map(([k, v]) => [k, [...v]])),
  };
}

// ---------------------------------------------------------------- quotes

interface OfferRecord {
  insurer: string;
  premium: number;
  limit: number;
  retention: number;
  receivedAt: string;
  recordedBy: string;
}

interface QuoteRow {
  id: string;
  line: string;
  currency: string;
  requestedLimit: bigint | number;
  perils: string[];
  periodStart: Date;
  periodEnd: Date;
  notes: string | null;
  status: string;
  offers: unknown;
  acceptedInsurer: string | null;
  policyId: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

const perUnit = (premium: number, limit: number) => Math.round((premium / limit) * 1e6) / 1e6;
const offersOf = (r: QuoteRow) => (Array.isArray(r.offers) ? (r.offers as OfferRecord[]) : []);

export const renderQuote = (r: QuoteRow): QuoteOut => ({
  object: 'svc.insurance.quote',
  id: r.id,
  line: r.line as QuoteOut['line'],
  currency: r.currency,
  requestedLimit: Number(r.requestedLimit),
  perils: r.perils as QuoteOut['perils'],
  periodStart: iso(r.periodStart),
  periodEnd: iso(r.periodEnd),
  notes: r.notes,
  status: r.status as QuoteOut['status'],
  offers: offersOf(r).map((o) => ({ ...o, premiumPerUnitOfLimit: perUnit(o.premium, o.limit) })),
  acceptedInsurer: r.acceptedInsurer,
  policyId: r.policyId,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const quoteStore: Store<typeof insuranceQuotes> = {
  model: 'insuranceQuote',
  render: renderQuote,
  create: async ({ who, body }) => {
    checkPeriod(body.periodStart, body.periodEnd);
    checkUnique('perils', body.perils);
    return {
      line: body.line,
      currency: body.currency,
      requestedLimit: BigInt(body.requestedLimit),
      perils: body.perils,
      periodStart: new Date(body.periodStart),
      periodEnd: new Date(body.periodEnd),
      notes: body.notes ?? null,
      status: 'open',
      offers: [],
      acceptedInsurer: null,
      policyId: null,
      createdBy: who.actor,
    };
  },
  auditData: (q) => ({ line: q.line, requestedLimit: q.requestedLimit, perils: q.perils }),
};

async function openQuote(db: Tx, id: string): Promise<QuoteRow> {
  const row = (await db.insuranceQuote.findFirst({ where: { id } })) as QuoteRow | null;
  if (!row) throw new ApiError('not_found', `Quote request ${id} was not found.`);
  if (row.status !== 'open') {
    throw new ApiError('conflict', `Quote request ${id} is ${row.status}; it takes no more offers or acceptance.`, [
      { field: 'status', issue: 'invalid_value', message: `current state: ${row.status}` },
    ]);
  }
  return row;
}

/** Writes the quote only if it was not changed since it was read, else 409 to retry. */
async function saveQuote(db: Tx, row: QuoteRow, data: Record<string, unknown>): Promise<QuoteRow> {
  const updatedAt = new Date(Math.max(Date.now(), new Date(row.updatedAt).getTime() + 1));
  const { count } = await db.insuranceQuote.updateMany({
    where: { id: row.id, updatedAt: row.updatedAt, status: 'open' },
    data: { ...data, updatedAt },
  });
  if (count === 0) throw new ApiError('conflict', `Quote request ${row.id} changed meanwhile; read it again and retry.`);
  return (await db.insuranceQuote.findFirst({ where: { id: row.id } })) as QuoteRow;
}

export async function recordOffer(
  prisma: Prisma,
  who: Actor,
  id: string,
  body: z.infer<typeof RecordInsuranceOfferBody>,
): Promise<QuoteOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await openQuote(db, id);
    const offers = offersOf(row);
    if (offers.some((o) => o.insurer.toLowerCase() === body.insurer.toLowerCase())) {
      throw new ApiError('conflict', `${body.insurer} has already made an offer on quote request ${id}.`, [
        { field: 'insurer', issue: 'invalid_value', message: 'already offered' },
      ]);
    }
    const offer: OfferRecord = {
      insurer: body.insurer,
      premium: body.premium,
      limit: body.limit,
      retention: body.retention,
      receivedAt: new Date().toISOString(),
      recordedBy: who.actor,
    };
    const out = renderQuote(await saveQuote(db, row, { offers: [...offers, offer] as unknown as object }));
    await recordChange(tx, {
      ...who,
      action: 'insurance_quote.offer_recorded',
      resourceType: 'svc.insurance.quote',
      resourceId: id,
      data: { insurer: offer.insurer, premium: offer.premium, limit: offer.limit, retention: offer.retention },
      resource: out,
    });
    return out;
  });
}

export function rankOffers(requestedLimit: number, offers: readonly OfferRecord[]): z.infer<typeof InsuranceQuoteComparison>['ranked'] {
  return [...offers]
    .map((o) => ({ ...o, premiumPerUnitOfLimit: perUnit(o.premium, o.limit), exact: o.premium / o.limit }))
    .sort((a, b) => a.exact - b.exact || a.retention - b.retention || a.insurer.localeCompare(b.insurer))
    .map((o, i) => ({
      rank: i + 1,
      insurer: o.insurer,
      premium: o.premium,
      limit: o.limit,
      retention: o.retention,
      premiumPerUnitOfLimit: o.premiumPerUnitOfLimit,
      meetsRequestedLimit: o.limit >= requestedLimit,
    }));
}

export async function compare(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof InsuranceQuoteComparison>> {
  const db = scopeToTenant(prisma, tenantId);
  const row = (await db.insuranceQuote.findFirst({ where: { id } })) as QuoteRow | null;
  if (!row) throw new ApiError('not_found', `Quote request ${id} was not found.`);
  const requestedLimit = Number(row.requestedLimit);
  return { object: 'svc.insurance.quote_comparison', quoteId: id, requestedLimit, ranked: rankOffers(requestedLimit, offersOf(row)) };
}

/** Accepts an offer: creates the policy from the request and the offer, marks the request accepted. */
export async function acceptOffer(
  prisma: Prisma,
  who: Actor,
  id: string,
  body: z.infer<typeof AcceptInsuranceOfferBody>,
): Promise<PolicyOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await openQuote(db, id);
    const offer = offersOf(row).find((o) => o.insurer.toLowerCase() === body.insurer.toLowerCase());
    if (!offer) {
      throw new ApiError('validation_failed', `${body.insurer} made no offer on quote request ${id}.`, [
        {
          field: 'insurer',
          issue: 'invalid_value',
          message: `one of: ${
            offersOf(row)
              .map((o) => o.insurer)
              .join(', ') || 'no offers yet'
          }`,
        },
      ]);
    }
    const now = new Date();
    const policyId = newId('inp');
    const policyRow = (await db.insurancePolicy.create({
      data: {
        id: policyId,
        tenantId: who.tenantId,
        insurer: offer.insurer,
        line: row.line,
        policyNumber: body.policyNumber ?? null,
        currency: row.currency,
        limit: BigInt(offer.limit),
        retention: BigInt(offer.retention),
        premium: BigInt(offer.premium),
        periodStart: row.periodStart,
        periodEnd: row.periodEnd,
        perils: row.perils,
        exclusions: [],
        status: 'active',
        cancelledAt: null,
        quoteId: row.id,
        createdBy: who.actor,
        createdAt: now,
        updatedAt: now,
      },
    })) as PolicyRow;
    const policy = renderPolicy(policyRow);
    await recordChange(tx, {
      ...who,
      action: 'insurance_policy.created',
      resourceType: 'svc.insurance.policy',
      resourceId: policyId,
      data: {
        insurer: policy.insurer,
        line: policy.line,
        limit: policy.limit,
        retention: policy.retention,
        perils: policy.perils,
        quoteId: id,
      },
      resource: policy,
    });
    const quote = renderQuote(await saveQuote(db, row, { status: 'accepted', acceptedInsurer: offer.insurer, policyId }));
    await recordChange(tx, {
      ...who,
      action: 'insurance_quote.accepted',
      resourceType: 'svc.insurance.quote',
      resourceId: id,
      data: { insurer: offer.insurer, policyId, premium: offer.premium, limit: offer.limit },
      resource: quote,
    });
    return policy;
  });
}
