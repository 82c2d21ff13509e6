import {
  ASSESSMENT_TYPES,
  type Assessment,
  type AssessmentType,
  type Attestation,
  type CreateAssessmentBody,
  type CreateAttestationBody,
  type CreateEvidenceBody,
  type Evidence,
  type Obligation,
  type TenantFramework,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../db/client.ts';
import { decodeCursor, toPage } from '../db/pagination.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Assessment as AssessmentRow, Attestation as AttestationRow, Evidence as EvidenceRow } from '../generated/prisma/client.ts';
import { newId } from '../ids.ts';
import { recordChange } from './changes.ts';

type Page<T> = { data: T[]; cursor: string | null };
type ListOpts = { limit: number; cursor?: string };

/** Who does what, for which tenant, under which correlation id: the first argument of every write. */
export interface Actor {
  tenantId: string;
  actor: string;
  correlationId: string;
}

const iso = (d: Date) => d.toISOString();

/**
 * The framework catalogue with the tenant's activation state and obligation counts: one statement
 * (the hot read of the compliance rail), keyset-paginated by framework id.
 */
export async function listTenantFrameworks(
  prisma: Prisma,
  tenantId: string,
  opts: ListOpts & { activated?: 'true' | 'false' },
): Promise<Page<z.infer<typeof TenantFramework>>> {
  const after = decodeCursor(opts.cursor, 'string') ?? '';
  const activated = opts.activated === undefined ? null : opts.activated === 'true';
  const rows = await prisma.$queryRaw<
    {
      id: string;
      title: string;
      short_title: string;
      latest_version: string;
      version_key: string | null;
      activated_at: Date | null;
      total: number;
      open: number;
    }[]
  >`
    SELECT f."id", f."title", f."short_title", f."latest_version", a."version_key", a."created_at" AS "activated_at",
           coalesce(o."total", 0)::int AS "total", coalesce(o."open", 0)::int AS "open"
    FROM "frameworks" f
    LEFT JOIN "framework_activations" a ON a."tenant_id" = ${tenantId} AND a."framework_id" = f."id"
    LEFT JOIN LATERAL (
      SELECT count(*) AS "total", count(*) FILTER (WHERE ob."status" = 'open') AS "open"
      FROM "obligations" ob WHERE ob."tenant_id" = ${tenantId} AND ob."framework_id" = f."id") o ON a."id" IS NOT NULL
    WHERE f."id" > ${after} AND (${activated}::boolean IS NULL OR (a."id" IS NOT NULL) = ${activated}::boolean)
    ORDER BY f."id" LIMIT ${opts.limit + 1}`;
  return toPage(
    rows,
    opts.limit,
    (r) => r.id,
    (r) => ({
      object: 'svc.compliance.framework' as const,
      id: r.id,
      title: r.title,
      shortTitle: r.short_title,
      latestVersion: r.latest_version,
      activated: r.version_key !== null,
      dictionaryVersion: r.version_key,
      activatedAt: r.activated_at ? iso(r.activated_at) : null,
      obligations: { total: Number(r.total), open: Number(r.open) },
    }),
  );
}

function renderAssessment(r: AssessmentRow): z.infer<typeof Assessment> {
  return {
    object: 'svc.compliance.assessment',
    id: r.id,
    type: r.type as AssessmentType,
    title: r.title,
    systemId: r.systemId,
    jurisdiction: r.jurisdiction,
    status: r.status as 'draft',
    completion: r.completion,
    stages: r.stages as z.infer<typeof Assessment>['stages'],
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

export async function createAssessment(prisma: Prisma, who: Actor, body: z.infer<typeof CreateAssessmentBody>) {
  const stages = ASSESSMENT_TYPES[body.type].stages.map(([key, title]) => ({ key, title, status: 'pending' as const }));
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await db.assessment.create({
      data: {
        id: newId('asm'),
        tenantId: who.tenantId,
        type: body.type,
        systemId: body.systemId,
        jurisdiction: body.jurisdiction.toLowerCase(),
        title: body.title ?? null,
        status: 'draft',
        completion: 0,
        stages,
        createdBy: who.actor,
      },
    });
    await recordChange(tx, {
      ...who,
      action: 'assessment.created',
      resourceType: 'svc.compliance.assessment',
      resourceId: row.id,
      data: { type: row.type, systemId: row.systemId, jurisdiction: row.jurisdiction },
      resource: renderAssessment(row),
    });
    return renderAssessment(row);
  });
}

export async function getAssessment(prisma: Prisma, tenantId: string, id: string) {
  const row = await scopeToTenant(prisma, tenantId).assessment.findFirst({ where: { id } });
  if (!row) throw notFound('Assessment', id);
  return renderAssessment(row);
}

export async function listAssessments(
  prisma: Prisma,
  tenantId: string,
  opts: ListOpts & { status?: string; type?: string; systemId?: string },
): Promise<Page<z.infer<typeof Assessment>>> {
  const after = decodeCursor(opts.cursor, 'string');
  const rows = await scopeToTenant(prisma, tenantId).assessment.findMany({
    where: {
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.type ? { type: opts.type } : {}),
      ...(opts.systemId ? { systemId: opts.systemId } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: 'desc' },
    take: opts.limit + 1,
  });
  return toPage(rows, opts.limit, (r) => r.id, renderAssessment);
}

export async function listObligations(
  prisma: Prisma,
  tenantId: string,
  opts: ListOpts & { framework?: string; status?: string; actor?: string },
): Promise<Page<z.infer<typeof Obligation>>> {
  const after = decodeCursor(opts.cursor, 'string');
  const rows = await scopeToTenant(prisma, tenantId).obligation.findMany({
    where: {
      ...(opts.framework ? { frameworkId: opts.framework } : {}),
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.actor ? { actor: opts.actor } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: 'desc' },
    take: opts.limit + 1,
  });
  return toPage(
    rows,
    opts.limit,
    (r) => r.id,
    (r) => ({
      object: 'svc.compliance.obligation' as const,
      id: r.id,
      framework: r.frameworkId,
      dictionaryVersion: r.versionKey,
      sourceRef: r.sourceRef,
      title: r.title,
      description: r.description,
      clauseRef: r.clauseRef,
      actor: r.actor,
      status: r.status as 'open',
      dueDate: iso(r.dueDate).slice(0, 10),
      createdAt: iso(r.createdAt),
    }),
  );
}

/** Control ids that are not in any framework version the tenant has activated. */
async function unknownControls(tx: Tx, tenantId: string, controlIds: string[]): Promise<string[]> {
  const versions = (await scopeToTenant(tx, tenantId).frameworkActivation.findMany({ select: { versionKey: true } })).map(
    (a) => a.versionKey,
  );
  const found = await tx.frameworkControl.findMany({
    where: { versionKey: { in: versions }, id: { in: controlIds } },
    select: { id: true },
  });
  const known = new Set(found.map((c) => c.id));
  return controlIds.filter((id) => !known.has(id));
}

function renderEvidence(r: EvidenceRow): z.infer<typeof Evidence> {
  return {
    object: 'svc.compliance.evidence',
    id: r.id,
    title: r.title,
    kind: r.kind as z.infer<typeof Evidence>['kind'],
    description: r.description,
    uri: r.uri,
    sha256: r.sha256,
    mediaType: r.mediaType,
    sizeBytes: r.sizeBytes,
    systemId: r.systemId,
    controlIds: r.controlIds,
    collectedAt: iso(r.collectedAt),
    expiresAt: r.expiresAt ? iso(r.expiresAt) : null,
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
  };
}

export async function createEvidence(prisma: Prisma, who: Actor, body: z.infer<typeof CreateEvidenceBody>) {
  const controlIds = [...new Set(body.controlIds)];
  return prisma.$transaction(async (tx) => {
    const unknown = await unknownControls(tx, who.tenantId, controlIds);
    if (unknown.length > 0) {
      throw new ApiError(
        'validation_failed',
        `Evidence can only support controls of activated frameworks; unknown: ${unknown.join(', ')}.`,
        unknown.map((id) => ({
          field: `controlIds.${body.controlIds.indexOf(id)}`,
          issue: 'invalid_value',
          message: `control ${id} is not in an activated framework`,
        })),
      );
    }
    const row = await scopeToTenant(tx, who.tenantId).evidence.create({
      data: {
        id: newId('evd'),
        tenantId: who.tenantId,
        title: body.title,
        kind: body.kind,
        description: body.description ?? null,
        uri: body.uri ?? null,
        sha256: body.sha256 ?? null,
        mediaType: body.mediaType ?? null,
        sizeBytes: body.sizeBytes ?? null,
        systemId: body.systemId ?? null,
        controlIds,
        collectedAt: body.collectedAt ? new Date(body.collectedAt) : new Date(),
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
        createdBy: who.actor,
      },
    });
    await recordChange(tx, {
      ...who,
      action: 'evidence.uploaded',
      resourceType: 'svc.compliance.evidence',
      resourceId: row.id,
      data: { controlIds, kind: row.kind, sha256: row.sha256 },
      resource: renderEvidence(row),
    });
    return renderEvidence(row);
  });
}

export async function getEvidence(prisma: Prisma, tenantId: string, id: string) {
  const row = await scopeToTenant(prisma, tenantId).evidence.findFirst({ where: { id } });
  if (!row) throw notFound('Evidence', id);
  return renderEvidence(row);
}

export async function listEvidence(
  prisma: Prisma,
  tenantId: string,
  opts: ListOpts & { controlId?: string; systemId?: string },
): Promise<Page<z.infer<typeof Evidence>>> {
  const after = decodeCursor(opts.cursor, 'string');
  const rows = await scopeToTenant(prisma, tenantId).evidence.findMany({
    where: {
      ...(opts.controlId ? { controlIds: { has: opts.controlId } } : {}),
      ...(opts.systemId ? { systemId: opts.systemId } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: 'desc' },
    take: opts.limit + 1,
  });
  return toPage(rows, opts.limit, (r) => r.id, renderEvidence);
}

function renderAttestation(r: AttestationRow): z.infer<typeof Attestation> {
  return {
    object: 'svc.compliance.attestation',
    id: r.id,
    subject: { type: r.subjectType as 'control' | 'assessment', id: r.subjectId },
    statement: r.statement,
    attester: { name: r.attesterName, email: r.attesterEmail, title: r.attesterTitle },
    attestedAt: iso(r.attestedAt),
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
  };
}

export async function createAttestation(prisma: Prisma, who: Actor, body: z.infer<typeof CreateAttestationBody>) {
  const attestedAt = body.attestedAt ? new Date(body.attestedAt) : new Date();
  if (attestedAt.getTime() > Date.now() + 60_000) {
    throw new ApiError('validation_failed', 'attestedAt cannot be in the future.', [{ field: 'attestedAt', issue: 'too_big' }]);
  }
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    if (body.subject.type === 'assessment') {
      const found = await db.assessment.findFirst({ where: { id: body.subject.id }, select: { id: true } });
      if (!found) throw notFound('Assessment', body.subject.id);
    } else if ((await unknownControls(tx, who.tenantId, [body.subject.id])).length > 0) {
      throw new ApiError('validation_failed', `Control ${body.subject.id} is not in an activated framework.`, [
        { field: 'subject.id', issue: 'invalid_value' },
      ]);
    }
    const row = await db.attestation.create({
      data: {
        id: newId('att'),
        tenantId: who.tenantId,
        subjectType: body.subject.type,
        subjectId: body.subject.id,
        statement: body.statement,
        attesterName: body.attester.name,
        attesterEmail: body.attester.email,
        attesterTitle: body.attester.title ?? null,
        attestedAt,
        createdBy: who.actor,
      },
    });
    await recordChange(tx, {
      ...who,
      action: 'attestation.created',
      resourceType: 'svc.compliance.attestation',
      resourceId: row.id,
      data: { subject: body.subject, attester: body.attester.email },
      resource: renderAttestation(row),
    });
    return renderAttestation(row);
  });
}

export async function getAttestation(prisma: Prisma, tenantId: string, id: string) {
  const row = await scopeToTenant(prisma, tenantId).attestation.findFirst({ where: { id } });
  if (!row) throw notFound('Attestation', id);
  return renderAttestation(row);
}

export async function listAttestations(
  prisma: Prisma,
  tenantId: string,
  opts: ListOpts & { subjectType?: string; subjectId?: string },
): Promise<Page<z.infer<typeof Attestation>>> {
  const after = decodeCursor(opts.cursor, 'string');
  const rows = await scopeToTenant(prisma, tenantId).attestation.findMany({
    where: {
      ...(opts.subjectType ? { subjectType: opts.subjectType } : {}),
      ...(opts.subjectId ? { subjectId: opts.subjectId } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: 'desc' },
    take: opts.limit + 1,
  });
  return toPage(rows, opts.limit, (r) => r.id, renderAttestation);
}
