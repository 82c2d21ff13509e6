import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { WEBHOOK_HEADERS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_SCHEDULE_MS, type WebhookEnvelope } from '@svc/contract';
import type { Database } from '../db/client.ts';
import type { WebhookEvent, WebhookSubscription } from '../generated/prisma/client.ts';
import { newId, randomToken } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { iso } from '../platform/render.ts';
import type { WebhookConfig } from './config.ts';
import { outboxSignal } from './outbox.ts';
import { openSecret } from './secret-box.ts';
import { signatureHeader } from './signing.ts';
import { guardedLookup, isPrivateAddress } from './targets.ts';

/** A delivery this dispatcher holds the lease of. */
interface Claimed {
  id: string;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  attempt_count: number;
  replays: number;
  prev_status: string;
}

export interface AttemptResult {
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  ok: boolean;
}

export interface Dispatcher {
  readonly id: string;
  start(): void;
  /** Stops claiming, lets in-flight attempts finish for a short grace period, records the rest as failed. */
  stop(): Promise<void>;
  /** Test hook: vanishes like a killed process, leaving its claims to expire. */
  crash(): void;
}

/** Delay before the attempt after `attempt` (1-based), scaled; undefined after the last one. */
export function retryDelayMs(attempt: number, scale: number): number | undefined {
  const base = WEBHOOK_RETRY_SCHEDULE_MS[attempt - 1];
  return base === undefined ? undefined : Math.round(base * scale);
}

/** The CloudEvents 1.0 envelope of an event; the same bytes on every attempt and every replay. */
export function envelopeOf(ev: WebhookEvent, sourceBaseUrl: string): WebhookEnvelope {
  return {
    specversion: '1.0',
    id: ev.id,
    source: `${sourceBaseUrl}${ev.source}`,
    type: ev.type,
    datacontenttype: 'application/json',
    time: ev.createdAt.toISOString(),
    subject: ev.subject,
    tenantid: ev.tenantId,
    data: ev.data as Record<string, unknown>,
  };
}

/**
 * Claims due deliveries (`FOR UPDATE SKIP LOCKED`, so any number of dispatchers share the table
 * without taking one row twice) and sends each as one signed POST. A claim is a lease: when a
 * dispatcher dies mid-attempt its deliveries are due again once the lease expires, and are sent
 * with the next attempt number and the same event id (at least once).
 */
export function createDispatcher(opts: { db: Database; config: WebhookConfig; log: Logger }): Dispatcher {
  const { db, config, log } = opts;
  const prisma = db.prisma;
  const id = `dsp_${hostname()}_${process.pid}_${randomToken(4)}`;
  const lookup = guardedLookup(config.allowPrivateTargets);
  let httpAgent = new http.Agent({ keepAlive: true, maxSockets: config.concurrency });
  let httpsAgent = new https.Agent({ keepAlive: true, maxSockets: config.concurrency });
  const inflight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let timerDue = Number.POSITIVE_INFINITY;
  let ticking = false;
  let again = false;
  let running = false;
  let crashed = false;
  let current: Promise<void> | undefined;

  const schedule = (ms: number) => {
    if (!running) return;
    const due = Date.now() + ms;
    if (timer && timerDue <= due) return;
    if (timer) clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(() => {
      timer = undefined;
      timerDue = Number.POSITIVE_INFINITY;
      current = tick();
    }, ms);
  };
  const wake = () => schedule(5);

  async function claim(limit: number): Promise<Claimed[]> {
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + config.leaseMs);
    const rows = await prisma.$queryRawUnsafe<Claimed[]>(
      `WITH due AS (
         SELECT "id", "status" AS prev_status FROM "webhook_deliveries"
         WHERE ("status" = 'pending' AND "next_attempt_at" <= $1::timestamp(3))
            OR ("status" = 'delivering' AND "lease_expires_at" <= $1::timestamp(3))
         ORDER BY "next_attempt_at" ASC
         LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       UPDATE "webhook_deliveries" AS d
       SET "status" = 'delivering', "attempt_count" = d."attempt_count" + 1,
           "lease_expires_at" = $2::timestamp(3), "updated_at" = $1::timestamp(3)
       FROM due WHERE d."id" = due."id"
       RETURNING d."id", d."tenant_id", d."subscription_id", d."event_id", d."attempt_count", d."replays", due.prev_status`,
      iso(now),
      iso(leaseUntil),
      limit,
    );
    return rows.map((r) => ({ ...r, attempt_count: Number(r.attempt_count), replays: Number(r.replays) }));
  }

  async function tick(): Promise<void> {
    if (!running) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    let next = config.pollMs;
    try {
      const free = config.concurrency - inflight.size;
      if (free > 0) {
        const claimed = await claim(free);
        if (!running) {
          // Stopped while claiming: hand the rows back rather than leave them to their lease.
          if (!crashed) await release(claimed);
          return;
        }
        if (claimed.length > 0) await launch(claimed);
        if (claimed.length === free) next = 0;
      }
    } catch (err) {
      if (running) log.warn('webhook claim failed', { dispatcher: id, error: String(err) });
      next = config.pollMs * 4;
    } finally {
      ticking = false;
    }
    if (again) {
      again = false;
      next = 0;
    }
    schedule(next);
  }

  async function release(claimed: Claimed[]): Promise<void> {
    for (const c of claimed) {
      await prisma.webhookDelivery.updateMany({
        where: { id: c.id, status: 'delivering', attemptCount: c.attempt_count, replays: c.replays },
        data: {
          status: c.prev_status === 'delivering' ? 'delivering' : 'pending',
          attemptCount: c.attempt_count - 1,
          leaseExpiresAt: c.prev_status === 'delivering' ? new Date(0) : null,
        },
      });
    }
  }

  async function launch(claimed: Claimed[]): Promise<void> {
    const [events, subs] = await Promise.all([
      prisma.webhookEvent.findMany({ where: { id: { in: [...new Set(claimed.map((c) => c.event_id))] } } }),
      prisma.webhookSubscription.findMany({ where: { id: { in: [...new Set(claimed.map((c) => c.subscription_id))] } } }),
    ]);
    const eventById = new Map(events.map((e) => [e.id, e]));
    const subById = new Map(subs.map((s) => [s.id, s]));
    // Attempts lost with a dispatcher that died are recorded as failed when their lease is taken over.
    const lost = claimed.filter((c) => c.prev_status === 'delivering' && c.attempt_count > 1);
    if (lost.length > 0) {
      await prisma.webhookAttempt.createMany({
        skipDuplicates: true,
        data: lost.map((c) => ({
          id: newId('wha'),
          tenantId: c.tenant_id,
          deliveryId: c.id,
          round: c.replays,
          attempt: c.attempt_count - 1,
          startedAt: new Date(Date.now() - config.leaseMs),
          latencyMs: config.leaseMs,
          statusCode: null,
          outcome: 'failed',
          error: 'no result: the dispatcher was lost during the attempt and its lease expired',
        })),
      });
    }
    for (const c of claimed) {
      const ev = eventById.get(c.event_id);
      const sub = subById.get(c.subscription_id);
      const abort = new AbortController();
      const done = run(c, ev, sub, abort.signal)
        .catch((err: unknown) => log.error('webhook delivery failed to record', { dispatcher: id, delivery: c.id, error: String(err) }))
        .finally(() => {
          inflight.delete(c.id);
          schedule(0);
        });
      inflight.set(c.id, { abort, done });
    }
  }

  async function run(c: Claimed, ev: WebhookEvent | undefined, sub: WebhookSubscription | undefined, signal: AbortSignal) {
    if (!ev || !sub) {
      // The subscription was deleted after the claim: nothing to deliver to.
      await prisma.webhookDelivery.deleteMany({ where: { id: c.id, status: 'delivering' } });
      return;
    }
    if (c.attempt_count > WEBHOOK_MAX_ATTEMPTS) {
      await prisma.webhookDelivery.updateMany({
        where: { id: c.id, status: 'delivering', attemptCount: c.attempt_count },
        data: { status: 'dead_lettered', deadAt: new Date(), leaseExpiresAt: null, nextAttemptAt: null, updatedAt: new Date() },
      });
      return;
    }
    const result = await send(c, ev, sub, signal);
    if (crashed) return;
    await record(c, result);
  }

  async function send(c: Claimed, ev: WebhookEvent, sub: WebhookSubscription, signal: AbortSignal): Promise<AttemptResult> {
    const body = Buffer.from(JSON.stringify(envelopeOf(ev, config.sourceBaseUrl)));
    const startedAt = new Date();
    const t = Math.floor(startedAt.getTime() / 1000);
    let secrets: string[];
    try {
      secrets = [openSecret(sub.secret)];
      if (sub.previousSecret && sub.previousSecretExpiresAt && sub.previousSecretExpiresAt > startedAt)
        secrets.push(openSecret(sub.previousSecret));
    } catch (err) {
      // Nothing is sent unsigned: the attempt fails and is retried, by a process that holds the key.
      return { startedAt, latencyMs: 0, statusCode: null, ok: false, error: `secret unreadable: ${(err as Error).message}` };
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_HEADERS.userAgent,
      [WEBHOOK_HEADERS.signature]: signatureHeader(secrets, t, body),
      [WEBHOOK_HEADERS.event]: ev.type,
      [WEBHOOK_HEADERS.tenant]: ev.tenantId,
      [WEBHOOK_HEADERS.attempt]: String(c.attempt_count),
      'content-length': String(body.length),
    };
    const started = performance.now();
    const outcome = await postOnce(sub.url, body, headers, config.attemptTimeoutMs, signal);
    const latencyMs = Math.round(performance.now() - started);
    const ok = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
    return {
      startedAt,
      latencyMs,
      statusCode: outcome.status ?? null,
      ok,
      error: ok ? null : (outcome.error ?? `HTTP ${outcome.status}`),
    };
  }

  function postOnce(
    target: string,
    body: Buffer,
    headers: Record<string, string>,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ status?: number; error?: string }> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: { status?: number; error?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      };
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return resolve({ error: 'invalid URL' });
      }
      // Names are checked by the lookup; an address literal never reaches it, so it is checked here.
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (!config.allowPrivateTargets && (isIP(host) ? isPrivateAddress(host) : false)) {
        return resolve({ error: `EPRIVATE: ${host} is a private address` });
      }
      const mod = url.protocol === 'https:' ? https : http;
      const req = mod.request(url, {
        method: 'POST',
        headers,
        agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
        lookup: lookup as never,
      });
      const deadline = setTimeout(() => {
        finish({ error: `timed out after ${timeoutMs} ms` });
        req.destroy();
      }, timeoutMs);
      const onAbort = () => {
        finish({ error: 'aborted: the dispatcher is stopping' });
        req.destroy();
      };
      signal.addEventListener('abort', onAbort);
      req.on('response', (res) => {
        // Only the status counts; the body is read and dropped so the connection can be reused.
        res.resume();
        res.on('error', () => {});
        finish({ status: res.statusCode ?? 0 });
      });
      req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ? `${err.code}: ${err.message}` : err.message }));
      req.end(body);
    });
  }

  async function record(c: Claimed, r: AttemptResult): Promise<void> {
    const now = new Date();
    const delay = r.ok ? undefined : retryDelayMs(c.attempt_count, config.scheduleScale);
    const data = r.ok
      ? { status: 'succeeded', deliveredAt: now, leaseExpiresAt: null, nextAttemptAt: null, updatedAt: now }
      : delay === undefined || c.attempt_count >= WEBHOOK_MAX_ATTEMPTS
        ? { status: 'dead_lettered', deadAt: now, leaseExpiresAt: null, nextAttemptAt: null, updatedAt: now }
        : { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay), leaseExpiresAt: null, updatedAt: now };
    await prisma.$transaction(async (tx) => {
      await tx.webhookAttempt.create({
        data: {
          id: newId('wha'),
          tenantId: c.tenant_id,
          deliveryId: c.id,
          round: c.replays,
          attempt: c.attempt_count,
          startedAt: r.startedAt,
          latencyMs: r.latencyMs,
          statusCode: r.statusCode,
          outcome: r.ok ? 'succeeded' : 'failed',
          error: r.error?.slice(0, 500) ?? null,
        },
      });
      // Guarded by the claim: a dispatcher whose lease was taken over does not overwrite the new owner.
      await tx.webhookDelivery.updateMany({
        where: { id: c.id, status: 'delivering', attemptCount: c.attempt_count, replays: c.replays },
        data,
      });
    });
    if (data.status === 'pending') {
      log.debug('webhook attempt failed; retry scheduled', {
        dispatcher: id,
        delivery: c.id,
        event: c.event_id,
        tenant_id: c.tenant_id,
        attempt: c.attempt_count,
        error: r.error,
        retry_in_ms: delay,
        next_attempt_at: data.nextAttemptAt && iso(data.nextAttemptAt),
      });
    }
    if (!r.ok && data.status === 'dead_lettered') {
      log.warn('webhook delivery dead-lettered', { delivery: c.id, event: c.event_id, tenant_id: c.tenant_id, error: r.error });
    }
  }

  return {
    id,
    start() {
      if (running || crashed) return;
      running = true;
      httpAgent = new http.Agent({ keepAlive: true, maxSockets: config.concurrency });
      httpsAgent = new https.Agent({ keepAlive: true, maxSockets: config.concurrency });
      outboxSignal.on('enqueued', wake);
      schedule(0);
    },
    async stop() {
      if (!running && inflight.size === 0) return;
      running = false;
      outboxSignal.off('enqueued', wake);
      if (timer) clearTimeout(timer);
      timer = undefined;
      await current?.catch(() => {});
      const grace = new Promise((r) => setTimeout(r, Math.min(2000, config.attemptTimeoutMs)).unref());
      await Promise.race([Promise.all([...inflight.values()].map((f) => f.done)), grace]);
      for (const f of inflight.values()) f.abort.abort();
      await Promise.all([...inflight.values()].map((f) => f.done));
      httpAgent.destroy();
      httpsAgent.destroy();
    },
    crash() {
      running = false;
      crashed = true;
      outboxSignal.off('enqueued', wake);
      if (timer) clearTimeout(timer);
      timer = undefined;
      httpAgent.destroy();
      httpsAgent.destroy();
      for (const f of inflight.values()) f.abort.abort();
    },
  };
}
