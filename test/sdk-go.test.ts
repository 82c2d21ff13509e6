import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * The Go SDK (sdk-go) against a live server: the module and its examples are compiled once
 * (offline: no proxy, no toolchain download), its tests are compiled once into a binary, and each
 * case runs that binary (or an example) as a child process with the server's URL and a tenant's key.
 * A Go failure fails the case with Go's output.
 */

const ROOT = join(import.meta.dirname, '..');
const SDK = join(ROOT, 'sdk-go');
const CACHE = join(ROOT, 'node_modules/.cache/svc-sdk-go');
const hasGo = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
const inCI = process.env.CI === 'true';

const GO_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
  GOTOOLCHAIN: 'local',
  GOSUMDB: 'off',
  GOWORK: 'off',
  // Go's own build cache (GOCACHE unset: the user's, ~/.cache/go-build), as a Go developer has it: the
  // standard library compiled once for CGO_ENABLED=0 serves every later run (a cold build is about
  // 25 s of the file on a loaded machine, a warm one a second or two). Its entries are keyed by the
  // content of what they compile, so a stale entry is never used.
  GOPATH: join(CACHE, 'gopath'),
  CGO_ENABLED: '0',
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command asynchronously (the server answering it lives in this process); never throws. */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<Run> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd ?? SDK, env: opts.env ?? GO_ENV, timeout: opts.timeout ?? 240_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({
          code,
          stdout,
          stderr: stderr || (err && code !== 0 ? String(err.message) : ''),
          ms: Math.round(performance.now() - start),
        });
      },
    );
  });
}

const output = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

if (!hasGo && inCI) {
  describe('Go SDK', () => {
    it('needs the go toolchain in CI', () => {
      throw new Error('go is not on PATH: CI must provide it (Debian golang-go) to test sdk-go');
    });
  });
}

describe.skipIf(!hasGo)(hasGo ? 'Go SDK' : 'Go SDK (skipped: go is not on PATH; CI=true makes this a failure)', () => {
  let tmp: string;
  let bin: string;
  let testBin: string;
  let ts: TestServer;
  let tenant: TenantFixture;
  const SYSTEM = 'sys_credit_scoring_v2';
  const times: Record<string, number> = {};

  /** One Go test of the compiled binary, against the server, as `tenant` unless `key` says otherwise. */
  function goTest(name: string, extra: NodeJS.ProcessEnv = {}, key = tenant.token): Promise<Run> {
    return run(testBin, [`-test.run=^${name}$`, '-test.v', '-test.count=1'], {
      cwd: tmp,
      env: { ...GO_ENV, SVC_E2E: '1', SVC_URL: ts.url, SVC_API_KEY: key, ...extra },
    });
  }

  function example(name: string, key = tenant.token): Promise<Run> {
    return run(join(bin, name), [], { cwd: tmp, env: { ...GO_ENV, SVC_URL: ts.url, SVC_API_KEY: key } });
  }

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'svc-sdk-go-'));
    bin = join(tmp, 'bin');
    testBin = join(tmp, 'sdk.test');
    mkdirSync(bin);
    const build = await run('go', ['build', '-o', `${bin}/`, './...']);
    expect(build.code, output(build)).toBe(0);
    times.build = build.ms;
    const compileTests = await run('go', ['test', '-c', '-o', testBin, '.']);
    expect(compileTests.code, output(compileTests)).toBe(0);
    times.compileTests = compileTests.ms;

    ts = await startIsolatedTestServer({
      SVC_ROLE: 'all',
      SVC_JOBS_POLL_MS: '100',
      SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SVC_WEBHOOK_POLL_MS: '25',
      SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
    });
    tenant = await createTenant(ts, { name: 'Acme Lending GmbH' });
    // The records a regulator report is built from.
    const profile = await tenant.call('PUT', `/v1/public-disclosure/systems/${SYSTEM}`, {
      body: {
        name: 'Credit scoring engine',
        purpose: 'Scores consumer credit applications.',
        provider: 'Acme Lending GmbH',
        role: 'provider_and_deployer',
        interactsWithPeople: false,
        generatesSyntheticContent: false,
      },
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  }, 300_000);

  afterAll(async () => {
    console.log(`Go SDK: go build ./... ${times.build} ms, go test -c ${times.compileTests} ms, go vet ${times.vet} ms`);
    await ts?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('is generated fresh, gofmt-clean and passes go vet and its offline tests', async () => {
    const check = await run(process.execPath, ['scripts/sdk/go.mjs', '--check'], { cwd: ROOT, env: process.env });
    expect(check.code, output(check)).toBe(0);
    // --check names a stale file: a copy with one file changed.
    const copy = join(tmp, 'stale');
    mkdirSync(copy);
    for (const f of readdirSync(SDK).filter((f) => f.startsWith('zz_generated_'))) copyFileSync(join(SDK, f), join(copy, f));
    copyFileSync(join(SDK, 'client.go'), join(copy, 'zz_generated_errors.go'));
    const stale = await run(process.execPath, ['scripts/sdk/go.mjs', '--check', '--out', copy], { cwd: ROOT, env: process.env });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/zz_generated_errors\.go/);
    expect(stale.stderr).not.toMatch(/zz_generated_types\.go/);

    const fmt = await run('gofmt', ['-l', '.']);
    expect(fmt.code, output(fmt)).toBe(0);
    expect(fmt.stdout).toBe('');
    const vet = await run('go', ['vet', './...']);
    times.vet = vet.ms;
    expect(vet.code, output(vet)).toBe(0);
    // The offline tests: every test but the TestE2E ones.
    const unit = await run(testBin, ['-test.run=^Test([^E]|E[^2])', '-test.v'], { cwd: tmp });
    expect(unit.code, output(unit)).toBe(0);
    expect(unit.stdout.match(/^--- PASS/gm)).toHaveLength(6);
    expect(unit.stdout).not.toMatch(/^--- SKIP/m);
  }, 120_000);

  it('runs the quick start: creates an assessment and lists the frameworks', async () => {
    const r = await example('quick-start');
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toMatch(/^created asm_\S+ \(draft\)$/m);
    expect(r.stdout).toMatch(/^framework eu-ai-act$/m);
  });

  it('runs the other examples, printing what the TypeScript ones print', async () => {
    const [pages, retry, errors, envRun] = await Promise.all([
      example('pagination'),
      example('idempotency'),
      example('typed-errors'),
      example('env'),
    ]);
    expect(pages.code, output(pages)).toBe(0);
    expect(Number(/^total (\d+)$/m.exec(pages.stdout)?.[1])).toBeGreaterThan(100);
    expect(pages.stdout.match(/^obligation /gm)).toHaveLength(3);

    expect(retry.code, output(retry)).toBe(0);
    const first = /^first (\S+)$/m.exec(retry.stdout)?.[1];
    expect(first).toMatch(/^asm_/);
    expect(retry.stdout).toContain(`retry ${first}`);
    expect(retry.stdout).toMatch(/^same assessment$/m);
    expect(retry.stdout).toMatch(/^replayed true$/m);

    expect(errors.code, output(errors)).toBe(0);
    expect(errors.stdout).toMatch(/^status 422 validation_failed$/m);
    expect(errors.stdout).toMatch(/^field systemId: missing$/m);
    expect(errors.stdout).toMatch(/^correlation \S+$/m);
    expect(errors.stdout).toMatch(/^status 404 not_found$/m);

    expect(envRun.code, output(envRun)).toBe(0);
    expect(envRun.stdout).toContain(`url ${ts.url}`);
    // The rate-limit headers of a success, read through WithResponse (the test tenants' high limit).
    expect(envRun.stdout).toMatch(/^rate limit 100000, remaining \d+$/m);
    const noKey = await run(join(bin, 'env'), [], { cwd: tmp, env: { ...GO_ENV, SVC_URL: ts.url, SVC_API_KEY: '' } });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^Set SVC_API_KEY/);
  }, 60_000);

  it('walks every page once with the AutoPaging iterator', async () => {
    const t = await createTenant(ts);
    for (let i = 0; i < 23; i++) {
      const res = await t.call('POST', '/v1/compliance/assessments', {
        body: { type: 'dpia', systemId: `sys_walk_${i}`, jurisdiction: 'eu/de' },
      });
      expect(res.status).toBe(201);
    }
    const r = await goTest('TestE2EPaginatedWalk', { SVC_E2E_LIMIT: '5' }, t.token);
    expect(r.code, output(r)).toBe(0);
    const walked = [...r.stdout.matchAll(/^id (\S+)$/gm)].map((m) => m[1]);
    const overHttp = (await collectPages<{ id: string }>(t, '/v1/compliance/assessments')).map((a) => a.id);
    expect(overHttp).toHaveLength(23);
    expect(walked).toEqual(overHttp);
    expect(new Set(walked).size).toBe(23);
    expect(Number(/^pages (\d+)$/m.exec(r.stdout)?.[1])).toBe(5);
  });

  it('returns typed errors: a 404 and a 422 with its details, matched with errors.As', async () => {
    const r = await goTest('TestE2ETypedErrors', { SVC_E2E_TENANT: tenant.tenantId });
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toMatch(/^forbidden 403 forbidden$/m);
    expect(r.stdout).toMatch(/^not_found 404 not_found \S+$/m);
    expect(r.stdout).toMatch(/^detail type \S+$/m);
    expect(r.stdout).toMatch(/^detail systemId \S+$/m);
  });

  it('retries a 429 after Retry-After and surfaces it typed when retries are off', async () => {
    const limited = await createTenant(ts, { rateLimitPerSecond: 2 });
    const r = await goTest('TestE2ERateLimitRetry', { SVC_E2E_RATE_LIMIT: '2' }, limited.token);
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toMatch(/^limited retry-after \S+ limit 2$/m);
    expect(r.stdout).toMatch(/^retried attempts [2-4] waited \d+ms$/m);
  }, 60_000);

  it('retries a POST whose connection dropped before the answer, with one Idempotency-Key: one record', async () => {
    const proxy = await startDroppingProxy(new URL(ts.url));
    try {
      const system = `sys_dropped_${Date.now()}`;
      const r = await goTest('TestE2EIdempotentRetry', { SVC_E2E_PROXY_URL: proxy.url, SVC_E2E_SYSTEM: system });
      expect(r.code, output(r)).toBe(0);
      const id = /^created (asm_\S+) attempts 2 replayed true$/m.exec(r.stdout)?.[1];
      expect(id, r.stdout).toBeDefined();
      // Two connections, the first cut after the server answered; the same key on both requests.
      expect(proxy.requests).toHaveLength(2);
      expect(proxy.requests[0]).toMatch(/^POST \/v1\/compliance\/assessments HTTP\/1\.1\r\n/);
      const keys = proxy.requests.map((req) => /^idempotency-key: (\S+)\r$/im.exec(req)?.[1]);
      expect(keys[0]).toMatch(/^idk_[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(proxy.dropped).toBe(1);
      const list = await tenant.call('GET', `/v1/compliance/assessments?systemId=${system}`);
      expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([id]);
    } finally {
      await proxy.close();
    }
  });

  it('downloads a rendered report as a PDF', async () => {
    const asm = await tenant.call('POST', '/v1/compliance/assessments', {
      body: { type: 'fria', systemId: SYSTEM, jurisdiction: 'eu/de' },
    });
    expect(asm.status).toBe(201);
    const r = await goTest('TestE2EReportPDF', { SVC_E2E_SYSTEM: SYSTEM });
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toMatch(/^pdf rpt_\S+ \d+ bytes \S+\.pdf$/m);
  }, 90_000);

  it('verifies a real delivery in the net/http receiver example and refuses a tampered one', async () => {
    const t = await createTenant(ts);
    const recorded = await startRecorder();
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: recorded.url, eventTypes: ['assessment.created'], description: 'Go SDK test' },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const child = spawn(join(bin, 'webhook'), [], {
      env: { ...GO_ENV, SVC_WEBHOOK_SECRET: sub.body.secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    try {
      const created = await t.call('POST', '/v1/compliance/assessments', {
        body: { type: 'fria', systemId: SYSTEM, jurisdiction: 'eu/de' },
      });
      const delivery = await recorded.first();
      const header = delivery.headers['x-svc-signature'] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      await expect.poll(() => out, { timeout: 10_000 }).toMatch(/^listening \d+$/m);
      const port = Number(/^listening (\d+)$/m.exec(out)?.[1]);
      const post = (body: Buffer | string, h?: string) =>
        fetch(`http://127.0.0.1:${port}/hooks/svc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(h ? { 'x-svc-signature': h } : {}) },
          body,
        });
      expect((await post(delivery.raw, header)).status).toBe(204);
      await expect.poll(() => out).toMatch(/^received assessment\.created evt_[0-9A-Z]{26}$/m);
      expect(JSON.parse(delivery.raw.toString('utf8')).data.id).toBe(created.body.id);

      const tampered = await post(delivery.raw.toString('utf8').replace('"draft"', '"completed"'), header);
      expect(tampered.status).toBe(400);
      expect(await tampered.json()).toEqual({ error: 'signature_mismatch' });
      const unsigned = await post(delivery.raw);
      expect(await unsigned.json()).toEqual({ error: 'missing_header' });
      await expect.poll(() => out).toMatch(/^refused missing_header$/m);
      expect(out).toMatch(/^refused signature_mismatch$/m);
    } finally {
      child.kill();
      await recorded.close();
    }
  });

  it('decodes the first page of every list operation with the generated types', async () => {
    const r = await goTest('TestE2EDecodeEveryList');
    expect(r.code, output(r)).toBe(0);
    const summary = /^lists (\d+) decoded (\d+) refused \d+$/m.exec(r.stdout) ?? [];
    console.log(`Go SDK: ${summary[0]}\n${r.stdout.match(/^refused .*$/gm)?.join('\n') ?? ''}`);
    const [, lists, decoded] = summary;
    expect(Number(lists)).toBeGreaterThan(100);
    expect(Number(decoded)).toBeGreaterThan(Number(lists) * 0.75);
  }, 60_000);
});

/**
 * A TCP proxy that forwards everything, except that on its first connection it destroys the
 * client's socket as soon as the server's answer starts to arrive: the request ran, the client never
 * saw the answer.
 */
async function startDroppingProxy(target: URL) {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let dropped = 0;
  const server: TcpServer = createTcpServer((client) => {
    const n = connections++;
    requests[n] = '';
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => {
      requests[n] += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (n === 0) {
        dropped++;
        client.resetAndDestroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get dropped() {
      return dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A webhook receiver that records the raw body and headers of the deliveries it gets. */
async function startRecorder() {
  const received: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    async first() {
      const deadline = Date.now() + 20_000;
      while (received.length === 0) {
        if (Date.now() > deadline) throw new Error('no webhook delivery within 20 s');
        await new Promise((r) => setTimeout(r, 50));
      }
      return received[0] as { raw: Buffer; headers: IncomingHttpHeaders };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
