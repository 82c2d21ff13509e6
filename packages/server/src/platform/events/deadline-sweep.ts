import { DSAR_OPEN_STATUSES } from '@svc/contract';
import type { Prisma } from '../../db/client.ts';
import { newId } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import { daysBetween, requestClocksOf } from '../../rails/dsar/clocks.ts';
import { type DisclosureRow, renderDisclosure } from '../../rails/incident-disclosures/service.ts';
import { addDays, contractStateAt } from '../../rails/vendor-risk/service.ts';
import { recordChange } from '../ledger/changes.ts';
import { nextTurn } from '../next-turn.ts';
import { startPeriodic } from './periodic.ts';

/**
 * The deadline sweep: statutory clocks are computed on every read, but a missed deadline must also
 * reach people who are not reading. Each pass asks every source (missed disclosure clocks, DSARs
 * due soon, vendor contracts in their notice window) for the deadlines that have passed or come
 * close, and emits each one once, as an audited change with its webhook event: the alert
 * row's unique key (tenant, kind, record, deadline) is inserted in the same transaction as the
 * event, so any number of processes may sweep and a deadline is still announced once. A deadline
 * that moves (a filing restarts a later clock) is a new deadline and is announced again when it
 * passes.
 */

export interface DueAlert {
  tenantId: string;
  /** The kind of record (`incident_disclosure`). */
  kind: string;
  subjectId: string;
  /** Names the deadline within the record: regime, stage and due time. */
  key: string;
  dueAt: Date;
  /** Audit action, emitted as the webhook event of the same name. */
  action: string;
  resourceType: string;
  /** The event's data (validated against the registry by the outbox). */
  resource: Record<string, unknown>;
}

export interface DeadlineSource {
  kind: string;
  /** The due alerts of every tenant, reading the source's rows `pageSize` at a time. */
  scan(prisma: Prisma, now: Date, pageSize?: number): Promise<DueAlert[]>;
}

/**
 * Rows a sweep reads at a time. A pass reads every open record of every tenant: page by page, with
 * the event loop free between pages, it holds neither all of them at once nor the process's
 * requests for the whole pass.
 */
export const SWEEP_PAGE = 500;

/**
 * Calls `each` with the rows of a query, `pageSize` at a time in the query's order: `page(after)`
 * reads the page after the row `after` (the first page without one).
 */
async function paged<R>(pageSize: number, page: (after: R | undefined) => Promise<R[]>, each: (rows: R[]) => Promise<void> | void) {
  let after: R | undefined;
  for (;;) {
    const rows = await page(after);
    await each(rows);
    if (rows.length < pageSize) return;
    after = rows.at(-1);
    await nextTurn();
  }
}

/**
 * The ids after the row `after` (every id without one), for a query ordered by id: a keyset of its
 * own rather than a cursor row, so a page still follows when that row has changed or gone since.
 */
const idAfter = (after: { id: string } | undefined) => (after ? { id: { gt: after.id } } : {});

/** Open disclosures whose clocks are late: not filed and past the deadline. */
export const disclosureDeadlines: DeadlineSource = {
  kind: 'incident_disclosure',
  async scan(prisma, now, pageSize = SWEEP_PAGE) {
    const out: DueAlert[] = [];
    await paged(
      pageSize,
      (after: { id: string } | undefined) =>
        prisma.incidentDisclosure.findMany({ where: { status: 'open', ...idAfter(after) }, orderBy: { id: 'asc' }, take: pageSize }),
      (rows) => {
        for (const row of rows as (DisclosureRow & { tenantId: string })[]) {
          const d = renderDisclosure(row, now);
          for (const c of d.clocks) {
            if (c.state !== 'late' || !c.dueAt) continue;
            out.push({
              tenantId: row.tenantId,
              kind: 'incident_disclosure',
              subjectId: row.id,
              key: `${c.regime}:${c.stage}:${c.dueAt}`,
              dueAt: new Date(c.dueAt),
              action: 'incident.sla_breached',
              resourceType: 'svc.incident_disclosures.disclosure',
              resource: {
                id: d.id,
                title: d.title,
                status: 'open',
                regime: c.regime,
                stage: c.stage,
                deadline: c.dueAt,
                source: c.source,
                detectedAt: now.toISOString(),
              },
            });
          }
        }
      },
    );
    return out;
  },
};

/** Open DSARs due within their regime's at-risk window (by the extended date after an extension). */
export const dsarDeadlines: DeadlineSource = {
  kind: 'dsar_request',
  async scan(prisma, now, pageSize = SWEEP_PAGE) {
    const out: DueAlert[] = [];
    await paged(
      pageSize,
      (after: { id: string } | undefined) =>
        prisma.dsarRequest.findMany({
          where: { status: { in: [...DSAR_OPEN_STATUSES] }, ...idAfter(after) },
          orderBy: { id: 'asc' },
          take: pageSize,
        }),
      (rows) => {
        for (const row of rows) {
          const c = requestClocksOf(row, now);
          // No statutory due date (the regime did not apply yet, or the law fixes no period): nothing to announce.
          if (c.effectiveDueDate === null || c.effectiveDueAt === null) continue;
          const daysRemaining = daysBetween(now, c.effectiveDueDate);
          if (now > c.effectiveDueAt || daysRemaining > c.rules.atRiskDays) continue;
          out.push({
            tenantId: row.tenantId,
            kind: 'dsar_request',
            subjectId: row.id,
            key: `due:${c.effectiveDueDate}`,
            dueAt: c.effectiveDueAt,
            action: 'dsar.deadline_approaching',
            resourceType: 'svc.dsar.request',
            resource: {
              id: row.id,
              regime: row.regime,
              kind: row.kind,
              status: row.status,
              dueDate: c.effectiveDueDate,
              dueAt: c.effectiveDueAt.toISOString(),
              daysRemaining,
              extended: c.extendedDueDate !== null,
            },
          });
        }
      },
    );
    return out;
  },
};

/** Contracts of active vendors inside their notice window (by the end in force after renewals). */
export const vendorContractDeadlines: DeadlineSource = {
  kind: 'vendor_contract',
  async scan(prisma, now, pageSize = SWEEP_PAGE) {
    const day = now.toISOString().slice(0, 10);
    const out: DueAlert[] = [];
    await paged(
      pageSize,
      (after: { id: string } | undefined) =>
        prisma.vendorRiskContract.findMany({ where: { terminatedAt: null, ...idAfter(after) }, orderBy: { id: 'asc' }, take: pageSize }),
      async (contracts) => {
        const expiring = contracts.map((c) => ({ c, d: contractStateAt(c, day) })).filter(({ d }) => d.state === 'expiring');
        if (expiring.length === 0) return;
        const vendors = new Map(
          (
            await prisma.vendorRiskVendor.findMany({
              where: { id: { in: [...new Set(expiring.map(({ c }) => c.vendorId))] }, status: 'active' },
            })
          ).map((v) => [v.id, v]),
        );
        for (const { c, d } of expiring) {
          const vendor = vendors.get(c.vendorId);
          if (!vendor) continue;
          const expiresAt = new Date(`${addDays(d.contractEndDate, 1)}T00:00:00.000Z`);
          out.push({
            tenantId: c.tenantId,
            kind: 'vendor_contract',
            subjectId: c.id,
            key: `end:${d.contractEndDate}`,
            dueAt: expiresAt,
            action: 'vendor.contract_expiring',
            resourceType: 'svc.vendor_risk.vendor_contract',
            resource: {
              id: vendor.id,
              name: vendor.name,
              ...(vendor.riskScore !== null ? { riskScore: vendor.riskScore } : {}),
              contractId: c.id,
              title: c.title,
              expiresAt: expiresAt.toISOString(),
              endDate: d.contractEndDate,
              noticeDeadline: d.noticeDeadline,
              autoRenew: c.autoRenew,
            },
          });
        }
      },
    );
    return out;
  },
};

/** Days before an assigned question's due date from which it is announced as due soon. */
export const QUESTION_DUE_SOON_DAYS = 3;

/**
 * Assigned questions of open assessments (draft or in progress) that are unanswered and due within
 * QUESTION_DUE_SOON_DAYS (`assessment.question_due`) or past their due date (`assessment.question_overdue`).
 */
export const assessmentQuestionDeadlines: DeadlineSource = {
  kind: 'assessment_question',
  async scan(prisma, now, pageSize = SWEEP_PAGE) {
    const horizon = new Date(now.getTime() + QUESTION_DUE_SOON_DAYS * 86_400_000);
    const out: DueAlert[] = [];
    await paged(
      pageSize,
      (after: { tenantId: string; assessmentId: string; questionKey: string } | undefined) =>
        prisma.assessmentItem.findMany({
          where: {
            assigneeId: { not: null },
            dueDate: { not: null, lte: horizon },
            // The keys after the last row's (tenant, assessment, question), in that order.
            ...(after
              ? {
                  OR: [
                    { tenantId: { gt: after.tenantId } },
                    { tenantId: after.tenantId, assessmentId: { gt: after.assessmentId } },
                    { tenantId: after.tenantId, assessmentId: after.assessmentId, questionKey: { gt: after.questionKey } },
                  ],
                }
              : {}),
          },
          orderBy: [{ tenantId: 'asc' }, { assessmentId: 'asc' }, { questionKey: 'asc' }],
          take: pageSize,
        }),
      async (items) => {
        if (items.length === 0) return;
        const open = new Map(
          (
            await prisma.assessment.findMany({
              where: { id: { in: [...new Set(items.map((i) => i.assessmentId))] }, status: { in: ['draft', 'in_progress'] } },
              select: { id: true, tenantId: true, title: true, type: true },
            })
          ).map((a) => [`${a.tenantId}:${a.id}`, a]),
        );
        for (const i of items) {
          const a = open.get(`${i.tenantId}:${i.assessmentId}`);
          const answered = i.version > 0 && (i.value !== null || i.evidenceIds.length > 0);
          if (!a || answered || !i.dueDate) continue;
          const dueDate = i.dueDate.toISOString().slice(0, 10);
          const dueAt = new Date(i.dueDate.getTime() + 86_400_000);
          const overdue = now.getTime() >= dueAt.getTime();
          out.push({
            tenantId: i.tenantId,
            kind: 'assessment_question',
            subjectId: `${i.assessmentId}:${i.questionKey}`,
            key: `${overdue ? 'overdue' : 'due'}:${dueDate}`,
            dueAt,
            action: overdue ? 'assessment.question_overdue' : 'assessment.question_due',
            resourceType: 'svc.compliance.assessment',
            resource: {
              assessmentId: i.assessmentId,
              type: a.type,
              title: a.title,
              question: i.questionKey,
              personId: i.assigneeId,
              dueDate,
              daysRemaining: Math.ceil((dueAt.getTime() - now.getTime()) / 86_400_000) - 1,
            },
          });
        }
      },
    );
    return out;
  },
};

export const DEADLINE_SOURCES: DeadlineSource[] = [
  disclosureDeadlines,
  dsarDeadlines,
  vendorContractDeadlines,
  assessmentQuestionDeadlines,
];

/** One pass: every source's due alerts, each emitted once. Returns how many were emitted now. */
export async function sweepDeadlines(prisma: Prisma, now = new Date(), sources = DEADLINE_SOURCES, pageSize = SWEEP_PAGE): Promise<number> {
  let emitted = 0;
  for (const source of sources) {
    for (const alert of await source.scan(prisma, now, pageSize)) {
      const fresh = await prisma.$transaction(async (tx) => {
        const inserted = await tx.$executeRaw`
          INSERT INTO "deadline_alerts" ("id", "tenant_id", "kind", "subject_id", "key", "due_at")
          VALUES (${newId('dla')}, ${alert.tenantId}, ${alert.kind}, ${alert.subjectId}, ${alert.key}, ${alert.dueAt})
          ON CONFLICT ("tenant_id", "kind", "subject_id", "key") DO NOTHING`;
        if (inserted === 0) return false;
        await recordChange(tx, {
          tenantId: alert.tenantId,
          actor: 'deadline-sweep',
          correlationId: newId('cor'),
          action: alert.action,
          resourceType: alert.resourceType,
          resourceId: alert.subjectId,
          data: { key: alert.key, dueAt: alert.dueAt.toISOString() },
          resource: alert.resource,
        });
        return true;
      });
      if (fresh) emitted++;
    }
  }
  return emitted;
}

/** The scheduled sweep of a dispatcher process. */
export function startDeadlineSweep(prisma: Prisma, log: Logger, intervalSeconds: number): () => void {
  return startPeriodic('deadline sweep', log, intervalSeconds, async () => {
    const n = await sweepDeadlines(prisma);
    if (n > 0) log.info('deadline alerts emitted', { count: n });
  });
}
