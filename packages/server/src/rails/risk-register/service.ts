import {
  type CreateRiskBody,
  Risk,
  type RiskHeatmap,
  RiskReview,
  type RiskReviewDue,
  type RiskScore,
  type RiskScoreHistory,
  type RiskTreatment,
  riskRatingOf,
  type riskRegisterRisks,
  type riskReviews,
  type riskSignOffs,
  type riskTreatments,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound } from '../../errors.ts';
import type {
  RiskReview as ReviewRow,
  RiskRegisterRisk as RiskRow,
  RiskSignOff as SignOffRow,
  RiskTreatment as TreatmentRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { ActingPerson } from '../../platform/acting-person.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { pastMoment } from '../../platform/moments.ts';
import { lockRecord, type Page, type PageQuery } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';

/**
 * The risk register: risks on a 5x5 likelihood x impact matrix whose residual values the service
 * recomputes from the implemented treatments, their score history and heatmap, periodic reviews
 * and the accountable owner's sign-off. The risk rail's views (rails/risk/service.ts) read the same rows.
 */

const DAY_MS = 86_400_000;
export const DEFAULT_REVIEW_EVERY_DAYS = 90;

type RiskOut = z.infer<typeof Risk>;
type TreatmentOut = z.infer<typeof RiskTreatment>;
type Rating = ReturnType<typeof riskRatingOf>;

export interface ScorePoint {
  likelihood: number;
  impact: number;
  score: number;
  rating: Rating;
}

export const point = (likelihood: number, impact: number): ScorePoint => ({
  likelihood,
  impact,
  score: likelihood * impact,
  rating: riskRatingOf(likelihood * impact),
});

// ---------------------------------------------------------------- residual computation

type Effect = Pick<TreatmentRow, 'type' | 'likelihoodReduction' | 'impactReduction'>;

/** One implemented treatment applied to a residual: reductions floor at 1; `avoid` sets likelihood to 1. */
export function applyTreatment(l: number, i: number, t: Effect): [number, number] {
  switch (t.type) {
    case 'mitigate':
      return [Math.max(1, l - t.likelihoodReduction), Math.max(1, i - t.impactReduction)];
    case 'transfer':
      return [l, Math.max(1, i - t.impactReduction)];
    case 'avoid':
      return [1, i];
    default:
      return [l, i]; // accept: the residual stays
  }
}

/** Implemented treatments in the order they were implemented. */
const byImplementation = (a: TreatmentRow, b: TreatmentRow) =>
  (a.implementedAt?.getTime() ?? 0) - (b.implementedAt?.getTime() ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The residual of a risk after every implemented treatment, with the value after each step. */
export function residualOf(
  inherentLikelihood: number,
  inherentImpact: number,
  implemented: readonly TreatmentRow[],
): { likelihood: number; impact: number; steps: { treatment: TreatmentRow; point: ScorePoint; moved: boolean }[] } {
  let [l, i] = [inherentLikelihood, inherentImpact];
  const steps: { treatment: TreatmentRow; point: ScorePoint; moved: boolean }[] = [];
  for (const t of [...implemented].sort(byImplementation)) {
    const before = l * i;
    [l, i] = applyTreatment(l, i, t);
    steps.push({ treatment: t, point: point(l, i), moved: l * i !== before });
  }
  return { likelihood: l, impact: i, steps };
}

// ---------------------------------------------------------------- rendering

export const renderRisk = rendererOf<RiskRow>()(Risk, {
  controlIds: (r) => r.controlIds ?? [],
  inherentScore: (r) => point(r.inherentLikelihood, r.inherentImpact).score,
  inherentRating: (r) => point(r.inherentLikelihood, r.inherentImpact).rating,
  residualScore: (r) => point(r.residualLikelihood, r.residualImpact).score,
  residualRating: (r) => point(r.residualLikelihood, r.residualImpact).rating,
});

const renderReview = rendererOf<ReviewRow>()(RiskReview, {});

// ---------------------------------------------------------------- lookups

export const riskNotFound = (id: string) => notFound('Risk', id);

async function findRisk(db: Tx, tenantId: string, id: string): Promise<RiskRow> {
  const row = await scopeToTenant(db, tenantId).riskRegisterRisk.findFirst({ where: { id } });
  if (!row) throw riskNotFound(id);
  return row;
}

/**
 * The risk read in the transaction `tx` with its row locked (FOR UPDATE) until the commit: two
 * reviews recorded at once each move the next review date from what the other committed.
 */
async function lockRisk(tx: Tx, tenantId: string, id: string): Promise<RiskRow> {
  await lockRecord(tx, 'risk_register_risks', tenantId, id);
  return findRisk(tx, tenantId, id);
}

/** 422 naming `field` when the person is not one of the tenant's (or, with `active`, is inactive). */
async function requirePerson(
  db: Tx,
  tenantId: string,
  field: string,
  id: string,
  active: boolean,
): Promise<{ id: string; status: string }> {
  const person = await scopeToTenant(db, tenantId).stakeholderUser.findFirst({ where: { id }, select: { id: true, status: true } });
  if (!person) throw invalid(field, `Person ${id} is not in /v1/stakeholders/users of this tenant.`);
  if (active && person.status !== 'active') throw invalid(field, `Person ${id} is ${person.status}: an accountable owner must be active.`);
  return person;
}

const closedConflict = (risk: RiskRow, what: string) =>
  new ApiError('conflict', `Risk ${risk.id} is closed; ${what} needs a risk that is not closed (a closed risk is final).`, [
    { field: 'riskId', issue: 'invalid_value', message: `current state: ${risk.status}` },
  ]);

// ---------------------------------------------------------------- risks

type CreateRisk = z.infer<typeof CreateRiskBody>;
type InlineTreatment = NonNullable<CreateRisk['treatments']>[number];

function treatmentData(
  t: InlineTreatment,
): Pick<TreatmentRow, 'type' | 'description' | 'likelihoodReduction' | 'impactReduction' | 'controlIds'> {
  return {
    type: t.type,
    description: t.description,
    likelihoodReduction: t.type === 'mitigate' ? (t.likelihoodReduction ?? 0) : 0,
    impactReduction: t.type === 'mitigate' ? (t.impactReduction ?? 0) : t.type === 'transfer' ? (t.impactReduction ?? 1) : 0,
    controlIds: [...new Set(t.controlIds ?? [])],
  };
}

/** The row of a new risk after its checks; the residual equals the inherent (no treatment is implemented yet). */
async function riskData(db: Tx, who: Actor, body: CreateRisk, now: Date) {
  if (body.ownerId) await requirePerson(db, who.tenantId, 'ownerId', body.ownerId, true);
  const every = body.reviewEveryDays ?? DEFAULT_REVIEW_EVERY_DAYS;
  return {
    title: body.title,
    description: body.description ?? null,
    domain: body.domain,
    area: body.area ?? null,
    ownerId: body.ownerId ?? null,
    controlIds: [...new Set(body.controlIds ?? [])],
    inherentLikelihood: body.inherentLikelihood,
    inherentImpact: body.inherentImpact,
    residualLikelihood: body.inherentLikelihood,
    residualImpact: body.inherentImpact,
    status: 'open',
    reviewEveryDays: every,
    lastReviewedAt: null,
    nextReviewAt: new Date(now.getTime() + every * DAY_MS),
    createdBy: who.actor,
  };
}

/**
 * The risks. A risk's treatments given inline are recorded `planned` in the same transaction, and
 * its `risk.created` audit event names them (`treatmentIds`): their ids are given before the write.
 */
export const riskStore: Store<typeof riskRegisterRisks> = {
  model: 'riskRegisterRisk',
  render: renderRisk,
  create: async ({ db, who, body }) => riskData(db, who, body, new Date()),
  prepare: async ({ body, data, now }) => {
    // The first review falls due `reviewEveryDays` after the risk's creation, on the change's clock.
    data.nextReviewAt = new Date(now.getTime() + (data.reviewEveryDays as number) * DAY_MS);
    return { treatmentIds: (body.treatments ?? []).map(() => newId('rtr')) };
  },
  auditData: (r) => ({ title: r.title, domain: r.domain, inherentScore: r.inherentScore, ownerId: r.ownerId }),
  afterCreate: async ({ tx, who, record, body, prepared }) => {
    const ids = prepared.treatmentIds as string[];
    const at = new Date(record.createdAt);
    for (const [i, t] of (body.treatments ?? []).entries()) {
      await tx.riskTreatment.create({
        data: {
          ...treatmentData(t),
          id: ids[i] as string,
          tenantId: who.tenantId,
          riskId: record.id,
          status: 'planned',
          createdBy: who.actor,
          createdAt: at,
          updatedAt: at,
        },
      });
    }
  },
};

// ---------------------------------------------------------------- treatments

export const treatmentStore: Store<typeof riskTreatments> = {
  model: 'riskTreatment',
  computed: { controlIds: (t: TreatmentRow) => t.controlIds ?? [] },
  // A treatment of a risk of the tenant (404) that is not closed (409); `planned`.
  create: async ({ db, who, body }) => {
    const { riskId, ...t } = body;
    const risk = await findRisk(db, who.tenantId, riskId);
    if (risk.status === 'closed') throw closedConflict(risk, 'planning a treatment');
    return { ...treatmentData(t), riskId, status: 'planned', createdBy: who.actor };
  },
  // The risk read again locked: a risk closed meanwhile refuses the treatment.
  prepare: async ({ tx, who, data }) => {
    const riskId = data.riskId as string;
    await lockRecord(tx, 'risk_register_risks', who.tenantId, riskId);
    const risk = await findRisk(tx, who.tenantId, riskId);
    if (risk.status === 'closed') throw closedConflict(risk, 'planning a treatment');
  },
  auditData: (t) => ({ riskId: t.riskId, type: t.type, likelihoodReduction: t.likelihoodReduction, impactReduction: t.impactReduction }),
  transitions: {
    /**
     * `planned` -> `implemented`, and the risk's residual recomputed with this treatment applied
     * last (it is the newest implemented); the risk becomes `treated` (from `open`, or from
     * `accepted` when the residual moved). The guard writes the residual, with the treatment's row
     * locked and its status update following in the same transaction, and gives the audit event
     * the scores before and after.
     */
    implement: {
      set: (_row, now) => ({ implementedAt: now }),
      guard: async ({ tx, who, row }) => {
        const current = row as TreatmentRow;
        const refuse = (message: string) =>
          new ApiError('conflict', message, [{ field: 'status', issue: 'invalid_value', message: `current state: ${current.status}` }]);
        if (current.type === 'accept') {
          throw refuse(
            `Treatment ${current.id} is planned, but an accept treatment is implemented by the accountable owner's sign-off (POST /v1/risk-register/sign-off), not here.`,
          );
        }
        const risk = await findRisk(tx, who.tenantId, current.riskId);
        if (risk.status === 'closed') throw refuse(`Treatment ${current.id} is planned, but its risk ${risk.id} is closed (final).`);
        const implemented = await scopeToTenant(tx, who.tenantId).riskTreatment.findMany({
          where: { riskId: risk.id, status: 'implemented' },
        });
        const before = residualOf(risk.inherentLikelihood, risk.inherentImpact, implemented);
        const [l, i] = applyTreatment(before.likelihood, before.impact, current);
        const moved = l * i !== risk.residualLikelihood * risk.residualImpact;
        const riskStatus = risk.status === 'open' || (risk.status === 'accepted' && moved) ? 'treated' : risk.status;
        await writeResidual(tx, who.tenantId, risk.id, l, i, riskStatus, new Date());
        return {
          riskId: risk.id,
          residualScoreBefore: risk.residualLikelihood * risk.residualImpact,
          residualScoreAfter: l * i,
          riskStatus,
        };
      },
    },
  },
};

async function writeResidual(tx: Tx, tenantId: string, riskId: string, l: number, i: number, status: string, now: Date) {
  await scopeToTenant(tx, tenantId).riskRegisterRisk.updateMany({
    where: { id: riskId },
    data: { residualLikelihood: l, residualImpact: i, status, updatedAt: now },
  });
}

// ---------------------------------------------------------------- scores and heatmap

async function implementedByRisk(db: Tx, tenantId: string, riskIds: string[]): Promise<Map<string, TreatmentRow[]>> {
  const rows = riskIds.length
    ? await scopeToTenant(db, tenantId).riskTreatment.findMany({ where: { riskId: { in: riskIds }, status: 'implemented' } })
    : [];
  const out = new Map<string, TreatmentRow[]>();
  for (const t of rows.sort(byImplementation)) out.set(t.riskId, [...(out.get(t.riskId) ?? []), t]);
  return out;
}

export async function listScores(
  prisma: Prisma,
  tenantId: string,
  query: PageQuery & { status?: string; domain?: string },
): Promise<Page<z.infer<typeof RiskScore>>> {
  const page = await keysetList<RiskRow, RiskRow>(scopeToTenant(prisma, tenantId).riskRegisterRisk, query, {
    filters: ['status', 'domain'],
    render: (r) => r,
  });
  const implemented = await implementedByRisk(
    prisma,
    tenantId,
    page.data.map((r) => r.id),
  );
  return {
    cursor: page.cursor,
    data: page.data.map((r) => {
      const inherent = point(r.inherentLikelihood, r.inherentImpact);
      const residual = point(r.residualLikelihood, r.residualImpact);
      return {
        object: 'svc.risk_register.score',
        riskId: r.id,
        title: r.title,
        status: r.status as RiskOut['status'],
        inherent,
        residual,
        reduction: inherent.score - residual.score,
        implementedTreatmentIds: (implemented.get(r.id) ?? []).map((t) => t.id),
      };
    }),
  };
}

export async function scoreHistory(prisma: Prisma, tenantId: string, riskId: string): Promise<z.infer<typeof RiskScoreHistory>> {
  const risk = await findRisk(prisma, tenantId, riskId);
  const db = scopeToTenant(prisma, tenantId);
  const [implemented, signOff] = await Promise.all([
    db.riskTreatment.findMany({ where: { riskId, status: 'implemented' } }),
    db.riskSignOff.findFirst({ where: { riskId }, orderBy: { id: 'desc' } }),
  ]);
  const r = residualOf(risk.inherentLikelihood, risk.inherentImpact, implemented);
  const inherent = point(risk.inherentLikelihood, risk.inherentImpact);
  const residual = point(r.likelihood, r.impact);
  return {
    object: 'svc.risk_register.score_history',
    riskId,
    inherent,
    residual,
    steps: [
      { ...inherent, at: iso(risk.createdAt), cause: 'assessed', treatmentId: null, treatmentType: null, moved: false },
      ...r.steps.map((s) => ({
        ...s.point,
        at: iso(s.treatment.implementedAt ?? s.treatment.updatedAt),
        cause: 'treatment' as const,
        treatmentId: s.treatment.id,
        treatmentType: s.treatment.type as TreatmentOut['type'],
        moved: s.moved,
      })),
    ],
    acceptedResidual: signOff
      ? {
          signOffId: signOff.id,
          signerId: signOff.signerId,
          score: signOff.residualLikelihood * signOff.residualImpact,
          signedAt: iso(signOff.createdAt),
          current: signOff.residualLikelihood * signOff.residualImpact === residual.score,
        }
      : null,
  };
}

/** The 25 cells of the likelihood x impact matrix with the risks in each, by residual or inherent values. */
export async function heatmap(
  prisma: Prisma,
  tenantId: string,
  query: { basis: 'residual' | 'inherent'; includeClosed?: 'true' | 'false' | undefined; domain?: string | undefined },
): Promise<z.infer<typeof RiskHeatmap>> {
  const rows = await scopeToTenant(prisma, tenantId).riskRegisterRisk.findMany({
    where: {
      ...(query.includeClosed === 'true' ? {} : { status: { not: 'closed' } }),
      ...(query.domain ? { domain: query.domain } : {}),
    },
    select: { id: true, inherentLikelihood: true, inherentImpact: true, residualLikelihood: true, residualImpact: true },
    orderBy: { id: 'desc' },
  });
  const cells = [];
  for (let l = 1; l <= 5; l++) {
    for (let i = 1; i <= 5; i++) {
      const riskIds = rows
        .filter((r) =>
          query.basis === 'inherent'
            ? r.inherentLikelihood === l && r.inherentImpact === i
            : r.residualLikelihood === l && r.residualImpact === i,
        )
        .map((r) => r.id);
      cells.push({ ...point(l, i), count: riskIds.length, riskIds });
    }
  }
  return { object: 'svc.risk_register.heatmap', basis: query.basis, total: rows.length, cells, computedAt: iso(new Date()) };
}

// ---------------------------------------------------------------- reviews

/**
 * The periodic reviews. Before the write: a reviewer among the tenant's people (422) and a
 * `reviewedAt` not in the future (422). In the write's transaction, with the risk's row locked: a
 * risk of the tenant (404) that is not closed (409, also when a close commits first); the review
 * moves its next review date from its latest review (a review older than the latest keeps the
 * latest as the reference), and the audit event names the date it replaced.
 */
export const reviewStore: Store<typeof riskReviews> = {
  model: 'riskReview',
  render: renderReview,
  create: async ({ db, who, body }) => {
    const reviewedAt = pastMoment('reviewedAt', body.reviewedAt, new Date());
    if (body.reviewerId) await requirePerson(db, who.tenantId, 'reviewerId', body.reviewerId, false);
    return { riskId: body.riskId, reviewerId: body.reviewerId ?? null, notes: body.notes ?? null, reviewedAt, createdBy: who.actor };
  },
  prepare: async ({ tx, who, data, now }) => {
    const risk = await lockRisk(tx, who.tenantId, data.riskId as string);
    if (risk.status === 'closed') throw closedConflict(risk, 'a review');
    const reviewedAt = data.reviewedAt as Date;
    const latest = risk.lastReviewedAt && risk.lastReviewedAt > reviewedAt ? risk.lastReviewedAt : reviewedAt;
    const nextReviewAt = new Date(latest.getTime() + risk.reviewEveryDays * DAY_MS);
    await scopeToTenant(tx, who.tenantId).riskRegisterRisk.updateMany({
      where: { id: risk.id },
      data: { lastReviewedAt: latest, nextReviewAt, updatedAt: now },
    });
    data.nextReviewAt = nextReviewAt;
    return { previousNextReviewAt: iso(risk.nextReviewAt) };
  },
  auditData: (r) => ({ riskId: r.riskId, reviewedAt: r.reviewedAt, nextReviewAt: r.nextReviewAt }),
};

/** The review schedule of the risks that are not closed, optionally only the overdue (or not yet due) ones. */
export async function reviewsDue(
  prisma: Prisma,
  tenantId: string,
  query: PageQuery & { overdue?: 'true' | 'false' | undefined; ownerId?: string | undefined },
): Promise<Page<z.infer<typeof RiskReviewDue>>> {
  const now = new Date();
  return keysetList(scopeToTenant(prisma, tenantId).riskRegisterRisk, query, {
    where: {
      status: { not: 'closed' },
      ...(query.overdue === 'true' ? { nextReviewAt: { lt: now } } : query.overdue === 'false' ? { nextReviewAt: { gte: now } } : {}),
    },
    filters: ['ownerId'],
    render: (r: RiskRow) => {
      const late = now.getTime() - r.nextReviewAt.getTime();
      return {
        object: 'svc.risk_register.review_due' as const,
        riskId: r.id,
        title: r.title,
        ownerId: r.ownerId,
        reviewEveryDays: r.reviewEveryDays,
        lastReviewedAt: isoOrNull(r.lastReviewedAt),
        nextReviewAt: iso(r.nextReviewAt),
        overdue: late > 0,
        daysOverdue: late > 0 ? Math.floor(late / DAY_MS) : 0,
      };
    },
  });
}

// ---------------------------------------------------------------- sign-off

/**
 * The accountable owner accepts the risk's current residual: the sign-off records who, when and
 * which residual with the treatments in place; planned accept treatments become implemented and
 * the risk `accepted`. The kit finds the person the key acts for; the risk is locked, so two
 * sign-offs at once make one (the second finds the risk accepted).
 */
export const signOffStore: Store<typeof riskSignOffs> = {
  model: 'riskSignOff',
  computed: {
    residualScore: (s: SignOffRow) => point(s.residualLikelihood, s.residualImpact).score,
    residualRating: (s: SignOffRow) => point(s.residualLikelihood, s.residualImpact).rating,
    treatmentIds: (s: SignOffRow) => s.treatmentIds ?? [],
    signedAt: (s: SignOffRow) => iso(s.createdAt),
  },
  create: async ({ db, who, body }) => {
    // Another tenant's risk is 404 before anything is said of the person.
    if (!(await db.riskRegisterRisk.findFirst({ where: { id: body.riskId }, select: { id: true } }))) throw riskNotFound(body.riskId);
    return { riskId: body.riskId, statement: body.statement ?? null, createdBy: who.actor };
  },
  prepare: async ({ tx, who, person, data, now }) => {
    const signerId = (person as ActingPerson).id;
    const risk = await lockRisk(tx, who.tenantId, String(data.riskId));
    const refuse = (message: string) =>
      new ApiError('conflict', message, [{ field: 'riskId', issue: 'invalid_value', message: `current state: ${risk.status}` }]);
    if (risk.status === 'closed' || risk.status === 'accepted') {
      throw refuse(
        `Risk ${risk.id} is ${risk.status}; a sign-off is allowed from open or treated${risk.status === 'accepted' ? ' (it is already signed off at its current residual)' : ''}.`,
      );
    }
    if (!risk.ownerId) throw refuse(`Risk ${risk.id} has no accountable owner (ownerId); only an accountable owner can sign a risk off.`);
    if (risk.ownerId !== signerId) {
      throw new ApiError(
        'forbidden',
        `Only the accountable owner of risk ${risk.id} (${risk.ownerId}) may sign it off; ${signerId} is not its owner.`,
        [{ field: 'signerId', issue: 'not_accountable_owner', message: `the owner is ${risk.ownerId}` }],
      );
    }
    if ((person as ActingPerson).status !== 'active') {
      throw refuse(
        `The accountable owner ${risk.ownerId} of risk ${risk.id} is ${(person as ActingPerson).status}; an inactive person cannot sign off.`,
      );
    }
    const db = scopeToTenant(tx, who.tenantId);
    await db.riskTreatment.updateMany({
      where: { riskId: risk.id, type: 'accept', status: 'planned' },
      data: { status: 'implemented', implementedAt: now, updatedAt: now },
    });
    const implemented = await db.riskTreatment.findMany({ where: { riskId: risk.id, status: 'implemented' } });
    const after = residualOf(risk.inherentLikelihood, risk.inherentImpact, implemented);
    await writeResidual(tx, who.tenantId, risk.id, after.likelihood, after.impact, 'accepted', now);
    Object.assign(data, {
      signerId,
      residualLikelihood: after.likelihood,
      residualImpact: after.impact,
      treatmentIds: [...implemented].sort(byImplementation).map((t) => t.id),
    });
    return { from: risk.status, to: 'accepted' };
  },
  auditData: (s) => ({ riskId: s.riskId, signerId: s.signerId, residualScore: s.residualScore }),
};
