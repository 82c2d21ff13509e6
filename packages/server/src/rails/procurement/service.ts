import {
  Award,
  type Bid,
  type CreateAwardBody,
  type procurementAwards,
  type procurementBids,
  type procurementOnboardings,
  type procurementRfps,
  Rfp,
  type RfpScoring,
  type SupplierOnboarding,
  type UpdateRfpWeightsBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound, stateConflict } from '../../errors.ts';
import type {
  ProcurementAward as AwardRow,
  ProcurementBid as BidRow,
  ProcurementOnboarding as OnboardingRow,
  ProcurementRfp as RfpRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { RenderContext, Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { createdOf, lockRecord, recorded } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';
import { addVendor, renderVendor } from '../vendor-risk/service.ts';

/**
 * The procurement rail: RFPs with weighted criteria, bids scored per criterion, the ranking
 * (computed whenever it is read from the stored scores and the RFP's current weights: a change of
 * weights re-ranks at once), the award and the onboarding of the awarded supplier, which adds the
 * vendor through the vendor_risk service (audited and emitted as `vendor.added`).
 */

const TIE = 1e-9;
const round6 = (n: number) => Math.round((n + Number.EPSILON) * 1e6) / 1e6;

type BidOut = z.infer<typeof Bid>;
type ScoringOut = z.infer<typeof RfpScoring>;
type AwardOut = z.infer<typeof Award>;
type OnboardingOut = z.infer<typeof SupplierOnboarding>;
interface Criterion {
  key: string;
  name: string;
  weight: number;
}

const criteriaOf = (r: { criteria: unknown }) => (Array.isArray(r.criteria) ? (r.criteria as Criterion[]) : []);
const scoresOf = (b: { scores: unknown }) => (b.scores ?? {}) as Record<string, number>;

// ---------------------------------------------------------------- scoring

/** `sum(score x weight)` over the RFP's criteria, with each criterion's part. */
export function weighted(criteria: readonly Criterion[], scores: Record<string, number>) {
  const contributions = criteria.map((c) => {
    const score = scores[c.key] ?? 0;
    return { key: c.key, score, weight: c.weight, weighted: round6(score * c.weight) };
  });
  const total = criteria.reduce((s, c) => s + (scores[c.key] ?? 0) * c.weight, 0);
  return { total, contributions };
}

/** Bids by total, best first (ties within 1e-9: the earlier bid first, sharing the place). */
export function rank(criteria: readonly Criterion[], bids: readonly BidRow[]): ScoringOut['ranking'] {
  const scored = bids
    .map((b) => ({ bid: b, ...weighted(criteria, scoresOf(b)) }))
    .sort((a, b) => (Math.abs(a.total - b.total) <= TIE ? (a.bid.id < b.bid.id ? -1 : 1) : b.total - a.total));
  const out: ScoringOut['ranking'] = [];
  scored.forEach((s, i) => {
    const prev = out[i - 1];
    const place = prev && Math.abs(scored[i - 1]!.total - s.total) <= TIE ? prev.rank : i + 1;
    out.push({ rank: place, bidId: s.bid.id, supplierName: s.bid.supplierName, total: round6(s.total), contributions: s.contributions });
  });
  return out;
}

// ---------------------------------------------------------------- rendering

export const renderRfp = rendererOf<RfpRow>()(Rfp, {
  criteria: (r) => criteriaOf(r).map((c) => ({ key: c.key, name: c.name, weight: c.weight })),
});

export function renderBid(b: BidRow, criteria: readonly Criterion[]): BidOut {
  return {
    object: 'svc.procurement.bid',
    id: b.id,
    rfpId: b.rfpId,
    supplierName: b.supplierName,
    scores: { ...scoresOf(b) },
    notes: b.notes,
    total: round6(weighted(criteria, scoresOf(b)).total),
    ...createdOf(b),
  };
}

const renderAward = rendererOf<AwardRow>()(Award, {
  topRanked: (a) => a.rank === 1,
  ranking: (a) => (a.ranking ?? []) as AwardOut['ranking'],
});

// ---------------------------------------------------------------- RFPs

export const rfpStore: Store<typeof procurementRfps> = {
  model: 'procurementRfp',
  render: renderRfp,
  create: async ({ who, body }) => ({
    title: body.title,
    description: body.description ?? null,
    status: 'draft',
    criteria: body.criteria.map((c) => ({ key: c.key, name: c.name, weight: c.weight })),
    weightsVersion: 1,
    awardId: null,
    openedAt: null,
    closedAt: null,
    createdBy: who.actor,
  }),
  auditData: (r) => ({ title: r.title, criteria: r.criteria }),
  transitions: {
    open: { set: (_row, now) => ({ openedAt: now }) },
    // An open RFP without any bid cannot move to evaluation (409): cancel it instead. Checked in the
    // transition's transaction, with the RFP's row held locked by the kit.
    evaluate: {
      guard: async ({ tx, who, row }) => {
        const { id } = row as RfpRow;
        const bids = await scopeToTenant(tx, who.tenantId).procurementBid.count({ where: { rfpId: id } });
        if (bids === 0) {
          throw new ApiError('conflict', `RFP ${id} is open with no bid; evaluate needs at least one bid (cancel it instead).`, [
            { field: 'status', issue: 'invalid_value', message: 'current state: open, no bids' },
          ]);
        }
      },
    },
    cancel: { set: (_row, now) => ({ closedAt: now }) },
  },
};

/** The states in which an RFP still takes changes (weights): every state but the final ones. */
const NOT_FINAL = ['draft', 'open', 'evaluating'];

async function findRfp(db: Tx, tenantId: string, id: string): Promise<RfpRow> {
  const row = await scopeToTenant(db, tenantId).procurementRfp.findFirst({ where: { id } });
  if (!row) throw notFound('RFP', id);
  return row;
}

/** 409 naming the RFP's state when `verb` is not allowed from it. */
const rfpConflict = (rfp: RfpRow, verb: string, from: readonly string[]) => stateConflict('RFP', rfp.id, rfp.status, verb, from);

async function bidsOf(db: Tx, tenantId: string, rfpId: string): Promise<BidRow[]> {
  return scopeToTenant(db, tenantId).procurementBid.findMany({ where: { rfpId }, orderBy: { id: 'asc' } });
}

function scoringOf(rfp: RfpRow, bids: readonly BidRow[], awardedBidId: string | null): ScoringOut {
  const criteria = criteriaOf(rfp);
  return {
    object: 'svc.procurement.scoring',
    rfpId: rfp.id,
    status: rfp.status as ScoringOut['status'],
    weightsVersion: rfp.weightsVersion,
    criteria: criteria.map((c) => ({ key: c.key, name: c.name, weight: c.weight })),
    ranking: rank(criteria, bids),
    awardedBidId,
  };
}

async function awardedBidOf(db: Tx, tenantId: string, rfp: RfpRow): Promise<string | null> {
  if (!rfp.awardId) return null;
  const award = await scopeToTenant(db, tenantId).procurementAward.findFirst({ where: { id: rfp.awardId }, select: { bidId: true } });
  return award?.bidId ?? null;
}

export async function scoring(prisma: Prisma, tenantId: string, rfpId: string): Promise<ScoringOut> {
  const rfp = await findRfp(prisma, tenantId, rfpId);
  const [bids, awarded] = await Promise.all([bidsOf(prisma, tenantId, rfpId), awardedBidOf(prisma, tenantId, rfp)]);
  return scoringOf(rfp, bids, awarded);
}

/** New weights for every criterion (the body's sum was checked); the ranking recomputed from the stored scores. */
export async function updateWeights(
  prisma: Prisma,
  who: Actor,
  id: string,
  body: z.infer<typeof UpdateRfpWeightsBody>,
): Promise<ScoringOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    // Changes of the weights (and the award) queue on the RFP's row: each replaces the weights
    // the previous one committed, where a change made meanwhile used to refuse this one.
    await lockRecord(tx, 'procurement_rfps', who.tenantId, id);
    const rfp = await findRfp(tx, who.tenantId, id);
    if (!NOT_FINAL.includes(rfp.status)) throw rfpConflict(rfp, 'changing the weights', NOT_FINAL);
    const criteria = criteriaOf(rfp);
    const given = new Map(body.criteria.map((c) => [c.key, c.weight]));
    const unknown = body.criteria.filter((c) => !criteria.some((k) => k.key === c.key)).map((c) => c.key);
    const missing = criteria.filter((c) => !given.has(c.key)).map((c) => c.key);
    if (unknown.length > 0 || missing.length > 0) {
      throw new ApiError(
        'validation_failed',
        `The weights must name every criterion of RFP ${id} (${criteria.map((c) => c.key).join(', ')})${missing.length ? `; missing ${missing.join(', ')}` : ''}${unknown.length ? `; unknown ${unknown.join(', ')}` : ''}.`,
        [
          {
            field: 'criteria',
            issue: 'invalid_value',
            message: [...missing.map((k) => `missing ${k}`), ...unknown.map((k) => `unknown ${k}`)].join('; '),
          },
        ],
      );
    }
    const next = criteria.map((c) => ({ ...c, weight: given.get(c.key) as number }));
    const now = new Date();
    await db.procurementRfp.updateMany({
      where: { id },
      data: { criteria: next, weightsVersion: rfp.weightsVersion + 1, updatedAt: now },
    });
    const saved = await findRfp(tx, who.tenantId, id);
    await recorded(tx, who, renderRfp(saved), {
      action: 'rfp.weights_changed',
      data: {
        weightsVersion: saved.weightsVersion,
        from: Object.fromEntries(criteria.map((c) => [c.key, c.weight])),
        to: Object.fromEntries(next.map((c) => [c.key, c.weight])),
      },
    });
    return scoringOf(saved, await bidsOf(tx, who.tenantId, id), null);
  });
}

// ---------------------------------------------------------------- bids

const supplierKeyOf = (name: string) => name.trim().toLowerCase();

/**
 * Bids, a collection under their RFP: the kit finds the RFP (404), and for a create locks it and
 * checks it is `open` (409). With the RFP locked, two bids of one supplier at once are serialised:
 * the second sees the first and is 409.
 */
export const bidStore: Store<typeof procurementBids> = {
  model: 'procurementBid',
  parent: { model: 'procurementRfp' },
  computed: { total: (b: BidRow, { parent }: RenderContext<RfpRow>) => round6(weighted(criteriaOf(parent), scoresOf(b)).total) },
  create: async ({ who, body }) => ({
    supplierName: body.supplierName.trim(),
    supplierKey: supplierKeyOf(body.supplierName),
    notes: body.notes ?? null,
    createdBy: who.actor,
  }),
  prepare: async ({ tx, who, parent, body, data }) => {
    const rfp = parent as unknown as RfpRow;
    const criteria = criteriaOf(rfp);
    const details = [
      ...criteria
        .filter((c) => body.scores[c.key] === undefined)
        .map((c) => ({ field: `scores.${c.key}`, issue: 'missing' as const, message: 'not scored' })),
      ...Object.keys(body.scores)
        .filter((k) => !criteria.some((c) => c.key === k))
        .map((k) => ({ field: `scores.${k}`, issue: 'invalid_value' as const, message: 'not a criterion of the RFP' })),
    ];
    if (details.length > 0) {
      throw new ApiError(
        'validation_failed',
        `A bid scores every criterion of RFP ${rfp.id} and no other: ${criteria.map((c) => c.key).join(', ')}.`,
        details,
      );
    }
    const taken = await scopeToTenant(tx, who.tenantId).procurementBid.findFirst({
      where: { rfpId: rfp.id, supplierKey: data.supplierKey as string },
      select: { id: true },
    });
    if (taken) {
      throw new ApiError('conflict', `${body.supplierName} has a bid on RFP ${rfp.id} already: ${taken.id}.`, [
        { field: 'supplierName', issue: 'invalid_value', message: 'taken' },
      ]);
    }
    data.scores = Object.fromEntries(criteria.map((c) => [c.key, body.scores[c.key] as number]));
  },
  auditData: (b) => ({ rfpId: b.rfpId, supplierName: b.supplierName, scores: b.scores }),
};

// ---------------------------------------------------------------- awards

export async function award(prisma: Prisma, who: Actor, rfpId: string, body: z.infer<typeof CreateAwardBody>): Promise<AwardOut> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    // The ranking the award keeps is the one of the weights it read: a change of the weights waits.
    await lockRecord(tx, 'procurement_rfps', who.tenantId, rfpId);
    const rfp = await findRfp(tx, who.tenantId, rfpId);
    if (rfp.status !== 'evaluating') throw rfpConflict(rfp, 'award', ['evaluating']);
    const bids = await bidsOf(tx, who.tenantId, rfpId);
    const ranking = rank(criteriaOf(rfp), bids);
    const won = ranking.find((r) => r.bidId === body.bidId);
    if (!won) {
      throw invalid('bidId', `Bid ${body.bidId} is not a bid of RFP ${rfpId}.`);
    }
    const now = new Date();
    const id = newId('awd');
    const moved = await db.procurementRfp.updateMany({
      where: { id: rfpId, status: 'evaluating' },
      data: { status: 'awarded', awardId: id, closedAt: now, updatedAt: now },
    });
    if (moved.count === 0) throw rfpConflict(rfp, 'award', ['evaluating']);
    const row = await tx.procurementAward.create({
      data: {
        id,
        tenantId: who.tenantId,
        rfpId,
        bidId: won.bidId,
        supplierName: won.supplierName,
        rationale: body.rationale,
        totalScore: won.total,
        rank: won.rank,
        ranking: ranking.map((r) => ({ rank: r.rank, bidId: r.bidId, supplierName: r.supplierName, total: r.total })),
        createdBy: who.actor,
        createdAt: now,
      },
    });
    const out = renderAward(row);
    return recorded(tx, who, out, {
      action: 'rfp.awarded',
      data: { rfpId, bidId: out.bidId, from: 'evaluating', to: 'awarded', rank: out.rank, totalScore: out.totalScore },
    });
  });
}

/** The awards' list, served by the kit; an award is made by `award` above, a move of its RFP. */
export const awardStore: Store<typeof procurementAwards> = { model: 'procurementAward', render: renderAward };

// ---------------------------------------------------------------- onboarding

/**
 * Onboardings: the awarded supplier created as a vendor (through the vendor_risk service, audited
 * there as `vendor.added`) and linked, once per award. The award is locked in the write's
 * transaction, so two onboardings of it at once are one vendor and a 409.
 */
export const onboardingStore: Store<typeof procurementOnboardings> = {
  model: 'procurementOnboarding',
  computed: {
    vendor: (o: OnboardingRow, { related }: RenderContext<undefined, ReadonlyMap<string, OnboardingOut['vendor']>>) =>
      related.get(o.vendorId) as OnboardingOut['vendor'],
  },
  related: async ({ db, rows }) => {
    const vendors = await db.vendorRiskVendor.findMany({
      where: { id: { in: (rows as readonly OnboardingRow[]).map((o) => o.vendorId) } },
    });
    return new Map(vendors.map((v) => [v.id, renderVendor(v)]));
  },
  create: async ({ who }) => ({ createdBy: who.actor }),
  prepare: async ({ tx, who, id, body, data }) => {
    const db = scopeToTenant(tx, who.tenantId);
    await lockRecord(tx, 'procurement_awards', who.tenantId, body.awardId);
    const awardRow = await db.procurementAward.findFirst({ where: { id: body.awardId } });
    if (!awardRow) throw notFound('Award', body.awardId);
    const already = await db.procurementOnboarding.findFirst({ where: { awardId: awardRow.id }, select: { id: true, vendorId: true } });
    if (already) {
      throw new ApiError(
        'conflict',
        `The supplier of award ${awardRow.id} is onboarded already (${already.id}, vendor ${already.vendorId}).`,
        [{ field: 'awardId', issue: 'invalid_value', message: 'onboarded already' }],
      );
    }
    const rfp = await findRfp(tx, who.tenantId, awardRow.rfpId);
    const vendor = await addVendor(
      tx,
      who,
      {
        name: body.vendorName ?? awardRow.supplierName,
        criticality: body.criticality ?? 'medium',
        services: body.services ?? [rfp.title],
        dataAccess: body.dataAccess ?? [],
      },
      { kind: 'procurement', rfpId: rfp.id, awardId: awardRow.id, onboardingId: id },
    );
    Object.assign(data, {
      rfpId: rfp.id,
      awardId: awardRow.id,
      bidId: awardRow.bidId,
      vendorId: vendor.id,
      supplierName: awardRow.supplierName,
    });
  },
  auditData: (o) => ({ rfpId: o.rfpId, awardId: o.awardId, vendorId: o.vendorId }),
};
