import {
  type MarketplaceMatching,
  type MarketplacePublishedListing,
  MarketplaceReview,
  type MarketplaceSpecialist,
  type marketplaceEngagements,
  type marketplaceListings,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { decodeCursor, encodeCursor, keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound } from '../../errors.ts';
import type {
  SpecialistConsultant as ConsultantRow,
  MarketplaceEngagement as EngagementRow,
  MarketplaceListing as ListingRow,
  MarketplaceReview as ReviewRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { RenderContext, Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { isUniqueViolation, lockKey, type Page, type PageQuery, recorded } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';
import { firmOf, isExpired, requireFrameworks } from '../specialists/service.ts';

/**
 * The marketplace rail. Listings are rows of the firm's tenant; engagements and reviews rows of the
 * client's. What every tenant of the platform may read of other tenants (listed consultants,
 * published listings, reviews) is read without the tenant scope on purpose, filtered to those
 * states and rendered with public fields only (never a tenant id). Everything else goes through
 * the caller's tenant scope.
 */

const round2 = (n: number) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------- listings (the firm's own)

export const listingStore: Store<typeof marketplaceListings> = {
  model: 'marketplaceListing',
  create: async ({ db, shared, who, body }) => {
    const firm = await firmOf(db, body.firmId);
    const frameworks = await requireFrameworks(shared, 'frameworks', body.frameworks);
    return {
      firmId: firm.id,
      title: body.title,
      description: body.description ?? null,
      services: [...new Set(body.services)],
      frameworks,
      priceMinEur: body.priceMinEur,
      priceMaxEur: body.priceMaxEur,
      revenueShareBps: body.revenueShareBps,
      status: 'draft',
      createdBy: who.actor,
    };
  },
  auditData: (l) => ({ firmId: l.firmId, title: l.title, frameworks: l.frameworks, revenueShareBps: l.revenueShareBps }),
};

// ---------------------------------------------------------------- ratings and public views

interface RatingOf {
  averageRating: number | null;
  reviewCount: number;
}
const NO_RATING: RatingOf = { averageRating: null, reviewCount: 0 };

/** Average rating and count of the reviews, per listing and per firm. */
async function ratings(prisma: Prisma, listingIds: string[], firmIds: string[]) {
  const [byListing, byFirm] = await Promise.all([
    listingIds.length
      ? prisma.marketplaceReview.groupBy({
          by: ['listingId'],
          where: { listingId: { in: listingIds } },
          _avg: { rating: true },
          _count: { _all: true },
        })
      : [],
    firmIds.length
      ? prisma.marketplaceReview.groupBy({
          by: ['firmId'],
          where: { firmId: { in: firmIds } },
          _avg: { rating: true },
          _count: { _all: true },
        })
      : [],
  ]);
  const of = (g: { _avg: { rating: number | null }; _count: { _all: number } }): RatingOf => ({
    averageRating: g._avg.rating === null ? null : round2(g._avg.rating),
    reviewCount: g._count._all,
  });
  return {
    listing: new Map(byListing.map((g) => [g.listingId, of(g)])),
    firm: new Map(byFirm.map((g) => [g.firmId, of(g)])),
  };
}

type FirmSummary = z.infer<typeof MarketplacePublishedListing>['firm'];

async function firmSummaries(prisma: Prisma, firmIds: string[], firmRatings: Map<string, RatingOf>) {
  const firms = firmIds.length
    ? await prisma.specialistFirm.findMany({ where: { id: { in: firmIds } }, select: { id: true, name: true } })
    : [];
  return new Map<string, FirmSummary>(firms.map((f) => [f.id, { id: f.id, name: f.name, ...(firmRatings.get(f.id) ?? NO_RATING) }]));
}

/** Published listings with their firm and ratings, public fields only. */
async function publicListings(prisma: Prisma, rows: ListingRow[]): Promise<z.infer<typeof MarketplacePublishedListing>[]> {
  const firmIds = [...new Set(rows.map((r) => r.firmId))];
  const r = await ratings(
    prisma,
    rows.map((l) => l.id),
    firmIds,
  );
  const firms = await firmSummaries(prisma, firmIds, r.firm);
  return rows.map((l) => ({
    object: 'svc.marketplace.published_listing',
    id: l.id,
    firm: firms.get(l.firmId) ?? { id: l.firmId, name: '', ...NO_RATING },
    title: l.title,
    description: l.description,
    services: l.services,
    frameworks: l.frameworks,
    priceMinEur: l.priceMinEur,
    priceMaxEur: l.priceMaxEur,
    ...(r.listing.get(l.id) ?? NO_RATING),
    publishedAt: iso(l.updatedAt),
  }));
}

export async function publishedListings(
  prisma: Prisma,
  query: PageQuery & { framework?: string; firmId?: string },
): Promise<Page<z.infer<typeof MarketplacePublishedListing>>> {
  const page = await keysetList(prisma.marketplaceListing, query, {
    where: {
      status: 'published',
      ...(query.framework ? { frameworks: { has: query.framework } } : {}),
      ...(query.firmId ? { firmId: query.firmId } : {}),
    },
    render: (r: ListingRow) => r,
  });
  return { data: await publicListings(prisma, page.data), cursor: page.cursor };
}

/** Listed consultants of every firm, public fields, with their firm's rating and unexpired certifications. */
export async function listedSpecialists(
  prisma: Prisma,
  query: PageQuery & { expertise?: string; jurisdiction?: string },
): Promise<Page<z.infer<typeof MarketplaceSpecialist>>> {
  const page = await keysetList(prisma.specialistConsultant, query, {
    where: {
      status: 'listed',
      ...(query.expertise ? { expertise: { has: query.expertise } } : {}),
      ...(query.jurisdiction ? { jurisdictions: { has: query.jurisdiction.toUpperCase() } } : {}),
    },
    render: (r: ConsultantRow) => r,
  });
  const firmIds = [...new Set(page.data.map((c) => c.firmId))];
  const ids = page.data.map((c) => c.id);
  const now = new Date();
  const [r, certs] = await Promise.all([
    ratings(prisma, [], firmIds),
    ids.length
      ? prisma.specialistCertification.findMany({
          where: { consultantId: { in: ids }, OR: [{ validUntil: null }, { validUntil: { gt: now } }] },
          orderBy: [{ name: 'asc' }, { id: 'asc' }],
        })
      : [],
  ]);
  const firms = await firmSummaries(prisma, firmIds, r.firm);
  return {
    data: page.data.map((c) => ({
      object: 'svc.marketplace.specialist',
      id: c.id,
      name: c.name,
      headline: c.headline,
      expertise: c.expertise,
      jurisdictions: c.jurisdictions,
      firm: firms.get(c.firmId) ?? { id: c.firmId, name: '', ...NO_RATING },
      certifications: certs
        .filter((x) => x.consultantId === c.id && !isExpired(x.validUntil, now.getTime()))
        .map((x) => ({ name: x.name, issuer: x.issuer, validUntil: isoOrNull(x.validUntil) })),
    })),
    cursor: page.cursor,
  };
}

// ---------------------------------------------------------------- engagements

const runningEngagement = (running: { id: string }, firmId: string) =>
  new ApiError('conflict', `The tenant already has an active engagement (${running.id}) with firm ${firmId}.`, [
    { field: 'listingId', issue: 'invalid_value', message: `active engagement ${running.id}` },
  ]);

/**
 * The client engages the firm of a published listing of another tenant: the engagement row (the
 * client's) names the firm's tenant, which is the grant the specialists rail reads. One active
 * engagement per firm: the check holds until the commit under a lock on the client and the firm.
 */
export const engagementStore: Store<typeof marketplaceEngagements> = {
  model: 'marketplaceEngagement',
  // The firm's name, from another tenant's row: public, as the published listings show it.
  related: async ({ db, rows }) => {
    const ids = [...new Set((rows as readonly EngagementRow[]).map((r) => r.firmId))];
    const firms = await db.$queryRawUnsafe<{ id: string; name: string }[]>(
      'SELECT "id", "name" FROM "specialist_firms" WHERE "id" = ANY($1::text[])',
      ids,
    );
    return new Map(firms.map((f) => [f.id, f.name]));
  },
  computed: { firmName: (r: EngagementRow, { related }: RenderContext<unknown, Map<string, string>>) => related.get(r.firmId) ?? '' },
  create: async ({ who }) => ({ status: 'active', createdBy: who.actor }),
  prepare: async ({ tx, who, body, data }) => {
    const listing = await tx.marketplaceListing.findUnique({ where: { id: body.listingId } });
    if (listing?.status !== 'published') throw notFound('Published listing', body.listingId);
    if (listing.tenantId === who.tenantId) throw invalid('listingId', 'A tenant cannot engage its own firm.');
    await lockKey(tx, `marketplace-engagement:${who.tenantId}:${listing.firmId}`);
    const running = await scopeToTenant(tx, who.tenantId).marketplaceEngagement.findFirst({
      where: { firmId: listing.firmId, status: 'active' },
      select: { id: true },
    });
    if (running) throw runningEngagement(running, listing.firmId);
    Object.assign(data, {
      listingId: listing.id,
      firmId: listing.firmId,
      firmTenantId: listing.tenantId,
      shareRateBps: listing.revenueShareBps,
    });
  },
  auditData: (e) => ({ listingId: e.listingId, firmId: e.firmId, shareRateBps: e.shareRateBps }),
  transitions: {
    end: (_row: EngagementRow) => ({ endedAt: new Date() }),
    revoke: (_row: EngagementRow) => ({ endedAt: new Date() }),
  },
};

// ---------------------------------------------------------------- reviews

const renderReview = rendererOf<ReviewRow>()(MarketplaceReview, {});

export async function listReviews(
  prisma: Prisma,
  query: PageQuery & { firmId?: string; listingId?: string },
): Promise<Page<z.infer<typeof MarketplaceReview>>> {
  return keysetList(prisma.marketplaceReview, query, { filters: ['firmId', 'listingId'], render: renderReview });
}

const alreadyReviewed = (engagementId: string) =>
  new ApiError('conflict', `Engagement ${engagementId} has already been reviewed; one review per engagement.`, [
    { field: 'engagementId', issue: 'invalid_value', message: 'already reviewed' },
  ]);

/** The client's review of its own engagement: one each, 409 for a second. */
export async function createReview(
  prisma: Prisma,
  who: Actor,
  body: { engagementId: string; rating: number; comment?: string | undefined },
): Promise<z.infer<typeof MarketplaceReview>> {
  const engagement = await scopeToTenant(prisma, who.tenantId).marketplaceEngagement.findFirst({ where: { id: body.engagementId } });
  if (!engagement) throw notFound('Engagement', body.engagementId);
  if (await prisma.marketplaceReview.findUnique({ where: { engagementId: engagement.id }, select: { id: true } })) {
    throw alreadyReviewed(engagement.id);
  }
  try {
    return await prisma.$transaction(async (tx) => {
      const row = await tx.marketplaceReview.create({
        data: {
          id: newId('mrv'),
          tenantId: who.tenantId,
          engagementId: engagement.id,
          listingId: engagement.listingId,
          firmId: engagement.firmId,
          rating: body.rating,
          comment: body.comment ?? null,
          createdBy: who.actor,
          createdAt: new Date(),
        },
      });
      return recorded(tx, who, renderReview(row), {
        action: 'marketplace_review.created',
        data: { engagementId: row.engagementId, firmId: row.firmId, rating: row.rating },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyReviewed(engagement.id);
    throw err;
  }
}

// ---------------------------------------------------------------- matching

type Matching = z.infer<typeof MarketplaceMatching>;

/**
 * Ranks the published listings of other tenants' firms by fit to the caller: the share of its
 * activated frameworks a listing covers, and the share of its gaps (open self-audit findings,
 * activated controls without unexpired evidence) that fall in frameworks the listing covers.
 */
export async function matching(prisma: Prisma, tenantId: string, query: PageQuery): Promise<Matching> {
  const db = scopeToTenant(prisma, tenantId);
  const at = new Date();
  const [activations, evidence, findings] = await Promise.all([
    db.frameworkActivation.findMany({ select: { frameworkId: true, versionKey: true }, orderBy: { frameworkId: 'asc' } }),
    db.evidence.findMany({ where: { OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] }, select: { controlIds: true } }),
    db.selfAuditFinding.findMany({ where: { status: 'open' }, select: { controlId: true } }),
  ]);
  const activated = activations.map((a) => a.frameworkId);
  const versionKeys = activations.map((a) => a.versionKey);
  const findingControls = [...new Set(findings.map((f) => f.controlId).filter((c): c is string => c !== null))];
  const [controls, findingControlRows] = await Promise.all([
    versionKeys.length
      ? prisma.frameworkControl.findMany({ where: { versionKey: { in: versionKeys } }, select: { versionKey: true, id: true } })
      : [],
    findingControls.length
      ? prisma.frameworkControl.findMany({ where: { id: { in: findingControls } }, select: { versionKey: true, id: true } })
      : [],
  ]);
  const evidenced = new Set(evidence.flatMap((e) => e.controlIds));
  const frameworkOfVersion = (key: string) => key.split('@')[0] as string;
  // Unevidenced controls per activated framework.
  const unevidenced = new Map<string, number>();
  for (const c of controls) {
    if (evidenced.has(c.id)) continue;
    const f = frameworkOfVersion(c.versionKey);
    unevidenced.set(f, (unevidenced.get(f) ?? 0) + 1);
  }
  // Frameworks of each open finding's control.
  const frameworksOfControl = new Map<string, Set<string>>();
  for (const c of findingControlRows) {
    const set = frameworksOfControl.get(c.id) ?? new Set<string>();
    set.add(frameworkOfVersion(c.versionKey));
    frameworksOfControl.set(c.id, set);
  }
  const findingFrameworks = findings.map((f) =>
    f.controlId ? (frameworksOfControl.get(f.controlId) ?? new Set<string>()) : new Set<string>(),
  );
  const unevidencedTotal = [...unevidenced.values()].reduce((n, v) => n + v, 0);
  const gaps = findings.length + unevidencedTotal;

  const listings = await prisma.marketplaceListing.findMany({ where: { status: 'published', tenantId: { not: tenantId } } });
  const listingRatings = await ratings(
    prisma,
    listings.map((l) => l.id),
    [],
  );
  const scored = listings.map((l) => {
    const covers = new Set(l.frameworks);
    const frameworksMatched = activated.filter((f) => covers.has(f));
    const frameworkFit = activated.length ? frameworksMatched.length / activated.length : 0;
    const openFindingsCovered = findingFrameworks.filter((fs) => [...fs].some((f) => covers.has(f))).length;
    const unevidencedControlsCovered = frameworksMatched.reduce((n, f) => n + (unevidenced.get(f) ?? 0), 0);
    const gapFit = gaps ? (openFindingsCovered + unevidencedControlsCovered) / gaps : 0;
    return {
      listing: l,
      score: round2(50 * frameworkFit + 50 * gapFit),
      rating: listingRatings.listing.get(l.id)?.averageRating ?? 0,
      parts: {
        frameworksMatched,
        frameworkFit: Math.round(frameworkFit * 10_000) / 10_000,
        openFindingsCovered,
        unevidencedControlsCovered,
        gaps,
        gapFit: Math.round(gapFit * 10_000) / 10_000,
      },
    };
  });
  scored.sort((a, b) => b.score - a.score || b.rating - a.rating || b.listing.id.localeCompare(a.listing.id));
  const offset = decodeCursor(query.cursor, 'number') ?? 0;
  const slice = scored.slice(offset, offset + query.limit);
  const rendered = await publicListings(
    prisma,
    slice.map((s) => s.listing),
  );
  const next = offset + slice.length;
  return {
    object: 'svc.marketplace.matching',
    basis: { activatedFrameworks: activated, openFindings: findings.length, unevidencedControls: unevidencedTotal },
    data: slice.map((s, i) => ({
      object: 'svc.marketplace.match',
      rank: offset + i + 1,
      listing: rendered[i] as z.infer<typeof MarketplacePublishedListing>,
      score: s.score,
      parts: s.parts,
    })),
    cursor: next < scored.length ? encodeCursor(next) : null,
    computedAt: iso(at),
  };
}
