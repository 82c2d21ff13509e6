import type { EmitEventBody, EventAggregation, EventQueryBody, EventRow } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { EventIndexRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { appendEventRow } from '../../platform/events/event-index.ts';
import { recordChange } from '../../platform/ledger/changes.ts';

type Row = z.infer<typeof EventRow>;

export function renderEventRow(r: EventIndexRow): Row {
  return {
    object: 'svc.events.event',
    id: r.id,
    time: r.time.toISOString(),
    tenantId: r.tenantId,
    source: r.source,
    kind: r.kind,
    phase: r.phase as Row['phase'],
    severity: r.severity as Row['severity'],
    actor: r.actor,
    entity: r.entity,
    action: r.action,
    outcome: r.outcome as Row['outcome'],
    correlationId: r.correlationId,
    latencyMs: r.latencyMs,
    attributes: r.attributes as Record<string, unknown>,
    overBudget: r.overBudget,
    auditEventId: r.auditEventId,
  };
}

/** POST /v1/events: the row and the audit event that covers it, in one transaction. */
export async function emitEvent(
  prisma: Prisma,
  who: { tenantId: string; actor: string; correlationId: string },
  body: z.infer<typeof EmitEventBody>,
) {
  if (body.tenantId !== undefined && body.tenantId !== who.tenantId) {
    throw new ApiError('validation_failed', "tenantId must be the caller's tenant.", [{ field: 'tenantId', issue: 'invalid_value' }]);
  }
  const time = body.time ? new Date(body.time) : new Date();
  if (time.getTime() > Date.now() + 5 * 60_000) {
    throw new ApiError('validation_failed', 'time may be at most 5 minutes in the future.', [{ field: 'time', issue: 'too_big' }]);
  }
  return prisma.$transaction(async (tx) => {
    const id = newId('evi');
    const audit = await recordChange(
      tx,
      {
        ...who,
        action: 'event.emitted',
        resourceType: 'svc.events.event',
        resourceId: id,
        data: { source: body.source, kind: body.kind, phase: body.phase, entity: body.entity },
      },
      { index: false },
    );
    const row = await appendEventRow(
      tx,
      {
        tenantId: who.tenantId,
        time,
        source: body.source,
        kind: body.kind,
        phase: body.phase,
        severity: body.severity,
        actor: body.actor,
        entity: body.entity,
        action: body.action,
        outcome: body.outcome,
        correlationId: body.correlationId,
        latencyMs: body.latencyMs ?? null,
        attributes: body.attributes ?? {},
        auditEventId: audit.id,
      },
      id,
    );
    return renderEventRow(row);
  });
}

export interface EventFilters {
  from?: string;
  to?: string;
  tenantId?: string;
  source?: string;
  kind?: string;
  phase?: string;
  severity?: string;
  actor?: string;
  entity?: string;
  action?: string;
}

function whereOf(f: EventFilters) {
  return {
    ...(f.source ? { source: f.source } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.phase ? { phase: f.phase } : {}),
    ...(f.severity ? { severity: f.severity } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.entity ? { entity: f.entity } : {}),
    ...(f.action ? { action: f.action } : {}),
  };
}

function decodeTimeCursor(cursor: string | undefined): { time: Date; id: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const { k } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof k === 'string') {
      const [t, id] = k.split('|');
      const time = new Date(t ?? '');
      if (id && !Number.isNaN(time.getTime())) return { time, id };
    }
  } catch {}
  throw new ApiError('bad_request', 'The cursor is not valid for this list.', [{ field: 'cursor', issue: 'invalid_format' }]);
}

/** Newest first by (time, id), so the (tenant, field, time) indexes serve filter and order alike. */
export async function listEvents(prisma: Prisma, tenantId: string, q: EventFilters & { limit: number; cursor?: string }) {
  if (q.tenantId && q.tenantId !== tenantId) return { data: [], cursor: null };
  const after = decodeTimeCursor(q.cursor);
  const timeRange =
    q.from || q.to ? { time: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) } } : {};
  const rows = await scopeToTenant(prisma, tenantId).eventIndexRow.findMany({
    where: {
      ...whereOf(q),
      ...timeRange,
      ...(after ? { OR: [{ time: { lt: after.time } }, { time: after.time, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ time: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
  });
  return toPage(rows, q.limit, (r) => `${r.time.toISOString()}|${r.id}`, renderEventRow);
}

const GROUP_COLUMNS = {
  kind: 'kind',
  severity: 'severity',
  source: 'source',
  phase: 'phase',
  outcome: 'outcome',
  action: 'action',
} as const;

/** Counts by the requested fields (and time bucket), with the over-budget count of each group. */
export async function queryEvents(
  prisma: Prisma,
  tenantId: string,
  q: z.infer<typeof EventQueryBody>,
): Promise<z.infer<typeof EventAggregation>> {
  if (q.tenantId && q.tenantId !== tenantId) return { object: 'svc.events.aggregation', total: 0, overBudget: 0, groups: [] };
  const params: unknown[] = [tenantId];
  const conds = ['"tenant_id" = $1'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    conds.push(sql.replace('?', `$${params.length}`));
  };
  for (const f of ['source', 'kind', 'phase', 'severity', 'actor', 'entity', 'action'] as const) if (q[f]) add(`"${f}" = ?`, q[f]);
  if (q.from) add('"time" >= ?', new Date(q.from));
  if (q.to) add('"time" < ?', new Date(q.to));
  const cols = [...new Set(q.groupBy)].map((g) => GROUP_COLUMNS[g]);
  const bucket = q.bucket ? `date_trunc('${q.bucket}', "time")` : null;
  const select = [...cols.map((c) => `"${c}"`), ...(bucket ? [`${bucket} AS "bucket"`] : [])];
  const groupBy = [...cols.map((c) => `"${c}"`), ...(bucket ? [bucket] : [])];
  const sql = `SELECT ${[...select, 'count(*)::int AS "count"', 'count(*) FILTER (WHERE "over_budget")::int AS "over"'].join(', ')}
    FROM "event_index" WHERE ${conds.join(' AND ')}
    ${groupBy.length ? `GROUP BY ${groupBy.join(', ')} ORDER BY ${groupBy.join(', ')}` : ''} LIMIT 10000`;
  const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params);
  const groups = rows.map((r) => ({
    key: Object.fromEntries(cols.map((c) => [c, String(r[c])])),
    bucket: r.bucket instanceof Date ? r.bucket.toISOString() : null,
    count: Number(r.count),
    overBudget: Number(r.over),
  }));
  return {
    object: 'svc.events.aggregation',
    total: groups.reduce((s, g) => s + g.count, 0),
    overBudget: groups.reduce((s, g) => s + g.overBudget, 0),
    groups,
  };
}

export async function entityLifecycle(prisma: Prisma, tenantId: string, entity: string) {
  const rows = await scopeToTenant(prisma, tenantId).eventIndexRow.findMany({
    where: { entity },
    orderBy: [{ time: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
  return {
    entity,
    phases: rows.map((r) => ({ phase: r.phase as Row['phase'], time: r.time.toISOString(), kind: r.kind, eventId: r.id })),
  };
}

export async function correlationTrail(prisma: Prisma, tenantId: string, correlationId: string) {
  const rows = await scopeToTenant(prisma, tenantId).eventIndexRow.findMany({
    where: { correlationId },
    orderBy: [{ time: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
  return { correlationId, data: rows.map(renderEventRow) };
}

export async function eventSources(prisma: Prisma, tenantId: string) {
  const rows = await prisma.$queryRaw<{ source: string; count: number; last_seen: Date; kinds: number }[]>`
    SELECT "source", count(*)::int AS "count", max("time") AS "last_seen", count(DISTINCT "kind")::int AS "kinds"
    FROM "event_index" WHERE "tenant_id" = ${tenantId} GROUP BY "source" ORDER BY "source"`;
  return {
    data: rows.map((r) => ({ source: r.source, count: Number(r.count), lastSeen: r.last_seen.toISOString(), kinds: Number(r.kinds) })),
  };
}
