import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateOpenApiDocument, getWebhookEventType, WEBHOOK_EVENT_CATEGORIES, WebhookEnvelope, webhookEventTypes } from '@svc/contract';
import { generateTestHeader, WebhookVerificationError, webhooks } from '@svc/sdk';
import { buildEventData, createDispatcher, type Dispatcher, openDatabase } from '@svc/server';
import { CloudEvent } from 'cloudevents';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { svcServe } from './support/svc-process.ts';

/**
 * Outbound webhooks end to end: subscriptions through the API, events written with the change,
 * dispatchers delivering to receivers on 127.0.0.1, retries on a scaled schedule, the dead-letter
 * queue and its replay, a dispatcher lost mid-delivery, two dispatchers on one PostgreSQL, and
 * secret rotation.
 */
const ROOT = join(import.meta.dirname, '..');

const ENV = {
  SVC_ROLE: 'all',
  SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
  SVC_WEBHOOK_POLL_MS: '25',
  SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS: '5000',
  SVC_WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_PORT: '0',
};

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
}

/** A receiver on 127.0.0.1 that records every request and answers as `respond` says ('hang': never). */
async function startReceiver(respond: (r: Received, n: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const r: Received = { at: performance.now(), headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) };
      received.push(r);
      for (const w of waiters.filter((x) => received.length >= x.n)) w.resolve();
      const status = respond(r, received.length);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** Resolves once `n` requests arrived; rejects after `ms`. */
    waitFor(n: number, ms = 20_000): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests`)), ms);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let ts: TestServer;
const cleanups: (() => Promise<void>)[] = [];
const later = (fn: () => Promise<void>) => cleanups.push(fn);

beforeAll(async () => {
  ts = await startTestServer(ENV);
});
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(() => ts?.close());

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(respond);
  later(r.close);
  return r;
}

async function subscribe(t: TenantFixture, url: string, eventTypes: string[] = ['assessment.*']) {
  const res = await t.call('POST', '/v1/webhook-subscriptions', { body: { url, eventTypes, description: 'test receiver' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; secretPrefix: string };
}

const createAssessment = (t: TenantFixture) =>
  t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' } });

async function deliveries(t: TenantFixture, query = '') {
  const res = await t.call('GET', `/v1/webhook-deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

type Logger = TestServer['server']['log'];

/** Replaces the server's dispatcher by one with other settings (scale, lease) for one test. */
function ownDispatcher(
  overrides: Partial<TestServer['server']['config']['webhooks']> = {},
  db = ts.server.db,
  log: Logger = ts.server.log,
): Dispatcher {
  const d = createDispatcher({ db, config: { ...ts.server.config.webhooks, ...overrides }, log });
  d.start();
  later(() => d.stop());
  return d;
}

async function pauseBuiltIn() {
  await ts.server.webhooks.dispatcher?.stop();
  later(async () => ts.server.webhooks.dispatcher?.start());
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${ms} ms: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the event registry', () => {
  it('has 85+ types across every category of the specification, each with a zod schema for data', () => {
    expect(webhookEventTypes().length).toBeGreaterThanOrEqual(85);
    for (const category of WEBHOOK_EVENT_CATEGORIES) {
      expect(webhookEventTypes().filter((t) => t.category === category).length, category).toBeGreaterThan(0);
    }
    expect(new Set(webhookEventTypes().map((t) => t.type)).size).toBe(webhookEventTypes().length);
    for (const t of webhookEventTypes()) expect(typeof t.data.safeParse).toBe('function');
    const doc = generateOpenApiDocument() as { webhooks: Record<string, unknown> };
    expect(Object.keys(doc.webhooks).sort()).toEqual(
      webhookEventTypes()
        .map((t) => t.type)
        .sort(),
    );
  });

  it('tenant.created carries exactly tenant_id, display_name, plan and region', async () => {
    const created = await call(ts.url, 'POST', '/v1/operator/tenants', {
      token: ts.operatorToken,
      body: { name: 'Acme Bank', tier: 'growth', env: 'live', region: 'eu' },
    });
    const built = buildEventData({
      tenantId: created.body.tenant.id,
      action: 'tenant.created',
      resourceType: 'svc.operator.tenant',
      resourceId: created.body.tenant.id,
      correlationId: 'c',
      resource: created.body.tenant,
    });
    expect(built).toEqual({
      type: 'tenant.created',
      data: { tenant_id: created.body.tenant.id, display_name: 'Acme Bank', plan: 'growth', region: 'eu' },
    });
    const schema = getWebhookEventType('tenant.created')?.data;
    expect(schema?.safeParse(built?.data).success).toBe(true);
    expect(schema?.safeParse({ ...built?.data, extra: 1 }).success).toBe(false);
  });
});

describe('subscriptions', () => {
  it('create shows the secret once; list, get, update and delete never show it', async () => {
    const t = await createTenant(ts);
    const sub = await subscribe(t, 'http://127.0.0.1:9/hook', ['assessment.*', 'evidence.uploaded']);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(sub.secret.startsWith(sub.secretPrefix)).toBe(true);
    const got = await t.call('GET', `/v1/webhook-subscriptions/${sub.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body.eventTypes).toEqual(['assessment.*', 'evidence.uploaded']);
    const list = await t.call('GET', '/v1/webhook-subscriptions');
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([sub.id]);
    expect(JSON.stringify(list.body)).not.toContain(sub.secret);
    const patched = await t.call('PATCH', `/v1/webhook-subscriptions/${sub.id}`, { body: { eventTypes: ['*'], enabled: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ eventTypes: ['*'], enabled: false });
    const del = await t.call('DELETE', `/v1/webhook-subscriptions/${sub.id}`);
    expect(del.body).toEqual({ object: 'svc.webhooks.subscription', id: sub.id, deleted: true });
    expectEnvelope(await t.call('GET', `/v1/webhook-subscriptions/${sub.id}`), 404, 'not_found');
  });

  it('a subscription deleted three times at once is deleted once: one 200, two 404, one audit event', async () => {
    const t = await createTenant(ts);
    const sub = (await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/race', eventTypes: ['*'] } }))
      .body;
    const sent = await Promise.all([1, 2, 3].map(() => t.call('DELETE', `/v1/webhook-subscriptions/${sub.id}`)));
    expect(sent.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    const trail = (await t.call('POST', '/v1/audit-trail/query', { body: { action: 'webhook_subscription.deleted', limit: 200 } })).body
      .data;
    expect(trail.filter((e: { resourceId: string }) => e.resourceId === sub.id)).toHaveLength(1);
  });

  it('refuses unknown event types and categories (422)', async () => {
    const t = await createTenant(ts);
    for (const eventTypes of [['assessment.exploded'], ['nothing.*'], []]) {
      const res = await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/x', eventTypes } });
      expectEnvelope(res, 422, 'validation_failed');
    }
  });

  it('security: 401 without a token, 403 for a viewer writing, 404 for another tenant’s subscription', async () => {
    const owner = await createTenant(ts);
    const other = await createTenant(ts);
    const sub = await subscribe(owner, 'http://127.0.0.1:9/hook');
    expectEnvelope(await call(ts.url, 'GET', '/v1/webhook-subscriptions'), 401, 'unauthorized');
    expectEnvelope(await call(ts.url, 'GET', '/v1/webhook-deliveries'), 401, 'unauthorized');
    const viewer = await owner.key('viewer');
    expect((await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token: viewer })).status).toBe(200);
    const refused = await call(ts.url, 'POST', '/v1/webhook-subscriptions', {
      token: viewer,
      body: { url: 'https://hooks.example.com/x', eventTypes: ['*'] },
    });
    expect(expectEnvelope(refused, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'webhooks:write' }]);
    expectEnvelope(await call(ts.url, 'DELETE', `/v1/webhook-subscriptions/${sub.id}`, { token: viewer }), 403, 'forbidden');
    expectEnvelope(await other.call('GET', `/v1/webhook-subscriptions/${sub.id}`), 404, 'not_found');
    expectEnvelope(await other.call('PATCH', `/v1/webhook-subscriptions/${sub.id}`, { body: { enabled: false } }), 404, 'not_found');
    expectEnvelope(await other.call('POST', `/v1/webhook-subscriptions/${sub.id}/rotate-secret`, { body: {} }), 404, 'not_found');
    expectEnvelope(await other.call('DELETE', `/v1/webhook-subscriptions/${sub.id}`), 404, 'not_found');
    expect((await other.call('GET', '/v1/webhook-subscriptions')).body.data).toEqual([]);
    expect((await owner.call('GET', `/v1/webhook-subscriptions/${sub.id}`)).status).toBe(200);
    expect((await owner.call('GET', '/v1/webhook-subscriptions')).body.data[0].enabled).toBe(true);
  });
});

describe('delivery', () => {
  it('POSTs a CloudEvents 1.0 envelope with exactly the specified headers, signed over the raw body', async () => {
    const r = await receiver();
    const t = await createTenant(ts);
    const sub = await subscribe(t, r.url);
    const asm = await createAssessment(t);
    await r.waitFor(1);
    const [got] = r.received as [Received];
    const h = got.headers;
    expect(Object.keys(h).sort()).toEqual(
      [
        'connection',
        'content-length',
        'content-type',
        'host',
        'user-agent',
        'x-svc-delivery-attempt',
        'x-svc-event',
        'x-svc-signature',
        'x-svc-tenant',
      ].sort(),
    );
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('Svc-Webhooks/1.0');
    expect(h['x-svc-event']).toBe('assessment.created');
    expect(h['x-svc-tenant']).toBe(t.tenantId);
    expect(h['x-svc-delivery-attempt']).toBe('1');
    expect(h['x-svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const envelope = WebhookEnvelope.parse(got.body);
    expect(envelope).toMatchObject({
      specversion: '1.0',
      type: 'assessment.created',
      datacontenttype: 'application/json',
      subject: asm.body.id,
      tenantid: t.tenantId,
      source: `https://api.svc.example/v1/compliance/assessments/${asm.body.id}`,
      data: asm.body,
    });
    expect(envelope.id).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(envelope.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(getWebhookEventType('assessment.created')?.data.safeParse(envelope.data).success).toBe(true);

    // The cloudevents SDK validates strictly in its constructor; the id and time are ours, not filled in.
    const ce = new CloudEvent(got.body, true);
    expect(ce.validate()).toBe(true);
    expect(ce.id).toBe(envelope.id);
    expect(ce.time).toBe(envelope.time);

    // Our verifier and Stripe's accept the header against the raw bytes; any change is refused.
    expect(webhooks.verify(got.raw, h['x-svc-signature'] as string, sub.secret).id).toBe(envelope.id);
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(got.raw, h['x-svc-signature'] as string, sub.secret).id).toBe(envelope.id);
    const tampered = Buffer.from(got.raw.toString('utf8').replace('"draft"', '"final"'));
    expect(() => webhooks.verify(tampered, h['x-svc-signature'] as string, sub.secret)).toThrow(WebhookVerificationError);
    expect(() => webhooks.verify(got.raw, h['x-svc-signature'] as string, 'whsec_wrong')).toThrow(/No signature matches/);

    const [d] = await until(
      () => deliveries(t),
      (ds) => ds[0]?.status === 'succeeded',
    );
    expect(d).toMatchObject({ subscriptionId: sub.id, eventId: envelope.id, eventType: 'assessment.created', attemptCount: 1 });
    expect(d.attempts).toEqual([
      { attempt: 1, at: expect.any(String), statusCode: 200, latencyMs: expect.any(Number), outcome: 'succeeded', error: null },
    ]);
  });

  it('each operation emits its registered type, with data that its schema accepts', async () => {
    const r = await receiver();
    const t = await createTenant(ts);
    await subscribe(t, r.url, ['*']);
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate');
    const asm = await createAssessment(t);
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 'log', kind: 'log', controlIds: ['AIA-RMS-01'] } });
    await t.call('POST', '/v1/compliance/attestations', {
      body: {
        subject: { type: 'assessment', id: asm.body.id },
        statement: 'Reviewed and approved.',
        attester: { name: 'A', email: 'a@example.com' },
      },
    });
    const key = await call(ts.url, 'POST', '/v1/operator/keys', {
      token: ts.operatorToken,
      body: { tenantId: t.tenantId, role: 'viewer' },
    });
    await call(ts.url, 'POST', `/v1/operator/keys/${key.body.id}/revoke`, { token: ts.operatorToken });
    const expected = [
      'framework.activated',
      'assessment.created',
      'evidence.uploaded',
      'audit.attestation_created',
      'tenant.api_key_created',
      'tenant.api_key_revoked',
    ].sort();
    // The evidence upload is also routed to an agent, which works in the background: its decision
    // (and the first pin of the tenant's dictionary bundle it reads) arrive in any order among ours.
    const background = new Set(['agent.decision_recorded', 'agent.failed', 'taxonomy.bundle_pinned']);
    await until(
      async () => r.received.map((x) => x.body.type as string),
      (got) => expected.every((e) => got.includes(e)),
    );
    const types = r.received.map((x) => x.body.type as string);
    expect(types.filter((x) => !background.has(x)).sort()).toEqual(expected);
    for (const x of r.received) {
      expect(getWebhookEventType(x.body.type)?.data.safeParse(x.body.data).success, x.body.type).toBe(true);
      expect(JSON.stringify(x.body.data)).not.toMatch(/svc_(test|live|dev)_[A-Za-z0-9]{32}/);
    }
  });

  it('a refused change leaves no event and no delivery', async () => {
    const t = await createTenant(ts);
    await subscribe(t, 'http://127.0.0.1:9/hook', ['*']);
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 't', kind: 'log', controlIds: ['NOT-A-CONTROL'] } });
    expect(await ts.server.db.prisma.webhookEvent.count({ where: { tenantId: t.tenantId } })).toBe(0);
    expect(await deliveries(t)).toEqual([]);
  });

  it('a receiver that fails twice gets attempts 1, 2, 3 on the scaled schedule (+1 s, +5 s, x0.1)', async () => {
    await pauseBuiltIn();
    // The schedule is read from what the dispatcher records (exact), and the receiver's clock only
    // bounds it from below: how late a retry runs past its due time depends on the machine's load.
    const retries: Record<string, unknown>[] = [];
    const log: Logger = {
      info: (m, f) => ts.server.log.info(m, f),
      warn: (m, f) => ts.server.log.warn(m, f),
      error: (m, f) => ts.server.log.error(m, f),
      request: (f) => ts.server.log.request(f),
      enabled: () => true,
      debug: (msg, fields) => {
        if (msg.startsWith('webhook attempt failed')) retries.push(fields ?? {});
      },
    };
    ownDispatcher({ scheduleScale: 0.1 }, ts.server.db, log);
    const r = await receiver((_x, n) => (n <= 2 ? 503 : 200));
    const t = await createTenant(ts);
    await subscribe(t, r.url);
    await createAssessment(t);
    await r.waitFor(3);
    expect(r.received.map((x) => x.headers['x-svc-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(r.received.map((x) => x.body.id)).size).toBe(1);
    // Only this tenant's: the dispatcher also retries what earlier tests left due.
    const ours = retries.filter((x) => x.tenant_id === t.tenantId);
    expect(ours.map((x) => [x.attempt, x.retry_in_ms, x.error])).toEqual([
      [1, 100, 'HTTP 503'],
      [2, 500, 'HTTP 503'],
    ]);
    const [a, b, c] = r.received as [Received, Received, Received];
    expect(b.at - a.at).toBeGreaterThanOrEqual(100);
    expect(c.at - b.at).toBeGreaterThanOrEqual(500);
    const [d] = await until(
      () => deliveries(t),
      (ds) => ds[0]?.status === 'succeeded',
    );
    expect(
      d.attempts.map((x: { attempt: number; statusCode: number; outcome: string; error: string | null }) => [
        x.attempt,
        x.statusCode,
        x.outcome,
        x.error,
      ]),
    ).toEqual([
      [1, 503, 'failed', 'HTTP 503'],
      [2, 503, 'failed', 'HTTP 503'],
      [3, 200, 'succeeded', null],
    ]);
    expect(r.received.length).toBe(3);
  });

  it('one that always fails is parked in the dead-letter queue after exactly 5 attempts, and a replay delivers it with the same id', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 500));
    const t = await createTenant(ts);
    await subscribe(t, r.url);
    await createAssessment(t);
    const [d] = await until(
      () => deliveries(t),
      (ds) => ds[0]?.status === 'dead_lettered',
    );
    expect(r.received.map((x) => x.headers['x-svc-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5']);
    expect(d.attempts).toHaveLength(5);
    expect(d.deadLetteredAt).not.toBeNull();
    const eventId = r.received[0]?.body.id;
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(5);

    const dlq = await call(ts.url, 'GET', `/v1/operator/webhooks/dead-letters?tenantId=${t.tenantId}`, { token: ts.operatorToken });
    expect(dlq.body.data.map((x: { id: string }) => x.id)).toEqual([d.id]);
    expect(dlq.body.data[0]).toMatchObject({ tenantId: t.tenantId, eventId, status: 'dead_lettered' });
    expectEnvelope(await t.call('GET', '/v1/operator/webhooks/dead-letters'), 403, 'forbidden');

    healthy = true;
    const env = {
      ...process.env,
      SVC_URL: ts.url,
      SVC_OPERATOR_TOKEN: ts.operatorToken,
      SVC_CREDENTIALS_FILE: join(ROOT, '.no-such-file'),
    };
    // The commands in this process, as the bin runs them (test/support/cli.ts).
    const listed = await svcInProcess(['webhooks', 'dlq', 'list', '--tenant', t.tenantId, '--json'], env);
    expect(JSON.parse(listed.stdout).map((x: { id: string }) => x.id)).toEqual([d.id]);
    const replayed = await svcInProcess(['webhooks', 'dlq', 'replay', d.id, '--json'], env);
    expect(JSON.parse(replayed.stdout)).toEqual({ replayed: 1, deliveryIds: [d.id] });
    await r.waitFor(6);
    const last = r.received[5] as Received;
    expect(last.body.id).toBe(eventId);
    expect(last.raw.equals((r.received[0] as Received).raw)).toBe(true);
    expect(last.headers['x-svc-delivery-attempt']).toBe('1');
    const [after] = await until(
      () => deliveries(t),
      (ds) => ds[0]?.status === 'succeeded',
    );
    expect(after).toMatchObject({ replays: 1, eventId });
    expect(after.attempts).toHaveLength(6);
  });

  it('replays everything parked since a time, and only that', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 500));
    const t = await createTenant(ts);
    await subscribe(t, r.url);
    const since = new Date().toISOString();
    await createAssessment(t);
    await createAssessment(t);
    await until(
      () => deliveries(t, '?status=dead_lettered'),
      (ds) => ds.length === 2,
    );
    healthy = true;
    const res = await call(ts.url, 'POST', '/v1/operator/webhooks/replay', {
      token: ts.operatorToken,
      body: { since, tenantId: t.tenantId },
    });
    expect(res.status).toBe(200);
    expect(res.body.replayed).toBe(2);
    await until(
      () => deliveries(t, '?status=succeeded'),
      (ds) => ds.length === 2,
    );
    const none = await call(ts.url, 'POST', '/v1/operator/webhooks/replay', {
      token: ts.operatorToken,
      body: { since: new Date().toISOString(), tenantId: t.tenantId },
    });
    expect(none.body).toEqual({ replayed: 0, deliveryIds: [] });
    expectEnvelope(
      await call(ts.url, 'POST', '/v1/operator/webhooks/replay', { token: ts.operatorToken, body: { deliveryId: 'whd_nope' } }),
      404,
      'not_found',
    );
  });

  it('a dispatcher lost mid-delivery: the delivery is sent again after the lease, same event id, next attempt', async () => {
    await pauseBuiltIn();
    const first = ownDispatcher({ leaseMs: 800 });
    const r = await receiver((_x, n) => (n === 1 ? 'hang' : 200));
    const t = await createTenant(ts);
    await subscribe(t, r.url);
    await createAssessment(t);
    await r.waitFor(1);
    first.crash();
    ownDispatcher({ leaseMs: 800 });
    await r.waitFor(2);
    const [a, b] = r.received as [Received, Received];
    expect(b.body.id).toBe(a.body.id);
    expect([a.headers['x-svc-delivery-attempt'], b.headers['x-svc-delivery-attempt']]).toEqual(['1', '2']);
    const [d] = await until(
      () => deliveries(t),
      (ds) => ds[0]?.status === 'succeeded',
    );
    expect(d.attempts.map((x: { attempt: number; outcome: string }) => [x.attempt, x.outcome])).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
    expect(d.attempts[0].error).toMatch(/lease expired/);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'a dispatcher process killed (SIGKILL) mid-delivery: delivered after restart (PostgreSQL: a second process needs a shared database)',
    async () => {
      await pauseBuiltIn();
      const r = await receiver((_x, n) => (n === 1 ? 'hang' : 200));
      const t = await createTenant(ts);
      await subscribe(t, r.url);
      // The dispatcher in the child itself: the signal must reach it.
      const child: ChildProcess = spawn(...svcServe(['--role', 'dispatcher']), {
        cwd: ROOT,
        env: { ...process.env, ...ENV, SVC_WEBHOOK_LEASE_MS: '1000', SVC_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      later(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      let err = '';
      child.stderr?.on('data', (c) => {
        err += String(c);
      });
      await until(
        async () => err,
        (e) => /dispatcher .* running/.test(e),
        30_000,
      );
      await createAssessment(t);
      await r.waitFor(1);
      const exited = new Promise((res) => child.once('exit', res));
      child.kill('SIGKILL');
      await exited;
      ownDispatcher({ leaseMs: 1000 });
      await r.waitFor(2);
      expect((r.received[1] as Received).body.id).toBe((r.received[0] as Received).body.id);
      expect((r.received[1] as Received).headers['x-svc-delivery-attempt']).toBe('2');
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'two dispatchers on one PostgreSQL never send one attempt twice (skipped on PGlite: one in-process database cannot show it)',
    async () => {
      await pauseBuiltIn();
      const seen = new Map<string, number>();
      const r = await receiver((x) => {
        const key = `${x.body.id}#${x.headers['x-svc-delivery-attempt']}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        return x.headers['x-svc-delivery-attempt'] === '1' ? 500 : 200;
      });
      const t = await createTenant(ts);
      await subscribe(t, r.url);
      const db2 = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '', poolSize: 5 });
      later(() => db2.close());
      ownDispatcher({ concurrency: 8 });
      ownDispatcher({ concurrency: 8 }, db2);
      const n = 60;
      for (let i = 0; i < n; i++) await createAssessment(t);
      await r.waitFor(2 * n, 60_000);
      await new Promise((res) => setTimeout(res, 300));
      expect([...seen.values()].every((c) => c === 1)).toBe(true);
      expect(seen.size).toBe(2 * n);
      expect(r.received).toHaveLength(2 * n);
      const ds = await until(
        () => deliveries(t, '?status=succeeded&limit=200'),
        (x) => x.length === n,
      );
      expect(ds.every((d) => d.attempts.length === 2)).toBe(true);
    },
  );

  it('rotation: during the overlap each delivery carries two v1 signatures, and both verify', async () => {
    const r = await receiver();
    const t = await createTenant(ts);
    const sub = await subscribe(t, r.url);
    const rotated = await t.call('POST', `/v1/webhook-subscriptions/${sub.id}/rotate-secret`, { body: { overlapSeconds: 3600 } });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.secret;
    expect(fresh).not.toBe(sub.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500_000);
    await createAssessment(t);
    await r.waitFor(1);
    const got = r.received[0] as Received;
    const header = got.headers['x-svc-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(webhooks.verify(got.raw, header, fresh).id).toBe(got.body.id);
    expect(webhooks.verify(got.raw, header, sub.secret).id).toBe(got.body.id);
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(got.raw, header, fresh).id).toBe(got.body.id);
    expect(stripe.webhooks.constructEvent(got.raw, header, sub.secret).id).toBe(got.body.id);

    // Without an overlap the old secret stops at once.
    const again = await t.call('POST', `/v1/webhook-subscriptions/${sub.id}/rotate-secret`, { body: { overlapSeconds: 0 } });
    await createAssessment(t);
    await r.waitFor(2);
    const second = r.received[1] as Received;
    const header2 = second.headers['x-svc-signature'] as string;
    expect(header2).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(webhooks.verify(second.raw, header2, again.body.secret).id).toBe(second.body.id);
    expect(() => webhooks.verify(second.raw, header2, fresh)).toThrow(WebhookVerificationError);
  });
});

describe('SDK verifier', () => {
  const secret = 'whsec_test_secret';
  const payload = JSON.stringify({ specversion: '1.0', id: 'evt_1', type: 'tenant.created' });

  it('accepts a test header, and any of several v1 values or secrets', () => {
    expect(webhooks.verify(payload, generateTestHeader({ payload, secret }), secret).id).toBe('evt_1');
    const both = generateTestHeader({ payload, secret: ['whsec_other', secret] });
    expect(webhooks.verify(payload, both, secret).id).toBe('evt_1');
    expect(webhooks.verify(payload, generateTestHeader({ payload, secret }), ['whsec_old', secret]).id).toBe('evt_1');
  });

  it('rejects too old and too far in the future (default 300 s), unsigned, malformed and mismatched', () => {
    const now = Math.floor(Date.now() / 1000);
    const reason = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as WebhookVerificationError).reason;
      }
      return 'accepted';
    };
    expect(reason(() => webhooks.verify(payload, generateTestHeader({ payload, secret, timestamp: now - 301 }), secret))).toBe(
      'timestamp_too_old',
    );
    expect(reason(() => webhooks.verify(payload, generateTestHeader({ payload, secret, timestamp: now + 301 }), secret))).toBe(
      'timestamp_too_new',
    );
    expect(reason(() => webhooks.verify(payload, generateTestHeader({ payload, secret, timestamp: now - 250 }), secret))).toBe('accepted');
    expect(
      reason(() =>
        webhooks.verify(payload, generateTestHeader({ payload, secret, timestamp: now - 250 }), secret, { toleranceSeconds: 60 }),
      ),
    ).toBe('timestamp_too_old');
    expect(reason(() => webhooks.verify(payload, undefined, secret))).toBe('missing_header');
    expect(reason(() => webhooks.verify(payload, `t=${now}`, secret))).toBe('no_signatures');
    expect(reason(() => webhooks.verify(payload, 'garbage', secret))).toBe('malformed_header');
    expect(reason(() => webhooks.verify(`${payload} `, generateTestHeader({ payload, secret }), secret))).toBe('signature_mismatch');
    expect(reason(() => webhooks.verify(payload, generateTestHeader({ payload, secret, signature: 'A'.repeat(64) }), secret))).toBe(
      'signature_mismatch',
    );
  });
});
