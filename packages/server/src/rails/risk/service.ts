import {
  RISK_DOMAINS,
  type RISK_RATINGS,
  type RiskNavigation,
  type RiskPolicyGap,
  type RisksByDomainView,
  type RiskUnwatched,
  type RiskWatch,
  riskRatingOf,
  type TopRisksView,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { decodeCursor, keysetList, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { RiskRegisterRisk as RiskRow, RiskWatch as WatchRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { assertNotHeld, logRefusal } from '../../platform/ledger/hold-guard.ts';
import { createdOf, isUniqueViolation, recorded } from '../../platform/records.ts';
import { iso } from '../../platform/render.ts';
import { riskNotFound } from '../risk-register/service.ts';

/**
 * The risk rail: views computed at request time over the risk register's rows (navigator by
 * area, policy gaps against published policies, top risks, counts by domain) and the tenant's
 * watchlist. Nothing here stores a computed answer.
 */

const residualScore = (r: RiskRow) => r.residualLikelihood * r.residualImpact;
const inherentScore = (r: RiskRow) => r.inherentLikelihood * r.inherentImpact;
type Rating = (typeof RISK_RATINGS)[number];
type Flag = 'true' | 'false' | undefined;

const zeroRatings = (): Record<Rating, number> => ({ low: 0, medium: 0, high: 0, critical: 0 });

/** The tenant's risks a view covers: those not closed unless `includeClosed=true`, newest first. */
async function risksOf(prisma: Prisma, tenantId: string, includeClosed: Flag, domain?: string): Promise<RiskRow[]> {
  return scopeToTenant(prisma, tenantId).riskRegisterRisk.findMany({
    where: { ...(includeClosed === 'true' ? {} : { status: { not: 'closed' } }), ...(domain ? { domain } : {}) },
    orderBy: { id: 'desc' },
  });
}

// ---------------------------------------------------------------- navigate

export async function navigate(prisma: Prisma, tenantId: string, includeClosed: Flag): Promise<z.infer<typeof RiskNavigation>> {
  const rows = await risksOf(prisma, tenantId, includeClosed);
  const groups = new Map<string | null, RiskRow[]>();
  for (const r of rows) groups.set(r.area, [...(groups.get(r.area) ?? []), r]);
  const areas = [...groups.entries()].map(([area, list]) => {
    const byStatus = { open: 0, treated: 0, accepted: 0, closed: 0 };
    const byRating = zeroRatings();
    for (const r of list) {
      byStatus[r.status as keyof typeof byStatus] += 1;
      byRating[riskRatingOf(residualScore(r))] += 1;
    }
    const worst = Math.max(...list.map(residualScore));
    return {
      area,
      count: list.length,
      byStatus,
      byRating,
      worstResidualScore: worst,
      worstResidualRating: riskRatingOf(worst),
      worstRiskIds: list.filter((r) => residualScore(r) === worst).map((r) => r.id),
    };
  });
  areas.sort(
    (a, b) =>
      b.worstResidualScore - a.worstResidualScore ||
      (a.area === null ? 1 : 0) - (b.area === null ? 1 : 0) ||
      (a.area ?? '').localeCompare(b.area ?? ''),
  );
  return { object: 'svc.risk.navigation', total: rows.length, areas, computedAt: iso(new Date()) };
}

// ---------------------------------------------------------------- policy gaps

/**
 * Risks none of whose controls is named by a published policy (or that name no control), newest
 * first, paginated over the computed list by risk id.
 */
export async function policyGaps(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; includeClosed?: Flag },
): Promise<{ data: z.infer<typeof RiskPolicyGap>[]; cursor: string | null }> {
  const after = decodeCursor(query.cursor, 'string');
  const db = scopeToTenant(prisma, tenantId);
  const [rows, policies] = await Promise.all([
    risksOf(prisma, tenantId, query.includeClosed),
    db.policy.findMany({ select: { id: true, status: true, controlIds: true }, orderBy: { id: 'asc' } }),
  ]);
  const published = new Set(policies.filter((p) => p.status === 'published').flatMap((p) => p.controlIds));
  const gaps = rows
    .filter((r) => after === undefined || r.id < after)
    .filter((r) => r.controlIds.length === 0 || !r.controlIds.some((c) => published.has(c)))
    .slice(0, query.limit + 1);
  return toPage(
    gaps,
    query.limit,
    (r) => r.id,
    (r) => ({
      object: 'svc.risk.policy_gap' as const,
      riskId: r.id,
      title: r.title,
      domain: r.domain as z.infer<typeof RiskPolicyGap>['domain'],
      area: r.area,
      status: r.status as z.infer<typeof RiskPolicyGap>['status'],
      residualScore: residualScore(r),
      residualRating: riskRatingOf(residualScore(r)),
      reason: r.controlIds.length === 0 ? ('no_controls' as const) : ('no_published_policy' as const),
      controlIds: r.controlIds,
      unpublishedPolicyIds: policies
        .filter((p) => p.status !== 'published' && p.controlIds.some((c) => r.controlIds.includes(c)))
        .map((p) => p.id),
    }),
  );
}

// ---------------------------------------------------------------- watchlist

type WatchOut = z.infer<typeof RiskWatch>;

function renderWatch(w: WatchRow, r: RiskRow): WatchOut {
  return {
    object: 'svc.risk.watch',
    id: w.id,
    riskId: w.riskId,
    note: w.note,
    risk: {
      title: r.title,
      domain: r.domain as WatchOut['risk']['domain'],
      area: r.area,
      status: r.status as WatchOut['risk']['status'],
      inherentScore: inherentScore(r),
      residualScore: residualScore(r),
      residualRating: riskRatingOf(residualScore(r)),
    },
    ...createdOf(w),
  };
}

export async function listWatchlist(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string },
): Promise<{ data: WatchOut[]; cursor: string | null }> {
  const db = scopeToTenant(prisma, tenantId);
  const page = await keysetList<WatchRow, WatchRow>(db.riskWatch, query, { render: (w) => w });
  const risks = page.data.length ? await db.riskRegisterRisk.findMany({ where: { id: { in: page.data.map((w) => w.riskId) } } }) : [];
  const byId = new Map(risks.map((r) => [r.id, r]));
  // A watched risk is never deleted (risks close, they are not removed), so each entry has its risk.
  return {
    cursor: page.cursor,
    data: page.data.filter((w) => byId.has(w.riskId)).map((w) => renderWatch(w, byId.get(w.riskId) as RiskRow)),
  };
}

export async function watch(prisma: Prisma, who: Actor, body: { riskId: string; note?: string | undefined }): Promise<WatchOut> {
  const db = scopeToTenant(prisma, who.tenantId);
  const risk = await db.riskRegisterRisk.findFirst({ where: { id: body.riskId } });
  if (!risk) throw riskNotFound(body.riskId);
  const already = () =>
    new ApiError('conflict', `Risk ${body.riskId} is already on the watchlist.`, [
      { field: 'riskId', issue: 'invalid_value', message: 'already watched' },
    ]);
  if (await db.riskWatch.findFirst({ where: { riskId: body.riskId }, select: { id: true } })) throw already();
  try {
    return await prisma.$transaction(async (tx) => {
      const row = await tx.riskWatch.create({
        data: {
          id: newId('rwl'),
          tenantId: who.tenantId,
          riskId: risk.id,
          note: body.note ?? null,
          createdBy: who.actor,
          createdAt: new Date(),
        },
      });
      return recorded(tx, who, renderWatch(row, risk), { action: 'risk_watch.created', data: { riskId: risk.id } });
    });
  } catch (err) {
    // Two concurrent adds: the unique (tenant, risk) index lets one win.
    if (isUniqueViolation(err)) throw already();
    throw err;
  }
}

export async function unwatch(prisma: Prisma, who: Actor, riskId: string): Promise<z.infer<typeof RiskUnwatched>> {
  const db = scopeToTenant(prisma, who.tenantId);
  const risk = await db.riskRegisterRisk.findFirst({ where: { id: riskId }, select: { id: true } });
  if (!risk) throw riskNotFound(riskId);
  try {
    return await unwatchUnheld(prisma, who, riskId);
  } catch (err) {
    await logRefusal(prisma, who, err);
    throw err;
  }
}

async function unwatchUnheld(prisma: Prisma, who: Actor, riskId: string): Promise<z.infer<typeof RiskUnwatched>> {
  return prisma.$transaction(async (tx) => {
    const scoped = scopeToTenant(tx, who.tenantId);
    const entry = await scoped.riskWatch.findFirst({ where: { riskId } });
    if (!entry) return { object: 'svc.risk.watch_removal' as const, riskId, removed: false, watchId: null };
    // A watchlist entry under a legal hold is not removed: 409 naming the hold (logged once rolled back).
    await assertNotHeld(tx, who.tenantId, [{ type: 'risk_watch', id: entry.id }]);
    await scoped.riskWatch.deleteMany({ where: { id: entry.id } });
    const change = { action: 'risk_watch.removed', resourceType: 'svc.risk.watch', resourceId: entry.id, data: { riskId } };
    return recorded(tx, who, { object: 'svc.risk.watch_removal' as const, riskId, removed: true, watchId: entry.id }, change);
  });
}

// ---------------------------------------------------------------- top risks, by domain

/**
 * The `limit` highest residual scores; at the same score a treatable risk (not signed off, no
 * implemented accept treatment) comes first, then the higher inherent score, then the newer risk.
 */
export async function topRisks(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; domain?: string | undefined; includeClosed?: Flag },
): Promise<z.infer<typeof TopRisksView>> {
  const db = scopeToTenant(prisma, tenantId);
  const [rows, accepts, watched] = await Promise.all([
    risksOf(prisma, tenantId, query.includeClosed, query.domain),
    db.riskTreatment.findMany({ where: { type: 'accept', status: 'implemented' }, select: { riskId: true } }),
    db.riskWatch.findMany({ select: { riskId: true } }),
  ]);
  const acceptedByTreatment = new Set(accepts.map((a) => a.riskId));
  const watchedIds = new Set(watched.map((w) => w.riskId));
  const treatable = (r: RiskRow) => r.status !== 'accepted' && r.status !== 'closed' && !acceptedByTreatment.has(r.id);
  const ranked = [...rows].sort(
    (a, b) =>
      residualScore(b) - residualScore(a) ||
      Number(treatable(b)) - Number(treatable(a)) ||
      inherentScore(b) - inherentScore(a) ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  return {
    object: 'svc.risk.top_risks',
    limit: query.limit,
    risks: ranked.slice(0, query.limit).map((r, i) => ({
      rank: i + 1,
      riskId: r.id,
      title: r.title,
      domain: r.domain as (typeof RISK_DOMAINS)[number],
      area: r.area,
      status: r.status as z.infer<typeof TopRisksView>['risks'][number]['status'],
      ownerId: r.ownerId,
      inherentScore: inherentScore(r),
      residualScore: residualScore(r),
      residualRating: riskRatingOf(residualScore(r)),
      treatable: treatable(r),
      watched: watchedIds.has(r.id),
    })),
    computedAt: iso(new Date()),
  };
}

const mean = (xs: number[]) => (xs.length === 0 ? null : Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100);

export async function byDomain(prisma: Prisma, tenantId: string, includeClosed: Flag): Promise<z.infer<typeof RisksByDomainView>> {
  const rows = await risksOf(prisma, tenantId, includeClosed);
  const domains = RISK_DOMAINS.map((domain) => {
    const list = rows.filter((r) => r.domain === domain);
    const byRating = zeroRatings();
    for (const r of list) byRating[riskRatingOf(residualScore(r))] += 1;
    return {
      domain,
      count: list.length,
      averageResidualScore: mean(list.map(residualScore)),
      averageInherentScore: mean(list.map(inherentScore)),
      maxResidualScore: list.length ? Math.max(...list.map(residualScore)) : null,
      byRating,
    };
  });
  return { object: 'svc.risk.by_domain', total: rows.length, domains, computedAt: iso(new Date()) };
}
