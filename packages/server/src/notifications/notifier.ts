import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import {
  EVENT_SEVERITIES,
  eventTypeForAction,
  filtersMatching,
  NOTIFICATION_OWN_CATEGORIES,
  type NotificationChannelKind,
  WEBHOOK_HEADERS,
  WEBHOOK_MAX_ATTEMPTS,
} from '@svc/contract';
import type nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { newId, randomToken } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { retryDelayMs } from '../webhooks/dispatcher.ts';
import { sourcePathOf } from '../webhooks/outbox.ts';
import { openSecret } from '../webhooks/secret-box.ts';
import { guardedLookup, isPrivateAddress } from '../webhooks/targets.ts';
import { CONFIRMATION_TTL_MS, confirmationTokenHash } from './service.ts';

/**
 * The notifier: turns the platform's events into inbox notifications and channel deliveries, and
 * sends those deliveries to Slack, Teams and email.
 *
 * Its source is the event index, not the webhook outbox: every change the API records writes an
 * event-index row (the outbox holds an event only when some webhook subscription selects it), and
 * events ingested from other sources are indexed too. A trigger on `event_index` queues the rows
 * of tenants with an active notification subscription in `notification_queue`, in the writer's
 * transaction, so no event is missed whatever order writers commit in.
 *
 * Both halves claim their work with `FOR UPDATE SKIP LOCKED`, so any number of processes share one
 * PostgreSQL: a queued event is read by one notifier, in one transaction that also writes its
 * notifications (unique per event and recipient) and deliveries (unique per event and channel) and
 * removes it from the queue. A delivery is claimed under a lease like the webhook dispatcher's,
 * retried on the webhook schedule (scaled by `SVC_WEBHOOK_SCHEDULE_SCALE`), and recorded as
 * `failed` after the last attempt. Email deliveries are claimed only by processes with an SMTP
 * server configured.
 *
 * An email channel's messages go only to its confirmed recipients. Each new address is first sent
 * a confirmation message with a single-use token, made here at send time and stored as its
 * SHA-256 only; a channel with no confirmed address gets no deliveries at all.
 */
export interface Notifier {
  readonly id: string;
  start(): void;
  stop(): Promise<void>;
}

/** Event-index rows read per transaction. */
/** Longest wait between two polls of an idle notifier. */
const IDLE_POLL_MS = 200;
const BATCH = 100;

interface QueuedEvent {
  id: string;
  tenant_id: string;
  time: Date;
  kind: string;
  severity: string;
  actor: string;
  entity: string;
  attributes: Record<string, unknown> | null;
}

interface SubscriptionRow {
  id: string;
  tenant_id: string;
  subscriber_id: string;
  event_types: string[];
  channels: string[];
}

interface PreferenceRow {
  tenant_id: string;
  principal_id: string;
  muted_event_types: string[];
  minimum_severity: string;
  channels: string[];
}

/** What a channel message says; formatted per channel kind at send time. */
export interface NotificationMessage {
  title: string;
  body: string;
  eventType: string;
  eventId: string;
  resourceType: string | null;
  resourceId: string;
  path: string | null;
  actor: string;
  severity: string;
  occurredAt: string;
}

interface ClaimedDelivery {
  id: string;
  tenant_id: string;
  channel_id: string;
  kind: NotificationChannelKind;
  message: NotificationMessage;
  attempt_count: number;
}

const severityRank = (s: string) => {
  const i = (EVENT_SEVERITIES as readonly string[]).indexOf(s);
  return i === -1 ? 1 : i;
};

const selects = (filters: readonly string[], type: string) => filtersMatching(type).some((f) => filters.includes(f));

/** The message of an event, or undefined when the event is not notified (unregistered type, or one of this rail). */
export function messageOf(ev: QueuedEvent): NotificationMessage | undefined {
  const def = eventTypeForAction(ev.kind);
  if (!def || NOTIFICATION_OWN_CATEGORIES.includes(def.category)) return undefined;
  const resourceType = typeof ev.attributes?.resourceType === 'string' ? ev.attributes.resourceType : null;
  let path: string | null = null;
  if (resourceType) {
    const p = sourcePathOf({ tenantId: ev.tenant_id, action: ev.kind, resourceType, resourceId: ev.entity, correlationId: '' });
    path = p.startsWith('/v1/resources/') ? null : p;
  }
  const occurredAt = ev.time.toISOString();
  return {
    title: `${def.type}: ${ev.entity}`,
    body: `${def.summary} By ${ev.actor} at ${occurredAt}${path ? `: ${path}` : ''}`,
    eventType: def.type,
    eventId: ev.id,
    resourceType,
    resourceId: ev.entity,
    path,
    actor: ev.actor,
    severity: ev.severity,
    occurredAt,
  };
}

/** Slack incoming-webhook payload: `text` (fallback and notifications) and Block Kit blocks. */
export function slackPayload(m: NotificationMessage): Record<string, unknown> {
  return {
    text: `${m.title}\n${m.body}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: m.title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: m.body } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `*${m.eventType}* · severity ${m.severity} · event ${m.eventId}` }],
      },
    ],
  };
}

/** Microsoft Teams incoming-webhook payload: a message carrying one Adaptive Card. */
export function teamsPayload(m: NotificationMessage): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: m.body, wrap: true },
            {
              type: 'FactSet',
              facts: [
                { title: 'Event', value: m.eventType },
                { title: 'Severity', value: m.severity },
                { title: 'Actor', value: m.actor },
                { title: 'When', value: m.occurredAt },
              ],
            },
          ],
        },
      },
    ],
  };
}

interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** An SMTP transport for `smtp://[user:pass@]host[:port]` (STARTTLS when offered) or `smtps://` (TLS from the start). */
function smtpTransport(raw: string, timeoutMs: number) {
  const url = new URL(raw);
  const secure = url.protocol === 'smtps:';
  // Loaded with the first transport (0.1 s at a start without SMTP); nodemailer is CommonJS.
  const mailer = createRequire(import.meta.url)('nodemailer') as typeof nodemailer;
  return mailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
}

export function createNotifier(opts: { db: Database; config: Config; log: Logger }): Notifier {
  const { db, config, log } = opts;
  const wh = config.webhooks;
  const id = `notifier_${hostname()}_${process.pid}_${randomToken(4)}`;
  const lookup = guardedLookup(wh.allowPrivateTargets);
  const mailer = config.smtp.url ? smtpTransport(config.smtp.url, wh.attemptTimeoutMs) : undefined;
  const kinds: NotificationChannelKind[] = mailer ? ['slack', 'teams', 'email'] : ['slack', 'teams'];
  let agent = new http.Agent({ keepAlive: true, maxSockets: wh.concurrency });
  let secureAgent = new https.Agent({ keepAlive: true, maxSockets: wh.concurrency });
  const inflight = new Map<string, Promise<void>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;

  /** Reads up to BATCH queued events and writes their notifications and deliveries; returns how many it read. */
  async function produce(): Promise<number> {
    // One cheap read while idle, rather than a transaction on every poll.
    const waiting = await db.sql.query<{ one: number }>(`SELECT 1 AS "one" FROM "notification_queue" LIMIT 1`, []);
    if (waiting.length === 0) return 0;
    return db.transaction(async (sql) => {
      const queued = await sql.query<{ id: string; tenant_id: string }>(
        `SELECT "id", "tenant_id" FROM "notification_queue" ORDER BY "queued_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [BATCH],
      );
      if (queued.length === 0) return 0;
      const ids = queued.map((q) => q.id);
      const tenants = [...new Set(queued.map((q) => q.tenant_id))];
      // One after the other: the statements share the transaction's connection.
      const events = await sql.query<QueuedEvent>(
        `SELECT "id", "tenant_id", "time", "kind", "severity", "actor", "entity", "attributes" FROM "event_index" WHERE "id" = ANY($1::text[]) ORDER BY "id"`,
        [ids],
      );
      const subs = await sql.query<SubscriptionRow>(
        `SELECT "id", "tenant_id", "subscriber_id", "event_types", "channels" FROM "notification_subscriptions"
           WHERE "tenant_id" = ANY($1::text[]) AND "status" = 'active' ORDER BY "id"`,
        [tenants],
      );
      const prefs = await sql.query<PreferenceRow>(
        `SELECT "tenant_id", "principal_id", "muted_event_types", "minimum_severity", "channels" FROM "notification_preferences"
           WHERE "tenant_id" = ANY($1::text[])`,
        [tenants],
      );
      // An email channel counts only once someone confirmed: unconfirmed addresses are never sent to.
      const channels = await sql.query<{ id: string; tenant_id: string; kind: string }>(
        `SELECT c."id", c."tenant_id", c."kind" FROM "notification_channels" c
           WHERE c."tenant_id" = ANY($1::text[]) AND c."status" = 'active'
             AND (c."kind" <> 'email' OR EXISTS (SELECT 1 FROM "notification_email_recipients" r
               WHERE r."channel_id" = c."id" AND r."tenant_id" = c."tenant_id" AND r."status" = 'confirmed'))`,
        [tenants],
      );
      const prefOf = new Map(prefs.map((p) => [`${p.tenant_id}/${p.principal_id}`, p]));
      const now = new Date().toISOString();
      const notifications: Record<string, unknown>[] = [];
      const deliveries: Record<string, unknown>[] = [];
      for (const ev of events) {
        const message = messageOf(ev);
        if (!message) continue;
        const inboxFor = new Set<string>();
        const kindsFor = new Set<string>();
        for (const s of subs) {
          if (s.tenant_id !== ev.tenant_id || !selects(s.event_types, message.eventType)) continue;
          const p = prefOf.get(`${s.tenant_id}/${s.subscriber_id}`);
          if (p && selects(p.muted_event_types, message.eventType)) continue;
          if (p && severityRank(ev.severity) < severityRank(p.minimum_severity)) continue;
          const on = s.channels.filter((c) => !p || p.channels.includes(c));
          if (on.includes('inbox') && !inboxFor.has(s.subscriber_id)) {
            inboxFor.add(s.subscriber_id);
            notifications.push({
              id: newId('ntf'),
              tenant_id: ev.tenant_id,
              recipient_id: s.subscriber_id,
              event_id: ev.id,
              event_type: message.eventType,
              subscription_id: s.id,
              title: message.title,
              body: message.body,
              resource_type: message.resourceType,
              resource_id: message.resourceId,
              path: message.path,
              actor: message.actor,
              severity: ev.severity,
              occurred_at: message.occurredAt,
              created_at: now,
            });
          }
          for (const c of on) if (c !== 'inbox') kindsFor.add(c);
        }
        for (const ch of channels) {
          if (ch.tenant_id !== ev.tenant_id || !kindsFor.has(ch.kind)) continue;
          deliveries.push({
            id: newId('ndv'),
            tenant_id: ev.tenant_id,
            channel_id: ch.id,
            kind: ch.kind,
            event_id: ev.id,
            event_type: message.eventType,
            message,
            created_at: now,
          });
        }
      }
      if (notifications.length > 0) {
        await sql.query(
          `INSERT INTO "notifications" ("id", "tenant_id", "recipient_id", "event_id", "event_type", "subscription_id", "title", "body",
             "resource_type", "resource_id", "path", "actor", "severity", "occurred_at", "created_at")
           SELECT x."id", x."tenant_id", x."recipient_id", x."event_id", x."event_type", x."subscription_id", x."title", x."body",
             x."resource_type", x."resource_id", x."path", x."actor", x."severity", x."occurred_at", x."created_at"
           FROM json_to_recordset($1::json) AS x("id" text, "tenant_id" text, "recipient_id" text, "event_id" text, "event_type" text,
             "subscription_id" text, "title" text, "body" text, "resource_type" text, "resource_id" text, "path" text, "actor" text,
             "severity" text, "occurred_at" timestamp(3), "created_at" timestamp(3))
           ON CONFLICT ("tenant_id", "event_id", "recipient_id") DO NOTHING`,
          [JSON.stringify(notifications)],
        );
      }
      if (deliveries.length > 0) {
        await sql.query(
          `INSERT INTO "notification_deliveries" ("id", "tenant_id", "channel_id", "kind", "event_id", "event_type", "message", "status",
             "attempt_count", "next_attempt_at", "created_at", "updated_at")
           SELECT x."id", x."tenant_id", x."channel_id", x."kind", x."event_id", x."event_type", x."message", 'pending', 0,
             x."created_at", x."created_at", x."created_at"
           FROM json_to_recordset($1::json) AS x("id" text, "tenant_id" text, "channel_id" text, "kind" text, "event_id" text,
             "event_type" text, "message" jsonb, "created_at" timestamp(3))
           ON CONFLICT ("channel_id", "event_id") DO NOTHING`,
          [JSON.stringify(deliveries)],
        );
      }
      await sql.query(`DELETE FROM "notification_queue" WHERE "id" = ANY($1::text[])`, [ids]);
      return queued.length;
    });
  }

  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = new Date();
    const rows = await db.sql.query<ClaimedDelivery>(
      `WITH due AS (
         SELECT "id" FROM "notification_deliveries"
         WHERE (("status" = 'pending' AND "next_attempt_at" <= $1::timestamp(3))
             OR ("status" = 'delivering' AND "lease_expires_at" <= $1::timestamp(3)))
           AND "kind" = ANY($3::text[])
         ORDER BY "next_attempt_at" ASC
         LIMIT $4
         FOR UPDATE SKIP LOCKED
       )
       UPDATE "notification_deliveries" AS d
       SET "status" = 'delivering', "attempt_count" = d."attempt_count" + 1, "lease_expires_at" = $2::timestamp(3), "updated_at" = $1::timestamp(3)
       FROM due WHERE d."id" = due."id"
       RETURNING d."id", d."tenant_id", d."channel_id", d."kind", d."message", d."attempt_count"`,
      [now.toISOString(), new Date(now.getTime() + wh.leaseMs).toISOString(), kinds, limit],
    );
    return rows.map((r) => ({
      ...r,
      attempt_count: Number(r.attempt_count),
      message: (typeof r.message === 'string' ? JSON.parse(r.message) : r.message) as NotificationMessage,
    }));
  }

  function postJson(target: string, payload: unknown): Promise<Outcome> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (o: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(o);
      };
      const url = new URL(target);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // Names are checked by the lookup; an address literal never reaches it, so it is checked here.
      if (!wh.allowPrivateTargets && isIP(host) && isPrivateAddress(host)) {
        resolve({ ok: false, statusCode: null, error: `EPRIVATE: ${host} is a private address` });
        return;
      }
      const body = Buffer.from(JSON.stringify(payload));
      const secure = url.protocol === 'https:';
      const req = (secure ? https : http).request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': WEBHOOK_HEADERS.userAgent },
        agent: secure ? secureAgent : agent,
        lookup: lookup as never,
      });
      const deadline = setTimeout(() => {
        finish({ ok: false, statusCode: null, error: `timed out after ${wh.attemptTimeoutMs} ms` });
        req.destroy();
      }, wh.attemptTimeoutMs);
      req.on('response', (res) => {
        res.resume();
        res.on('error', () => {});
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({ ok, statusCode: status, error: ok ? null : `HTTP ${status}` });
      });
      req.on('error', (err: NodeJS.ErrnoException) =>
        finish({ ok: false, statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message }),
      );
      req.end(body);
    });
  }

  async function sendEmail(recipients: string[], m: NotificationMessage): Promise<Outcome> {
    if (!mailer) return { ok: false, statusCode: null, error: 'no SMTP server configured' };
    try {
      const info = await mailer.sendMail({
        from: config.smtp.from,
        to: recipients,
        subject: m.title,
        text: `${m.body}\n\nEvent: ${m.eventType}\nSeverity: ${m.severity}\nActor: ${m.actor}\nWhen: ${m.occurredAt}\nEvent id: ${m.eventId}\n`,
        headers: { 'X-Svc-Event': m.eventType, 'X-Svc-Event-Id': m.eventId },
      });
      const code = Number.parseInt(String(info.response ?? '').slice(0, 3), 10);
      return { ok: true, statusCode: Number.isNaN(code) ? null : code, error: null };
    } catch (err) {
      const e = err as Error & { responseCode?: number };
      return { ok: false, statusCode: e.responseCode ?? null, error: e.message };
    }
  }

  /**
   * Sends the confirmation messages that are due: claims them (the due time moves out by a lease,
   * so a lost notifier's are sent again later), stores the hash of a fresh token, mails the token,
   * and records the outcome; a failure is retried on the webhook schedule.
   */
  async function invite(limit: number): Promise<number> {
    if (!mailer) return 0;
    const now = new Date();
    const due = await db.sql.query<{ id: string; tenant_id: string; channel_id: string; email: string; invite_attempts: number }>(
      `WITH due AS (
         SELECT "id" FROM "notification_email_recipients"
         WHERE "status" = 'pending' AND "invite_next_at" <= $1::timestamp(3)
         ORDER BY "invite_next_at" ASC
         LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       UPDATE "notification_email_recipients" AS r
       SET "invite_next_at" = $2::timestamp(3), "invite_attempts" = r."invite_attempts" + 1, "updated_at" = $1::timestamp(3)
       FROM due WHERE r."id" = due."id"
       RETURNING r."id", r."tenant_id", r."channel_id", r."email", r."invite_attempts"`,
      [now.toISOString(), new Date(now.getTime() + wh.leaseMs).toISOString(), limit],
    );
    for (const r of due) {
      const attempts = Number(r.invite_attempts);
      const token = randomToken(32);
      const mine = { id: r.id, status: 'pending', inviteAttempts: attempts };
      const { count } = await db.prisma.notificationEmailRecipient.updateMany({
        where: mine,
        data: { tokenHash: confirmationTokenHash(token), tokenExpiresAt: new Date(Date.now() + CONFIRMATION_TTL_MS) },
      });
      if (count !== 1) continue;
      const o = await sendConfirmation(r.email, r.channel_id, token);
      const at = new Date();
      const delay = o.ok ? undefined : retryDelayMs(attempts, wh.scheduleScale);
      await db.prisma.notificationEmailRecipient.updateMany({
        where: mine,
        data: o.ok
          ? { invitedAt: at, inviteNextAt: null, inviteError: null, updatedAt: at }
          : {
              inviteNextAt: delay === undefined || attempts >= WEBHOOK_MAX_ATTEMPTS ? null : new Date(at.getTime() + delay),
              inviteError: o.error?.slice(0, 500) ?? 'failed',
              updatedAt: at,
            },
      });
      if (!o.ok)
        log.warn('email recipient confirmation not sent', {
          recipient: r.id,
          channel: r.channel_id,
          tenant_id: r.tenant_id,
          error: o.error,
        });
    }
    return due.length;
  }

  /**
   * The confirmation message: no text of the tenant's (a channel name could carry anyone's words to
   * any address), the token on a line of its own, and how to use it.
   */
  async function sendConfirmation(to: string, channelId: string, token: string): Promise<Outcome> {
    if (!mailer) return { ok: false, statusCode: null, error: 'no SMTP server configured' };
    const api = config.publicUrl ?? 'the service';
    try {
      const info = await mailer.sendMail({
        from: config.smtp.from,
        to,
        subject: 'Confirm that this address may receive compliance notifications',
        text: [
          `An organisation using ${api} added ${to} as a recipient of its email notifications (channel ${channelId}).`,
          'Nothing is sent to this address unless you confirm. To confirm, send this token within 7 days:',
          '',
          `Token: ${token}`,
          '',
          `POST ${config.publicUrl ?? ''}/v1/notifications/email/confirm with the JSON body {"token": "<the token>"}.`,
          'If you do not know why you received this message, ignore it: this address receives nothing more.',
          '',
        ].join('\n'),
        headers: { 'X-Svc-Confirmation': channelId },
      });
      const code = Number.parseInt(String(info.response ?? '').slice(0, 3), 10);
      return { ok: true, statusCode: Number.isNaN(code) ? null : code, error: null };
    } catch (err) {
      const e = err as Error & { responseCode?: number };
      return { ok: false, statusCode: e.responseCode ?? null, error: e.message };
    }
  }

  async function attempt(c: ClaimedDelivery): Promise<Outcome> {
    // A lease taken over after the last attempt: that attempt's notifier was lost; nothing more is sent.
    if (c.attempt_count > WEBHOOK_MAX_ATTEMPTS) {
      return { ok: false, statusCode: null, error: 'no result: the notifier was lost during the last attempt and its lease expired' };
    }
    const ch = await db.prisma.notificationChannel.findFirst({ where: { id: c.channel_id, tenantId: c.tenant_id } });
    if (!ch) return { ok: false, statusCode: null, error: 'the channel no longer exists' };
    if (c.kind === 'email') {
      const confirmed = await db.prisma.notificationEmailRecipient.findMany({
        where: { tenantId: c.tenant_id, channelId: ch.id, status: 'confirmed', email: { in: ch.recipients } },
        select: { email: true },
      });
      if (confirmed.length === 0) return { ok: false, statusCode: null, error: 'no confirmed recipient' };
      return sendEmail(
        confirmed.map((r) => r.email),
        c.message,
      );
    }
    let url: string;
    try {
      url = openSecret(ch.url ?? '');
    } catch (err) {
      return { ok: false, statusCode: null, error: `channel URL unreadable: ${(err as Error).message}` };
    }
    return postJson(url, c.kind === 'slack' ? slackPayload(c.message) : teamsPayload(c.message));
  }

  async function record(c: ClaimedDelivery, o: Outcome): Promise<void> {
    const now = new Date();
    const delay = o.ok ? undefined : retryDelayMs(c.attempt_count, wh.scheduleScale);
    const final = !o.ok && (delay === undefined || c.attempt_count >= WEBHOOK_MAX_ATTEMPTS);
    const data = o.ok
      ? { status: 'succeeded', deliveredAt: now, nextAttemptAt: null }
      : final
        ? { status: 'failed', failedAt: now, nextAttemptAt: null }
        : { status: 'pending', nextAttemptAt: new Date(now.getTime() + (delay as number)) };
    // Guarded by the claim: a notifier whose lease was taken over does not overwrite the new owner.
    await db.prisma.notificationDelivery.updateMany({
      where: { id: c.id, status: 'delivering', attemptCount: c.attempt_count },
      data: { ...data, lastStatusCode: o.statusCode, lastError: o.error?.slice(0, 500) ?? null, leaseExpiresAt: null, updatedAt: now },
    });
    if (final) log.warn('notification delivery failed', { delivery: c.id, channel: c.channel_id, tenant_id: c.tenant_id, error: o.error });
  }

  async function deliver(): Promise<number> {
    const free = wh.concurrency - inflight.size;
    if (free <= 0) return 0;
    const claimed = await claim(free);
    for (const c of claimed) {
      const done = attempt(c)
        .catch((err: unknown): Outcome => ({ ok: false, statusCode: null, error: String(err) }))
        .then((o) => record(c, o))
        .catch((err: unknown) => log.error('notification delivery failed to record', { notifier: id, delivery: c.id, error: String(err) }))
        .finally(() => inflight.delete(c.id));
      inflight.set(c.id, done);
    }
    return claimed.length;
  }

  async function tick(): Promise<void> {
    // Notifications are not latency-critical like webhook retries: idle polls at most every 200 ms,
    // so the notifier does not compete with the dispatcher on a busy process.
    let next = Math.max(wh.pollMs, IDLE_POLL_MS);
    try {
      while (running && (await produce()) === BATCH) {}
      if (running && (await invite(BATCH)) === BATCH) next = 0;
      if (running && (await deliver()) === wh.concurrency) next = 0;
    } catch (err) {
      if (running) log.warn('notifier tick failed', { notifier: id, error: String(err) });
      next = wh.pollMs * 4;
    }
    if (running) timer = setTimeout(() => (current = tick()), next);
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      agent = new http.Agent({ keepAlive: true, maxSockets: wh.concurrency });
      secureAgent = new https.Agent({ keepAlive: true, maxSockets: wh.concurrency });
      timer = setTimeout(() => (current = tick()), 0);
    },
    async stop() {
      if (!running) return;
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await current?.catch(() => {});
      // In-flight attempts get a short grace period; those still running keep their lease and are retried elsewhere.
      const grace = new Promise((r) => setTimeout(r, Math.min(2000, wh.attemptTimeoutMs)).unref());
      await Promise.race([Promise.all(inflight.values()), grace]);
      agent.destroy();
      secureAgent.destroy();
      mailer?.close();
    },
  };
}
