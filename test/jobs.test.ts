import { enqueueJob, type JobHandler, type JobRun, startJobWorker } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../packages/server/src/logger.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * The background-job mechanism on a database of its own: jobs written in a transaction, claimed
 * by one of several racing workers, retried with backoff, failed after the last attempt, resumed
 * after a worker dies holding one, and enqueued once per dedupe key.
 */
let ts: TestServer;
const silent = createLogger('silent');

beforeAll(async () => {
  ts = await startIsolatedTestServer();
});
afterAll(() => ts?.close());

const prisma = () => ts.server.db.prisma;
const tenantId = () => `ten_jobs_${Math.random().toString(36).slice(2, 10)}`;

async function enqueue(
  tenant: string,
  kind: string,
  payload: Record<string, unknown>,
  extra: { dedupeKey?: string; maxAttempts?: number } = {},
) {
  return prisma().$transaction((tx) => enqueueJob(tx, { tenantId: tenant, kind, payload, ...extra }));
}

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}

describe('jobs', () => {
  it('a job rolled back with its transaction does not exist', async () => {
    const tenant = tenantId();
    await expect(
      prisma().$transaction(async (tx) => {
        await enqueueJob(tx, { tenantId: tenant, kind: 'test.rolled_back', payload: {} });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await prisma().job.count({ where: { tenantId: tenant } })).toBe(0);
  });

  it('two racing workers run each of 40 jobs exactly once', async () => {
    const tenant = tenantId();
    const runs: string[] = [];
    const handler: JobHandler = {
      async run(job: JobRun) {
        runs.push(String(job.payload.n));
        await new Promise((r) => setTimeout(r, 5));
      },
    };
    for (let n = 0; n < 40; n++) await enqueue(tenant, 'test.race', { n });
    const a = startJobWorker({ prisma: prisma(), log: silent, handlers: { 'test.race': handler }, pollMs: 20, leaseSeconds: 30 });
    const b = startJobWorker({ prisma: prisma(), log: silent, handlers: { 'test.race': handler }, pollMs: 20, leaseSeconds: 30 });
    await until(async () => (await prisma().job.count({ where: { tenantId: tenant, status: 'done' } })) === 40);
    await Promise.all([a.stop(), b.stop()]);
    expect(runs.sort()).toEqual(Array.from({ length: 40 }, (_, n) => String(n)).sort());
  });

  it('a failing job is retried with backoff, then failed with its hook called once', async () => {
    const tenant = tenantId();
    const attempts: number[] = [];
    const failed: string[] = [];
    const handler: JobHandler = {
      async run(job) {
        attempts.push(job.attempts);
        throw new Error(`boom ${job.attempts}`);
      },
      async failed(job, error) {
        failed.push(`${job.id}:${error}`);
      },
    };
    const { id } = await enqueue(tenant, 'test.fail', {}, { maxAttempts: 3 });
    const w = startJobWorker({
      prisma: prisma(),
      log: silent,
      handlers: { 'test.fail': handler },
      pollMs: 20,
      leaseSeconds: 30,
      retryBaseSeconds: 0.1,
    });
    await until(async () => (await prisma().job.findUnique({ where: { id } }))?.status === 'failed');
    await w.stop();
    expect(attempts).toEqual([1, 2, 3]);
    expect(failed).toEqual([`${id}:boom 3`]);
    const row = await prisma().job.findUnique({ where: { id } });
    expect(row?.lastError).toBe('boom 3');
    expect(row?.finishedAt).not.toBeNull();
  });

  it('a job held by a worker that died is resumed by another once the lease runs out', async () => {
    const tenant = tenantId();
    const { id } = await enqueue(tenant, 'test.resume', { step: 1 });
    // The "dead" worker: it claims the job (the lease is 1 s) and never finishes it.
    const never = new Promise<void>(() => {});
    const dead = startJobWorker({
      prisma: prisma(),
      log: silent,
      handlers: { 'test.resume': { run: () => never } },
      pollMs: 20,
      leaseSeconds: 1,
    });
    await until(async () => (await prisma().job.findUnique({ where: { id } }))?.status === 'running');
    void dead.stop();
    const done: number[] = [];
    const alive = startJobWorker({
      prisma: prisma(),
      log: silent,
      handlers: { 'test.resume': { run: async (job) => void done.push(job.attempts) } },
      pollMs: 50,
      leaseSeconds: 30,
    });
    await until(async () => (await prisma().job.findUnique({ where: { id } }))?.status === 'done');
    await alive.stop();
    expect(done).toEqual([2]);
  });

  it('a job waits for its run time, and a dedupe key enqueues once', async () => {
    const tenant = tenantId();
    const first = await prisma().$transaction((tx) =>
      enqueueJob(tx, {
        tenantId: tenant,
        kind: 'test.later',
        payload: {},
        runAt: new Date(Date.now() + 60_000),
        dedupeKey: 'sch_1@2026-11-24T10:00:00Z',
      }),
    );
    const again = await enqueue(tenant, 'test.later', {}, { dedupeKey: 'sch_1@2026-11-24T10:00:00Z' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    const ran: string[] = [];
    const w = startJobWorker({
      prisma: prisma(),
      log: silent,
      handlers: { 'test.later': { run: async (j) => void ran.push(j.id) } },
      pollMs: 20,
      leaseSeconds: 30,
    });
    expect(await w.drain()).toBe(0);
    await w.stop();
    expect(ran).toEqual([]);
    expect(await prisma().job.count({ where: { tenantId: tenant } })).toBe(1);
  });
});
