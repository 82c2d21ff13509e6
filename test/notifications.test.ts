import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * Notifications end to end: subscriptions and preferences through the API, events of another
 * rail turned into inbox notifications by the notifier, Slack and Teams messages received on a
 * loopback HTTP server and email on a loopback SMTP server, retries and a recorded failure.
 * The server runs the notifier (SVC_ROLE=all) on a database of its own, so that it does not
 * meet other files' events or deliveries on a shared PostgreSQL.
 */

const ROOT = join(import.meta.dirname, '..');

interface Mail {
  from: string;
  to: string[];
  raw: string;
}
interface SmtpServerLike {
  listen(port: number, host: string, cb: () => void): void;
  close(cb: () => void): void;
  server: { address(): AddressInfo };
}
type SmtpServerCtor = new (opts: Record<string, unknown>) => SmtpServerLike;

/** A loopback SMTP mailbox (smtp-server, no TLS, no auth) that keeps every message. */
async function startMailbox() {
  const { SMTPServer } = createRequire(join(ROOT, 'packages/server/package.json'))('smtp-server') as { SMTPServer: SmtpServerCtor };
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(
      stream: NodeJS.ReadableStream,
      session: { envelope: { mailFrom: { address: string } | false; rcptTo: { address: string }[] } },
      done: () => void,
    ) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { mails, port: server.server.address().port, close: () => new Promise<void>((resolve) => server.close(resolve)) };
}

/** A loopback HTTP receiver standing in for Slack or Teams; `respond` picks the status of the n-th request. */
async function startReceiver(respond: (n: number) => number = () => 200) {
  const received: any[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(respond(received.length), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/secret-token-${Math.random().toString(36).slice(2, 10)}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `probe` until it returns a value other than undefined; fails after `ms`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let ts: TestServer;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  mailbox = await startMailbox();
  ts = await startIsolatedTestServer({
    SVC_ROLE: 'all',
    WEBHOOK_PORT: '0',
    SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
    SVC_WEBHOOK_POLL_MS: '25',
    SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS: '3000',
    SVC_WEBHOOK_LEASE_MS: '6000',
    SVC_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
    SVC_SMTP_FROM: 'alerts@svc.test',
  });
});
afterAll(async () => {
  await ts?.close();
  for (const c of closers) await c();
  await mailbox?.close();
});

async function receiver(respond?: (n: number) => number) {
  const r = await startReceiver(respond);
  closers.push(r.close);
  return r;
}

async function controlsOf(t: TenantFixture): Promise<string[]> {
  const act = await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
  expect([200, 201]).toContain(act.status);
  return (await collectPages<{ id: string }>(t, '/v1/frameworks/eu-ai-act/controls')).map((c) => c.id);
}

async function uploadEvidence(t: TenantFixture, controls: string[], token?: string): Promise<string> {
  const res = await t.call('POST', '/v1/compliance/evidence', {
    body: { title: 'Risk policy', kind: 'policy', controlIds: [controls[0]] },
    ...(token ? { token } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function createAssessment(t: TenantFixture): Promise<string> {
  const res = await t.call('POST', '/v1/compliance/assessments', {
    body: { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function subscribe(t: TenantFixture, eventTypes: string[], channels: string[], token?: string) {
  const res = await t.call('POST', '/v1/notifications/subscribe', { body: { eventTypes, channels }, ...(token ? { token } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const inbox = async (t: TenantFixture, token?: string, query = '') => {
  const res = await t.call('GET', `/v1/notifications/inbox?limit=200${query}`, token ? { token } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
};

/** The token of the latest confirmation message sent to `email` for `channelId`, once it arrived (after `after` mails). */
const confirmationToken = (channelId: string, email: string, after = 0) =>
  until(`a confirmation message to ${email}`, async () => {
    const mail = mailbox.mails
      .slice(after)
      .filter((m) => m.to.includes(email) && m.raw.includes(`X-Svc-Confirmation: ${channelId}`))
      .at(-1);
    // The body is quoted-printable: soft line breaks (`=` at a line end) join lines.
    return mail ? (/^Token: ([A-Za-z0-9_-]+)\r?$/m.exec(mail.raw.replace(/=\r?\n/g, ''))?.[1] ?? undefined) : undefined;
  });

const confirm = (token: string) => call(ts.url, 'POST', '/v1/notifications/email/confirm', { body: { token } });

/** Confirms every address of an email channel with the token its confirmation message brought. */
async function confirmAll(channelId: string, emails: string[]) {
  for (const email of emails) {
    const res = await confirm(await confirmationToken(channelId, email));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Waits until the inbox holds a notification about `resourceId`. */
const notified = (t: TenantFixture, resourceId: string, token?: string) =>
  until(`a notification about ${resourceId}`, async () => (await inbox(t, token)).find((n) => n.resourceId === resourceId));

describe('notifications: from events to inbox, Slack, Teams and email', () => {
  it('turns an evidence upload into one inbox notification and one message per channel; other types are not notified', async () => {
    const t = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    const controls = await controlsOf(t);
    const slack = await receiver();
    const teams = await receiver();

    const sc = await t.call('POST', '/v1/notifications/slack', { body: { name: '#compliance', url: slack.url } });
    expect(sc.status, JSON.stringify(sc.body)).toBe(201);
    expect(sc.body).toMatchObject({ object: 'svc.notifications.slack_channel', kind: 'slack', status: 'active' });
    expect(sc.body.id).toMatch(/^nch_/);
    // The URL carries the channel's token: never returned, only a hint.
    const token = slack.url.split('/').at(-1) as string;
    expect(JSON.stringify(sc.body)).not.toContain(token);
    expect(sc.body.urlHint).toBe(`http://127.0.0.1:${new URL(slack.url).port}/…${slack.url.slice(-4)}`);
    expect(JSON.stringify((await t.call('GET', `/v1/notifications/slack/${sc.body.id}`)).body)).not.toContain(token);
    expect(JSON.stringify((await t.call('GET', '/v1/notifications/slack')).body)).not.toContain(token);
    const tc = await t.call('POST', '/v1/notifications/teams', { body: { name: 'Compliance team', url: teams.url } });
    expect(tc.status).toBe(201);
    const ec = await t.call('POST', '/v1/notifications/email', {
      body: { name: 'Officers', recipients: ['DPO@example.com', 'ciso@example.com'] },
    });
    expect(ec.status).toBe(201);
    expect(ec.body.recipients).toEqual(['dpo@example.com', 'ciso@example.com']);
    await confirmAll(ec.body.id, ['dpo@example.com', 'ciso@example.com']);

    const sub = await subscribe(t, ['evidence.uploaded'], ['inbox', 'slack', 'teams', 'email']);
    expect(sub).toMatchObject({
      object: 'svc.notifications.notification_subscription',
      status: 'active',
      eventTypes: ['evidence.uploaded'],
    });
    // A second subscription selecting the same event (a wildcard) does not notify twice.
    await subscribe(t, ['evidence.*'], ['inbox', 'slack']);

    const assessment = await createAssessment(t); // not subscribed
    const evidence = await uploadEvidence(t, controls);
    const n = await notified(t, evidence);
    expect(n).toMatchObject({
      object: 'svc.notifications.notification',
      eventType: 'evidence.uploaded',
      resourceType: 'svc.compliance.evidence',
      resourceId: evidence,
      path: `/v1/compliance/evidence/${evidence}`,
      read: false,
      readAt: null,
      severity: 'info',
    });
    expect(n.eventId).toMatch(/^evi_/);
    expect(n.title).toContain(evidence);
    expect((await t.call('GET', `/v1/notifications/inbox/${n.id}`)).body).toEqual(n);

    await until('slack, teams and email messages', async () =>
      slack.received.length >= 1 && teams.received.length >= 1 && mailbox.mails.some((m) => m.raw.includes(evidence)) ? true : undefined,
    );
    expect(slack.received[0].body.text).toContain(evidence);
    expect(slack.received[0].body.blocks[0]).toMatchObject({ type: 'header' });
    expect(teams.received[0].body).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } }],
    });
    expect(JSON.stringify(teams.received[0].body)).toContain(evidence);
    const mail = mailbox.mails.find((m) => m.raw.includes(evidence) && !m.raw.includes('X-Svc-Confirmation')) as Mail;
    expect(mail.from).toBe('alerts@svc.test');
    expect(mail.to.sort()).toEqual(['ciso@example.com', 'dpo@example.com']);
    expect(mail.raw).toMatch(/Subject: evidence\.uploaded/);

    const deliveries = await until('the slack delivery to succeed', async () => {
      const d = (await t.call('GET', `/v1/notifications/slack/${sc.body.id}/deliveries`)).body.data as any[];
      return d.length === 1 && d[0].status === 'succeeded' ? d : undefined;
    });
    expect(deliveries[0]).toMatchObject({ kind: 'slack', eventId: n.eventId, attempts: 1, lastStatusCode: 200, lastError: null });
    const mailDelivery = await until('the email delivery to succeed', async () => {
      const d = (await t.call('GET', `/v1/notifications/email/${ec.body.id}/deliveries`)).body.data as any[];
      return d[0]?.status === 'succeeded' ? d[0] : undefined;
    });
    expect(mailDelivery.lastStatusCode).toBe(250);

    // A second upload: once it is notified, the assessment queued before it has been read too, and produced nothing.
    const evidence2 = await uploadEvidence(t, controls);
    await notified(t, evidence2);
    const all = await inbox(t);
    expect(all.map((x) => x.resourceId).sort()).toEqual([evidence, evidence2].sort());
    expect(all.some((x) => x.resourceId === assessment)).toBe(false);
    await until('two slack messages', async () => (slack.received.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(slack.received).toHaveLength(2);
  });

  it('applies preferences per key: a muted type, a minimum severity and a channel switched off suppress', async () => {
    const t = await createTenant(ts);
    const controls = await controlsOf(t);
    const other = await t.key('editor'); // a second recipient, used to know when an event has been read
    const slack = await receiver();
    await t.call('POST', '/v1/notifications/slack', { body: { name: '#alerts', url: slack.url } });

    const defaults = await t.call('GET', '/v1/notifications/preferences');
    expect(defaults.body).toMatchObject({
      object: 'svc.notifications.preferences',
      mutedEventTypes: [],
      minimumSeverity: 'debug',
      channels: ['inbox', 'slack', 'teams', 'email'],
      updatedAt: null,
    });
    await subscribe(t, ['evidence.uploaded'], ['inbox', 'slack']);
    await subscribe(t, ['evidence.uploaded'], ['inbox'], other);

    const put = await t.call('PUT', '/v1/notifications/preferences', {
      body: { mutedEventTypes: ['evidence.*'], minimumSeverity: 'debug', channels: ['inbox', 'slack'] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ mutedEventTypes: ['evidence.*'], minimumSeverity: 'debug' });
    expect((await t.call('GET', '/v1/notifications/preferences')).body).toEqual(put.body);
    // Another key's preferences are its own.
    expect((await t.call('GET', '/v1/notifications/preferences', { token: other })).body.mutedEventTypes).toEqual([]);

    const muted = await uploadEvidence(t, controls);
    await notified(t, muted, other);
    expect((await inbox(t)).some((n) => n.resourceId === muted)).toBe(false);

    // Minimum severity above the event's (API changes are `info`).
    await t.call('PUT', '/v1/notifications/preferences', {
      body: { mutedEventTypes: [], minimumSeverity: 'warning', channels: ['inbox', 'slack'] },
    });
    const low = await uploadEvidence(t, controls);
    await notified(t, low, other);
    expect((await inbox(t)).some((n) => n.resourceId === low)).toBe(false);

    // Slack switched off: the inbox is notified, Slack is not.
    await t.call('PUT', '/v1/notifications/preferences', { body: { mutedEventTypes: [], minimumSeverity: 'info', channels: ['inbox'] } });
    const inboxOnly = await uploadEvidence(t, controls);
    await notified(t, inboxOnly);
    await new Promise((r) => setTimeout(r, 200));
    expect(slack.received).toHaveLength(0);

    // Everything back on: Slack is notified again.
    await t.call('PUT', '/v1/notifications/preferences', {
      body: { mutedEventTypes: [], minimumSeverity: 'debug', channels: ['inbox', 'slack'] },
    });
    const back = await uploadEvidence(t, controls);
    await notified(t, back);
    await until('a slack message', async () => (slack.received.length >= 1 ? true : undefined));
    expect(slack.received[0].body.text).toContain(back);
  });

  it('a paused subscription notifies nothing until resumed', async () => {
    const t = await createTenant(ts);
    const controls = await controlsOf(t);
    const other = await t.key('editor');
    const sub = await subscribe(t, ['evidence.uploaded'], ['inbox']);
    await subscribe(t, ['evidence.uploaded'], ['inbox'], other);
    expect((await t.call('POST', `/v1/notifications/subscribe/${sub.id}/pause`)).body.status).toBe('paused');
    const during = await uploadEvidence(t, controls);
    await notified(t, during, other);
    expect(await inbox(t)).toHaveLength(0);
    expect((await t.call('POST', `/v1/notifications/subscribe/${sub.id}/resume`)).body.status).toBe('active');
    const after = await uploadEvidence(t, controls);
    await notified(t, after);
  });
});

describe('notifications: mark-read and unread counts', () => {
  it('marks one, many, or all up to a time; counts follow; another key cannot read or mark them', async () => {
    const t = await createTenant(ts);
    const controls = await controlsOf(t);
    const viewer = await t.key('viewer');
    await subscribe(t, ['evidence.uploaded'], ['inbox']);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await uploadEvidence(t, controls));
    await notified(t, ids[2] as string);
    await until('three notifications', async () => ((await inbox(t)).length === 3 ? true : undefined));
    const list = await inbox(t);

    expect((await t.call('GET', '/v1/notifications/inbox/counts')).body).toMatchObject({ total: 3, unread: 3 });
    const oldest = list.at(-1);
    const one = await t.call('POST', '/v1/notifications/mark-read', { body: { ids: [oldest.id] } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toEqual({ object: 'svc.notifications.mark_read', marked: 1, unread: 2 });
    // Marking it again changes nothing.
    expect((await t.call('POST', '/v1/notifications/mark-read', { body: { ids: [oldest.id] } })).body).toMatchObject({
      marked: 0,
      unread: 2,
    });
    expect(await inbox(t, undefined, '&unread=true')).toHaveLength(2);
    const read = await inbox(t, undefined, '&unread=false');
    expect(read.map((n) => n.id)).toEqual([oldest.id]);
    expect(read[0].read).toBe(true);
    expect(read[0].readAt).not.toBeNull();

    // Another key of the tenant: its inbox is empty, it cannot read or mark this key's notifications.
    expect(await inbox(t, viewer)).toHaveLength(0);
    expectEnvelope(await t.call('GET', `/v1/notifications/inbox/${list[0].id}`, { token: viewer }), 404, 'not_found');
    const stranger = await createTenant(ts);
    expectEnvelope(await stranger.call('GET', `/v1/notifications/inbox/${list[0].id}`), 404, 'not_found');
    expect((await stranger.call('POST', '/v1/notifications/mark-read', { body: { ids: [list[0].id] } })).body.marked).toBe(0);
    const editor = await t.key('editor');
    expect((await t.call('POST', '/v1/notifications/mark-read', { token: editor, body: { ids: [list[0].id] } })).body.marked).toBe(0);

    // Everything up to the newest event's time.
    const all = await t.call('POST', '/v1/notifications/mark-read', { body: { upTo: list[0].occurredAt } });
    expect(all.body).toMatchObject({ marked: 2, unread: 0 });
    expect((await t.call('GET', '/v1/notifications/inbox/counts')).body).toMatchObject({ total: 3, unread: 0 });

    // Audited.
    const events = await collectPages<any>(t, '/v1/audit-trail/events');
    expect(events.filter((e) => e.action === 'notification.marked_read').length).toBeGreaterThanOrEqual(3);

    // A cursor walk of the inbox returns every notification once.
    const page1 = await t.call('GET', '/v1/notifications/inbox?limit=2');
    expect(page1.body.data).toHaveLength(2);
    const page2 = await t.call('GET', `/v1/notifications/inbox?limit=2&cursor=${page1.body.cursor}`);
    expect(page2.body.cursor).toBeNull();
    expect([...page1.body.data, ...page2.body.data].map((n: any) => n.id).sort()).toEqual(list.map((n) => n.id).sort());
  });
});

describe('notifications: retries and failures', () => {
  it('retries a failing endpoint on the schedule, then records the failure; a recovering one succeeds', async () => {
    const t = await createTenant(ts);
    const controls = await controlsOf(t);
    const down = await receiver(() => 500);
    const flaky = await receiver((n) => (n <= 2 ? 503 : 200));
    const sc = (await t.call('POST', '/v1/notifications/slack', { body: { name: '#down', url: down.url } })).body;
    const tc = (await t.call('POST', '/v1/notifications/teams', { body: { name: 'flaky', url: flaky.url } })).body;
    await subscribe(t, ['evidence.uploaded'], ['slack', 'teams']);
    await uploadEvidence(t, controls);

    const failed = await until(
      'the slack delivery to fail',
      async () => {
        const d = (await t.call('GET', `/v1/notifications/slack/${sc.id}/deliveries`)).body.data as any[];
        return d[0]?.status === 'failed' ? d[0] : undefined;
      },
      20_000,
    );
    expect(failed).toMatchObject({ attempts: 5, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: null });
    expect(failed.failedAt).not.toBeNull();
    expect(down.received).toHaveLength(5);
    const filtered = await t.call('GET', `/v1/notifications/slack/${sc.id}/deliveries?status=failed`);
    expect(filtered.body.data).toHaveLength(1);

    const ok = await until('the teams delivery to succeed', async () => {
      const d = (await t.call('GET', `/v1/notifications/teams/${tc.id}/deliveries`)).body.data as any[];
      return d[0]?.status === 'succeeded' ? d[0] : undefined;
    });
    expect(ok).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null });
    expect(flaky.received).toHaveLength(3);
  });
});

describe('notifications: validation, lifecycles, tenancy, permissions', () => {
  it('validates subscriptions, preferences, channels and mark-read with 422 naming the field', async () => {
    const t = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    const bad = async (method: string, path: string, body: unknown, field: string) => {
      const res = await t.call(method, path, { body });
      const env = expectEnvelope(res, 422, 'validation_failed');
      expect(JSON.stringify(env.details), JSON.stringify(env)).toContain(field);
    };
    await bad('POST', '/v1/notifications/subscribe', { eventTypes: ['nope.thing'], channels: ['inbox'] }, 'eventTypes');
    await bad('POST', '/v1/notifications/subscribe', { eventTypes: ['notification.marked_read'], channels: ['inbox'] }, 'eventTypes');
    await bad('POST', '/v1/notifications/subscribe', { eventTypes: ['evidence.uploaded'], channels: ['fax'] }, 'channels');
    await bad('POST', '/v1/notifications/subscribe', { eventTypes: ['evidence.uploaded'], channels: ['inbox', 'inbox'] }, 'channels');
    await bad('POST', '/v1/notifications/subscribe', { eventTypes: [], channels: ['inbox'] }, 'eventTypes');
    await bad('PUT', '/v1/notifications/preferences', { mutedEventTypes: [], minimumSeverity: 'loud', channels: [] }, 'minimumSeverity');
    await bad('POST', '/v1/notifications/slack', { name: 'x', url: 'ftp://hooks.example.com/x' }, 'url');
    await bad('POST', '/v1/notifications/slack', { name: 'x', url: 'https://user:pw@hooks.slack.com/services/x' }, 'url');
    await bad('POST', '/v1/notifications/email', { name: 'x', recipients: ['not-an-address'] }, 'recipients');
    await bad('POST', '/v1/notifications/mark-read', { ids: ['ntf_01JD3Z8W2M6Q4X9V7K5T1B0N3R'], upTo: '2026-01-01T00:00:00.000Z' }, 'ids');
    await bad('POST', '/v1/notifications/mark-read', {}, 'ids');
    // Wildcards of registered categories are accepted.
    expect(
      (await t.call('POST', '/v1/notifications/subscribe', { body: { eventTypes: ['assessment.*', '*'], channels: ['inbox'] } })).status,
    ).toBe(201);
  });

  it('moves subscriptions and channels through their lifecycles; an illegal move is 409 and changes nothing', async () => {
    const t = await createTenant(ts);
    const sub = await subscribe(t, ['evidence.uploaded'], ['inbox']);
    const resume = await t.call('POST', `/v1/notifications/subscribe/${sub.id}/resume`);
    expect(expectEnvelope(resume, 409, 'conflict').message).toContain('active');
    expect((await t.call('POST', `/v1/notifications/subscribe/${sub.id}/cancel`)).body.status).toBe('canceled');
    expectEnvelope(await t.call('POST', `/v1/notifications/subscribe/${sub.id}/pause`), 409, 'conflict');
    expect((await t.call('GET', `/v1/notifications/subscribe/${sub.id}`)).body.status).toBe('canceled');

    const ch = (await t.call('POST', '/v1/notifications/email', { body: { name: 'x', recipients: ['a@example.com'] } })).body;
    expectEnvelope(await t.call('POST', `/v1/notifications/email/${ch.id}/enable`), 409, 'conflict');
    expect((await t.call('POST', `/v1/notifications/email/${ch.id}/disable`)).body.status).toBe('disabled');
    const again = await t.call('POST', `/v1/notifications/email/${ch.id}/disable`);
    expect(expectEnvelope(again, 409, 'conflict').message).toContain('disabled');
    expect((await t.call('GET', '/v1/notifications/email?status=disabled')).body.data.map((c: any) => c.id)).toEqual([ch.id]);
    expect((await t.call('POST', `/v1/notifications/email/${ch.id}/enable`)).body.status).toBe('active');
    // A channel is found under its own kind only.
    expectEnvelope(await t.call('GET', `/v1/notifications/slack/${ch.id}`), 404, 'not_found');

    const actions = (await collectPages<any>(t, '/v1/audit-trail/events')).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'notification_subscription.created',
        'notification_subscription.canceled',
        'notification_channel.created',
        'notification_channel.disabled',
        'notification_channel.enabled',
      ]),
    );
  });

  it("keeps tenants apart and checks permissions: another tenant's ids are 404, a viewer reads but does not write", async () => {
    const a = await createTenant(ts);
    const b = await createTenant(ts);
    const sub = await subscribe(a, ['evidence.uploaded'], ['inbox']);
    const ch = (await a.call('POST', '/v1/notifications/email', { body: { name: 'x', recipients: ['a@example.com'] } })).body;
    expectEnvelope(await b.call('GET', `/v1/notifications/subscribe/${sub.id}`), 404, 'not_found');
    expectEnvelope(await b.call('GET', `/v1/notifications/email/${ch.id}`), 404, 'not_found');
    expectEnvelope(await b.call('GET', `/v1/notifications/email/${ch.id}/deliveries`), 404, 'not_found');
    expectEnvelope(await b.call('POST', `/v1/notifications/email/${ch.id}/disable`), 404, 'not_found');
    expect((await b.call('GET', '/v1/notifications/email')).body.data).toEqual([]);

    const viewer = await a.key('viewer');
    expect((await a.call('GET', '/v1/notifications/inbox', { token: viewer })).status).toBe(200);
    expect((await a.call('GET', '/v1/notifications/subscribe', { token: viewer })).body.data.map((s: any) => s.id)).toEqual([sub.id]);
    const denied = await a.call('POST', '/v1/notifications/subscribe', {
      token: viewer,
      body: { eventTypes: ['evidence.uploaded'], channels: ['inbox'] },
    });
    expectEnvelope(denied, 403, 'forbidden');
    expectEnvelope(
      await a.call('PUT', '/v1/notifications/preferences', {
        token: viewer,
        body: { mutedEventTypes: [], minimumSeverity: 'info', channels: [] },
      }),
      403,
      'forbidden',
    );
    expectEnvelope(await a.call('GET', '/v1/notifications/inbox', { token: null }), 401, 'unauthorized');
    // The subscriber is the calling key.
    const editor = await a.key('editor');
    const own = await subscribe(a, ['assessment.*'], ['inbox'], editor);
    expect(own.subscriberId).not.toBe(sub.subscriberId);
    expect((await a.call('GET', `/v1/notifications/subscribe?subscriberId=${own.subscriberId}`)).body.data.map((s: any) => s.id)).toEqual([
      own.id,
    ]);
  });
});

describe('notifications: several notifiers on one database', () => {
  it('creates each notification and each channel message once while three notifiers share the work', async () => {
    const { createNotifier } = await import('../packages/server/src/notifications/notifier.ts');
    const { createLogger } = await import('../packages/server/src/logger.ts');
    const { loadConfig } = await import('@svc/server');
    const config = loadConfig({ ...process.env, SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SVC_WEBHOOK_POLL_MS: '5' });
    // Two more notifiers beside the server's own, on the same database.
    const extra = [0, 1].map(() => createNotifier({ db: ts.server.db, config, log: createLogger('silent') }));
    for (const n of extra) n.start();
    try {
      const t = await createTenant(ts);
      const controls = await controlsOf(t);
      const slack = await receiver();
      await t.call('POST', '/v1/notifications/slack', { body: { name: '#busy', url: slack.url } });
      await subscribe(t, ['evidence.uploaded'], ['inbox', 'slack']);
      const ids = await Promise.all(Array.from({ length: 6 }, () => uploadEvidence(t, controls)));
      await until('six notifications', async () => ((await inbox(t)).length >= 6 ? true : undefined));
      await until('six slack messages', async () => (slack.received.length >= 6 ? true : undefined));
      await new Promise((r) => setTimeout(r, 300));
      const list = await inbox(t);
      expect(list.map((n) => n.resourceId).sort()).toEqual([...ids].sort());
      expect(new Set(list.map((n) => n.eventId)).size).toBe(6);
      expect(slack.received).toHaveLength(6);
    } finally {
      for (const n of extra) await n.stop();
    }
  });
});

describe('notifications: email recipients confirm before anything is sent to them', () => {
  it('an unconfirmed external address receives only its confirmation message; a confirmed one receives the events', async () => {
    const t = await createTenant(ts);
    const controls = await controlsOf(t);
    const other = await t.key('editor'); // its inbox says when an event has been read
    await subscribe(t, ['evidence.uploaded'], ['inbox'], other);
    // The attack: a tenant lists addresses that never asked for anything (up to 50 per channel).
    const victim = `victim-${Math.random().toString(36).slice(2, 8)}@example.net`;
    const dpo = `dpo-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const mailsBefore = mailbox.mails.length;
    const ec = await t.call('POST', '/v1/notifications/email', {
      body: { name: 'BUY CHEAP PILLS at spam.example', recipients: [victim, dpo] },
    });
    expect(ec.status, JSON.stringify(ec.body)).toBe(201);
    expect(ec.body.recipients).toEqual([victim, dpo]);
    expect(ec.body.recipientStatus).toEqual([
      { email: victim, status: 'pending', invitedAt: null, confirmedAt: null },
      { email: dpo, status: 'pending', invitedAt: null, confirmedAt: null },
    ]);
    await subscribe(t, ['evidence.uploaded'], ['inbox', 'email']);

    // An event while nobody confirmed: no delivery, no message to either address.
    const first = await uploadEvidence(t, controls);
    await notified(t, first, other);
    await notified(t, first);
    const victimToken = await confirmationToken(ec.body.id, victim, mailsBefore);
    const dpoToken = await confirmationToken(ec.body.id, dpo, mailsBefore);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.mails.some((m) => m.raw.includes(first))).toBe(false);
    expect((await t.call('GET', `/v1/notifications/email/${ec.body.id}/deliveries`)).body.data).toEqual([]);
    // The confirmation message carries none of the tenant's words.
    const invitation = mailbox.mails.slice(mailsBefore).find((m) => m.to.includes(victim)) as Mail;
    expect(invitation.to).toEqual([victim]);
    expect(invitation.raw).not.toContain('PILLS');
    const shown = await t.call('GET', `/v1/notifications/email/${ec.body.id}`);
    expect(shown.body.recipientStatus.map((r: any) => [r.status, r.invitedAt !== null])).toEqual([
      ['pending', true],
      ['pending', true],
    ]);
    // The stored hash is not the token.
    const stored = await ts.server.db.prisma.notificationEmailRecipient.findMany({ where: { channelId: ec.body.id } });
    expect(JSON.stringify(stored)).not.toContain(victimToken);

    // Only the DPO confirms; the token works once; a guessed one never.
    const ok = await confirm(dpoToken);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({
      object: 'svc.notifications.email_recipient_confirmation',
      channelId: ec.body.id,
      email: dpo,
      status: 'confirmed',
    });
    expectEnvelope(await confirm(dpoToken), 404, 'not_found');
    expectEnvelope(await confirm('x'.repeat(43)), 404, 'not_found');
    const after = (await t.call('GET', `/v1/notifications/email/${ec.body.id}`)).body;
    expect(after.recipientStatus.map((r: any) => [r.email, r.status])).toEqual([
      [victim, 'pending'],
      [dpo, 'confirmed'],
    ]);
    expect(after.recipientStatus[1].confirmedAt).not.toBeNull();

    // The next event goes to the confirmed address only.
    const second = await uploadEvidence(t, controls);
    const sent = await until('the message about the second upload', async () => mailbox.mails.find((m) => m.raw.includes(second)));
    expect(sent.to).toEqual([dpo]);
    await new Promise((r) => setTimeout(r, 200));
    expect(mailbox.mails.filter((m) => m.to.includes(victim) && !m.raw.includes('X-Svc-Confirmation'))).toEqual([]);

    // Sending the confirmations again replaces the victim's token; the DPO is not asked again.
    const beforeResend = mailbox.mails.length;
    const resent = await t.call('POST', `/v1/notifications/email/${ec.body.id}/resend-confirmations`, { body: {} });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    const newToken = await confirmationToken(ec.body.id, victim, beforeResend);
    expect(newToken).not.toBe(victimToken);
    expectEnvelope(await confirm(victimToken), 404, 'not_found');
    expect(mailbox.mails.slice(beforeResend).some((m) => m.to.includes(dpo))).toBe(false);
    expect((await confirm(newToken)).status).toBe(200);

    const audit = await collectPages<any>(t, '/v1/audit-trail/events');
    expect(audit.filter((e) => e.action === 'notification_channel.recipient_confirmed')).toHaveLength(2);
    expect(audit.some((e) => e.action === 'notification_channel.confirmations_resent')).toBe(true);
  });
});
