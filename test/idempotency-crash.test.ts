import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api.ts';
import { allRoutes, exampleBody } from './support/fixtures.ts';
import { createIsolatedDatabase, seedEmbeddedDataDir } from './support/server.ts';
import { svcServe } from './support/svc-process.ts';

/**
 * A process that dies after its handler's transaction committed and before the answer left: the
 * retry with the same Idempotency-Key must get the original answer replayed, and the change must
 * exist once, for a kit route (an assessment), a kit route whose store has effects that run in
 * Prisma's transaction (a vendor's monitoring event, which rescores the vendor) and a hand-written
 * one (a webhook subscription).
 * `svc serve` runs as a child with SVC_FAULTS=1, whose `x-svc-fault: exit-after-commit` header
 * makes it exit at that point (exit code 137, as a kill would); it is then started again on the
 * same database.
 */
const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
let db: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let env: NodeJS.ProcessEnv;
let child: ChildProcess | undefined;
let url: string;
let token: string;
let operator: string;

async function start(): Promise<void> {
  const proc = spawn(...svcServe([]), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let stderr = '';
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  proc.stdout?.resume();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const listening = /^svc listening on (http:\/\/\S+)/m.exec(stderr)?.[1];
    // The first start prints the owner key and the operator credential on lines of their own, which
    // may arrive after the listening line: wait for both.
    const firstStartPrinted = /^owner API key:\s+(\S+)/m.test(stderr) && /^operator credential:\s+(\S+)/m.test(stderr);
    if (listening && (token || firstStartPrinted)) {
      url = listening;
      token ||= /^owner API key:\s+(\S+)/m.exec(stderr)?.[1] as string;
      operator ||= /^operator credential:\s+(\S+)/m.exec(stderr)?.[1] as string;
      return;
    }
    if (proc.exitCode !== null) throw new Error(`serve exited with ${proc.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`serve did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(): Promise<void> {
  const proc = child;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  db = await createIsolatedDatabase('crash');
  env = {
    ...process.env,
    PORT: '0',
    WEBHOOK_PORT: '0',
    SVC_ROLE: 'api',
    SVC_WEB: 'false',
    SVC_CONSOLE: 'false',
    SVC_LOG_LEVEL: 'silent',
    SVC_FAULTS: '1',
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_CREDENTIALS_FILE: join(dir, 'credentials.json'),
  };
  delete env.REDIS_URL;
  if (db) env.DATABASE_URL = db.url;
  else {
    delete env.DATABASE_URL;
    // The subject is a restart after a crash, not the first start: begin from the migrated snapshot.
    seedEmbeddedDataDir(env.SVC_DATA_DIR as string);
  }
  await start();
}, 180_000);

afterAll(async () => {
  await stop();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

let vendorId: string | undefined;
let growth: string | undefined;
/** The key a case's requests use: the growth tenant's once a case made it. */
const keyFor = (path: string) => (path.startsWith('/v1/vendor-risk') ? (growth as string) : token);
const assessmentBody = exampleBody(allRoutes.find((r) => r.name === 'compliance.assessments.create')?.route as never);

describe.each([
  ['a kit route', '/v1/compliance/assessments', async () => assessmentBody, '/v1/compliance/assessments?limit=200'],
  [
    'a kit route with effects',
    '/v1/vendor-risk/monitoring',
    async () => {
      // Vendor risk is a growth rail: a growth tenant of its own.
      if (!growth) {
        const made = await call(url, 'POST', '/v1/operator/tenants', { token: operator, body: { name: 'Crash growth', tier: 'growth' } });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        growth = made.body.apiKey.token as string;
      }
      vendorId ??= (
        await call(url, 'POST', '/v1/vendor-risk/vendors', { token: growth, body: { name: 'Crash Test Vendor', criticality: 'high' } })
      ).body.id as string;
      return { vendorId, type: 'breach_news', severity: 'critical', title: 'Customer database exposed' };
    },
    '/v1/vendor-risk/monitoring?limit=200',
  ],
  [
    'a hand-written route',
    '/v1/webhook-subscriptions',
    async () => ({ url: 'https://hooks.example.com/crash', eventTypes: ['*'] }),
    '/v1/webhook-subscriptions?limit=200',
  ],
] as const)('%s: the process dies between commit and answer', (_name, path, body, list) => {
  it('the retry with the same key replays the original answer; the change exists once', async () => {
    const key = `crash-${path}-${Date.now()}`;
    const sent = await body();
    const token = keyFor(path);
    const before = (await call(url, 'GET', list, { token })).body.data.length as number;
    const died = await call(url, 'POST', path, {
      token,
      body: sent,
      headers: { 'idempotency-key': key, 'x-svc-fault': 'exit-after-commit' },
    }).catch((err: unknown) => err);
    expect(died).toBeInstanceOf(Error);
    await new Promise<void>((resolve) => (child?.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    expect(child?.exitCode).toBe(137);
    await start();
    const after = (await call(url, 'GET', list, { token })).body.data as { id: string }[];
    expect(after).toHaveLength(before + 1);
    const retry = await call(url, 'POST', path, { token, body: sent, headers: { 'idempotency-key': key } });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(retry.body.id).toBe(after[0]?.id);
    expect((await call(url, 'GET', list, { token })).body.data).toHaveLength(before + 1);
  }, 180_000);
});
