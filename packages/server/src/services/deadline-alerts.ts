import type { Prisma } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { recordChange } from './changes.ts';
import { type DisclosureRow, renderDisclosure } from './incident-disclosures.ts';
import { startPeriodic } from './periodic.ts';

/**
 * The deadline sweep: statutory clocks are computed on every read, but a missed deadline must also
 * reach people who are not reading. Each pass asks every source for the deadlines that have passed
 * (or come close) and emits each one once, as an audited change with its webhook event: the alert
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
  scan(prisma: Prisma, now: Date): Promise<DueAlert[]>;
}

/** Open disclosures whose clocks are late: not filed and past the deadline. */
export const disclosureDeadlines: DeadlineSource = {
  kind: 'incident_disclosure',
  async scan(prisma, now) {
    const rows = (await prisma.incidentDisclosure.findMany({ where: { status: 'open' }, orderBy: { id: 'asc' } })) as (DisclosureRow & {
      tenantId: string;
    })[];
    const out: DueAlert[] = [];
    for (const row of rows) {
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
    return out;
  },
};

export const DEADLINE_SOURCES: DeadlineSource[] = [disclosureDeadlines];

/** One pass: every source's due alerts, each emitted once. Returns how many were emitted now. */
export async function sweepDeadlines(prisma: Prisma, now = new Date(), sources = DEADLINE_SOURCES): Promise<number> {
  let emitted = 0;
  for (const source of sources) {
    for (const alert of await source.scan(prisma, now)) {
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
