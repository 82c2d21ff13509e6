import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Probing the webhook worker for tenants and their configuration without any secret: every refusal
 * of a request that has not authenticated is one answer (status, code, message, details), whether
 * the tenant is unknown, has not configured the provider, or has and the signature is wrong. The
 * reasons stay apart on /metrics for the operator.
 */

let ts: TestServer;
let hook: string;
let configured: TenantFixture;
let bare: TenantFixture;
const UNKNOWN = 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R';

beforeAll(async () => {
  ts = await startTestServer({ SVC_ROLE: 'webhooks', WEBHOOK_PORT: '0', SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  hook = ts.server.webhooks.webhookUrl as string;
  configured = await createTenant(ts);
  bare = await createTenant(ts);
  for (const provider of ['svc', 'azure-event-grid', 'cloudflare-logpush']) {
    expect((await configured.call('POST', `/v1/webhook-inbound-secrets/${provider}`)).status).toBe(201);
  }
});
afterAll(() => ts?.close());

/** Status and body without the correlation id (which differs per request by design). */
async function probe(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(hook + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const { correlation_id, ...rest } = (await res.json()) as Record<string, unknown>;
  expect(correlation_id).toEqual(expect.any(String));
  return { status: res.status, body: rest };
}

async function metric(provider: string, reason: string): Promise<number> {
  const text = await (await fetch(`${hook}/metrics`)).text();
  const m = new RegExp(`svc_inbound_rejections_total\\{provider="${provider}",reason="${reason}"\\} (\\d+)`).exec(text);
  return m ? Number(m[1]) : 0;
}

const at = () => Math.floor(Date.now() / 1000);
const forged = (body: string) => {
  const t = at();
  return `t=${t},v1=${createHmac('sha256', 'whsec_guess').update(`${t}.`).update(body).digest('hex')}`;
};

describe('inbound refusals do not tell tenants or their providers apart', () => {
  it('svc: an unknown tenant, a tenant without the provider and a wrong signature get the same answer', async () => {
    const body = JSON.stringify({ id: 'ext_probe', type: 'incident.reported' });
    const before = {
      unknown: await metric('svc', 'unknown_tenant'),
      notConfigured: await metric('svc', 'not_configured'),
      bad: await metric('svc', 'bad_signature'),
    };
    const answers = [
      await probe(`/inbound/${UNKNOWN}`, body, { 'svc-signature': forged(body) }),
      await probe(`/inbound/${bare.tenantId}`, body, { 'svc-signature': forged(body) }),
      await probe(`/inbound/${configured.tenantId}`, body, { 'svc-signature': forged(body) }),
      // Unsigned and malformed headers too: they used to be told only to a configured tenant.
      await probe(`/inbound/${UNKNOWN}`, body),
      await probe(`/inbound/${bare.tenantId}`, body),
      await probe(`/inbound/${configured.tenantId}`, body),
      await probe(`/inbound/${configured.tenantId}`, body, { 'svc-signature': 'v1=abc' }),
      await probe('/inbound/not-a-tenant', body, { 'svc-signature': forged(body) }),
    ];
    for (const a of answers) {
      expect(a).toEqual({
        status: 401,
        body: {
          error: 'unauthorized',
          message: 'The message is not accepted for this tenant.',
          details: [{ field: 'request', issue: 'not_accepted' }],
          documentation_url: expect.any(String),
        },
      });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    // The operator still sees why.
    expect(await metric('svc', 'unknown_tenant')).toBeGreaterThanOrEqual(before.unknown + 2);
    expect(await metric('svc', 'not_configured')).toBeGreaterThanOrEqual(before.notConfigured + 1);
    expect(await metric('svc', 'bad_signature')).toBe(before.bad + 1);
  });

  it('cloud providers: a configured tenant, an unconfigured one and an unknown one answer alike', async () => {
    for (const provider of ['azure-event-grid', 'cloudflare-logpush', 'aws-sns', 'gcp-pubsub']) {
      const body =
        provider === 'cloudflare-logpush'
          ? '{"RayID":"x"}\n'
          : JSON.stringify([{ id: 'e1', eventType: 'x', eventTime: new Date().toISOString() }]);
      const headers: Record<string, string> = {
        'aeg-sas-key': 'guess',
        'x-logpush-signature': forged(body),
        authorization: 'Bearer a.b.c',
      };
      const answers = [];
      for (const tenant of [configured.tenantId, bare.tenantId, UNKNOWN]) {
        answers.push(await probe(`/cloud/${provider}/${tenant}`, body, headers));
        answers.push(await probe(`/cloud/${provider}/${tenant}`, body));
      }
      expect(answers[0]?.status, provider).toBe(401);
      expect(new Set(answers.map((a) => JSON.stringify(a))).size, `${provider}: ${JSON.stringify(answers)}`).toBe(1);
    }
  });

  it('SNS: a body that is not a signed message says nothing about the tenant either', async () => {
    const answers = [];
    for (const tenant of [configured.tenantId, bare.tenantId, UNKNOWN]) {
      for (const body of ['{nope', '[]', '{"Type":"Notification"}']) answers.push(await probe(`/cloud/aws-sns/${tenant}`, body));
    }
    expect(answers[0]?.status).toBe(401);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size, JSON.stringify(answers)).toBe(1);
  });
});
