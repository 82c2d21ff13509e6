import type { GenerateReportBody, Report, ReportType, reportSchedules } from '@svc/contract';
import { CronExpressionParser } from 'cron-parser';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { Report as ReportModel, ReportSchedule as ScheduleRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { enqueueJob } from '../../platform/events/jobs.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { orNotFound } from '../../platform/queries.ts';
import { recorded, stampsOf } from '../../platform/records.ts';
import { isoOrNull } from '../../platform/render.ts';
import { REPORT_TYPES } from './catalogue.ts';

/**
 * The reporting rail's records: reports (a row per request, `rendering` until the `report.render`
 * job stores the PDF), their schedules (a cron expression whose ticks are jobs keyed by due time)
 * and what both share: the check of a request against the report type and the tenant's systems.
 * Rendering itself is in report-jobs.ts and reports-pdf.ts; the signed packs in reports-pack.ts.
 */

export const RENDER_JOB = 'report.render';
export const TICK_JOB = 'report.schedule_tick';
/** Attempts of a render before the report is `failed`. */
export const RENDER_ATTEMPTS = 3;

// ---------------------------------------------------------------- types and systems

export function renderType(t: (typeof REPORT_TYPES)[number]): z.infer<typeof ReportType> {
  return {
    object: 'svc.reporting.report_type',
    id: t.id,
    title: t.title,
    audience: t.audience,
    templateId: t.templateId,
    requiredInputs: [...t.requiredInputs],
    reviewers: [...t.reviewers],
  };
}

/** The types in the engine's order, paged by position. */
export function listTypes(query: { limit: number; cursor?: string }) {
  const after = decodeCursor(query.cursor, 'number');
  const rows = REPORT_TYPES.map((t, index) => ({ t, index })).filter((r) => after === undefined || r.index > after);
  return toPage(
    rows.slice(0, query.limit + 1),
    query.limit,
    (r) => r.index,
    (r) => renderType(r.t),
  );
}

/** The report type of `template`, or a 422 on `template` naming the known ones. */
export function reportTypeOf(template: string) {
  const t = REPORT_TYPES.find((x) => x.id === template);
  if (!t) {
    throw invalid(
      'template',
      `Unknown report type ${template}; GET /v1/reports/types lists them (${REPORT_TYPES.map((x) => x.id).join(', ')}).`,
    );
  }
  return t;
}

/** A required input is present when it is a non-empty string, a number, a flag or a non-empty list. */
function present(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim().length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** 422 naming the first required input of the type the request lacks. */
export function checkRequiredInputs(type: (typeof REPORT_TYPES)[number], fields: Record<string, unknown>) {
  for (const name of type.requiredInputs) {
    if (!present(fields[name])) {
      throw invalid(name, `The ${type.id} report needs ${name} (required inputs: ${type.requiredInputs.join(', ')}).`, 'missing');
    }
  }
}

export interface SystemRef {
  id: string;
  name: string;
}

/**
 * One of the tenant's AI systems. The service has no separate system registry: a system is an id
 * the tenant's records cite (its disclosure profile, its assessments, its evidence). Its name is
 * the profile's when one is declared, else the id. Anything else is 404, as another tenant's is.
 */
export async function systemOf(db: Tx, tenantId: string, systemId: string): Promise<SystemRef> {
  const t = scopeToTenant(db, tenantId);
  const [profile, assessment, evidence] = await Promise.all([
    t.publicDisclosureProfile.findFirst({ where: { systemId }, select: { name: true } }),
    t.assessment.findFirst({ where: { systemId }, select: { id: true } }),
    t.evidence.findFirst({ where: { systemId }, select: { id: true } }),
  ]);
  if (!profile && !assessment && !evidence) {
    throw new ApiError('not_found', `AI system ${systemId} was not found: no profile, assessment or evidence of this tenant cites it.`);
  }
  return { id: systemId, name: profile?.name ?? systemId };
}

// ---------------------------------------------------------------- reports

/** A report's row as reads without the PDF bytes return it (WITHOUT_PDF). */
export type ReportRow = Omit<ReportModel, 'pdf'>;

/** Reads of a report leave the PDF bytes in the database unless they are asked for. */
export const WITHOUT_PDF = { pdf: true } as const;

export const exportPath = (id: string) => `/v1/reports/export/${id}`;

export function renderReport(r: ReportRow): z.infer<typeof Report> {
  return {
    object: 'svc.reporting.report',
    id: r.id,
    template: r.template,
    title: r.title,
    audience: r.audience,
    systemId: r.systemId,
    inputs: (r.inputs ?? {}) as Record<string, unknown>,
    status: r.status as z.infer<typeof Report>['status'],
    downloadUrl: r.status === 'ready' ? exportPath(r.id) : null,
    sha256: r.sha256,
    sizeBytes: r.sizeBytes,
    pages: r.pages,
    asOf: isoOrNull(r.asOf),
    draft: true,
    recommendedReviewers: r.reviewers ?? [],
    error: r.error,
    scheduleId: r.scheduleId,
    dueAt: isoOrNull(r.dueAt),
    ...stampsOf(r),
    renderedAt: isoOrNull(r.renderedAt),
  };
}

export interface ReportRequest {
  template: string;
  systemId: string | null;
  inputs: Record<string, unknown>;
  scheduleId?: string;
  dueAt?: Date;
}

/** Checks a request against its type and the tenant's systems (422 / 404), before any write. */
export async function checkRequest(db: Tx, tenantId: string, req: ReportRequest) {
  const type = reportTypeOf(req.template);
  checkRequiredInputs(type, { ...req.inputs, ...(req.systemId ? { systemId: req.systemId } : {}) });
  if (req.systemId) await systemOf(db, tenantId, req.systemId);
  if (type.requiredInputs.includes('assessmentId')) await checkAssessment(db, tenantId, type.id, req.inputs.assessmentId);
  return type;
}

/**
 * The assessment a document report renders: one of the tenant's, of the report's type (a `fria`
 * report renders a FRIA). Anything else is a 422 on `assessmentId`, another tenant's id as an
 * unknown one.
 */
async function checkAssessment(db: Tx, tenantId: string, template: string, assessmentId: unknown) {
  if (typeof assessmentId !== 'string')
    throw invalid('assessmentId', `The ${template} report needs assessmentId, the id of an assessment.`);
  const a = await scopeToTenant(db, tenantId).assessment.findFirst({ where: { id: assessmentId }, select: { type: true } });
  if (!a) throw invalid('assessmentId', `Assessment ${assessmentId} does not exist in this tenant.`);
  if (a.type !== template) {
    throw invalid(
      'assessmentId',
      `Assessment ${assessmentId} is a ${a.type} assessment; the ${template} report renders a ${template} assessment.`,
    );
  }
}

/** The first columns of a report's row and of a schedule's: its id, tenant and what it asks for. */
const requestData = (who: Actor, id: string, req: ReportRequest) => ({
  id,
  tenantId: who.tenantId,
  template: req.template,
  systemId: req.systemId,
  inputs: req.inputs as object,
});

/**
 * Writes a `rendering` report, its audit event (`report.requested`) and its render job in the
 * caller's transaction: the job exists if and only if the report does.
 */
export async function insertReport(tx: Tx, who: Actor, req: ReportRequest): Promise<ReportRow> {
  const id = newId('rpt');
  const row = await scopeToTenant(tx, who.tenantId).report.create({
    data: {
      ...requestData(who, id, req),
      status: 'rendering',
      reviewers: [],
      scheduleId: req.scheduleId ?? null,
      dueAt: req.dueAt ?? null,
      createdBy: who.actor,
    },
    omit: WITHOUT_PDF,
  });
  const out = renderReport(row);
  const data = {
    template: req.template,
    systemId: req.systemId,
    ...(req.scheduleId ? { scheduleId: req.scheduleId, dueAt: out.dueAt } : {}),
  };
  await recorded(tx, who, out, { action: 'report.requested', data });
  await enqueueJob(tx, {
    tenantId: who.tenantId,
    kind: RENDER_JOB,
    payload: { reportId: id },
    dedupeKey: `render:${id}`,
    maxAttempts: RENDER_ATTEMPTS,
  });
  return row;
}

export async function generateReport(prisma: Prisma, who: Actor, body: z.infer<typeof GenerateReportBody>) {
  const { template, systemId, ...inputs } = body;
  const req: ReportRequest = { template, systemId: systemId ?? null, inputs: inputs as Record<string, unknown> };
  await checkRequest(prisma, who.tenantId, req);
  return prisma.$transaction(async (tx) => renderReport(await insertReport(tx, who, req)));
}

export async function listReports(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; status?: string; template?: string },
) {
  const after = decodeCursor(query.cursor, 'string');
  const rows = await scopeToTenant(prisma, tenantId).report.findMany({
    where: {
      ...(query.status ? { status: query.status } : {}),
      ...(query.template ? { template: query.template } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: 'desc' },
    take: query.limit + 1,
    omit: WITHOUT_PDF,
  });
  return toPage(rows, query.limit, (r) => r.id, renderReport);
}

export function reportRow(db: Tx, tenantId: string, id: string): Promise<ReportRow> {
  return orNotFound(scopeToTenant(db, tenantId).report.findFirst({ where: { id }, omit: WITHOUT_PDF }), 'Report', id);
}

export async function getReport(prisma: Prisma, tenantId: string, id: string) {
  return renderReport(await reportRow(prisma, tenantId, id));
}

export type ExportResult =
  | { kind: 'pending'; report: z.infer<typeof Report> }
  | { kind: 'file'; bytes: Buffer; sha256: string; filename: string; contentType: string };

/** The PDF of a ready report (the download audited as `report.exported`), or the report while it renders. */
export async function exportReport(prisma: Prisma, who: Actor, id: string): Promise<ExportResult> {
  const row = await reportRow(prisma, who.tenantId, id);
  if (row.status === 'rendering') return { kind: 'pending', report: renderReport(row) };
  if (row.status !== 'ready') {
    throw new ApiError('conflict', `Report ${id} is ${row.status}${row.error ? `: ${row.error}` : ''}; it has no PDF.`);
  }
  const withPdf = await scopeToTenant(prisma, who.tenantId).report.findFirst({ where: { id }, select: { pdf: true } });
  if (!withPdf?.pdf) throw new ApiError('conflict', `Report ${id} has no stored PDF.`);
  const bytes = Buffer.from(withPdf.pdf);
  await prisma.$transaction((tx) =>
    recordChange(tx, {
      ...who,
      action: 'report.exported',
      resourceType: 'svc.reporting.report',
      resourceId: id,
      data: { sha256: row.sha256, sizeBytes: bytes.length },
      resource: renderReport(row),
    }),
  );
  return { kind: 'file', bytes, sha256: row.sha256 ?? '', filename: `${row.template}-${row.id}.pdf`, contentType: 'application/pdf' };
}

// ---------------------------------------------------------------- schedules

function checkTimezone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    throw invalid('timezone', `${tz} is not an IANA time zone (\`UTC\`, \`Europe/Berlin\`).`);
  }
}

/** The first due time of `cron` in `tz` strictly after `after`; a bad expression is a 422 on `cron`. */
export function nextDue(cron: string, tz: string, after: Date): Date {
  if (cron.trim().split(/\s+/).length !== 5) {
    throw invalid('cron', 'The cron expression must have five fields: minute hour day-of-month month day-of-week.');
  }
  try {
    return CronExpressionParser.parse(cron, { currentDate: after, tz }).next().toDate();
  } catch (err) {
    throw invalid('cron', `${cron} is not a valid cron expression: ${(err as Error).message}`);
  }
}

const tickKey = (scheduleId: string, due: Date) => `${scheduleId}@${due.toISOString()}`;

/** Queues the tick of one due time; the dedupe key makes a second enqueue of it a no-op. */
export function enqueueTick(tx: Tx, tenantId: string, scheduleId: string, due: Date) {
  return enqueueJob(tx, {
    tenantId,
    kind: TICK_JOB,
    payload: { scheduleId, dueAt: due.toISOString() },
    runAt: due,
    dedupeKey: tickKey(scheduleId, due),
    maxAttempts: 5,
  });
}

/**
 * The kit's store of report schedules (contract: `reportSchedules`). A schedule is active with a
 * queued tick for its next due time, or paused or deleted with none expected (`nextRunAt` null): a
 * tick already queued finds it not active and does nothing. Resuming queues the next due time
 * after now, so due times missed while paused are skipped.
 */
export const scheduleStore: Store<typeof reportSchedules> = {
  model: 'reportSchedule',
  create: async ({ shared, who, body, id }) => {
    const timezone = checkTimezone(body.timezone ?? 'UTC');
    const due = nextDue(body.cron, timezone, new Date());
    const req: ReportRequest = { template: body.template, systemId: body.systemId ?? null, inputs: body.inputs ?? {} };
    await checkRequest(shared, who.tenantId, req);
    return { ...requestData(who, id, req), cron: body.cron.trim(), timezone, status: 'active', nextRunAt: due, createdBy: who.actor };
  },
  auditData: (r) => ({ template: r.template, systemId: r.systemId, cron: r.cron, timezone: r.timezone, nextRunAt: r.nextRunAt }),
  afterCreate: ({ tx, who, record }) => enqueueTick(tx, who.tenantId, record.id, new Date(record.nextRunAt as string)),
  transitions: {
    pause: { set: () => ({ nextRunAt: null }) },
    resume: {
      set: (row: ScheduleRow, now) => ({ nextRunAt: nextDue(row.cron, row.timezone, now) }),
      auditData: (r) => ({ nextRunAt: r.nextRunAt }),
      after: ({ tx, who, record }) => enqueueTick(tx, who.tenantId, record.id, new Date(record.nextRunAt as string)),
    },
    delete: { set: () => ({ nextRunAt: null }) },
  },
};

/**
 * One tick of a schedule: the report of the due time (once: a report already made for it, by an
 * earlier run of the same tick, is left alone), then the tick of the next due time after both the
 * due time and now (due times missed while no process ran are skipped, not caught up one by one).
 * A tick of a paused or deleted schedule, or of a due time the schedule no longer expects (it was
 * resumed since), does nothing.
 */
export async function runTick(prisma: Prisma, tenantId: string, scheduleId: string, dueIso: string, jobId: string) {
  const due = new Date(dueIso);
  await prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, tenantId);
    const s = await db.reportSchedule.findFirst({ where: { id: scheduleId } });
    if (s?.status !== 'active' || s.nextRunAt?.getTime() !== due.getTime()) return;
    const existing = await db.report.findFirst({ where: { scheduleId, dueAt: due }, select: { id: true } });
    const who: Actor = { tenantId, actor: `schedule:${scheduleId}`, correlationId: jobId };
    let reportId = existing?.id;
    if (!reportId) {
      const req: ReportRequest = {
        template: s.template,
        systemId: s.systemId,
        inputs: (s.inputs ?? {}) as Record<string, unknown>,
        scheduleId,
        dueAt: due,
      };
      reportId = (await insertReport(tx, who, req)).id;
    }
    const next = nextDue(s.cron, s.timezone, new Date(Math.max(due.getTime(), Date.now())));
    await db.reportSchedule.updateMany({
      where: { id: scheduleId, status: 'active', nextRunAt: due },
      data: {
        lastRunAt: due,
        lastReportId: reportId,
        runs: existing ? s.runs : s.runs + 1,
        nextRunAt: next,
        updatedAt: new Date(),
      },
    });
    await enqueueTick(tx, tenantId, scheduleId, next);
  });
}
