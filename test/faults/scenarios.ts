/**
 * The four faults, each against real processes, each returning one line of counts and the
 * guarantees it found broken (none, when the service holds).
 */
import { randomUUID } from 'node:crypto';
import { verifyChain } from '@svc/contract/audit';
import pg from 'pg';
import {
  call,
  createAssessment,
  createTenant,
  isEnvelope,
  isProperUnavailable,
  type Receiver,
  type Reply,
  subscribe,
  type Tenant,
} from './http.ts';
import { type Postgres, type RedisServer, type ServiceProcess, sleep, startService } from './infra.ts';

export interface Context {
  pg: Postgres;
  redis: RedisServer;
  receiver: Receiver;
  operatorToken: string;
  /** The API process the scenarios call; scenario 1 replaces it after killing it. */
  api: ServiceProcess;
  /** Environment every service process gets (database, Redis, credentials file, private targets). */
  env: Record<string, string>;
}

export interface Outcome {
  line: string;
  failures: string[];
}

/** Direct reads of the private database, on a connection of their own (the API's pool is under test). */
async function query<T extends Record<string, unknown>>(ctx: Context, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: ctx.pg.url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/** Acknowledged creates that a GET no longer finds. */
async function missing(base: string, t: Tenant, ids: readonly string[]): Promise<string[]> {
  const lost: string[] = [];
  await eachLimited(ids, 10, async (id) => {
    const r = await call(base, 'GET', `/v1/compliance/assessments/${id}`, { token: t.token, timeoutMs: 30_000 });
    if (r.status !== 200 || r.body?.id !== id) lost.push(id);
  });
  return lost;
}

/**
 * The tenant's audit chain, verified twice: offline from an export (links, hashes, signatures,
 * no gap up to the head) and by the server's own replay.
 */
async function auditChain(base: string, t: Tenant): Promise<{ valid: boolean; events: number; why: string }> {
  const exp = await call(base, 'POST', '/v1/audit-trail/export', { token: t.token, body: {}, timeoutMs: 60_000 });
  if (exp.status !== 200) return { valid: false, events: 0, why: `export answered ${exp.status}` };
  const verdict = verifyChain(exp.body.events, exp.body.publicKeys, { tenantId: t.tenantId, anchor: exp.body.anchor });
  const replay = await call(base, 'POST', '/v1/audit-trail/replay', { token: t.token, body: {}, timeoutMs: 60_000 });
  const events = exp.body.events.length as number;
  if (!verdict.valid) return { valid: false, events, why: `export: ${JSON.stringify(verdict.firstBroken)}` };
  if (verdict.head?.seq !== exp.body.head.seq || events !== exp.body.head.seq) {
    return { valid: false, events, why: `export holds ${events} events, head is seq ${exp.body.head.seq}` };
  }
  if (replay.status !== 200 || replay.body.valid !== true) return { valid: false, events, why: `replay: ${JSON.stringify(replay.body)}` };
  return { valid: true, events, why: '' };
}

/**
 * Every assessment with its audit event, its outbox event and its delivery, or none of them: a
 * create is one transaction. Orphans (an audit or outbox event without its row) count as
 * half-written too.
 */
async function halfWritten(ctx: Context, tenantId: string): Promise<{ rows: number; half: number; sample: string[] }> {
  const incomplete = await query<{ id: string; audits: number; events: number; deliveries: number }>(
    ctx,
    `SELECT a."id",
       (SELECT count(*)::int FROM "audit_events" e WHERE e."tenant_id" = a."tenant_id" AND e."resource_id" = a."id") AS audits,
       (SELECT count(*)::int FROM "webhook_events" w WHERE w."tenant_id" = a."tenant_id" AND w."subject" = a."id") AS events,
       (SELECT count(*)::int FROM "webhook_deliveries" d JOIN "webhook_events" w ON w."id" = d."event_id"
         WHERE w."tenant_id" = a."tenant_id" AND w."subject" = a."id") AS deliveries
     FROM "assessments" a WHERE a."tenant_id" = $1`,
    [tenantId],
  );
  const bad = incomplete.filter((r) => r.audits !== 1 || r.events !== 1 || r.deliveries !== 1).map((r) => r.id);
  const orphans = await query<{ id: string }>(
    ctx,
    `SELECT e."resource_id" AS id FROM "audit_events" e
       WHERE e."tenant_id" = $1 AND e."action" = 'assessment.created'
         AND NOT EXISTS (SELECT 1 FROM "assessments" a WHERE a."tenant_id" = e."tenant_id" AND a."id" = e."resource_id")
     UNION ALL
     SELECT w."subject" FROM "webhook_events" w
       WHERE w."tenant_id" = $1
         AND NOT EXISTS (SELECT 1 FROM "assessments" a WHERE a."tenant_id" = w."tenant_id" AND a."id" = w."subject")`,
    [tenantId],
  );
  const all = [...bad, ...orphans.map((o) => o.id)];
  return { rows: incomplete.length, half: all.length, sample: all.slice(0, 5) };
}

/** 1. kill -9 of the API in the middle of a burst of creates, then a restart on the same database. */
export async function killApiDuringCreates(ctx: Context): Promise<Outcome> {
  const failures: string[] = [];
  const base = ctx.api.url;
  const t = await createTenant(base, ctx.operatorToken, 'faults: API killed');
  ctx.receiver.accept(t.tenantId, await subscribe(base, t, ctx.receiver.url));

  const acknowledged: string[] = [];
  const unexpected: string[] = [];
  // A few creates first, so the burst meets warm connections and compiled code, as in production.
  for (let i = 0; i < 10; i++) {
    const r = await createAssessment(base, t.token, 30_000);
    if (r.status === 201) acknowledged.push(r.body.id);
    else unexpected.push(`${r.status} ${r.error ?? JSON.stringify(r.body)}`);
  }
  const cutOff: string[] = [];
  let killed = false;
  const worker = async () => {
    while (!killed) {
      const key = randomUUID();
      const r = await createAssessment(base, t.token, 30_000, key);
      if (r.status === 201 && typeof r.body?.id === 'string') acknowledged.push(r.body.id);
      else if (r.status === 0 && killed) cutOff.push(key);
      else unexpected.push(`${r.status} ${r.error ?? JSON.stringify(r.body)}`);
    }
  };
  const started = Date.now();
  const workers = Array.from({ length: 20 }, worker);
  // About 2 s into the burst, and not before some creates were acknowledged (a slow start on a busy machine).
  while (Date.now() - started < 2000 || (acknowledged.length < 20 && Date.now() - started < 20_000)) await sleep(25);
  killed = true;
  await ctx.api.kill9();
  await Promise.all(workers);

  ctx.api = await startService('api', ctx.env);
  const lost = await missing(ctx.api.url, t, acknowledged);
  const hw = await halfWritten(ctx, t.tenantId);
  const committedUnanswered = hw.rows - (acknowledged.length - lost.length);

  // The cut-off requests retried with their keys, as the SDK does: one that committed replays its
  // stored response; one that did not is still locked by its dead first attempt (409 for up to 60 s)
  // or, when it never reached the server, runs now. None runs twice.
  const retried = { replayed: 0, ran: 0, locked: 0 };
  for (const key of cutOff) {
    const r = await createAssessment(ctx.api.url, t.token, 30_000, key);
    if (r.status === 201 && r.headers?.get('idempotent-replayed') === 'true') retried.replayed++;
    else if (r.status === 201) retried.ran++;
    else if (r.status === 409 && r.body?.details?.[0]?.issue === 'in_flight') retried.locked++;
    else unexpected.push(`retry: ${r.status} ${r.error ?? JSON.stringify(r.body)}`);
  }
  const chain = await auditChain(ctx.api.url, t);

  if (acknowledged.length === 0) failures.push('no create was acknowledged before the kill: nothing was tested');
  if (lost.length > 0) failures.push(`acknowledged but lost: ${lost.slice(0, 5).join(', ')}`);
  if (hw.half > 0) failures.push(`half-written: ${hw.sample.join(', ')}`);
  if (!chain.valid) failures.push(`audit chain after restart: ${chain.why}`);
  if (unexpected.length > 0) failures.push(`unexpected answers: ${unexpected.slice(0, 3).join('; ')}`);
  if (retried.replayed !== committedUnanswered) {
    failures.push(`${committedUnanswered} creates committed without an answer, but ${retried.replayed} retries replayed one`);
  }
  const line =
    `kill -9 API during creates: acknowledged ${acknowledged.length}, present ${acknowledged.length - lost.length}, ` +
    `half-written ${hw.half}, lost ${lost.length} (${cutOff.length} requests cut off, ${committedUnanswered} of them committed; ` +
    `retried with their keys: ${retried.replayed} replayed, ${retried.locked} locked, ${retried.ran} ran; ` +
    `audit chain ${chain.valid ? 'valid' : 'BROKEN'}, ${chain.events} events)`;
  return { line, failures };
}

/** 2. kill -9 of one of two dispatchers mid-delivery; the survivor takes its leases over. */
export async function killDispatcherDuringDelivery(ctx: Context): Promise<Outcome> {
  const failures: string[] = [];
  const N = 300;
  const base = ctx.api.url;
  const t = await createTenant(base, ctx.operatorToken, 'faults: dispatcher killed');
  // Each delivery takes 100 ms at the receiver, so a killed dispatcher always has some in flight.
  ctx.receiver.accept(t.tenantId, await subscribe(base, t, ctx.receiver.url), 100);
  const env = {
    ...ctx.env,
    SVC_WEBHOOK_LEASE_MS: '3000',
    SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000',
    SVC_WEBHOOK_POLL_MS: '50',
    SVC_WEBHOOK_CONCURRENCY: '4',
    SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
  };
  const ours = () => ctx.receiver.received.filter((d) => d.tenantId === t.tenantId);
  const distinct = () => new Set(ours().map((d) => d.id)).size;

  // The events first (the API runs no dispatcher): with a backlog, both dispatchers are always at
  // their concurrency, so the one killed holds deliveries in flight whenever the kill lands.
  const refused: string[] = [];
  let made = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (made < N) {
        made++;
        const r = await createAssessment(base, t.token, 30_000);
        if (r.status !== 201) refused.push(`${r.status} ${r.error ?? JSON.stringify(r.body)}`);
      }
    }),
  );
  const [victim, survivor] = await Promise.all([startService('dispatcher', env), startService('dispatcher', env)]);
  const deadline = Date.now() + 60_000;
  while (distinct() < N / 3 && Date.now() < deadline) await sleep(10);
  const receivedAtKill = distinct();
  await victim.kill9();

  const settle = Date.now() + 120_000;
  let statuses: Record<string, number> = {};
  for (;;) {
    const rows = await query<{ status: string; n: number }>(
      ctx,
      `SELECT "status", count(*)::int AS n FROM "webhook_deliveries" WHERE "tenant_id" = $1 GROUP BY "status"`,
      [t.tenantId],
    );
    statuses = Object.fromEntries(rows.map((r) => [r.status, r.n]));
    const open = rows.filter((r) => r.status !== 'succeeded' && r.status !== 'dead_lettered').reduce((s, r) => s + r.n, 0);
    if (open === 0 && distinct() >= N) break;
    if (Date.now() > settle) {
      failures.push(`not settled after 120 s: ${JSON.stringify(statuses)}, received ${distinct()}`);
      break;
    }
    await sleep(200);
  }
  await survivor.stop();

  const outbox = new Set(
    (await query<{ id: string }>(ctx, `SELECT "id" FROM "webhook_events" WHERE "tenant_id" = $1`, [t.tenantId])).map((r) => r.id),
  );
  const [{ n: takenOver } = { n: 0 }] = await query<{ n: number }>(
    ctx,
    `SELECT count(*)::int AS n FROM "webhook_attempts" WHERE "tenant_id" = $1 AND "error" LIKE '%lease expired%'`,
    [t.tenantId],
  );
  const got = ours();
  const first = new Map<string, Buffer>();
  let duplicated = 0;
  let differing = 0;
  for (const d of got) {
    const seen = first.get(d.id);
    if (!seen) first.set(d.id, d.raw);
    else {
      duplicated++;
      if (!seen.equals(d.raw)) differing++;
    }
  }
  const foreign = [...first.keys()].filter((id) => !outbox.has(id));
  const lost = [...outbox].filter((id) => !first.has(id));

  if (refused.length > 0) failures.push(`creates refused: ${refused.slice(0, 3).join('; ')}`);
  if (outbox.size !== N) failures.push(`outbox holds ${outbox.size} events, expected ${N}`);
  if (lost.length > 0) failures.push(`never delivered: ${lost.slice(0, 5).join(', ')}`);
  if (foreign.length > 0)
    failures.push(`delivered ids not in the outbox (a redelivery under a new id?): ${foreign.slice(0, 5).join(', ')}`);
  if (differing > 0) failures.push(`${differing} redeliveries differ from the first delivery of their event`);
  if ((statuses.dead_lettered ?? 0) > 0) failures.push(`${statuses.dead_lettered} deliveries dead-lettered`);
  if (ctx.receiver.badSignatures() > 0) failures.push(`${ctx.receiver.badSignatures()} deliveries failed signature verification`);
  if (takenOver === 0) failures.push('the killed dispatcher held no delivery: the kill did not interrupt anything (inconclusive)');
  const line =
    `kill -9 one of two dispatchers: events ${outbox.size}, delivered ${first.size}, duplicated ${duplicated} ` +
    `(same event id and body: ${duplicated - differing}), lost ${lost.length} (killed at ${receivedAtKill} delivered; ` +
    `${takenOver} leases taken over by the survivor; bad signatures ${ctx.receiver.badSignatures()})`;
  return { line, failures };
}

/** 3. PostgreSQL stopped for 2 s and started again under a steady stream of reads and creates. */
export async function restartPostgresUnderLoad(ctx: Context): Promise<Outcome> {
  const failures: string[] = [];
  const base = ctx.api.url;
  const t = await createTenant(base, ctx.operatorToken, 'faults: PostgreSQL restarted');
  const replies: (Reply & { kind: 'GET' | 'POST' })[] = [];
  let stop = false;
  const HANG_MS = 8000;
  const worker = async (w: number) => {
    for (let i = w; !stop; i++) {
      const r =
        i % 2 === 0
          ? await call(base, 'GET', '/v1/compliance/assessments?limit=5', { token: t.token, timeoutMs: HANG_MS })
          : await createAssessment(base, t.token, HANG_MS);
      replies.push({ ...r, kind: i % 2 === 0 ? 'GET' : 'POST' });
      // A client that met a 503 waits a little, as Retry-After asks (not the full second: the outage
      // is short); one that met no server at all does not spin either.
      if (r.status === 503 || r.status === 0) await sleep(100);
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  await sleep(2000);
  const downAt = Date.now();
  await ctx.pg.stop();
  await sleep(2000);
  await ctx.pg.start();
  const upAt = Date.now();
  const ok = (r: Reply) => r.status >= 200 && r.status < 300;
  let recoveredAt: number | undefined;
  while (recoveredAt === undefined && Date.now() - upAt < 60_000) {
    const first = replies.filter((r) => r.startedAt >= upAt && ok(r)).sort((a, b) => a.startedAt + a.ms - (b.startedAt + b.ms))[0];
    if (first) recoveredAt = first.startedAt + first.ms;
    else await sleep(25);
  }
  await sleep(3000);
  stop = true;
  await Promise.all(workers);

  const twoXX = replies.filter(ok);
  const unavailable = replies.filter(isProperUnavailable);
  const other = replies.filter((r) => !ok(r) && !isProperUnavailable(r));
  const settled = recoveredAt === undefined ? [] : replies.filter((r) => r.startedAt >= (recoveredAt as number) + 500);
  const afterRecovery = settled.filter((r) => !ok(r));
  const slowest = Math.max(...replies.map((r) => r.ms));
  const acknowledged = twoXX.filter((r) => r.kind === 'POST').map((r) => r.body.id as string);
  const lost = await missing(base, t, acknowledged);
  const chain = await auditChain(base, t);

  const describe = (r: Reply) =>
    `${r.status || r.error} ${r.status === 503 && !r.headers?.get('retry-after') ? '(no Retry-After) ' : ''}${isEnvelope(r) ? r.body.error : JSON.stringify(r.body ?? '').slice(0, 80)}`;
  if (other.length > 0)
    failures.push(`answers other than 2xx or 503 with Retry-After: ${[...new Set(other.map(describe))].slice(0, 4).join('; ')}`);
  if (unavailable.length === 0) failures.push('no request met the outage (no 503): nothing was tested');
  if (recoveredAt === undefined) failures.push('the API did not serve a 2xx within 60 s of PostgreSQL being back');
  if (afterRecovery.length > 0) failures.push(`${afterRecovery.length} failures after recovery: ${describe(afterRecovery[0] as Reply)}`);
  if (lost.length > 0) failures.push(`acknowledged creates lost: ${lost.slice(0, 5).join(', ')}`);
  if (!chain.valid) failures.push(`audit chain: ${chain.why}`);
  const line =
    `PostgreSQL restarted under load: requests ${replies.length}, 2xx ${twoXX.length}, 503 (with Retry-After) ${unavailable.length}, ` +
    `other ${other.length}, recovered in ${recoveredAt === undefined ? '-' : recoveredAt - upAt} ms, chain ${chain.valid ? 'valid' : 'BROKEN'} ` +
    `(down ${upAt - downAt} ms; slowest answer ${slowest} ms; ${settled.length} requests after recovery all 2xx: ${afterRecovery.length === 0 ? 'yes' : 'no'}; ` +
    `acknowledged creates ${acknowledged.length}, lost ${lost.length})`;
  return { line, failures };
}

interface Burst {
  replies: Reply[];
  allowed: number;
  limited: number;
  /** The most 2xx in one one-second window, over both API processes. */
  maxPerWindow: number;
}

/** `perSecond` requests a second for `seconds`, alternating between the API processes, not waiting for answers. */
async function burst(apis: ServiceProcess[], t: Tenant, perSecond: number, seconds: number): Promise<Burst> {
  const pending: Promise<Reply>[] = [];
  const started = Date.now();
  for (let i = 0; Date.now() - started < seconds * 1000; i++) {
    const api = apis[i % apis.length] as ServiceProcess;
    pending.push(call(api.url, 'GET', '/v1/compliance/assessments?limit=1', { token: t.token, timeoutMs: 10_000 }));
    await sleep(1000 / perSecond);
  }
  const replies = await Promise.all(pending);
  const perWindow = new Map<string, number>();
  for (const r of replies) {
    if (r.status !== 200) continue;
    const w = r.headers?.get('x-ratelimit-reset') ?? '?';
    perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
  }
  return {
    replies,
    allowed: replies.filter((r) => r.status === 200).length,
    limited: replies.filter((r) => r.status === 429).length,
    maxPerWindow: Math.max(0, ...perWindow.values()),
  };
}

/** 4. Redis stopped under two API processes that share one rate limit through it, then started again. */
export async function stopRedis(ctx: Context): Promise<Outcome> {
  const failures: string[] = [];
  const LIMIT = 10;
  const second = await startService('api', ctx.env);
  const apis = [ctx.api, second];
  const t = await createTenant(ctx.api.url, ctx.operatorToken, 'faults: Redis stopped', LIMIT);
  const sharedOk = (b: Burst, phase: string) => {
    const odd = b.replies.filter((r) => r.status !== 200 && r.status !== 429);
    if (odd.length > 0) failures.push(`${phase}: ${odd.length} answers other than 200 or 429 (first: ${odd[0]?.status || odd[0]?.error})`);
    if (b.maxPerWindow > LIMIT) failures.push(`${phase}: ${b.maxPerWindow} requests allowed in one second, limit ${LIMIT}: not shared`);
    if (b.limited === 0) failures.push(`${phase}: no request was limited`);
  };

  const before = await burst(apis, t, 30, 3);
  sharedOk(before, 'Redis up');

  await ctx.redis.stop();
  // Long enough for several reconnection attempts: a request must not queue behind them.
  const down = await burst(apis, t, 30, 5);
  const refused = down.replies.filter(isProperUnavailable).length;
  const served = down.replies.filter((r) => r.status === 200 || r.status === 429).length;
  const other = down.replies.length - refused - served;
  const slowest = Math.max(...down.replies.map((r) => r.ms));
  if (other > 0) {
    const odd = down.replies.find((r) => !isProperUnavailable(r) && r.status !== 200 && r.status !== 429) as Reply;
    failures.push(`Redis down: ${other} answers neither served nor 503 with Retry-After (first: ${odd.status || odd.error})`);
  }
  if (slowest > 5000) failures.push(`Redis down: an answer took ${slowest} ms`);

  await ctx.redis.start();
  const restartedAt = Date.now();
  let resumedAt: number | undefined;
  while (resumedAt === undefined && Date.now() - restartedAt < 30_000) {
    const r = await call(ctx.api.url, 'GET', '/v1/compliance/assessments?limit=1', { token: t.token, timeoutMs: 10_000 });
    const r2 = await call(second.url, 'GET', '/v1/compliance/assessments?limit=1', { token: t.token, timeoutMs: 10_000 });
    if ([r, r2].every((x) => x.status === 200 || x.status === 429)) resumedAt = Date.now();
    else await sleep(100);
  }
  if (resumedAt === undefined) failures.push('limiting did not resume within 30 s of Redis being back');
  await sleep(1100);
  const after = await burst(apis, t, 30, 3);
  sharedOk(after, 'Redis back');
  await second.stop();

  const line =
    `Redis stopped: up ${before.replies.length} requests (200 ${before.allowed}, 429 ${before.limited}, at most ${before.maxPerWindow}/s ` +
    `over 2 processes, limit ${LIMIT}); down ${down.replies.length} requests (503 with Retry-After ${refused}, served ${served}, ` +
    `other ${other}, slowest ${slowest} ms); restarted: resumed in ${resumedAt === undefined ? '-' : resumedAt - restartedAt} ms, ` +
    `${after.replies.length} requests (200 ${after.allowed}, 429 ${after.limited}, at most ${after.maxPerWindow}/s)`;
  return { line, failures };
}
