import type { Prisma } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import type { JobHandler, JobRun } from '../../platform/events/jobs.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { composeReport, REPORT_TYPES } from './compose.ts';
import { gatherReportFacts } from './facts.ts';
import { RENDER_JOB, type ReportRow, renderReport, runTick, systemOf, TICK_JOB, WITHOUT_PDF } from './service.ts';

/**
 * Background jobs of the reporting rail. Both are safe to run twice (a lease that ran out): the
 * render writes only a report still `rendering`, and a tick makes the report of its due time only
 * when none exists (see runTick).
 */

const renderer = (job: JobRun): Actor => ({ tenantId: job.tenantId, actor: 'report-renderer', correlationId: job.id });

async function rendering(prisma: Prisma, job: JobRun): Promise<ReportRow | null> {
  const id = String(job.payload.reportId ?? '');
  const row = (await scopeToTenant(prisma, job.tenantId).report.findFirst({ where: { id }, omit: WITHOUT_PDF })) as ReportRow | null;
  return row && row.status === 'rendering' ? row : null;
}

/** Reads the facts, composes the report, renders the PDF and stores it with its SHA-256. */
async function render(job: JobRun, { prisma }: { prisma: Prisma }) {
  const row = await rendering(prisma, job);
  if (!row) return;
  const now = new Date();
  const inputs = (row.inputs ?? {}) as Record<string, unknown>;
  const facts = await gatherReportFacts(prisma, job.tenantId, { ...inputs, template: row.template, systemId: row.systemId }, now);
  const composed = composeReport(row.template, facts);
  const tenant = await prisma.tenant.findUnique({ where: { id: job.tenantId }, select: { name: true } });
  const system = row.systemId ? await systemOf(prisma, job.tenantId, row.systemId).catch(() => null) : null;
  const type = REPORT_TYPES.find((t) => t.id === row.template);
  // pdfkit and its fonts take about 300 ms to load: loaded by the first render, not at every start.
  const { renderReportPdf } = await import('./pdf.ts');
  const pdf = await renderReportPdf(composed, {
    tenantName: tenant?.name ?? job.tenantId,
    systemName: system?.name ?? row.systemId,
    templateId: composed.templateId ?? type?.templateId ?? row.template,
  });
  await prisma.$transaction(async (tx) => {
    const data = {
      status: 'ready',
      title: composed.title,
      audience: composed.audience,
      asOf: new Date(composed.asOf),
      reviewers: composed.recommendedReviewers,
      error: null,
      pdf: new Uint8Array(pdf.bytes),
      sha256: pdf.sha256,
      sizeBytes: pdf.bytes.length,
      pages: pdf.pages,
      renderedAt: now,
      updatedAt: now,
    };
    const { count } = await scopeToTenant(tx, job.tenantId).report.updateMany({ where: { id: row.id, status: 'rendering' }, data });
    if (count !== 1) return;
    const { pdf: _bytes, ...rest } = data;
    const out = renderReport({ ...row, ...rest });
    await recordChange(tx, {
      ...renderer(job),
      action: 'report.generated',
      resourceType: 'svc.reporting.report',
      resourceId: row.id,
      data: { template: row.template, sha256: pdf.sha256, sizeBytes: pdf.bytes.length, pages: pdf.pages, attempt: job.attempts },
      resource: out,
    });
  });
}

/** After the last attempt: the report is `failed` with the error, emitted as `report.failed`. */
async function renderFailed(job: JobRun, error: string, { prisma }: { prisma: Prisma }) {
  const row = await rendering(prisma, job);
  if (!row) return;
  const now = new Date();
  const message = error.slice(0, 2000);
  await prisma.$transaction(async (tx) => {
    const { count } = await scopeToTenant(tx, job.tenantId).report.updateMany({
      where: { id: row.id, status: 'rendering' },
      data: { status: 'failed', error: message, updatedAt: now },
    });
    if (count !== 1) return;
    await recordChange(tx, {
      ...renderer(job),
      action: 'report.failed',
      resourceType: 'svc.reporting.report',
      resourceId: row.id,
      data: { template: row.template, error: message, attempts: job.attempts },
      resource: renderReport({ ...row, status: 'failed', error: message, updatedAt: now }),
    });
  });
}

/** Background jobs of the reporting rail, by kind. */
export const reportJobs: Record<string, JobHandler> = {
  [RENDER_JOB]: { run: render, failed: renderFailed },
  [TICK_JOB]: {
    run: (job, { prisma }) => runTick(prisma, job.tenantId, String(job.payload.scheduleId), String(job.payload.dueAt), job.id),
  },
};
