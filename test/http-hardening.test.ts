import { connect } from 'node:net';
import { loadConfig } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Hardened HTTP on every port: security headers, no X-Powered-By, CORS off unless origins are
 * configured, and limits that a slow or oversized client meets (slowloris), answered in the
 * error envelope when there is still someone to answer.
 */
let plain: TestServer;
let strict: TestServer;
let t: TenantFixture;

beforeAll(async () => {
  [plain, strict] = await Promise.all([
    startTestServer({ SVC_ROLE: 'webhooks', WEBHOOK_PORT: '0' }),
    startTestServer({
      SVC_HSTS: 'true',
      SVC_CORS_ORIGINS: 'https://app.example.com, https://admin.example.com',
      SVC_HEADERS_TIMEOUT_SECONDS: '1',
      SVC_REQUEST_TIMEOUT_SECONDS: '2',
      SVC_MAX_HEADER_BYTES: '4096',
    }),
  ]);
  t = await createTenant(plain);
});
afterAll(async () => {
  await Promise.all([plain?.close(), strict?.close()]);
});

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
};

function expectHardened(headers: Headers) {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect([k, headers.get(k)]).toEqual([k, v]);
  expect(headers.get('x-powered-by')).toBeNull();
}

/** Writes `chunks` to a raw connection one after the other, `gapMs` apart; resolves with what came back and when. */
function trickle(url: string, chunks: string[], gapMs: number): Promise<{ text: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let text = '';
    let i = 0;
    const timer = setInterval(() => {
      const chunk = chunks[i++];
      if (chunk === undefined || socket.destroyed) return clearInterval(timer);
      socket.write(chunk);
    }, gapMs);
    socket.on('data', (d) => {
      text += String(d);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    setTimeout(() => reject(new Error(`connection still open after 20 s; received: ${text}`)), 20_000).unref();
  });
}

function envelopeOf(raw: string): Record<string, unknown> {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return JSON.parse(body);
}

describe('security headers', () => {
  it('are on every answer of the API, successes and errors alike, without HSTS unless TLS terminates in front', async () => {
    for (const res of [
      await t.call('GET', '/v1/compliance/frameworks'),
      await call(plain.url, 'GET', '/v1/health'),
      await call(plain.url, 'GET', '/v1/compliance/frameworks'),
      await t.call('GET', '/v1/nowhere'),
    ]) {
      expectHardened(res.headers);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('are on the webhook worker port too', async () => {
    const worker = plain.server.webhooks.webhookUrl as string;
    for (const path of ['/health', '/inbound/ten_nobody']) {
      const res = await fetch(`${worker}${path}`, {
        method: path === '/health' ? 'GET' : 'POST',
        body: path === '/health' ? undefined : '{}',
      });
      expectHardened(res.headers);
    }
  });

  it('HSTS is sent when configured', async () => {
    const res = await call(strict.url, 'GET', '/v1/health');
    expectHardened(res.headers);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});

describe("the service's own routes beside the contract's", () => {
  it('match as an Express route does: any case, one trailing slash, GET and HEAD; other methods and forms are 404', async () => {
    for (const path of ['/metrics', '/METRICS/', '/v1/openapi.json', '/v1/OpenAPI.json/']) {
      const res = await call(plain.url, 'GET', path);
      expect([path, res.status]).toEqual([path, 200]);
      expectHardened(res.headers);
    }
    expect((await fetch(`${plain.url}/v1/openapi.json`, { method: 'HEAD' })).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/metrics//'],
      ['GET', '/metricsx'],
      ['POST', '/metrics'],
      ['OPTIONS', '/v1/openapi.json'],
    ] as const) {
      expectEnvelope(await t.call(method, path), 404, 'not_found');
    }
  });
});

describe('CORS', () => {
  const preflight = (url: string, origin: string) =>
    fetch(`${url}/v1/compliance/assessments`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key',
      },
    });

  it('is off by default: no origin is allowed, preflight or not', async () => {
    const pre = await preflight(plain.url, 'https://app.example.com');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const res = await t.call('GET', '/v1/compliance/frameworks', { headers: { origin: 'https://app.example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows exactly the configured origins: preflight answered before authentication, headers exposed', async () => {
    const pre = await preflight(strict.url, 'https://app.example.com');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect(pre.headers.get('vary')?.toLowerCase()).toContain('origin');

    const other = await preflight(strict.url, 'https://evil.example.net');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    const owner = await createTenant(strict);
    const res = await owner.call('GET', '/v1/compliance/frameworks', { headers: { origin: 'https://admin.example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-ratelimit-remaining');
  });

  it('refuses a wildcard or a malformed origin list at start', () => {
    expect(() => loadConfig({ SVC_CORS_ORIGINS: '*' })).toThrow(/SVC_CORS_ORIGINS/);
    expect(() => loadConfig({ SVC_CORS_ORIGINS: 'https://a.example.com/path' })).toThrow(/SVC_CORS_ORIGINS/);
    expect(() => loadConfig({ SVC_HEADERS_TIMEOUT_SECONDS: '60', SVC_REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(
      /SVC_HEADERS_TIMEOUT_SECONDS/,
    );
  });
});

describe('slow and oversized clients', () => {
  it('headers trickled in one at a time are cut off at the headers timeout, in the envelope', async () => {
    const headers = ['GET /v1/health HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
    const { text, closedAfterMs } = await trickle(strict.url, headers, 200);
    // 1 s headers timeout, checked each second: closed well before the 8 s the trickle would take.
    expect(closedAfterMs).toBeLessThan(6_000);
    if (text) {
      expect(text.startsWith('HTTP/1.1 400')).toBe(true);
      expect(envelopeOf(text)).toMatchObject({ error: 'bad_request', details: [{ field: 'request', issue: 'timeout' }] });
    }
  });

  it('a body trickled in after the headers is cut off at the request timeout', async () => {
    const head = 'POST /v1/compliance/assessments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n';
    const { closedAfterMs } = await trickle(strict.url, [head, ...Array.from({ length: 40 }, () => '          ')], 250);
    expect(closedAfterMs).toBeLessThan(8_000);
  });

  it('headers past the configured size are a 400 naming them, in the envelope', async () => {
    const res = await call(strict.url, 'GET', '/v1/health', { headers: { 'x-padding': 'p'.repeat(8_000) } });
    expect(expectEnvelopeLoose(res.status, res.body)).toMatchObject({ details: [{ field: 'headers', issue: 'too_big' }] });
  });

  it('an answered request still carries the usual envelope for errors', async () => {
    expectEnvelope(await call(strict.url, 'GET', '/v1/compliance/frameworks'), 401, 'unauthorized');
  });
});

function expectEnvelopeLoose(status: number, body: Record<string, unknown>) {
  expect(status).toBe(400);
  expect(body).toMatchObject({ error: 'bad_request' });
  expect(typeof body.correlation_id).toBe('string');
  return body;
}
