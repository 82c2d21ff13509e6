import {
  type AcceptInsuranceOfferBody,
  type CreateInsurancePolicyBody,
  type INSURANCE_PERILS,
  InsuranceClaim,
  type InsuranceCoverage,
  type InsurancePolicy,
  type InsurancePolicyStanding,
  InsuranceQuote,
  type InsuranceQuoteComparison,
  insuranceClaims,
  insurancePolicies,
  insuranceQuotes,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, stateConflict } from '../../errors.ts';
import type {
  InsuranceClaim as ClaimRow,
  InsurancePolicy as PolicyRow,
  InsuranceQuote as QuoteRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { checkMoment } from '../../platform/moments.ts';
import { orNotFound } from '../../platform/queries.ts';
import { lockRecord, recorded, stampsOf } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';

const num = (v: bigint | number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

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
  ...stampsOf(r),
});

/** The period of a policy or a quote request, and the perils it names once each (422 otherwise). */
function checkTerms(body: { periodStart: string; periodEnd: string; perils: readonly string[] }): void {
  if (new Date(body.periodEnd) <= new Date(body.periodStart)) throw invalid('periodEnd', 'periodEnd is not after periodStart.');
  const i = body.perils.findIndex((v, k) => body.perils.indexOf(v) !== k);
  if (i >= 0) throw invalid(`perils[${i}]`, `${body.perils[i]} is named twice.`);
}

type PolicyTerms = Omit<z.infer<typeof CreateInsurancePolicyBody>, 'periodStart' | 'periodEnd'> & {
  periodStart: Date | string;
  periodEnd: Date | string;
};

/** The row data of a new active policy: recorded directly, or from a quote request's accepted offer. */
const policyData = (who: Actor, t: PolicyTerms, quoteId: string | null = null) => ({
  insurer: t.insurer,
  line: t.line,
  policyNumber: t.policyNumber ?? null,
  currency: t.currency,
  limit: BigInt(t.limit),
  retention: BigInt(t.retention),
  premium: t.premium === undefined ? null : BigInt(t.premium),
  periodStart: new Date(t.periodStart),
  periodEnd: new Date(t.periodEnd),
  perils: t.perils,
  exclusions: t.exclusions ?? [],
  status: 'active',
  cancelledAt: null,
  quoteId,
  createdBy: who.actor,
});

const policyAuditData = (p: PolicyOut) => ({
  insurer: p.insurer,
  line: p.line,
  limit: p.limit,
  retention: p.retention,
  perils: p.perils,
  ...(p.quoteId ? { quoteId: p.quoteId } : {}),
});

export const policyStore: Store<typeof insurancePolicies> = {
  model: 'insurancePolicy',
  render: (r: PolicyRow) => renderPolicy(r),
  create: async ({ who, body }) => {
    checkTerms(body);
    return policyData(who, body);
  },
  auditData: policyAuditData,
  transitions: { cancel: () => ({ cancelledAt: new Date() }) },
};

export async function standing(
  prisma: Prisma,
  tenantId: string,
  id: string,
  at: string | undefined,
): Promise<z.infer<typeof InsurancePolicyStanding>> {
  const db = scopeToTenant(prisma, tenantId);
  const row = await orNotFound(db.insurancePolicy.findFirst({ where: { id } }), 'Policy', id);
  const when = at ? new Date(at) : new Date();
  const state = standingAt(row, when);
  return { object: 'svc.insurance.policy_standing', policyId: id, at: when.toISOString(), state, inForce: state === 'in_force' };
}

// ---------------------------------------------------------------- claims

/** What the policy pays for one loss: the amount above the retention, up to the limit. */
export const payableOf = (claimed: number, retention: number, limit: number) => Math.min(Math.max(claimed - retention, 0), limit);

export const renderClaim = rendererOf<ClaimRow>()(InsuranceClaim, {
  amountClaimed: (r) => Number(r.amountClaimed),
  policyLimit: (r) => Number(r.policyLimit),
  policyRetention: (r) => Number(r.policyRetention),
  payable: (r) => payableOf(Number(r.amountClaimed), Number(r.policyRetention), Number(r.policyLimit)),
  approvedAmount: (r) => num(r.approvedAmount),
  paidAmount: (r) => num(r.paidAmount),
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
    const policy = await db.insurancePolicy.findFirst({ where: { id: body.policyId } });
    if (!policy) throw invalid('policyId', `Policy ${body.policyId} does not exist in this tenant.`);
    const loss = new Date(body.lossDate);
    checkMoment('lossDate', loss);
    const state = standingAt(policy, loss);
    if (state !== 'in_force') {
      throw new ApiError('validation_failed', `Policy ${policy.id} was not in force at ${loss.toISOString()} (${state} then).`, [
        { field: 'lossDate', issue: 'invalid_value', message: `policy ${state} at the loss date` },
      ]);
    }
    if (body.riskId) {
      const risk = await db.riskRegisterRisk.findFirst({ where: { id: body.riskId }, select: { id: true } });
      if (!risk) throw invalid('riskId', `Risk ${body.riskId} is not a risk of this tenant.`);
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

const approval = insuranceClaims.spec.transitions!.approve;

/**
 * `approve`, served by hand beside the kit's other claim transitions: the approved amount is the
 * payable amount capped by what the policy's aggregate limit has left after its other claims, a
 * read in the transaction, where a kit step computes its fields from the current row alone. The
 * states, the action and the 404 and 409 are the declaration's and the kit's.
 */
export async function approveClaim(prisma: Prisma, who: Actor, id: string, reason: string | undefined): Promise<ClaimOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await orNotFound(db.insuranceClaim.findFirst({ where: { id } }), 'Claim', id);
    const from: readonly string[] = approval.from;
    const conflict = () => stateConflict('Claim', id, row.status, 'approve', from);
    if (!from.includes(row.status)) throw conflict();
    const limit = Number(row.policyLimit);
    const payable = payableOf(Number(row.amountClaimed), Number(row.policyRetention), limit);
    const approved = Math.max(Math.min(payable, limit - (await limitUsed(db, row.policyId, id))), 0);
    const now = new Date();
    const { count } = await db.insuranceClaim.updateMany({
      where: { id, status: { in: [...from] } },
      data: { status: approval.to, approvedAmount: BigInt(approved), paidAmount: null, paidAt: null, decidedAt: now, updatedAt: now },
    });
    if (count === 0) throw conflict();
    const out = renderClaim((await db.insuranceClaim.findFirst({ where: { id } })) as ClaimRow);
    const data = {
      from: row.status,
      to: approval.to,
      ...(reason ? { reason } : {}),
      approvedAmount: out.approvedAmount,
      payable: out.payable,
    };
    return recorded(tx, who, out, {
      action: insuranceClaims.actions.approve as string,
      resourceType: insuranceClaims.object,
      resourceId: id,
      data,
    });
  });
}

// ---------------------------------------------------------------- coverage

export async function coverage(prisma: Prisma, tenantId: string, at: string | undefined): Promise<z.infer<typeof InsuranceCoverage>> {
  const db = scopeToTenant(prisma, tenantId);
  const when = at ? new Date(at) : new Date();
  const [policies, risks, claims] = await Promise.all([
    db.insurancePolicy.findMany({ orderBy: { id: 'asc' } }),
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

const perUnit = (premium: number, limit: number) => Math.round((premium / limit) * 1e6) / 1e6;
const offersOf = (r: QuoteRow) => (Array.isArray(r.offers) ? (r.offers as unknown as OfferRecord[]) : []);

export const renderQuote = rendererOf<QuoteRow>()(InsuranceQuote, {
  requestedLimit: (r) => Number(r.requestedLimit),
  perils: (r) => r.perils as QuoteOut['perils'],
  offers: (r) => offersOf(r).map((o) => ({ ...o, premiumPerUnitOfLimit: perUnit(o.premium, o.limit) })),
});

export const quoteStore: Store<typeof insuranceQuotes> = {
  model: 'insuranceQuote',
  render: renderQuote,
  create: async ({ who, body }) => {
    checkTerms(body);
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
  transitions: {
    // One offer per insurer (compared without case) on an open request: a second is 409.
    record_offer: {
      set: (row: QuoteRow, now, body, who) => {
        const offers = offersOf(row);
        if (offers.some((o) => o.insurer.toLowerCase() === body.insurer.toLowerCase())) {
          throw new ApiError('conflict', `${body.insurer} has already made an offer on quote request ${row.id}.`, [
            { field: 'insurer', issue: 'invalid_value', message: 'already offered' },
          ]);
        }
        const offer: OfferRecord = {
          insurer: body.insurer,
          premium: body.premium,
          limit: body.limit,
          retention: body.retention,
          receivedAt: now.toISOString(),
          recordedBy: who.actor,
        };
        return { offers: [...offers, offer] };
      },
      auditData: (_q, _row, body) => ({ insurer: body.insurer, premium: body.premium, limit: body.limit, retention: body.retention }),
    },
  },
};

const findQuote = (db: Tx, id: string): Promise<QuoteRow> =>
  orNotFound(db.insuranceQuote.findFirst({ where: { id } }), 'Quote request', id);

/** An open request takes offers and an acceptance (409 naming the state otherwise). */
async function openQuote(db: Tx, id: string, verb: string): Promise<QuoteRow> {
  const row = await findQuote(db, id);
  if (row.status !== 'open') throw stateConflict('Quote request', id, row.status, verb, ['open']);
  return row;
}

/** Writes the quote read under its row lock (acceptOffer), moving `updatedAt` forward. */
async function saveQuote(db: Tx, row: QuoteRow, data: Record<string, unknown>): Promise<QuoteRow> {
  const updatedAt = new Date(Math.max(Date.now(), new Date(row.updatedAt).getTime() + 1));
  await db.insuranceQuote.updateMany({ where: { id: row.id }, data: { ...data, updatedAt } });
  return findQuote(db, row.id);
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
  const row = await findQuote(db, id);
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
    // Acceptances and offers of one request queue on its row: a second acceptance finds it accepted.
    await lockRecord(tx, 'insurance_quotes', who.tenantId, id);
    const row = await openQuote(db, id, 'accepting an offer');
    const offers = offersOf(row);
    const offer = offers.find((o) => o.insurer.toLowerCase() === body.insurer.toLowerCase());
    if (!offer) {
      throw new ApiError('validation_failed', `${body.insurer} made no offer on quote request ${id}.`, [
        { field: 'insurer', issue: 'invalid_value', message: `one of: ${offers.map((o) => o.insurer).join(', ') || 'no offers yet'}` },
      ]);
    }
    const now = new Date();
    const policyId = newId(insurancePolicies.spec.idPrefix);
    // The request's line, perils and period with the offer's limit, retention and premium.
    const terms: PolicyTerms = {
      insurer: offer.insurer,
      line: row.line as PolicyOut['line'],
      policyNumber: body.policyNumber,
      currency: row.currency,
      limit: offer.limit,
      retention: offer.retention,
      premium: offer.premium,
      periodStart: row.periodStart,
      periodEnd: row.periodEnd,
      perils: row.perils as PolicyOut['perils'],
    };
    const policy = renderPolicy(
      await db.insurancePolicy.create({
        data: {
          ...policyData(who, terms, row.id),
          id: policyId,
          tenantId: who.tenantId,
          createdAt: now,
          updatedAt: now,
        },
      }),
    );
    const created = { action: insurancePolicies.actions.create as string, resourceType: insurancePolicies.object, resourceId: policyId };
    await recorded(tx, who, policy, { ...created, data: policyAuditData(policy) });
    const quote = renderQuote(await saveQuote(db, row, { status: 'accepted', acceptedInsurer: offer.insurer, policyId }));
    const data = { insurer: offer.insurer, policyId, premium: offer.premium, limit: offer.limit };
    await recorded(tx, who, quote, { action: 'insurance_quote.accepted', resourceType: insuranceQuotes.object, resourceId: id, data });
    return policy;
  });
}
