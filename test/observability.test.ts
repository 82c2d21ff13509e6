import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushTracing, initTracing, shutdownTracing, tracingEnabled } from '../packages/server/src/observability/tracing.ts';
import { call, createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Prometheus metrics at GET /metrics and OpenTelemetry tracing. The metrics registry is one per
 * process, so the assertions compare a counter before and after the calls of the test.
 */
let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

async function scrape(url = ts.url, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample, 0 when absent; labels in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(m[3]);
      found = true;
    }
  }
  return found ? total : 0;
}

describe('GET /metrics', () => {
  it('is Prometheus text, without a token, with the default Node metrics', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE svc_http_requests_total counter');
    expect(text).toContain('# TYPE svc_http_request_duration_seconds histogram');
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts a request by its route pattern, method and status, and times it', async () => {
    const labels = { method: 'GET', route: '/v1/frameworks/:id', status: '200' };
    const before = sample(await scrape(), 'svc_http_requests_total', labels);
    const res = await t.call('GET', '/v1/frameworks/eu-ai-act');
    expect(res.status).toBe(200);
    await t.call('GET', '/v1/frameworks/gdpr');
    const text = await scrape();
    // Two ids, one series: the label is the pattern, never the raw URL.
    expect(sample(text, 'svc_http_requests_total', labels)).toBe(before + 2);
    expect(text).not.toContain('route="/v1/frameworks/eu-ai-act"');
    expect(sample(text, 'svc_http_request_duration_seconds_count', labels)).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'svc_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'svc_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
  });

  it('labels requests that matched no route `unmatched` (bounded cardinality)', async () => {
    const before = sample(await scrape(), 'svc_http_requests_total', { route: 'unmatched', status: '404' });
    await t.call('GET', `/v1/compliance/nothing-${Date.now()}`);
    await call(ts.url, 'GET', `/nowhere/${Math.random()}`);
    const text = await scrape();
    expect(sample(text, 'svc_http_requests_total', { route: 'unmatched', status: '404' })).toBe(before + 2);
    expect(text).not.toContain('/nowhere/');
  });

  it('counts 429 refusals', async () => {
    const slow = await createTenant(ts, { rateLimitPerSecond: 1 });
    const before = sample(await scrape(), 'svc_rate_limit_refusals_total', { limit: 'per_second', principal: 'tenant' });
    // The first call resolves the key (a database read); the bursts after it meet the limiter at once.
    await slow.call('GET', '/v1/health');
    let refused = 0;
    for (let burst = 0; burst < 5 && refused === 0; burst++) {
      const results = await Promise.all(Array.from({ length: 6 }, () => slow.call('GET', '/v1/frameworks')));
      refused += results.filter((r) => r.status === 429).length;
    }
    expect(refused).toBeGreaterThan(0);
    const text = await scrape();
    expect(sample(text, 'svc_rate_limit_refusals_total', { limit: 'per_second', principal: 'tenant' })).toBe(before + refused);
    expect(sample(text, 'svc_http_requests_total', { route: '/v1/frameworks', status: '429' })).toBeGreaterThanOrEqual(refused);
  });

  it('counts audit appends of successful mutating routes by action, not their idempotent replays', async () => {
    const action = { action: 'assessment.created' };
    const before = sample(await scrape(), 'svc_audit_appends_total', action);
    const body = { type: 'fria', systemId: 'sys_metrics', jurisdiction: 'eu/de' };
    const headers = { 'Idempotency-Key': `metrics-${Date.now()}` };
    expect((await t.call('POST', '/v1/compliance/assessments', { body, headers })).status).toBe(201);
    const replay = await t.call('POST', '/v1/compliance/assessments', { body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // A refused one appends nothing.
    expect((await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria' } })).status).toBe(422);
    expect(sample(await scrape(), 'svc_audit_appends_total', action)).toBe(before + 1);
  });

  it('reports the outbox depth and age, the dead-letter queue and the database pool', async () => {
    const text = await scrape();
    for (const name of ['svc_webhook_outbox_depth', 'svc_webhook_outbox_oldest_age_seconds', 'svc_webhook_dlq_size']) {
      expect(text).toMatch(new RegExp(`^${name} \\d+(\\.\\d+)?(e[-+]?\\d+)?$`, 'm'));
    }
    expect(text).toMatch(/^svc_db_pool_connections\{state="total"\} \d+$/m);
    if (!process.env.DATABASE_URL) expect(sample(text, 'svc_db_pool_connections', { state: 'max' })).toBe(1);
  });

  it('asks for the bearer token of SVC_METRICS_TOKEN when it is set', async () => {
    process.env.SVC_METRICS_TOKEN = 'metrics-secret-token';
    const guarded = await startTestServer();
    delete process.env.SVC_METRICS_TOKEN;
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect(await scrape(guarded.url, { authorization: 'Bearer metrics-secret-token' })).toContain('svc_http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});

describe('tracing', () => {
  let collector: Server;
  const received: { path: string; body: string }[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += String(d);
      });
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(async () => {
    await shutdownTracing();
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    await new Promise((r) => collector.close(r));
  });

  it('is off without an OTLP endpoint', async () => {
    expect(process.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(await initTracing({})).toEqual({ enabled: false });
    expect(tracingEnabled()).toBe(false);
  });

  it('exports a span per request to the OTLP endpoint, named after the route', async () => {
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    expect(await initTracing()).toEqual({ enabled: true, endpoint: `${endpoint}/v1/traces` });
    expect(tracingEnabled()).toBe(true);
    expect((await t.call('GET', '/v1/frameworks/eu-ai-act')).status).toBe(200);
    await flushTracing();
    const deadline = Date.now() + 15_000;
    while (!received.some((r) => r.body.includes('/v1/frameworks/:id')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      await flushTracing();
    }
    const traces = received.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces.some((r) => r.body.includes('GET /v1/frameworks/:id'))).toBe(true);
  });
});
