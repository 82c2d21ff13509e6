import type { Prisma } from '../db/client.ts';
import { sqlOf } from '../db/sql.ts';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { startPeriodic } from '../platform/events/periodic.ts';
import { recordChange } from '../platform/ledger/changes.ts';
import { agentDef } from './registry.ts';
import { invokeAgent } from './runtime.ts';

/**
 * Consumes the events the event engine's rules route to agents (`agent_dispatches`, written with
 * the event-index row in the change's transaction). Each pass claims queued dispatches one at a
 * time with `FOR UPDATE SKIP LOCKED` (any number of processes may consume; a dispatch is claimed by
 * one), asks the agent for the input the event gives it, and records the decision as an
 * invocation would, with `source: event` and the event's id. A dispatch claimed by a process that
 * died is claimed again once its lease has run out; after three claims it is failed.
 */

const at = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;
const MAX_ATTEMPTS = 3;
export const EVENT_ACTOR = 'system:event-engine';

interface Claimed {
  id: string;
  tenant_id: string;
  event_id: string;
  agent: string;
  attempts: number;
}

export async function consumeDispatches(
  prisma: Prisma,
  log: Logger,
  leaseSeconds: number,
  stopped: () => boolean = () => false,
): Promise<number> {
  const sql = sqlOf(prisma);
  let n = 0;
  while (!stopped()) {
    const now = new Date();
    const [d] = await sql.query<Claimed>(
      `UPDATE "agent_dispatches" SET "status" = 'running', "claimed_at" = ${at(1)}, "attempts" = "attempts" + 1
        WHERE "id" = (SELECT "id" FROM "agent_dispatches"
                       WHERE "status" = 'queued' OR ("status" = 'running' AND "claimed_at" < ${at(2)})
                       ORDER BY "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING "id", "tenant_id", "event_id", "agent", "attempts"`,
      [now.toISOString(), new Date(now.getTime() - leaseSeconds * 1000).toISOString()],
    );
    if (!d) break;
    n++;
    const finish = (status: string, fields: { decisionId?: string; error?: string }) =>
      sql.query(
        `UPDATE "agent_dispatches" SET "status" = $2, "decision_id" = $3, "error" = $4, "processed_at" = ${at(5)} WHERE "id" = $1`,
        [d.id, status, fields.decisionId ?? null, fields.error ?? null, new Date().toISOString()],
      );
    const def = agentDef(d.agent);
    const event = await prisma.eventIndexRow.findFirst({ where: { id: d.event_id, tenantId: d.tenant_id } });
    if (!def?.fromEvent || !event) {
      await finish('skipped', {
        error: !def ? `No agent ${d.agent}.` : !event ? 'The event is gone.' : `${d.agent} takes no routed events.`,
      });
      continue;
    }
    if (d.attempts > MAX_ATTEMPTS) {
      await finish('failed', { error: 'Interrupted on every attempt.' });
      continue;
    }
    const input = def.fromEvent({
      id: event.id,
      kind: event.kind,
      entity: event.entity,
      action: event.action,
      attributes: (event.attributes ?? {}) as Record<string, unknown>,
    });
    if (input === null) {
      await finish('skipped', { error: `${event.kind} gives ${d.agent} nothing to decide.` });
      continue;
    }
    const who = { tenantId: d.tenant_id, actor: EVENT_ACTOR, correlationId: event.correlationId ?? `cor_${d.id}` };
    try {
      const decision = await invokeAgent(prisma, who, d.agent, input, { source: 'event', eventId: event.id });
      await finish('done', { decisionId: decision.id });
    } catch (err) {
      // A refused input or a record gone since the event: the dispatch fails for good, and says why.
      // Anything else (the database away) leaves it claimed, to be taken again after the lease.
      if (!(err instanceof ApiError)) throw err;
      await prisma.$transaction(async (tx) => {
        await recordChange(tx, {
          ...who,
          action: 'agent.failed',
          resourceType: 'svc.agents.dispatch',
          resourceId: d.id,
          data: { agent: d.agent, eventId: event.id, error: err.message },
          resource: { agent: d.agent, eventId: event.id, error: err.message },
        });
      });
      await finish('failed', { error: err.message });
      log.info('routed event refused by agent', { agent: d.agent, event: event.id, error: err.message });
    }
  }
  return n;
}

/** Runs `consumeDispatches` every `pollMs`; returns the stop function. */
export function startAgentDispatch(prisma: Prisma, log: Logger, pollMs: number, leaseSeconds: number): () => void {
  return startPeriodic('agent dispatch', log, pollMs / 1000, async (stopped) => {
    await consumeDispatches(prisma, log, leaseSeconds, stopped);
  });
}
