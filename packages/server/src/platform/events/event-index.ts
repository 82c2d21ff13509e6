import type { Tx } from '../../db/client.ts';
import { type Sql, sqlOf } from '../../db/sql.ts';
import type { EventIndexRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';

/** The event index's write side: rows appended in the caller's transaction, flagged and routed. */

/** `*` matches every kind, `evidence.*` a category, anything else itself. */
export function kindMatches(pattern: string, kind: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return kind.startsWith(pattern.slice(0, -1));
  return pattern === kind;
}

/** The most specific pattern wins: exact, then the longest category, then `*`. */
function specificity(pattern: string): number {
  if (pattern === '*') return 0;
  return pattern.endsWith('.*') ? pattern.length : 10_000;
}

interface RuleRow {
  t: 'b' | 'r';
  pattern: string;
  budget_ms: number | null;
  agent: string | null;
}

/**
 * Latency budgets and routing rules change only with a migration: read once per process and kept
 * for a minute (a process started before a migration picks the new rules up on its own), and the
 * answer per kind is memoised, so a mutation reads neither table.
 */
const RULES_TTL_MS = 60_000;
let rulesCache: { at: number; rows: RuleRow[]; byKind: Map<string, Rules> } | undefined;

export interface Rules {
  budgetMs: number | null;
  agents: string[];
}

export async function rulesFor(executor: Tx | Sql, kind: string): Promise<Rules> {
  if (!rulesCache || Date.now() - rulesCache.at > RULES_TTL_MS) {
    const rows = await sqlOf(executor).query<RuleRow>(`
      SELECT 'b' AS t, "pattern", "budget_ms", NULL::text AS "agent" FROM "latency_budgets"
      UNION ALL SELECT 'r', "pattern", NULL, "agent" FROM "event_routes"`);
    rulesCache = { at: Date.now(), rows, byKind: new Map() };
  }
  const known = rulesCache.byKind.get(kind);
  if (known) return known;
  const { rows } = rulesCache;
  const budget = rows
    .filter((r) => r.t === 'b' && kindMatches(r.pattern, kind))
    .sort((a, b) => specificity(b.pattern) - specificity(a.pattern))[0];
  const agents = [...new Set(rows.filter((r) => r.t === 'r' && kindMatches(r.pattern, kind)).map((r) => r.agent as string))];
  const rules = { budgetMs: budget?.budget_ms ?? null, agents };
  if (rulesCache.byKind.size < 10_000) rulesCache.byKind.set(kind, rules);
  return rules;
}

export interface IndexEntry {
  tenantId: string;
  time?: Date;
  source: string;
  kind: string;
  phase: string;
  severity: string;
  actor: string;
  entity: string;
  action: string;
  outcome: string;
  correlationId: string;
  latencyMs?: number | null;
  attributes?: Record<string, unknown>;
  auditEventId: string | null;
}

/**
 * Appends a row to the event index in the caller's transaction: flags it when it is over its
 * kind's latency budget and routes it to the event agents whose rules match its kind.
 */
export async function appendEventRow(tx: Tx, e: IndexEntry, id = newId('evi')): Promise<EventIndexRow> {
  const rules = await rulesFor(tx, e.kind);
  const latencyMs = e.latencyMs ?? null;
  const row = await tx.eventIndexRow.create({
    data: {
      id,
      time: e.time ?? new Date(),
      tenantId: e.tenantId,
      source: e.source,
      kind: e.kind,
      phase: e.phase,
      severity: e.severity,
      actor: e.actor,
      entity: e.entity,
      action: e.action,
      outcome: e.outcome,
      correlationId: e.correlationId,
      latencyMs,
      attributes: (e.attributes ?? {}) as object,
      overBudget: latencyMs !== null && rules.budgetMs !== null && latencyMs > rules.budgetMs,
      auditEventId: e.auditEventId,
    },
  });
  if (rules.agents.length > 0) {
    await tx.agentDispatch.createMany({
      data: rules.agents.map((agent) => ({ id: newId('agd'), tenantId: e.tenantId, eventId: row.id, agent, status: 'queued' })),
    });
  }
  return row;
}
