import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks } from '@svc/sdk';
import { createDispatcher, type Dispatcher } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * With SVC_SECRETS_KEY, webhook secrets are sealed at rest (AES-256-GCM): the database holds no
 * secret in clear, yet outbound deliveries are signed and inbound requests verified with them.
 */
let ts: TestServer;
let t: TenantFixture;
let receiver: Server;
let dispatcher: Dispatcher;
const received: { headers: IncomingHttpHeaders; raw: Buffer }[] = [];

beforeAll(async () => {
  // A database of its own: the signing key of a shared one is sealed under the suite's secrets key.
  ts = await startIsolatedTestServer({
    SVC_SECRETS_KEY: randomBytes(32).toString('base64'),
    SVC_ROLE: 'webhooks',
    WEBHOOK_PORT: '0',
    SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
    SVC_WEBHOOK_POLL_MS: '25',
  });
  t = await createTenant(ts);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  dispatcher = createDispatcher({ db: ts.server.db, config: ts.server.config.webhooks, log: ts.server.log });
  dispatcher.start();
});
afterAll(async () => {
  await dispatcher?.stop();
  receiver?.close();
  await ts?.close();
});

describe('webhook secrets sealed at rest', () => {
  it('an outbound secret is stored sealed, shown once in clear, and signs the delivery', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const sub = await t.call('POST', '/v1/webhook-subscriptions', { body: { url, eventTypes: ['assessment.*'] } });
    expect(sub.status).toBe(201);
    const secret: string = sub.body.secret;
    const row = await ts.server.db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.body.id } });
    expect(row.secret.startsWith('enc:v1:')).toBe(true);
    expect(row.secret).not.toContain(secret.slice(6));
    expect(sub.body.secretPrefix).toBe(secret.slice(0, 10));

    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
    const deadline = Date.now() + 20_000;
    let got: (typeof received)[number] | undefined;
    while (!got && Date.now() < deadline) {
      got = received.find((r) => r.raw.toString('utf8').includes(asm.body.id));
      if (!got) await new Promise((r) => setTimeout(r, 50));
    }
    expect(got).toBeDefined();
    const header = got?.headers['x-svc-signature'] as string;
    expect(() => webhooks.verify(got?.raw ?? Buffer.alloc(0), header, secret)).not.toThrow();
  });

  it('an inbound secret is stored sealed and verifies a signed request', async () => {
    const issued = await t.call('POST', '/v1/webhook-inbound-secrets/svc');
    expect(issued.status).toBe(201);
    const row = await ts.server.db.prisma.webhookInboundSecret.findFirstOrThrow({ where: { tenantId: t.tenantId, provider: 'svc' } });
    expect(row.secret.startsWith('enc:v1:')).toBe(true);
    const body = JSON.stringify({ id: `ext_${randomUUID()}`, type: 'incident.reported', data: { id: 'inc_1' } });
    const at = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', issued.body.secret).update(`${at}.${body}`).digest('hex');
    const res = await fetch(`${ts.server.webhooks.webhookUrl}/inbound/${t.tenantId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-signature': `t=${at},v1=${sig}` },
      body,
    });
    expect(res.status).toBe(200);
    const wrong = createHmac('sha256', row.secret).update(`${at}.${body}`).digest('hex');
    const refused = await fetch(`${ts.server.webhooks.webhookUrl}/inbound/${t.tenantId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-signature': `t=${at},v1=${wrong}` },
      body,
    });
    expect(refused.status).toBe(401);
  });
});
