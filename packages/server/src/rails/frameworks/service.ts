import type { Activation, Clause, Control, Framework, Question } from '@svc/contract';
import type { z } from 'zod';
import { compareSemver } from '../../content/frameworks.ts';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type {
  FrameworkClause as ClauseRow,
  FrameworkControl as ControlRow,
  Framework as FrameworkRow,
  FrameworkQuestion as QuestionRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { recordChange } from '../../platform/ledger/changes.ts';
import { isUniqueViolation } from '../../platform/records.ts';
import { type ActivationRow, derivedObligation, renderActivation } from './versions.ts';

type Page<T> = { data: T[]; cursor: string | null };

/** `eu-ai-act` or `eu-ai-act@1.0.0` to the stored version key; unknown ids are a 404. */
export async function resolveVersion(prisma: Tx, ref: string): Promise<{ frameworkId: string; version: string; key: string }> {
  const [frameworkId = '', pinned] = ref.split('@');
  const framework = await prisma.framework.findUnique({ where: { id: frameworkId } });
  if (!framework) throw new ApiError('not_found', `Framework ${frameworkId} was not found.`);
  const version = pinned ?? framework.latestVersion;
  const row = await prisma.frameworkVersion.findUnique({ where: { key: `${frameworkId}@${version}` } });
  if (!row) throw new ApiError('not_found', `Framework ${frameworkId} has no version ${version}.`);
  return { frameworkId, version, key: row.key };
}

async function renderFramework(prisma: Tx, frameworkId: string, version: string): Promise<z.infer<typeof Framework>> {
  const key = `${frameworkId}@${version}`;
  const [fw, ver, versions, clauses, controls, questions, obligations] = await Promise.all([
    prisma.framework.findUniqueOrThrow({ where: { id: frameworkId } }),
    prisma.frameworkVersion.findUniqueOrThrow({ where: { key } }),
    prisma.frameworkVersion.findMany({ where: { frameworkId }, select: { version: true } }),
    prisma.frameworkClause.count({ where: { versionKey: key } }),
    prisma.frameworkControl.count({ where: { versionKey: key } }),
    prisma.frameworkQuestion.count({ where: { versionKey: key } }),
    prisma.frameworkObligation.count({ where: { versionKey: key } }),
  ]);
  return {
    object: 'svc.frameworks.framework',
    id: fw.id,
    version,
    dictionaryVersion: key,
    versions: versions.map((v) => v.version).sort(compareSemver),
    title: fw.title,
    shortTitle: fw.shortTitle,
    kind: fw.kind as 'regulation' | 'standard' | 'framework',
    publisher: fw.publisher,
    jurisdiction: fw.jurisdiction,
    description: fw.description,
    publishedAt: ver.publishedAt.toISOString().slice(0, 10),
    sourceUrl: ver.sourceUrl,
    license: ver.license,
    contentHash: ver.contentHash,
    counts: { clauses, controls, questions, obligations },
  };
}

export async function listFrameworks(prisma: Prisma, opts: { limit: number; cursor?: string }): Promise<Page<z.infer<typeof Framework>>> {
  const page = await keysetList(prisma.framework, opts, { order: 'asc', render: (r: FrameworkRow) => r });
  return { data: await Promise.all(page.data.map((r) => renderFramework(prisma, r.id, r.latestVersion))), cursor: page.cursor };
}

export async function getFramework(prisma: Prisma, ref: string) {
  const v = await resolveVersion(prisma, ref);
  return renderFramework(prisma, v.frameworkId, v.version);
}

export async function listClauses(
  prisma: Prisma,
  ref: string,
  opts: { limit: number; cursor?: string },
): Promise<Page<z.infer<typeof Clause>>> {
  const v = await resolveVersion(prisma, ref);
  return keysetList(prisma.frameworkClause, opts, {
    key: 'ord',
    order: 'asc',
    where: { versionKey: v.key },
    render: (r: ClauseRow) => ({
      object: 'svc.frameworks.clause' as const,
      framework: v.frameworkId,
      dictionaryVersion: v.key,
      ref: r.ref,
      title: r.title,
      summary: r.summary,
      parentRef: r.parentRef,
    }),
  });
}

export async function listControls(
  prisma: Prisma,
  ref: string,
  opts: { limit: number; cursor?: string; category?: string },
): Promise<Page<z.infer<typeof Control>>> {
  const v = await resolveVersion(prisma, ref);
  return keysetList(prisma.frameworkControl, opts, {
    key: 'ord',
    order: 'asc',
    where: { versionKey: v.key },
    filters: ['category'],
    render: (r: ControlRow) => ({
      object: 'svc.frameworks.control' as const,
      id: r.id,
      framework: v.frameworkId,
      dictionaryVersion: v.key,
      title: r.title,
      description: r.description,
      category: r.category,
      clauseRefs: r.clauseRefs,
    }),
  });
}

export async function listQuestions(
  prisma: Prisma,
  ref: string,
  opts: { limit: number; cursor?: string; controlId?: string },
): Promise<Page<z.infer<typeof Question>>> {
  const v = await resolveVersion(prisma, ref);
  return keysetList(prisma.frameworkQuestion, opts, {
    key: 'ord',
    order: 'asc',
    where: { versionKey: v.key },
    filters: ['controlId'],
    render: (r: QuestionRow) => ({
      object: 'svc.frameworks.question' as const,
      id: r.id,
      framework: v.frameworkId,
      dictionaryVersion: v.key,
      text: r.text,
      controlId: r.controlId,
      clauseRef: r.clauseRef,
      answerType: r.answerType as 'yes_no' | 'text' | 'scale' | 'evidence',
    }),
  });
}

export interface ActivateOptions {
  tenantId: string;
  actor: string;
  correlationId: string;
  ref: string;
  version?: string;
}

/**
 * Activates a framework for a tenant and derives its obligations, in one transaction with the
 * audit event. A second activation returns the first one unchanged (and audits nothing): the
 * unique (tenant, framework) index decides a race between two first calls.
 */
export async function activateFramework(
  prisma: Prisma,
  opts: ActivateOptions,
): Promise<{ created: boolean; activation: z.infer<typeof Activation> }> {
  const ref = opts.version ? `${opts.ref.split('@')[0]}@${opts.version}` : opts.ref;
  const v = await resolveVersion(prisma, ref);
  const render = (a: ActivationRow, obligations: number, alreadyActive: boolean) =>
    renderActivation(v.frameworkId, a, obligations, alreadyActive);
  const existingOf = async (db: Tx) => {
    const scoped = scopeToTenant(db, opts.tenantId);
    const existing = await scoped.frameworkActivation.findFirst({ where: { frameworkId: v.frameworkId } });
    if (!existing) return undefined;
    const count = await scoped.obligation.count({ where: { versionKey: existing.versionKey } });
    return render(existing, count, true);
  };
  const before = await existingOf(prisma);
  if (before) return { created: false, activation: before };
  try {
    return await prisma.$transaction(async (tx) => {
      const db = scopeToTenant(tx, opts.tenantId);
      const activation = await db.frameworkActivation.create({
        data: { id: newId('act'), tenantId: opts.tenantId, frameworkId: v.frameworkId, versionKey: v.key, activatedBy: opts.actor },
      });
      // A provision repealed before today derives nothing; one repealed later applies until then.
      const templates = await tx.frameworkObligation.findMany({
        where: { versionKey: v.key, OR: [{ applicableUntil: null }, { applicableUntil: { gt: new Date() } }] },
        orderBy: { ord: 'asc' },
      });
      await db.obligation.createMany({
        data: templates.map((t) => derivedObligation(t, { tenantId: opts.tenantId, frameworkId: v.frameworkId, versionKey: v.key })),
      });
      await recordChange(tx, {
        tenantId: opts.tenantId,
        actor: opts.actor,
        action: 'framework.activated',
        resourceType: 'svc.frameworks.activation',
        resourceId: activation.id,
        correlationId: opts.correlationId,
        data: { framework: v.frameworkId, dictionaryVersion: v.key, obligations: templates.length },
        resource: render(activation, templates.length, false),
      });
      return { created: true, activation: render(activation, templates.length, false) };
    });
  } catch (err) {
    // Lost a race with a concurrent first activation: answer with the winner's.
    if (isUniqueViolation(err)) {
      const after = await existingOf(prisma);
      if (after) return { created: false, activation: after };
    }
    throw err;
  }
}
