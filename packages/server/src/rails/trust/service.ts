import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Certification,
  type certifications,
  type NdaDocumentContent,
  NdaRequest,
  type ndaDocuments,
  type ndaRequests,
  type PublicTrustPage,
  type QuestionnaireAnswers,
  type QuestionnaireBody,
  type subProcessors,
  type TrustPosture,
  type TrustStatus,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { findRow, tableOf } from '../../db/rows.ts';
import { sqlOf } from '../../db/sql.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, notFound, stateConflict } from '../../errors.ts';
import type {
  TrustCertification as CertificationRow,
  TrustNdaRequest as NdaRequestRow,
  TrustPage as PageRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { claimSlug, isUniqueViolation, recorded } from '../../platform/records.ts';
import { iso, rendererOf } from '../../platform/render.ts';
import { type ApprovedGap, controlRating, latestApprovedGaps } from '../compliance/gap-status.ts';

// ---------------------------------------------------------------- controls and evidence

/** The tenant's activated frameworks, their controls, and which controls have unexpired evidence (by evidence id). */
interface Coverage {
  frameworks: { framework: string; versionKey: string; controls: string[] }[];
  /** Control id -> ids of unexpired evidence records citing it. */
  evidenceOf: Map<string, string[]>;
  /** Framework id -> the latest approved gap analysis of it: its id, approval and each assessed control's requirement status. */
  gapOf: Map<string, ApprovedGap>;
  at: Date;
}

async function coverage(prisma: Prisma, tenantId: string): Promise<Coverage> {
  const db = scopeToTenant(prisma, tenantId);
  const at = new Date();
  const activations = await db.frameworkActivation.findMany({
    select: { frameworkId: true, versionKey: true },
    orderBy: { frameworkId: 'asc' },
  });
  const versionKeys = activations.map((a) => a.versionKey);
  const [controls, evidence] = await Promise.all([
    versionKeys.length
      ? prisma.frameworkControl.findMany({
          where: { versionKey: { in: versionKeys } },
          select: { versionKey: true, id: true },
          orderBy: { ord: 'asc' },
        })
      : [],
    db.evidence.findMany({
      where: { OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
      select: { id: true, controlIds: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const evidenceOf = new Map<string, string[]>();
  for (const e of evidence) {
    for (const c of e.controlIds) {
      const list = evidenceOf.get(c) ?? [];
      list.push(e.id);
      evidenceOf.set(c, list);
    }
  }
  return {
    frameworks: activations.map((a) => ({
      framework: a.frameworkId,
      versionKey: a.versionKey,
      controls: controls.filter((c) => c.versionKey === a.versionKey).map((c) => c.id),
    })),
    evidenceOf,
    gapOf: await latestApprovedGaps(
      db,
      activations.map((a) => a.frameworkId),
    ),
    at,
  };
}

// A control's status is the compliance rail's rating (gap-status.ts): the latest approved gap
// analysis of its framework decides for the controls it assessed, unexpired evidence for the rest.

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

/**
 * Per framework: the controls, those with unexpired evidence, and the score, which counts a
 * passing control as 1 and a partial one as 1/2 (with no approved gap analysis, the share of
 * controls with evidence). The controls an approved gap analysis assessed are listed with their
 * status and that assessment as its source.
 */
function postureOf(cov: Coverage): z.infer<typeof TrustPosture> {
  let passing = 0;
  let partial = 0;
  const frameworks = cov.frameworks.map((f) => {
    const gap = cov.gapOf.get(f.framework);
    const hasEvidence = (c: string) => (cov.evidenceOf.get(c)?.length ?? 0) > 0;
    const evidenced = f.controls.filter(hasEvidence).length;
    const statuses = f.controls.map((c) => ({
      control: c,
      requirement: gap?.statuses.get(c),
      status: controlRating(gap?.statuses.get(c), hasEvidence(c)),
    }));
    const pass = statuses.filter((s) => s.status === 'passing').length;
    const part = statuses.filter((s) => s.status === 'partial').length;
    passing += pass;
    partial += part;
    return {
      framework: f.framework,
      dictionaryVersion: f.versionKey,
      controls: f.controls.length,
      evidenced,
      score: ratio(pass + part / 2, f.controls.length),
      passing: pass,
      partial: part,
      failing: statuses.filter((s) => s.status === 'failing').length,
      gapAnalysis: gap ? { assessmentId: gap.assessmentId, approvedAt: iso(gap.approvedAt) } : null,
      assessedControls: statuses
        .filter((s) => s.requirement !== undefined)
        .map((s) => ({
          control: s.control,
          requirement: s.requirement as string,
          status: s.status,
          evidenced: hasEvidence(s.control),
          source: `gap-analysis:${gap?.assessmentId}`,
        })),
    };
  });
  const controls = frameworks.reduce((n, f) => n + f.controls, 0);
  const evidenced = frameworks.reduce((n, f) => n + f.evidenced, 0);
  return {
    object: 'svc.trust.posture',
    score: ratio(passing + partial / 2, controls),
    controls,
    evidenced,
    frameworks,
    computedAt: iso(cov.at),
  };
}

/** Share of the controls of each activated framework with unexpired evidence, with its parts. */
export async function posture(prisma: Prisma, tenantId: string): Promise<z.infer<typeof TrustPosture>> {
  return postureOf(await coverage(prisma, tenantId));
}

type Answers = z.infer<typeof QuestionnaireAnswers>;

/** Answers each question from the tenant's controls and unexpired evidence, or says why it cannot. */
export async function answerQuestionnaire(prisma: Prisma, tenantId: string, body: z.infer<typeof QuestionnaireBody>): Promise<Answers> {
  const cov = await coverage(prisma, tenantId);
  const known = new Set(cov.frameworks.flatMap((f) => f.controls));
  const answered: Answers['answered'] = [];
  const unanswerable: Answers['unanswerable'] = [];
  for (const q of body.questions) {
    const base = { id: q.id, text: q.text };
    let controlIds: string[];
    if (q.controlIds) {
      controlIds = [...new Set(q.controlIds)];
      const unknown = controlIds.filter((c) => !known.has(c));
      if (unknown.length > 0) {
        unanswerable.push({
          ...base,
          reason: 'unknown_controls',
          detail: `Not controls of a framework the tenant has activated: ${unknown.join(', ')}.`,
          controlIds: unknown,
        });
        continue;
      }
    } else if (q.framework) {
      const f = cov.frameworks.find((x) => x.framework === q.framework);
      if (!f) {
        unanswerable.push({
          ...base,
          reason: 'framework_not_activated',
          detail: `The tenant has not activated framework ${q.framework}.`,
          controlIds: [],
        });
        continue;
      }
      controlIds = f.controls;
    } else {
      unanswerable.push({
        ...base,
        reason: 'no_controls_cited',
        detail: 'The question cites no control and no framework.',
        controlIds: [],
      });
      continue;
    }
    const missing = controlIds.filter((c) => (cov.evidenceOf.get(c)?.length ?? 0) === 0);
    if (missing.length > 0 || controlIds.length === 0) {
      unanswerable.push({
        ...base,
        reason: 'missing_evidence',
        detail: controlIds.length === 0 ? 'The cited framework has no controls.' : `No unexpired evidence for: ${missing.join(', ')}.`,
        controlIds: missing,
      });
      continue;
    }
    const evidenceIds = [...new Set(controlIds.flatMap((c) => cov.evidenceOf.get(c) ?? []))].sort();
    answered.push({ ...base, answer: 'yes', controlIds, evidenceIds });
  }
  return { object: 'svc.trust.questionnaire', answered, unanswerable, computedAt: iso(cov.at) };
}

// ---------------------------------------------------------------- certifications and sub-processors

const renderCertification = rendererOf<CertificationRow>()(Certification, {
  expired: (r) => r.validUntil !== null && r.validUntil.getTime() <= Date.now(),
});

export const certificationStore: Store<typeof certifications> = {
  model: 'trustCertification',
  render: renderCertification,
  create: async ({ who, body }) => ({
    name: body.name,
    issuer: body.issuer,
    scope: body.scope ?? null,
    validFrom: new Date(body.validFrom),
    validUntil: body.validUntil ? new Date(body.validUntil) : null,
    createdBy: who.actor,
  }),
  auditData: (c) => ({ name: c.name, issuer: c.issuer, validUntil: c.validUntil }),
};

export const subProcessorStore: Store<typeof subProcessors> = {
  model: 'trustSubProcessor',
  create: async ({ who, body }) => ({ name: body.name, purpose: body.purpose, region: body.region.toLowerCase(), createdBy: who.actor }),
  auditData: (s) => ({ name: s.name, purpose: s.purpose, region: s.region }),
};

// ---------------------------------------------------------------- publishing

const publicPath = (slug: string) => `/v1/trust/public/${slug}`;

function renderStatus(p: PageRow | null): z.infer<typeof TrustStatus> {
  return {
    object: 'svc.trust.status',
    published: p?.published ?? false,
    slug: p?.slug ?? null,
    publicPath: p?.published ? publicPath(p.slug) : null,
    updatedAt: p ? iso(p.updatedAt) : null,
  };
}

export async function status(prisma: Prisma, tenantId: string): Promise<z.infer<typeof TrustStatus>> {
  return renderStatus(await scopeToTenant(prisma, tenantId).trustPage.findFirst({}));
}

const slugTaken = (slug: string) =>
  new ApiError('conflict', `The slug ${slug} is taken by another tenant.`, [{ field: 'slug', issue: 'invalid_value', message: 'taken' }]);

/**
 * Publishes (or re-publishes under another slug) the tenant's page. Publications of one tenant
 * queue (the first creates the page, the next update it), and a slug another tenant holds, or
 * takes meanwhile, is 409 (claimSlug).
 */
export async function publish(prisma: Prisma, who: Actor, slug: string): Promise<z.infer<typeof TrustStatus>> {
  try {
    return await prisma.$transaction(async (tx) => {
      const holderOf = (s: string) => tx.trustPage.findUnique({ where: { slug: s }, select: { tenantId: true } });
      await claimSlug(tx, 'svc.trust.page', who, slug, holderOf, () => slugTaken(slug));
      const db = scopeToTenant(tx, who.tenantId);
      const now = new Date();
      const existing = await db.trustPage.findFirst({});
      const page = existing
        ? await tx.trustPage.update({ where: { id: existing.id }, data: { slug, published: true, updatedAt: now } })
        : await tx.trustPage.create({
            data: { id: newId('tpg'), tenantId: who.tenantId, slug, published: true, createdAt: now, updatedAt: now },
          });
      const data = { slug, previousSlug: existing?.slug ?? null };
      return recorded(tx, who, renderStatus(page), { action: 'trust_page.published', resourceId: page.id, data });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(slug);
    throw err;
  }
}

/** Takes the page down; the slug stays reserved for the tenant. 404 when it was never published. */
export async function unpublish(prisma: Prisma, who: Actor): Promise<z.infer<typeof TrustStatus>> {
  return prisma.$transaction(async (tx) => {
    const existing = await scopeToTenant(tx, who.tenantId).trustPage.findFirst({});
    if (!existing) throw new ApiError('not_found', 'The trust page was never published.');
    const page = await tx.trustPage.update({ where: { id: existing.id }, data: { published: false, updatedAt: new Date() } });
    const data = { slug: page.slug, wasPublished: existing.published };
    return recorded(tx, who, renderStatus(page), { action: 'trust_page.unpublished', resourceId: page.id, data });
  });
}

/** The public page of a published slug: posture, certifications and sub-processors; 404 otherwise. */
export async function publicPage(prisma: Prisma, slug: string): Promise<z.infer<typeof PublicTrustPage>> {
  const page = await prisma.trustPage.findUnique({ where: { slug } });
  if (!page?.published) throw new ApiError('not_found', `No published trust page has the slug ${slug}.`);
  const db = scopeToTenant(prisma, page.tenantId);
  const [post, certs, subs] = await Promise.all([
    posture(prisma, page.tenantId),
    db.trustCertification.findMany({ orderBy: { id: 'desc' }, take: 500 }),
    db.trustSubProcessor.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }], take: 500 }),
  ]);
  return {
    object: 'svc.trust.public_page',
    slug: page.slug,
    // The public page shows the figures, not which controls an internal gap analysis found failing.
    posture: {
      ...post,
      frameworks: post.frameworks.map((f) => ({
        framework: f.framework,
        dictionaryVersion: f.dictionaryVersion,
        controls: f.controls,
        evidenced: f.evidenced,
        score: f.score,
      })),
    },
    certifications: certs.map((c) => {
      const { createdBy: _createdBy, ...rest } = renderCertification(c);
      return rest;
    }),
    subProcessors: subs.map((s) => ({ name: s.name, purpose: s.purpose, region: s.region })),
    updatedAt: iso(page.updatedAt),
  };
}

// ---------------------------------------------------------------- NDA vault

export const ndaDocumentStore: Store<typeof ndaDocuments> = {
  model: 'trustNdaDocument',
  create: async ({ who, body }) => ({
    title: body.title,
    description: body.description ?? null,
    contentUri: body.contentUri,
    sha256: body.sha256 ?? null,
    mediaType: body.mediaType ?? null,
    createdBy: who.actor,
  }),
  auditData: (d) => ({ title: d.title, mediaType: d.mediaType }),
};

const renderNdaRequest = rendererOf<NdaRequestRow>()(NdaRequest, { accessToken: () => null });

const hashAccessToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The NDA requests' list, get, create and revocation; accepting one is `acceptNdaRequest`. */
export const ndaRequestStore: Store<typeof ndaRequests> = {
  model: 'trustNdaRequest',
  render: renderNdaRequest,
  create: async ({ who, body }) => ({
    requesterEmail: body.requesterEmail.toLowerCase(),
    requesterName: body.requesterName,
    company: body.company ?? null,
    status: 'pending',
    createdBy: who.actor,
  }),
  auditData: (r) => ({ requesterEmail: r.requesterEmail, company: r.company }),
  // A revoked request reads nothing: the token's hash goes with the access it granted.
  transitions: { revoke: () => ({ accessTokenHash: null }) },
};

/**
 * Records that the requester accepted the NDA, from `pending` (409 otherwise). Not a kit
 * transition: its response carries the access token it mints (shown once, stored hashed), which
 * the kit would also put in the record of the change (audit event, webhook payload).
 */
export async function acceptNdaRequest(prisma: Prisma, who: Actor, id: string): Promise<z.infer<typeof NdaRequest>> {
  const from = ['pending'] as const;
  return prisma.$transaction(async (tx) => {
    // Read locked, as the kit reads a transition's row: the state checked holds until the commit.
    const current = (await findRow(sqlOf(tx), tableOf(prisma, 'trustNdaRequest'), who.tenantId, id, { forUpdate: true })) as
      | NdaRequestRow
      | undefined;
    if (!current) throw notFound('NDA request', id);
    if (!(from as readonly string[]).includes(current.status)) throw stateConflict('NDA request', id, current.status, 'accept', from);
    const accessToken = randomBytes(24).toString('base64url');
    const row = await tx.trustNdaRequest.update({
      where: { id },
      data: { status: 'accepted', updatedAt: new Date(), accessTokenHash: hashAccessToken(accessToken) },
    });
    const data = { from: current.status, to: 'accepted' };
    const out = await recorded(tx, who, renderNdaRequest(row), { action: 'nda_request.accepted', data });
    return { ...out, accessToken };
  });
}

/** What every refusal of the vault's public route answers, whatever the reason. */
const notReleased = () =>
  new ApiError('forbidden', 'No document is released to this NDA request and access token.', [{ field: 'request', issue: 'not_released' }]);

/** Compared against when the NDA request does not exist, so that case costs the same as a wrong token. */
const STAND_IN_TOKEN_HASH = Buffer.from(hashAccessToken(randomBytes(24).toString('base64url')), 'hex');

/**
 * A vault document's content reference for the external requester (no API key): the access token
 * is checked first, then the NDA request must be accepted and the document of its tenant. Every
 * refusal (unknown request, wrong token, pending or revoked request, missing or foreign document)
 * is one 403, so the route tells a caller without the token nothing about which requests or
 * documents exist or what state a request is in.
 */
export async function ndaDocumentContent(
  prisma: Prisma,
  documentId: string,
  ndaRequestId: string,
  accessToken: string,
): Promise<z.infer<typeof NdaDocumentContent>> {
  const req = await prisma.trustNdaRequest.findUnique({ where: { id: ndaRequestId } });
  const given = Buffer.from(hashAccessToken(accessToken), 'hex');
  const held = req?.accessTokenHash ? Buffer.from(req.accessTokenHash, 'hex') : undefined;
  // Compared in constant time against the request's hash or a stand-in, so an unknown request is not quicker.
  const same = timingSafeEqual(held && held.length === given.length ? held : STAND_IN_TOKEN_HASH, given);
  if (!req || !held || !same || req.status !== 'accepted') throw notReleased();
  const doc = await scopeToTenant(prisma, req.tenantId).trustNdaDocument.findFirst({ where: { id: documentId } });
  if (!doc) throw notReleased();
  return {
    object: 'svc.trust.nda_document_content',
    documentId: doc.id,
    ndaRequestId: req.id,
    contentUri: doc.contentUri,
    sha256: doc.sha256,
    mediaType: doc.mediaType,
  };
}
