import { GENESIS_HASH } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendingTransaction, recordChange } from '../packages/server/src/platform/ledger/changes.ts';
import { call, createTenant, type TenantFixture } from './support/api.ts';
import { createIsolatedDatabase, startTestServer, type TestServer } from './support/server.ts';

/**
 * The kit's creates and transitions append to the tenant's audit chain without holding its head
 * across round trips (appendingTransaction in platform/ledger/changes.ts): on PostgreSQL each
 * process links an event to the head it read or last wrote, and claims the head in the change's
 * last statement only if no one moved it meanwhile; a change that finds it moved runs again with
 * the lock. Two API processes on one database are two servers here, each with its own pool and its
 * own idea of the heads: written at once through both, the chain must stay one unbroken line.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // A database of its own on PostgreSQL: the retries counted below are this file's alone.
  const db = await createIsolatedDatabase('append');
  drop = db?.drop;
  const env = db ? { DATABASE_URL: db.url } : {};
  a = await startTestServer(env);
  b = await startTestServer(env);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await drop?.();
});

/** The same tenant through the other server (its keys are the database's). */
const through =
  (t: TenantFixture, ts: TestServer): TenantFixture['call'] =>
  (method, path, opts = {}) =>
    call(ts.url, method, path, { token: t.token, ...opts });

const retries = async (ts: TestServer) => {
  const text = await (await fetch(`${ts.url}/metrics`)).text();
  return Number(/^svc_audit_chain_retries_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
};

describe('appending to one tenant chain from two processes at once', () => {
  it('leaves one unbroken chain, every change answered once', async () => {
    const t = await createTenant(a);
    const callers = [t.call, through(t, b)];
    const before = await retries(a);
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (callers[i % 2] as TenantFixture['call'])('POST', '/v1/compliance/assessments', {
          body: { type: 'fria', systemId: `sys_two_${i}`, jurisdiction: 'eu/de' },
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(60).fill(201));
    // Transitions append the same way: each started once, through the other server than its create.
    const started = await Promise.all(
      created.map((r, i) =>
        (callers[(i + 1) % 2] as TenantFixture['call'])('POST', `/v1/compliance/assessments/${r.body.id}/start`, { body: {} }),
      ),
    );
    expect(started.map((r) => [r.status, r.body.status])).toEqual(Array(60).fill([200, 'in_progress']));

    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body).toMatchObject({ valid: true, checked: 121, firstBroken: null, range: { fromSeq: 1, toSeq: 121 } });
    const events = await a.server.db.prisma.auditEvent.findMany({ where: { tenantId: t.tenantId }, select: { seq: true, action: true } });
    expect(events.map((e) => e.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 121 }, (_, i) => i + 1));
    expect(events.filter((e) => e.action === 'assessment.created')).toHaveLength(60);
    expect(events.filter((e) => e.action === 'assessment.started')).toHaveLength(60);
    // On PostgreSQL the two processes moved each other's heads: some changes ran again, none twice.
    if (onPostgres) expect(await retries(a)).toBeGreaterThan(before);
    const rows = await a.server.db.prisma.assessment.count({ where: { tenantId: t.tenantId } });
    expect(rows).toBe(60);
  });

  it('links the concurrent changes of one process to each other, none run again, when it writes alone', async () => {
    const t = await createTenant(a);
    const before = await retries(a);
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: `sys_one_${i}`, jurisdiction: 'eu/de' } }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(40).fill(201));
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body).toMatchObject({ valid: true, checked: 41, firstBroken: null });
    // Each waits for the one it linked to, then sees its head: a retry here is a change run twice for nothing.
    expect(await retries(a)).toBe(before);
  });

  it.runIf(onPostgres)('after another process moved the head, its changes take the lock for a while, not each run twice', async () => {
    const t = await createTenant(a);
    const before = await retries(a);
    const post = (call: TenantFixture['call'], i: number) =>
      call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: `sys_moved_${i}`, jurisdiction: 'eu/de' } });
    // Ten clients of one process keep it busy; a few changes through the other one move the head
    // under its changes in flight, which are linked to each other.
    let n = 0;
    const load = Array.from({ length: 10 }, async () => {
      const statuses: number[] = [];
      for (let k = 0; k < 25; k++) statuses.push((await post(t.call, n++)).status);
      return statuses;
    });
    const other = (async () => {
      await new Promise((r) => setTimeout(r, 50));
      const statuses: number[] = [];
      for (let k = 0; k < 3; k++) statuses.push((await post(through(t, b), 1000 + k)).status);
      return statuses;
    })();
    const statuses = [...(await Promise.all(load)).flat(), ...(await other)];
    expect(statuses).toEqual(Array(253).fill(201));
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body).toMatchObject({ valid: true, checked: 254, firstBroken: null });
    // Each move dooms the changes in flight linked after it (ten clients: about ten). Before the
    // pause, their runs again with the lock moved the head under the next ones, and so on while the
    // load lasted: most of the 250 ran twice.
    expect((await retries(a)) - before).toBeLessThanOrEqual(40);
  });

  it.runIf(onPostgres)('runs a change again when the change it linked to rolls back', async () => {
    const db = a.server.db;
    const tenantId = `ten_append_${Date.now()}`;
    const change = (actor: string) => ({
      tenantId,
      actor,
      action: 'x.appended',
      resourceType: 'x',
      resourceId: actor,
      correlationId: actor,
    });
    // The first change of the tenant fails in its last statement, 300 ms after it was sent.
    const first = appendingTransaction(db, tenantId, (sql) =>
      recordChange(sql, change('first'), {
        last: true,
        also: () => ['boom AS (INSERT INTO "audit_events" ("id") SELECT NULL FROM pg_sleep(0.3))'],
      }),
    );
    first.catch(() => {});
    // The second starts meanwhile, so it links to the first, still on its way.
    await new Promise((r) => setTimeout(r, 100));
    const second = await appendingTransaction(db, tenantId, (sql) => recordChange(sql, change('second'), { last: true }));
    await expect(first).rejects.toMatchObject({ code: '23502' });
    // Had it been written as linked, seq 2 would follow a seq 1 that does not exist.
    expect(second).toMatchObject({ seq: 1, prevHash: GENESIS_HASH });
    const events = await db.prisma.auditEvent.findMany({ where: { tenantId }, select: { seq: true, actor: true, prevHash: true } });
    expect(events).toEqual([{ seq: 1, actor: 'second', prevHash: GENESIS_HASH }]);
    expect(await db.prisma.auditChainHead.findUniqueOrThrow({ where: { tenantId } })).toMatchObject({ seq: 1, hash: second.hash });
  });
});
