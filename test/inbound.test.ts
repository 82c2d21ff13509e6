import { createHmac, createPrivateKey, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { generate } from 'selfsigned';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The webhook worker on its own port: every inbound provider accepts a correctly signed request
 * and refuses a tampered, a stale and an unsigned one (401 with the error envelope, nothing
 * stored), duplicates are stored once, and every refusal is counted by reason on /metrics.
 * Certificates and keys are made here; nothing is fetched.
 */
const STRIPE_SECRET = 'whsec_stripe_test_secret';
const GCP_AUDIENCE = 'https://webhooks.svc.test/cloud/gcp-pubsub/{tenantId}';
const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem';
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:svc-events';
const SERVICE_ACCOUNT = 'pubsub@project.iam.gserviceaccount.com';

let ts: TestServer;
let t: TenantFixture;
let hook: string;
let snsKey: KeyObject;
let gcpKey: KeyObject;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: 'sns.amazonaws.com' }], { keySize: 2048, algorithm: 'sha256' });
  snsKey = createPrivateKey(pems.private);
  const gcp = generateKeyPairSync('rsa', { modulusLength: 2048 });
  gcpKey = gcp.privateKey;
  const jwks = { keys: [{ ...gcp.publicKey.export({ format: 'jwk' }), kid: 'gcp-test-1', alg: 'RS256', use: 'sig' }] };
  ts = await startTestServer({
    SVC_ROLE: 'webhooks',
    WEBHOOK_PORT: '0',
    SVC_STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
    SVC_SNS_SIGNING_CERTS: pems.cert,
    SVC_GCP_PUBSUB_JWKS: JSON.stringify(jwks),
    SVC_GCP_PUBSUB_AUDIENCE: GCP_AUDIENCE,
    SVC_INBOUND_BODY_LIMIT: '64kb',
    SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
  });
  hook = ts.server.webhooks.webhookUrl as string;
  t = await createTenant(ts);
  for (const provider of ['svc', 'azure-event-grid', 'cloudflare-logpush']) {
    const res = await t.call('POST', `/v1/webhook-inbound-secrets/${provider}`);
    expect(res.status).toBe(201);
    secrets[provider] = res.body.secret;
  }
  expect((await t.call('PUT', '/v1/webhook-inbound-sources/aws-sns', { body: { sources: [TOPIC] } })).status).toBe(200);
  expect((await t.call('PUT', '/v1/webhook-inbound-sources/gcp-pubsub', { body: { sources: [SERVICE_ACCOUNT] } })).status).toBe(200);
});
afterAll(() => ts?.close());

const now = () => Math.floor(Date.now() / 1000);
const hmac = (secret: string, ts: number, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex');

async function post(path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<CallResult> {
  const res = await fetch(hook + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed };
}

const stored = (provider: string) => ts.server.db.prisma.inboundEvent.count({ where: { provider } });

/** What every refusal of an unauthenticated request is told, whatever its reason. */
const NOT_ACCEPTED = {
  error: 'unauthorized',
  message: 'The message is not accepted for this tenant.',
  details: [{ field: 'request', issue: 'not_accepted' }],
};

/**
 * A refusal, with nothing stored. A 401 is the one answer every unauthenticated refusal gets; its
 * reason is visible only to the operator, on /metrics, where it is counted once. A 400 (a verified
 * body that is malformed) names its reason in details.
 */
async function refused(provider: string, send: () => Promise<CallResult>, status: 401 | 400, reason: string) {
  const before = await stored(provider);
  const counted = await metric(provider, reason);
  const r = await send();
  const env = expectEnvelope(r, status, status === 401 ? 'unauthorized' : 'bad_request');
  if (status === 401) expect({ error: env.error, message: env.message, details: env.details }).toEqual(NOT_ACCEPTED);
  else expect(env.details).toEqual([{ field: 'request', issue: reason }]);
  expect(await stored(provider)).toBe(before);
  expect(await metric(provider, reason)).toBe(counted + 1);
}

async function metric(provider: string, reason: string): Promise<number> {
  const text = await (await fetch(`${hook}/metrics`)).text();
  const m = new RegExp(`svc_inbound_rejections_total\\{provider="${provider}",reason="${reason}"\\} (\\d+)`).exec(text);
  return m ? Number(m[1]) : 0;
}

describe('POST /inbound/{tenantId} (svc-signature)', () => {
  const event = (id = `ext_${randomUUID()}`) =>
    JSON.stringify({ id, type: 'incident.reported', data: { id: 'inc_1', severity: 'high', status: 'open' } });
  const signed = (body: string, at = now(), secret = secrets.svc as string) => ({
    'svc-signature': `t=${at},v1=${hmac(secret, at, body)}`,
  });

  it('accepts a signed event, classifies it through the registry and stores a duplicate once', async () => {
    const body = event();
    const first = await post(`/inbound/${t.tenantId}`, body, signed(body));
    expect(first.status).toBe(200);
    expect(first.body.events).toEqual([{ id: JSON.parse(body).id, kind: 'incident.reported', duplicate: false }]);
    const again = await post(`/inbound/${t.tenantId}`, body, signed(body));
    expect(again.body.events[0].duplicate).toBe(true);
    const rows = await ts.server.db.prisma.inboundEvent.findMany({ where: { tenantId: t.tenantId, externalId: JSON.parse(body).id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: 'svc', kind: 'incident.reported', type: 'incident.reported' });

    // Appended to the tenant's event index once, under its canonical kind, covered by an audit event.
    const indexed = await t.call('GET', `/v1/events?source=inbound.svc&entity=${JSON.parse(body).id}`);
    expect(indexed.body.data).toHaveLength(1);
    expect(indexed.body.data[0]).toMatchObject({ kind: 'incident.reported', phase: 'observed', actor: 'inbound:svc' });
    const audit = await ts.server.db.prisma.auditEvent.findUniqueOrThrow({ where: { id: indexed.body.data[0].auditEventId } });
    expect(audit).toMatchObject({ action: 'inbound.received', resourceId: rows[0]?.id });

    const odd = JSON.stringify({ id: `ext_${randomUUID()}`, type: 'something.else' });
    expect((await post(`/inbound/${t.tenantId}`, odd, signed(odd))).body.events[0].kind).toBe('unclassified');
  });

  it('refuses tampered, stale, future, unsigned, other-tenant and malformed requests', async () => {
    const body = event();
    const before = await metric('svc', 'bad_signature');
    await refused('svc', () => post(`/inbound/${t.tenantId}`, body.replace('high', 'low'), signed(body)), 401, 'bad_signature');
    expect(await metric('svc', 'bad_signature')).toBe(before + 1);
    await refused('svc', () => post(`/inbound/${t.tenantId}`, body, signed(body, now() - 330)), 401, 'stale_timestamp');
    await refused('svc', () => post(`/inbound/${t.tenantId}`, body, signed(body, now() + 330)), 401, 'stale_timestamp');
    await refused('svc', () => post(`/inbound/${t.tenantId}`, body), 401, 'missing_signature');
    await refused('svc', () => post(`/inbound/${t.tenantId}`, body, { 'svc-signature': 'v1=abc' }), 401, 'malformed_signature');
    const other = await createTenant(ts);
    await refused('svc', () => post(`/inbound/${other.tenantId}`, body, signed(body)), 401, 'not_configured');
    await refused('svc', () => post('/inbound/ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R', body, signed(body)), 401, 'unknown_tenant');
    await refused('svc', () => post(`/inbound/${t.tenantId}`, '{nope', signed('{nope')), 400, 'malformed_body');
    await refused('svc', () => post(`/inbound/${t.tenantId}`, '{"type":"x"}', signed('{"type":"x"}')), 400, 'malformed_body');
    const big = JSON.stringify({ id: 'big', pad: 'x'.repeat(70_000) });
    const tooBig = await post(`/inbound/${t.tenantId}`, big, signed(big));
    expect(expectEnvelope(tooBig, 400, 'bad_request').details).toEqual([{ field: 'body', issue: 'too_big' }]);
    expect(await metric('svc', 'too_large')).toBeGreaterThanOrEqual(1);
    expect(await metric('svc', 'stale_timestamp')).toBeGreaterThanOrEqual(2);
  });

  it('rotations at once are made in turn: of the secrets they return, the last two work', async () => {
    const u = await createTenant(ts);
    const works = async (secret: string) => {
      const body = JSON.stringify({ id: `ext_${randomUUID()}`, type: 'incident.reported', data: {} });
      return (await post(`/inbound/${u.tenantId}`, body, signed(body, now(), secret))).status === 200;
    };
    // The first issue at once, then rotations of an existing secret at once.
    for (let round = 0; round < 2; round++) {
      const sent = await Promise.all(
        [1, 2, 3].map(() => u.call('POST', '/v1/webhook-inbound-secrets/svc', { body: { overlapSeconds: 600 } })),
      );
      expect(sent.map((r) => r.status)).toEqual([201, 201, 201]);
      const working = await Promise.all(sent.map((r) => works(r.body.secret as string)));
      expect(working.filter(Boolean)).toHaveLength(2);
    }
  });

  it('a rotated inbound secret: the previous one keeps working during the overlap', async () => {
    const old = secrets.svc as string;
    const rotated = await t.call('POST', '/v1/webhook-inbound-secrets/svc', { body: { overlapSeconds: 600 } });
    expect(rotated.status).toBe(201);
    expect(rotated.body.previousSecretExpiresAt).not.toBeNull();
    secrets.svc = rotated.body.secret;
    const a = event();
    const b = event();
    expect((await post(`/inbound/${t.tenantId}`, a, signed(a, now(), old))).status).toBe(200);
    expect((await post(`/inbound/${t.tenantId}`, b, signed(b))).status).toBe(200);
  });
});

describe('POST /stripe (Stripe-Signature)', () => {
  const stripe = new Stripe('sk_test_unused');
  const event = () =>
    JSON.stringify({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: 'in_1', metadata: { tenant_id: t.tenantId } } },
    });
  const header = (payload: string, timestamp = now(), secret = STRIPE_SECRET) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  it('accepts an event signed the way Stripe signs and files it as billing.*', async () => {
    const body = event();
    const res = await post('/stripe', body, { 'stripe-signature': header(body) });
    expect(res.status).toBe(200);
    expect(res.body.events[0]).toMatchObject({ kind: 'billing.invoice_paid', duplicate: false });
    const row = await ts.server.db.prisma.inboundEvent.findFirst({ where: { externalId: JSON.parse(body).id } });
    expect(row).toMatchObject({ provider: 'stripe', tenantId: t.tenantId, kind: 'billing.invoice_paid' });
  });

  it('refuses tampered, stale and unsigned', async () => {
    const body = event();
    await refused(
      'stripe',
      () => post('/stripe', body.replace('in_1', 'in_2'), { 'stripe-signature': header(body) }),
      401,
      'bad_signature',
    );
    await refused('stripe', () => post('/stripe', body, { 'stripe-signature': header(body, now() - 301) }), 401, 'stale_timestamp');
    await refused('stripe', () => post('/stripe', body), 401, 'missing_signature');
    await refused('stripe', () => post('/stripe', body, { 'stripe-signature': header(body, now(), 'whsec_other') }), 401, 'bad_signature');
  });
});

describe('POST /cloud/aws-sns/{tenantId} (certificate from configuration)', () => {
  function sns(overrides: Record<string, string> = {}, key = snsKey) {
    const m: Record<string, string> = {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Subject: 'Incident',
      Message: JSON.stringify({ type: 'incident.reported', id: 'inc_9' }),
      Timestamp: new Date().toISOString(),
      SignatureVersion: '2',
      SigningCertURL: CERT_URL,
      ...overrides,
    };
    const keys =
      m.Type === 'Notification'
        ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
    const text = keys.map((k) => `${k}\n${m[k]}\n`).join('');
    m.Signature = sign('RSA-SHA256', Buffer.from(text), key).toString('base64');
    return m;
  }
  const path = () => `/cloud/aws-sns/${t.tenantId}`;

  it('accepts a signed notification and classifies its message', async () => {
    const res = await post(path(), JSON.stringify(sns()));
    expect(res.status).toBe(200);
    expect(res.body.events[0]).toMatchObject({ kind: 'incident.reported', duplicate: false });
  });

  it('stores a SubscriptionConfirmation without fetching its URL', async () => {
    let fetched = 0;
    const trap = createServer((_req, res) => {
      fetched++;
      res.end('ok');
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    try {
      const m = sns({
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe.',
        SubscribeURL: `${url}/confirm`,
        Token: 'tok',
        SigningCertURL: CERT_URL,
      });
      const res = await post(path(), JSON.stringify(m));
      expect(res.status).toBe(200);
      expect(res.body.events[0].kind).toBe('subscription_confirmation');
      const tampered = { ...m, SigningCertURL: `${url}/evil.pem` };
      await refused('aws-sns', () => post(path(), JSON.stringify(tampered)), 401, 'bad_certificate');
      await new Promise((r) => setTimeout(r, 100));
      expect(fetched).toBe(0);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  });

  it('refuses tampered, stale, unsigned and foreign-key-signed messages', async () => {
    const good = sns();
    await refused('aws-sns', () => post(path(), JSON.stringify({ ...good, Message: '{"type":"dsar.received"}' })), 401, 'bad_signature');
    await refused(
      'aws-sns',
      () => post(path(), JSON.stringify(sns({ Timestamp: new Date(Date.now() - 600_000).toISOString() }))),
      401,
      'stale_timestamp',
    );
    const { Signature: _s, ...unsigned } = good;
    await refused('aws-sns', () => post(path(), JSON.stringify(unsigned)), 401, 'missing_signature');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await refused('aws-sns', () => post(path(), JSON.stringify(sns({}, stranger))), 401, 'bad_signature');
  });

  it("refuses a message signed by AWS for another customer's topic (cross-tenant injection), answering as for an unknown tenant", async () => {
    // AWS signs every customer's messages with the same certificates: the attacker subscribes the
    // victim's endpoint address to a topic of their own and re-posts what SNS signed for them.
    const victim = await createTenant(ts);
    const attackerTopic = 'arn:aws:sns:eu-west-1:999999999999:attacker-topic';
    const unknown = await post('/cloud/aws-sns/ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R', JSON.stringify(sns({ TopicArn: attackerTopic })));
    const before = await metric('aws-sns', 'unknown_source');
    // A tenant that registered no topic accepts none.
    await refused(
      'aws-sns',
      () => post(`/cloud/aws-sns/${victim.tenantId}`, JSON.stringify(sns({ TopicArn: attackerTopic }))),
      401,
      'unknown_source',
    );
    await refused('aws-sns', () => post(`/cloud/aws-sns/${victim.tenantId}`, JSON.stringify(sns())), 401, 'unknown_source');
    // One that registered its own topic accepts it, and still not the attacker's.
    expect((await victim.call('PUT', '/v1/webhook-inbound-sources/aws-sns', { body: { sources: [TOPIC] } })).status).toBe(200);
    const attack = await post(`/cloud/aws-sns/${victim.tenantId}`, JSON.stringify(sns({ TopicArn: attackerTopic })));
    expect(attack.status).toBe(401);
    expect(attack.body).toEqual({ ...unknown.body, correlation_id: attack.body.correlation_id });
    expect(await ts.server.db.prisma.inboundEvent.count({ where: { tenantId: victim.tenantId } })).toBe(0);
    expect(await ts.server.db.prisma.auditEvent.count({ where: { tenantId: victim.tenantId, action: 'inbound.received' } })).toBe(0);
    expect(await metric('aws-sns', 'unknown_source')).toBe(before + 3);
    expect((await post(`/cloud/aws-sns/${victim.tenantId}`, JSON.stringify(sns()))).status).toBe(200);
  });
});

describe('POST /cloud/azure-event-grid/{tenantId} (shared key and handshake)', () => {
  const path = () => `/cloud/azure-event-grid/${t.tenantId}`;
  const events = (eventTime = new Date().toISOString()) =>
    JSON.stringify([
      {
        id: randomUUID(),
        eventType: 'Svc.Incident',
        subject: '/incidents/1',
        eventTime,
        data: { type: 'incident.reported' },
        dataVersion: '1',
      },
    ]);

  it('answers the subscription validation handshake with the validation code', async () => {
    const body = JSON.stringify([
      {
        id: randomUUID(),
        eventType: 'Microsoft.EventGrid.SubscriptionValidationEvent',
        subject: '',
        eventTime: new Date().toISOString(),
        data: { validationCode: 'VALID-123' },
        dataVersion: '1',
      },
    ]);
    const res = await post(path(), body, {
      'aeg-sas-key': secrets['azure-event-grid'] as string,
      'aeg-event-type': 'SubscriptionValidation',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ validationResponse: 'VALID-123' });
    await refused('azure-event-grid', () => post(path(), body, { 'aeg-event-type': 'SubscriptionValidation' }), 401, 'missing_signature');
  });

  it('accepts events with the shared key; refuses a tampered key, a stale event and a request without key', async () => {
    const key = secrets['azure-event-grid'] as string;
    const res = await post(path(), events(), { 'aeg-sas-key': key });
    expect(res.status).toBe(200);
    expect(res.body.events[0].kind).toBe('incident.reported');
    await refused('azure-event-grid', () => post(path(), events(), { 'aeg-sas-key': `${key.slice(0, -1)}x` }), 401, 'bad_signature');
    await refused(
      'azure-event-grid',
      () => post(path(), events(new Date(Date.now() - 600_000).toISOString()), { 'aeg-sas-key': key }),
      401,
      'stale_timestamp',
    );
    await refused('azure-event-grid', () => post(path(), events()), 401, 'missing_signature');
  });
});

describe('POST /cloud/gcp-pubsub/{tenantId} (OIDC JWT against the configured JWKS)', () => {
  const path = (tenantId = t.tenantId) => `/cloud/gcp-pubsub/${tenantId}`;
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  function jwt(claims: Record<string, unknown> = {}, key = gcpKey, kid = 'gcp-test-1') {
    const head = b64({ alg: 'RS256', kid, typ: 'JWT' });
    const body = b64({
      iss: 'https://accounts.google.com',
      aud: GCP_AUDIENCE.replace('{tenantId}', t.tenantId),
      email: SERVICE_ACCOUNT,
      email_verified: true,
      iat: now(),
      exp: now() + 3600,
      ...claims,
    });
    return `${head}.${body}.${sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key).toString('base64url')}`;
  }
  const push = (type = 'dsar.received') =>
    JSON.stringify({
      message: {
        data: Buffer.from(JSON.stringify({ type, id: 'dsar_1' })).toString('base64'),
        messageId: randomUUID(),
        publishTime: new Date().toISOString(),
        attributes: { type },
      },
      subscription: 'projects/p/subscriptions/svc',
    });

  it('accepts a push with a valid token and classifies the message', async () => {
    const res = await post(path(), push(), { authorization: `Bearer ${jwt()}` });
    expect(res.status).toBe(200);
    expect(res.body.events[0]).toMatchObject({ kind: 'dsar.received' });
  });

  it('refuses a tampered token, an expired one, none, and wrong issuer, audience or key', async () => {
    const [h, , s] = jwt().split('.');
    const forged = `${h}.${b64({ iss: 'https://accounts.google.com', aud: GCP_AUDIENCE.replace('{tenantId}', t.tenantId), exp: now() + 7200 })}.${s}`;
    await refused('gcp-pubsub', () => post(path(), push(), { authorization: `Bearer ${forged}` }), 401, 'bad_signature');
    await refused(
      'gcp-pubsub',
      () => post(path(), push(), { authorization: `Bearer ${jwt({ exp: now() - 600, iat: now() - 4200 })}` }),
      401,
      'stale_timestamp',
    );
    await refused('gcp-pubsub', () => post(path(), push()), 401, 'missing_signature');
    await refused(
      'gcp-pubsub',
      () => post(path(), push(), { authorization: `Bearer ${jwt({ iss: 'https://evil.example' })}` }),
      401,
      'bad_token',
    );
    const other = await createTenant(ts);
    await refused('gcp-pubsub', () => post(path(other.tenantId), push(), { authorization: `Bearer ${jwt()}` }), 401, 'bad_token');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await refused('gcp-pubsub', () => post(path(), push(), { authorization: `Bearer ${jwt({}, stranger)}` }), 401, 'bad_signature');
    const none = `${b64({ alg: 'none', kid: 'gcp-test-1' })}.${b64({ aud: 'x' })}.`;
    await refused('gcp-pubsub', () => post(path(), push(), { authorization: `Bearer ${none}` }), 401, 'bad_token');
  });

  it("refuses a token Google minted for another customer's service account (cross-tenant injection)", async () => {
    // Google signs every customer's push tokens with the same keys and lets the pusher pick the
    // audience: the attacker's own push subscription can carry the victim's endpoint audience.
    const attacker = 'attacker@evil-project.iam.gserviceaccount.com';
    const unknown = await post(path('ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R'), push(), {
      authorization: `Bearer ${jwt({ email: attacker, aud: GCP_AUDIENCE.replace('{tenantId}', 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R') })}`,
    });
    const attack = await post(path(), push(), { authorization: `Bearer ${jwt({ email: attacker })}` });
    expect(attack.status).toBe(401);
    expect(attack.body).toEqual({ ...unknown.body, correlation_id: attack.body.correlation_id });
    await refused('gcp-pubsub', () => post(path(), push(), { authorization: `Bearer ${jwt({ email: attacker })}` }), 401, 'unknown_source');
    // The tenant's own account, but not verified by Google, or no account at all.
    await refused(
      'gcp-pubsub',
      () => post(path(), push(), { authorization: `Bearer ${jwt({ email_verified: false })}` }),
      401,
      'unknown_source',
    );
    await refused(
      'gcp-pubsub',
      () => post(path(), push(), { authorization: `Bearer ${jwt({ email: undefined })}` }),
      401,
      'unknown_source',
    );
    // Another tenant that registered nothing accepts nothing, whatever the account.
    const victim = await createTenant(ts);
    const aud = GCP_AUDIENCE.replace('{tenantId}', victim.tenantId);
    await refused(
      'gcp-pubsub',
      () => post(path(victim.tenantId), push(), { authorization: `Bearer ${jwt({ aud })}` }),
      401,
      'unknown_source',
    );
    expect(await ts.server.db.prisma.inboundEvent.count({ where: { tenantId: victim.tenantId } })).toBe(0);
  });
});

describe('POST /cloud/cloudflare-logpush/{tenantId} (HMAC over the gzip batch)', () => {
  const path = () => `/cloud/cloudflare-logpush/${t.tenantId}`;
  const batch = () =>
    gzipSync(
      [
        { ClientIP: '192.0.2.1', EdgeResponseStatus: 200, RayID: randomUUID() },
        { ClientIP: '192.0.2.2', EdgeResponseStatus: 403, RayID: randomUUID() },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
  const signed = (body: Buffer, at = now()) => ({
    'content-type': 'application/x-ndjson',
    'content-encoding': 'gzip',
    'x-logpush-signature': `t=${at},v1=${hmac(secrets['cloudflare-logpush'] as string, at, body)}`,
  });

  it('accepts a signed batch once', async () => {
    const body = batch();
    const res = await post(path(), body, signed(body));
    expect(res.status).toBe(200);
    expect(res.body.events[0]).toMatchObject({ kind: 'audit.log_batch_received', duplicate: false });
    expect((await post(path(), body, signed(body))).body.events[0].duplicate).toBe(true);
  });

  it('refuses tampered, stale and unsigned batches', async () => {
    const body = batch();
    const other = batch();
    await refused('cloudflare-logpush', () => post(path(), other, signed(body)), 401, 'bad_signature');
    await refused('cloudflare-logpush', () => post(path(), body, signed(body, now() - 400)), 401, 'stale_timestamp');
    await refused('cloudflare-logpush', () => post(path(), body, { 'content-encoding': 'gzip' }), 401, 'missing_signature');
  });
});

describe('the sources a tenant accepts (PUT /v1/webhook-inbound-sources/{provider})', () => {
  it('replaces the list, audited with before and after; a malformed entry changes nothing', async () => {
    const u = await createTenant(ts);
    const empty = await u.call('GET', '/v1/webhook-inbound-sources/gcp-pubsub');
    expect(empty.body).toEqual({ object: 'svc.webhooks.inbound_sources', provider: 'gcp-pubsub', sources: [], updatedAt: null });
    const set = await u.call('PUT', '/v1/webhook-inbound-sources/gcp-pubsub', { body: { sources: ['Push@P.iam.gserviceaccount.com'] } });
    expect(set.body).toMatchObject({ sources: ['push@p.iam.gserviceaccount.com'] });
    const bad = await u.call('PUT', '/v1/webhook-inbound-sources/gcp-pubsub', {
      body: { sources: ['x@y.iam.gserviceaccount.com', 'nope'] },
    });
    expect(expectEnvelope(bad, 422, 'validation_failed').details).toEqual([{ field: 'sources[1]', issue: 'not a service-account email' }]);
    const arn = await u.call('PUT', '/v1/webhook-inbound-sources/aws-sns', { body: { sources: ['arn:aws:s3:::bucket'] } });
    expectEnvelope(arn, 422, 'validation_failed');
    expect((await u.call('GET', '/v1/webhook-inbound-sources/gcp-pubsub')).body.sources).toEqual(['push@p.iam.gserviceaccount.com']);
    const audit = await ts.server.db.prisma.auditEvent.findMany({ where: { tenantId: u.tenantId, action: 'webhook_inbound_sources.set' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.data).toMatchObject({ provider: 'gcp-pubsub', before: [], after: ['push@p.iam.gserviceaccount.com'] });
    const reader = await u.key('viewer');
    expect((await u.call('PUT', '/v1/webhook-inbound-sources/aws-sns', { token: reader, body: { sources: [] } })).status).toBe(403);
  });
});

describe('the worker', () => {
  it('refuses an unknown provider with 400 and counts every refusal on /metrics', async () => {
    await refused('unknown', () => post(`/cloud/carrier-pigeon/${t.tenantId}`, '{}'), 400, 'unknown_provider');
    const text = await (await fetch(`${hook}/metrics`)).text();
    for (const provider of ['svc', 'stripe', 'aws-sns', 'azure-event-grid', 'gcp-pubsub', 'cloudflare-logpush']) {
      expect(text).toMatch(new RegExp(`svc_inbound_rejections_total\\{provider="${provider}",reason="[a-z_]+"\\} \\d+`));
    }
    expect(text).toMatch(/svc_inbound_accepted_total\{provider="svc"\} \d+/);
    expect(text).toMatch(/svc_inbound_duplicates_total\{provider="svc"\} \d+/);
  });

  it('outbound targets must be public https unless private targets are allowed', async () => {
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
    ]) {
      const res = await t.call('POST', '/v1/webhook-subscriptions', { body: { url, eventTypes: ['*'] } });
      expectEnvelope(res, 422, 'validation_failed');
    }
    expect(
      (await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/x', eventTypes: ['*'] } })).status,
    ).toBe(201);
  });
});
