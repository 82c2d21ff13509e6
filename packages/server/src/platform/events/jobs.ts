import { hostname } from 'node:os';
import type { Prisma, Tx } from '../../db/client.ts';
import { sqlOf } from '../../db/sql.ts';
import { newId, randomToken } from '../../ids.ts';
import type { Logger } from '../../logger.ts';

/**
 * Background jobs: one table and one worker loop for every piece of work that must not run in a
 * request (report rendering, report and audit schedules, audit-engine runs, agents an event rule
 * routes events to).
 *
 * - A job is written in the transaction of the change that asks for it, so a rolled-back request
 *   leaves no job behind and a committed one always has its job.
 * - A process claims one due job at a time with `FOR UPDATE SKIP LOCKED`: any number of processes
 *   may poll one database, and a job is claimed by one of them. The claim takes a lease; a process
 *   that dies mid-job leaves the lease to run out, and the job is claimed again (resumed after a
 *   restart). Handlers are therefore written to be safe when run twice: their writes are guarded by
 *   the state they expect.
 * - A failed run is retried with exponential backoff until `maxAttempts`; then the job is `failed`
 *   and its handler's `failed` hook records the failure on the job's own record.
 * - `dedupeKey` makes an enqueue idempotent per tenant: a recurring schedule enqueues its next due
 *   time under `<scheduleId>@<due>`, so the due time runs once whatever the number of processes.
 */

export interface JobInput {
  tenantId: string;
  kind: string;
  payload: Record<string, unknown>;
  runAt?: Date;
  dedupeKey?: string;
  maxAttempts?: number;
}

export interface JobRun {
  id: string;
  tenantId: string;
  kind: string;
  payload: Record<string, unknown>;
  /** This run's attempt, 1-based. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
}

export interface JobDeps {
  prisma: Prisma;
  log: Logger;
}

export interface JobHandler {
  run(job: JobRun, deps: JobDeps): Promise<void>;
  failed?(job: JobRun, error: string, deps: JobDeps): Promise<void>;
}

const at = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;

/** Adds a job in the caller's transaction; a dedupe key already used adds nothing. */
export async function enqueueJob(tx: Tx, job: JobInput): Promise<{ id: string; created: boolean }> {
  const sql = sqlOf(tx);
  const id = newId('job');
  const rows = await sql.query<{ id: string }>(
    `INSERT INTO "jobs" ("id", "tenant_id", "kind", "payload", "run_at", "max_attempts", "dedupe_key")
     VALUES ($1, $2, $3, $4::jsonb, ${at(5)}, $6, $7)
     ON CONFLICT ("tenant_id", "dedupe_key") DO NOTHING RETURNING "id"`,
    [
      id,
      job.tenantId,
      job.kind,
      JSON.stringify(job.payload),
      (job.runAt ?? new Date()).toISOString(),
      job.maxAttempts ?? 3,
      job.dedupeKey ?? null,
    ],
  );
  if (rows.length > 0) return { id, created: true };
  const existing = await sql.query<{ id: string }>(`SELECT "id" FROM "jobs" WHERE "tenant_id" = $1 AND "dedupe_key" = $2`, [
    job.tenantId,
    job.dedupeKey ?? null,
  ]);
  return { id: existing[0]?.id ?? id, created: false };
}

export interface JobWorkerOptions {
  prisma: Prisma;
  log: Logger;
  handlers: Readonly<Record<string, JobHandler>>;
  /** Milliseconds between polls while nothing is due. */
  pollMs: number;
  /** Seconds a claim holds a job before another process may take it over. */
  leaseSeconds: number;
  /** Seconds before the first retry; doubled for each further attempt. */
  retryBaseSeconds?: number;
}

export interface JobWorker {
  readonly id: string;
  /** Claims and runs due jobs until none is due; resolves with the number run (tests, drains). */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

interface ClaimedRow {
  id: string;
  tenant_id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  run_at: Date | string;
}

/** Starts the loop that claims due jobs of the kinds it has handlers for. */
export function startJobWorker(opts: JobWorkerOptions): JobWorker {
  const id = `${hostname()}:${process.pid}:${randomToken(4)}`;
  const sql = sqlOf(opts.prisma);
  const kinds = Object.keys(opts.handlers).sort();
  const retryBase = opts.retryBaseSeconds ?? 2;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();

  async function claim(): Promise<JobRun | undefined> {
    const now = new Date();
    const rows = await sql.query<ClaimedRow>(
      `UPDATE "jobs" SET "status" = 'running', "attempts" = "attempts" + 1, "locked_by" = $1, "locked_until" = ${at(2)}
       WHERE "id" = (
         SELECT "id" FROM "jobs"
          WHERE "kind" = ANY($4::text[])
            AND (("status" = 'queued' AND "run_at" <= ${at(3)}) OR ("status" = 'running' AND "locked_until" < ${at(3)}))
          ORDER BY "run_at", "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING "id", "tenant_id", "kind", "payload", "attempts", "max_attempts", "run_at"`,
      [id, new Date(now.getTime() + opts.leaseSeconds * 1000).toISOString(), now.toISOString(), kinds],
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      id: r.id,
      tenantId: r.tenant_id,
      kind: r.kind,
      payload: r.payload ?? {},
      attempts: Number(r.attempts),
      maxAttempts: Number(r.max_attempts),
      runAt: new Date(r.run_at),
    };
  }

  async function finish(job: JobRun, status: 'done' | 'failed', error: string | null) {
    await sql.query(
      `UPDATE "jobs" SET "status" = $3, "finished_at" = ${at(4)}, "locked_by" = NULL, "locked_until" = NULL, "last_error" = $5
       WHERE "id" = $1 AND "locked_by" = $2`,
      [job.id, id, status, new Date().toISOString(), error],
    );
  }

  async function retryLater(job: JobRun, error: string) {
    const delay = retryBase * 2 ** (job.attempts - 1);
    await sql.query(
      `UPDATE "jobs" SET "status" = 'queued', "run_at" = ${at(3)}, "locked_by" = NULL, "locked_until" = NULL, "last_error" = $4
       WHERE "id" = $1 AND "locked_by" = $2`,
      [job.id, id, new Date(Date.now() + delay * 1000).toISOString(), error],
    );
  }

  async function runOne(job: JobRun): Promise<void> {
    const handler = opts.handlers[job.kind];
    const deps = { prisma: opts.prisma, log: opts.log };
    if (!handler) return;
    // A job whose earlier claims all ran out of lease (the process died each time) is not run again.
    if (job.attempts > job.maxAttempts) {
      await handler.failed?.(job, 'The job was interrupted on every attempt.', deps);
      await finish(job, 'failed', 'interrupted on every attempt');
      return;
    }
    try {
      await handler.run(job, deps);
      await finish(job, 'done', null);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      opts.log.warn('job failed', { job: job.id, kind: job.kind, attempt: job.attempts, error: message });
      if (job.attempts < job.maxAttempts) {
        await retryLater(job, message);
      } else {
        try {
          await handler.failed?.(job, message, deps);
        } finally {
          await finish(job, 'failed', message);
        }
      }
    }
  }

  async function drain(): Promise<number> {
    let n = 0;
    while (!stopped) {
      const job = await claim();
      if (!job) break;
      await runOne(job);
      n++;
    }
    return n;
  }

  const loop = async () => {
    if (stopped) return;
    try {
      current = drain();
      await current;
    } catch (err) {
      if (!stopped) opts.log.warn('job worker pass failed', { error: String(err) });
    }
    if (!stopped) {
      timer = setTimeout(() => void loop(), opts.pollMs);
      timer.unref();
    }
  };
  if (kinds.length > 0) {
    timer = setTimeout(() => void loop(), 0);
    timer.unref();
  }

  return {
    id,
    drain,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current.catch(() => undefined);
    },
  };
}
