import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, type Logger, type LogLevel, REDACTED } from '../packages/server/src/logger.ts';
import { type CallOptions, type CallResult, call } from './support/api.ts';
import { seedEmbeddedDataDir } from './support/server.ts';
import { svcServe } from './support/svc-process.ts';

/**
 * Secrets never reach the logs. `svc serve` runs as a child process with every part in it (API,
 * dispatcher, inbound worker) at debug level; the main flows run over HTTP while every secret that
 * crosses the wire or is configured is collected; after the server stopped, no JSON log line may
 * hold any of them, whole or in part. The first-start owner key and operator credential are
 * announced once on stderr by design: that block is the only place they may appear.
 */
const ROOT = join(import.meta.dirname, '..');

/** A substring of a secret this long is as good as the secret to whoever finds it in a log. */
const WINDOW = 16;

interface Secret {
  label: string;
  /** Printed once in the first-start announcement, on purpose. */
  announced: boolean;
  /** The 16-character windows of the secret's distinctive part. */
  needles: string[];
}

const secrets: Secret[] = [];

/**
 * Tracks a secret by every encoding of it that could be written. Windows that also occur in
 * `common` (the same encoding of an unrelated secret of the same kind: a PEM's armour and ASN.1
 * prefix) are structure, not secret, and are left out.
 */
function track(label: string, encodings: string[], opts: { announced?: boolean; common?: string[] } = {}): void {
  const needles = new Set<string>();
  for (const e of encodings) {
    if (e.length <= WINDOW) {
      needles.add(e);
      continue;
    }
    for (let i = 0; i + WINDOW <= e.length; i++) {
      const w = e.slice(i, i + WINDOW);
      if (!(opts.common ?? []).some((c) => c.includes(w))) needles.add(w);
    }
  }
  expect(needles.size, label).toBeGreaterThan(0);
  secrets.push({ label, announced: opts.announced ?? false, needles: [...needles] });
}

const TOKEN = /^svc_(live|test|dev|op)_[0-9A-Za-z]{32}$/;

function trackToken(label: string, token: unknown, announced = false): string {
  expect(token, label).toMatch(TOKEN);
  track(`${label} (${String(token).slice(0, 9)}…)`, [String(token)], { announced });
  return String(token);
}

function trackWebhookSecret(label: string, secret: unknown): string {
  expect(secret, label).toMatch(/^(whsec_)?[A-Za-z0-9_-]{43}$/);
  track(label, [String(secret)]);
  return String(secret);
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]`: the HMACs let anyone replay the signed request while it is fresh. */
function trackSignatures(label: string, header: unknown): void {
  const hmacs = [...String(header).matchAll(/v1=([0-9a-f]{64})/g)].map((m) => m[1] as string);
  expect(hmacs.length, `${label}: ${String(header)}`).toBeGreaterThan(0);
  track(label, hmacs);
}

/** The text of a line with every occurrence of the secret replaced by its label, cut around the first. */
function masked(text: string, s: Secret): string {
  const hit = new Array<boolean>(text.length).fill(false);
  for (const n of s.needles) {
    for (let at = text.indexOf(n); at !== -1; at = text.indexOf(n, at + 1)) hit.fill(true, at, at + n.length);
  }
  let out = '';
  let first = -1;
  for (let i = 0; i < text.length; i++) {
    if (!hit[i]) out += text[i];
    else if (i === 0 || !hit[i - 1]) {
      if (first === -1) first = out.length;
      out += `«${s.label}»`;
    }
  }
  const from = Math.max(0, first - 200);
  return `${from > 0 ? '…' : ''}${out.slice(from, from + 500)}${out.length > from + 500 ? '…' : ''}`;
}

interface Line {
  stream: 'stdout' | 'stderr';
  n: number;
  text: string;
  json: unknown;
}

function linesOf(stream: Line['stream'], text: string): Line[] {
  return text
    .split('\n')
    .map((t, i) => {
      let json: unknown;
      try {
        json = t.trimStart().startsWith('{') ? JSON.parse(t) : undefined;
      } catch {}
      return { stream, n: i + 1, text: t, json };
    })
    .filter((l) => l.text.length > 0);
}

function leaks(lines: readonly Line[], which: readonly Secret[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    for (const s of which) {
      if (s.needles.some((n) => line.text.includes(n)))
        out.push(`${s.label} leaked in ${line.stream} line ${line.n}: ${masked(line.text, s)}`);
    }
  }
  return out;
}

/** Authorization headers by name at any depth, and bearer values anywhere, of one parsed line. */
function authorizationValues(value: unknown, path = '$'): string[] {
  if (typeof value === 'string') return /\bBearer\s+(?!\[REDACTED\])\S/i.test(value) ? [`${path}: a bearer value`] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => authorizationValues(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(/^(proxy-)?authorization$/i.test(k) && v !== REDACTED ? [`${path}.${k}: an authorization header`] : []),
    ...authorizationValues(v, `${path}.${k}`),
  ]);
}

describe('log redaction (createLogger)', () => {
  function capture(fn: (log: Logger) => void, level: LogLevel = 'debug'): { raw: string; line: Record<string, any> }[] {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write);
    try {
      fn(createLogger(level, { service: 'svc-test' }));
    } finally {
      spy.mockRestore();
    }
    return written.map((raw) => {
      expect(raw.endsWith('\n')).toBe(true);
      expect(raw.indexOf('\n')).toBe(raw.length - 1);
      return { raw, line: JSON.parse(raw) };
    });
  }

  const apiKey = `svc_live_${'Ab3'.repeat(11).slice(0, 32)}`;
  const opToken = `svc_op_${'Zz9'.repeat(11).slice(0, 32)}`;
  const whsec = `whsec_${randomBytes(32).toString('base64url')}`;
  const hmac = 'f'.repeat(8) + randomBytes(28).toString('hex');
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

  it('withholds fields named like credentials at any depth; identifiers, counts and flags stay', () => {
    const [out] = capture((log) =>
      log.info('webhook', {
        headers: { Authorization: 'opaque', 'X-Api-Key': 'opaque', cookie: 'sid=1', 'user-agent': 'svc-test' },
        nested: [{ apiKey: 'opaque', key_id: 'sk_5f2c7a9e1b3d4c6e8f0a2b4c', keyId: 'key_01', secret: { current: 'a', previous: 'b' } }],
        subscription: { signingSecret: 'opaque', secretPrefix: 'whsec_abcd', password: 'hunter2', privateKey: 'opaque', signature: 'abc' },
        token_count: 3,
        signature_valid: false,
        idempotency_key: null,
      }),
    );
    expect(out?.line).toMatchObject({
      level: 'info',
      msg: 'webhook',
      service: 'svc-test',
      headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, cookie: REDACTED, 'user-agent': 'svc-test' },
      nested: [{ apiKey: REDACTED, key_id: 'sk_5f2c7a9e1b3d4c6e8f0a2b4c', keyId: 'key_01', secret: REDACTED }],
      subscription: { signingSecret: REDACTED, secretPrefix: REDACTED, password: REDACTED, privateKey: REDACTED, signature: REDACTED },
      token_count: 3,
      signature_valid: false,
      idempotency_key: null,
    });
    expect(out?.raw).not.toMatch(/opaque|hunter2|sid=1/);
  });

  it('recognises credentials by their shape anywhere: message, path, error text, stack, field names', () => {
    const [out] = capture((log) =>
      log.error(`refused ${opToken}`, {
        path: `/v1/webhook-subscriptions/${apiKey}`,
        error: `request failed: authorization: Bearer ${apiKey}; secret ${whsec}`,
        stack: `Error: bad key\n${pem}    at x (y.ts:1:1)`,
        header: `t=1700000000,v1=${hmac}`,
        basic: 'Basic dXNlcjpwYXNz',
        [apiKey]: 'a token used as a name',
        list: [`svc_test_${'q'.repeat(40)}`, { deeper: { text: `whsec ${whsec}` } }],
      }),
    );
    const raw = out?.raw ?? '';
    for (const leaked of [apiKey.slice(9), opToken.slice(7), whsec.slice(6), hmac, 'q'.repeat(40), 'dXNlcjpwYXNz']) {
      expect(raw).not.toContain(leaked);
    }
    expect(raw).not.toContain(pem.split('\n')[1]);
    expect(out?.line.msg).toBe(`refused svc_op_${REDACTED}`);
    expect(out?.line.path).toBe(`/v1/webhook-subscriptions/svc_live_${REDACTED}`);
    expect(out?.line.error).toBe(`request failed: authorization: Bearer ${REDACTED}; secret whsec_${REDACTED}`);
    expect(out?.line.stack).toBe(`Error: bad key\n${REDACTED} PRIVATE KEY\n    at x (y.ts:1:1)`);
    expect(out?.line.header).toBe(`t=1700000000,v1=${REDACTED}`);
    expect(out?.line[`svc_live_${REDACTED}`]).toBe('a token used as a name');
    expect(out?.line.list).toEqual([`svc_test_${REDACTED}`, { deeper: { text: `whsec whsec_${REDACTED}` } }]);
  });

  it('leaves an ordinary line exactly as it was, field order included', () => {
    const fields = {
      correlation_id: 'cor_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      method: 'POST',
      path: '/v1/operator/keys/key_01JD3Z8W2M6Q4X9V7K5T1B0N3R/revoke',
      status: 401,
      duration_ms: 1.5,
      tenant_id: undefined,
      actor: 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      note: 'The API key was revoked; the token is refused',
      key_id: 'sk_5f2c7a9e1b3d4c6e8f0a2b4c',
    };
    const [out] = capture((log) => log.info('request', fields));
    expect(Object.keys(out?.line ?? {})).toEqual([
      'time',
      'level',
      'msg',
      'service',
      ...Object.keys(fields).filter((k) => k !== 'tenant_id'),
    ]);
    expect(out?.raw).toBe(`${JSON.stringify({ time: out?.line.time, level: 'info', msg: 'request', service: 'svc-test', ...fields })}\n`);
  });

  it('writes nothing below its level, and nothing at all when silent', () => {
    expect(capture((log) => log.debug('x', { token: 'a' }), 'info')).toEqual([]);
    expect(capture((log) => log.error('x', { token: 'a' }), 'silent')).toEqual([]);
    expect(capture((log) => log.warn('x', { token: 'a' }), 'warn')[0]?.line.token).toBe(REDACTED);
  });
});

// ---------------------------------------------------------------------------------------------
// End to end

/**
 * On PostgreSQL the server gets a database of its own: a first start needs an empty one, and its
 * dispatcher must not send the deliveries of other test files' servers.
 */
const DB = `svc_test_log_secrets_${process.pid}`;
let ownDatabaseUrl: string | undefined;

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records every delivery and answers with `status`. */
async function startReceiver(status: number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until<T>(what: string, fn: () => T | Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const hmacHex = (secret: string, at: number, body: string) => createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');

/** Every encoding of an Ed25519 private key that could end up in a log. */
function privateKeyEncodings(key: KeyObject): { env: string; encodings: string[] } {
  const pem = key.export({ format: 'pem', type: 'pkcs8' }).toString();
  const der = key.export({ format: 'der', type: 'pkcs8' });
  const seed = Buffer.from(String(key.export({ format: 'jwk' }).d), 'base64url');
  const env = Buffer.from(pem).toString('base64');
  return {
    env,
    encodings: [
      env,
      pem,
      der.toString('base64'),
      der.toString('hex'),
      seed.toString('base64'),
      seed.toString('base64url'),
      seed.toString('hex'),
    ],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'svc-log-secrets-'));
const credentialsFile = join(dir, 'credentials.json');
const signingKey = generateKeyPairSync('ed25519').privateKey;
const signing = privateKeyEncodings(signingKey);
const secretsKey = randomBytes(32);
const stripeSecret = `whsec_${randomBytes(32).toString('base64url')}`;

let child: ChildProcess | undefined;
let stdout = '';
let stderr = '';
let lines: Line[] = [];
let exitCode: number | null = null;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];

async function startServe(env: NodeJS.ProcessEnv): Promise<{ apiUrl: string; workerUrl: string }> {
  // The service in the child itself (no wrapper process between a SIGTERM and the service).
  const proc = spawn(...svcServe([]), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  proc.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  await until(
    `serve to start (stderr: ${stderr.slice(-2000)})`,
    () => {
      if (proc.exitCode !== null) throw new Error(`serve exited with ${proc.exitCode}: ${stderr}`);
      return /^credentials file: /m.test(stderr) && stdout.includes('"msg":"webhook worker listening"');
    },
    (ready) => ready,
    120_000,
  );
  const apiUrl = /^svc listening on (http:\/\/\S+)/m.exec(stderr)?.[1];
  const worker = linesOf('stdout', stdout).find((l) => (l.json as { msg?: string } | undefined)?.msg === 'webhook worker listening');
  const workerUrl = (worker?.json as { url?: string } | undefined)?.url;
  if (!apiUrl || !workerUrl) throw new Error(`no URLs in the output:\n${stderr}\n${stdout}`);
  return { apiUrl, workerUrl };
}

async function stopServe(): Promise<void> {
  const proc = child;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  await exited;
  exitCode = proc.exitCode;
}

/** Runs the main flows, collecting every secret on the way. */
async function flows(api: string, worker: string): Promise<void> {
  const as =
    (token: string) =>
    (method: string, path: string, opts: CallOptions = {}): Promise<CallResult> =>
      call(api, method, path, { token, ...opts });

  // First start: the secrets of the announcement, as the credentials file holds them.
  expect(existsSync(credentialsFile)).toBe(true);
  const creds = JSON.parse(readFileSync(credentialsFile, 'utf8'));
  const sandboxKey = trackToken('first-start owner API key', creds.apiKey, true);
  const operatorToken = trackToken('first-start operator credential', creds.operatorToken, true);
  const operator = as(operatorToken);
  const sandbox = as(sandboxKey);
  expect((await sandbox('GET', '/v1/frameworks')).status).toBe(200);

  // Operator API: a tenant with its owner key, further keys, one revoked.
  const created = await operator('POST', '/v1/operator/tenants', {
    body: { name: 'Acme Bank', tier: 'enterprise', env: 'live', rateLimitPerSecond: 100_000 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const tenantId: string = created.body.tenant.id;
  const owner = as(trackToken('owner key of the created tenant', created.body.apiKey.token));
  expect((await operator('GET', '/v1/operator/tenants')).status).toBe(200);
  const editorKey = await operator('POST', '/v1/operator/keys', { body: { tenantId, role: 'editor', name: 'editor' } });
  expect(editorKey.status).toBe(201);
  const editor = as(trackToken('editor key', editorKey.body.token));
  const viewerKey = await operator('POST', '/v1/operator/keys', { body: { tenantId, role: 'viewer', scopes: ['compliance:read'] } });
  expect(viewerKey.status).toBe(201);
  expect((await as(trackToken('viewer key', viewerKey.body.token))('GET', '/v1/compliance/assessments')).status).toBe(200);
  expect((await operator('GET', `/v1/operator/keys?tenantId=${tenantId}`)).status).toBe(200);
  const written = await editor('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 's1', jurisdiction: 'eu/fr' } });
  expect(written.status).toBe(201);
  expect((await operator('POST', `/v1/operator/keys/${editorKey.body.id}/revoke`)).status).toBe(200);
  const revoked = await editor('GET', '/v1/compliance/assessments');
  expect(revoked.status).toBe(401);
  expect(revoked.body.message).toMatch(/revoked/);
  // A tenant key on an operator route, and an operator credential on a tenant route.
  expect((await owner('GET', '/v1/operator/tenants')).status).toBe(403);
  expect((await operator('GET', '/v1/compliance/assessments')).status).toBe(403);

  // Wrong credentials: well-formed but unknown, malformed, and in the wrong scheme.
  const wrong = trackToken('wrong token', `svc_test_${randomBytes(48).toString('base64url').replace(/[-_]/g, '').slice(0, 32)}`);
  expect((await as(wrong)('GET', '/v1/compliance/assessments')).status).toBe(401);
  const garbage = `not-a-token-${randomBytes(16).toString('hex')}`;
  track('malformed bearer value', [garbage]);
  expect((await as(garbage)('GET', '/v1/compliance/assessments')).status).toBe(401);
  const basic = Buffer.from(`acme:${randomBytes(16).toString('hex')}`).toString('base64');
  track('basic credentials', [basic]);
  expect((await call(api, 'GET', '/v1/compliance/assessments', { headers: { authorization: `Basic ${basic}` } })).status).toBe(401);

  // A key pasted where it does not belong: in the path, the query and the correlation id.
  const pasted = await owner('GET', `/v1/webhook-subscriptions/${sandboxKey}`);
  expect(pasted.status).toBeGreaterThanOrEqual(400);
  expect((await owner('GET', `/v1/compliance/assessments?api_key=${sandboxKey}`)).status).toBeLessThan(500);
  expect((await owner('GET', '/v1/frameworks', { headers: { 'x-correlation-id': operatorToken } })).status).toBe(200);

  // Outbound webhooks: one receiver that takes deliveries, one that refuses them until dead-lettered.
  const ok = await startReceiver(200);
  const failing = await startReceiver(500);
  receivers.push(ok, failing);
  const sub = await owner('POST', '/v1/webhook-subscriptions', { body: { url: ok.url, eventTypes: ['assessment.*'] } });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  trackWebhookSecret('webhook subscription secret', sub.body.secret);
  const dead = await owner('POST', '/v1/webhook-subscriptions', { body: { url: failing.url, eventTypes: ['assessment.created'] } });
  expect(dead.status).toBe(201);
  trackWebhookSecret('webhook subscription secret (failing receiver)', dead.body.secret);
  expect((await owner('GET', `/v1/webhook-subscriptions/${sub.body.id}`)).status).toBe(200);

  const body = { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' };
  expect((await owner('POST', '/v1/compliance/assessments', { body })).status).toBe(201);
  await until(
    'a first delivery',
    () => ok.received.length,
    (n) => n >= 1,
  );
  const rotated = await owner('POST', `/v1/webhook-subscriptions/${sub.body.id}/rotate-secret`, { body: { overlapSeconds: 600 } });
  expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
  trackWebhookSecret('rotated webhook subscription secret', rotated.body.secret);
  expect((await owner('POST', '/v1/compliance/assessments', { body })).status).toBe(201);
  await until(
    'a delivery signed with both secrets',
    () => ok.received.filter((r) => String(r.headers['x-svc-signature']).split('v1=').length === 3).length,
    (n) => n >= 1,
  );
  await until(
    'the failing receiver to be dead-lettered',
    async () => (await owner('GET', '/v1/webhook-deliveries?status=dead_lettered')).body.data?.length ?? 0,
    (n) => n >= 1,
    90_000,
  );
  expect(failing.received.length).toBeGreaterThanOrEqual(5);
  expect((await owner('GET', '/v1/webhook-deliveries')).status).toBe(200);

  // Inbound: a secret for the svc scheme, a signed request, a tampered one; Stripe with the configured secret.
  const inbound = await owner('POST', '/v1/webhook-inbound-secrets/svc');
  expect(inbound.status).toBe(201);
  const inboundSecret = trackWebhookSecret('inbound secret (svc)', inbound.body.secret);
  const azure = await owner('POST', '/v1/webhook-inbound-secrets/azure-event-grid');
  expect(azure.status).toBe(201);
  trackWebhookSecret('inbound secret (azure-event-grid)', azure.body.secret);
  const event = JSON.stringify({ id: `ext_${randomUUID()}`, type: 'incident.reported', data: { id: 'inc_1', severity: 'high' } });
  const at = Math.floor(Date.now() / 1000);
  const signed = `t=${at},v1=${hmacHex(inboundSecret, at, event)}`;
  trackSignatures('svc-signature of the inbound request', signed);
  const post = (path: string, raw: string, headers: Record<string, string>) =>
    fetch(worker + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
  expect((await post(`/inbound/${tenantId}`, event, { 'svc-signature': signed })).status).toBe(200);
  expect((await post(`/inbound/${tenantId}`, event.replace('high', 'low'), { 'svc-signature': signed })).status).toBe(401);
  const stripeEvent = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    type: 'invoice.paid',
    data: { object: { id: 'in_1', metadata: { tenant_id: tenantId } } },
  });
  const stripeSigned = `t=${at},v1=${hmacHex(stripeSecret, at, stripeEvent)}`;
  trackSignatures('stripe-signature of the inbound request', stripeSigned);
  expect((await post('/stripe', stripeEvent, { 'stripe-signature': stripeSigned })).status).toBe(200);
  expect((await post('/stripe', `${stripeEvent} `, { 'stripe-signature': stripeSigned })).status).toBe(401);

  // An idempotent replay, and validation errors (one carrying a secret in a field the schema refuses).
  const idem = { 'idempotency-key': `idem-${randomUUID()}` };
  const first = await owner('POST', '/v1/compliance/assessments', { body, headers: idem });
  const replay = await owner('POST', '/v1/compliance/assessments', { body, headers: idem });
  expect(first.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.id).toBe(first.body.id);
  expect((await owner('POST', '/v1/compliance/assessments', { body: { type: 'fria' } })).status).toBe(422);
  expect((await owner('POST', '/v1/compliance/assessments', { body: { ...body, apiKey: sandboxKey } })).status).toBe(422);
  expect((await owner('POST', '/v1/compliance/assessments', { body: `{"secret":"${inboundSecret}"` })).status).toBe(400);

  // The audit trail: events are signed with the configured key, which the export never reveals.
  const exported = await owner('POST', '/v1/audit-trail/export', { body: {} });
  expect(exported.status, JSON.stringify(exported.body)).toBe(200);
  expect(exported.body.events.length).toBeGreaterThan(0);
  for (const e of exported.body.events) expect(e.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
  const spki = createPublicKey(signingKey).export({ format: 'der', type: 'spki' }).toString('base64');
  expect(exported.body.publicKeys.map((k: { publicKey: string }) => k.publicKey)).toContain(spki);
  const keys = await owner('GET', '/v1/audit-trail/keys');
  expect(keys.status).toBe(200);
  expect((await owner('POST', '/v1/audit-trail/replay', { body: {} })).body.valid).toBe(true);
  expect((await operator('POST', '/v1/operator/signing-keys/rotate')).status).toBe(409);
  const signingSecret = secrets.find((s) => s.label === 'audit signing key (Ed25519 private)');
  for (const res of [exported, keys]) {
    const text = JSON.stringify(res.body);
    expect(
      signingSecret?.needles.filter((n) => text.includes(n)),
      'the audit API must publish the public half only',
    ).toEqual([]);
  }
}

let announcement: string[] = [];

describe('svc serve: no secret in any log line', () => {
  beforeAll(async () => {
    const common = privateKeyEncodings(generateKeyPairSync('ed25519').privateKey).encodings;
    track('audit signing key (Ed25519 private)', signing.encodings, { common });
    track('SVC_SECRETS_KEY', [secretsKey.toString('base64'), secretsKey.toString('base64url'), secretsKey.toString('hex')]);
    track('SVC_STRIPE_WEBHOOK_SECRET', [stripeSecret]);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      SVC_LOG_LEVEL: 'debug',
      SVC_DATA_DIR: join(dir, 'data'),
      SVC_CREDENTIALS_FILE: credentialsFile,
      SVC_ROLE: 'all',
      WEBHOOK_PORT: '0',
      SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
      SVC_WEBHOOK_POLL_MS: '25',
      SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000',
      SVC_SECRETS_KEY: secretsKey.toString('base64'),
      SVC_AUDIT_SIGNING_KEY: signing.env,
      SVC_STRIPE_WEBHOOK_SECRET: stripeSecret,
    };
    delete env.REDIS_URL;
    delete env.DATABASE_URL;
    if (process.env.DATABASE_URL) {
      await admin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${DB}`);
        await c.query(`CREATE DATABASE ${DB}`);
      });
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = `/${DB}`;
      ownDatabaseUrl = url.toString();
      env.DATABASE_URL = ownDatabaseUrl;
      if (url.password) track('database password', [decodeURIComponent(url.password)]);
    } else {
      // From the suite's migrated, content-loaded snapshot: migrations and the content load log
      // nothing secret, and the first start on an empty folder is test/cli.test.ts's subject. The
      // snapshot holds no tenant, key or signing key: the start still bootstraps and announces.
      seedEmbeddedDataDir(env.SVC_DATA_DIR as string);
    }

    try {
      const { apiUrl, workerUrl } = await startServe(env);
      await flows(apiUrl, workerUrl);
    } finally {
      await stopServe();
      // After the stop: deliveries keep arriving while the later flows run.
      for (const [i, r] of receivers.flatMap((x) => x.received).entries()) {
        trackSignatures(`x-svc-signature of delivery ${i + 1}`, r.headers['x-svc-signature']);
      }
      lines = [...linesOf('stdout', stdout), ...linesOf('stderr', stderr)];
      const start = lines.findIndex((l) => l.stream === 'stderr' && l.text.startsWith('sandbox tenant:'));
      announcement = start === -1 ? [] : lines.slice(start, start + 4).map((l) => l.text);
    }
  }, 300_000);

  afterAll(async () => {
    await stopServe();
    for (const r of receivers) await r.close();
    if (ownDatabaseUrl) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  });

  const jsonLines = () => lines.filter((l) => l.json !== undefined);
  const textLines = () => lines.filter((l) => l.json === undefined);

  it('ran every part at debug level and stopped cleanly (the checks below have something to check)', () => {
    expect(exitCode).toBe(0);
    expect(stderr).toMatch(/^svc stopping$/m);
    const msgs = jsonLines().map((l) => (l.json as { msg?: string }).msg);
    expect(msgs).toEqual(
      expect.arrayContaining(['listening', 'webhook worker listening', 'webhook dispatcher started', 'audit signing key']),
    );
    expect(msgs).toEqual(expect.arrayContaining(['webhook delivery dead-lettered', 'inbound webhook refused']));
    const requests = jsonLines()
      .map((l) => l.json as { msg?: string; status?: number; path?: string })
      .filter((j) => j.msg === 'request');
    expect(requests.length).toBeGreaterThan(30);
    for (const status of [200, 201, 400, 401, 403, 409, 422]) expect(requests.map((r) => r.status)).toContain(status);
    expect(jsonLines().every((l) => l.stream === 'stdout')).toBe(true);
    // A key pasted into a path is logged with the credential withheld, not dropped; one pasted as
    // the correlation id is replaced by a fresh id before anything logs it.
    expect(requests.map((r) => r.path)).toContain(`/v1/webhook-subscriptions/svc_test_${REDACTED}`);
    expect(jsonLines().some((l) => String((l.json as { correlation_id?: string }).correlation_id).startsWith('svc_'))).toBe(false);
    // Tokens, secrets, signatures of every kind were collected from the flows.
    expect(secrets.length).toBeGreaterThan(20);
  });

  it('no JSON log line holds a secret, whole or any 16-character part of it', () => {
    expect(leaks(jsonLines(), secrets)).toEqual([]);
  });

  it('no JSON log line holds an authorization header or a bearer value', () => {
    const found = jsonLines().flatMap((l) => authorizationValues(l.json).map((what) => `${l.stream} line ${l.n}: ${what}`));
    expect(found).toEqual([]);
  });

  it('the first-start secrets are announced once, on stderr, in one block, and nowhere else', () => {
    expect(announcement).toEqual([
      expect.stringMatching(/^sandbox tenant: +ten_[0-9A-Z]{26}$/),
      expect.stringMatching(/^owner API key: +svc_test_[0-9A-Za-z]{32}$/),
      expect.stringMatching(/^operator credential: +svc_op_[0-9A-Za-z]{32}$/),
      expect.stringMatching(/^credentials file: /),
    ]);
    const announced = secrets.filter((s) => s.announced);
    expect(announced).toHaveLength(2);
    const outside = lines.filter((l) => !(l.stream === 'stderr' && announcement.includes(l.text)));
    expect(leaks(outside, announced)).toEqual([]);
    // Each of the two is on its own line of the block, once.
    const inBlock = leaks(
      lines.filter((l) => l.stream === 'stderr' && announcement.includes(l.text)),
      announced,
    );
    expect(inBlock).toHaveLength(2);
  });

  it('no other output line (stderr text included) holds any other secret', () => {
    expect(
      leaks(
        textLines(),
        secrets.filter((s) => !s.announced),
      ),
    ).toEqual([]);
  });
});
