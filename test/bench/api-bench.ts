/**
 * HTTP benchmark of the API against a bare `node:http` baseline, on PGlite (in memory) and on
 * PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; skipped when it cannot
 * connect). Run with `pnpm bench` from the workspace root; it stops by itself.
 *
 * Each measurement: 1 s warm-up, then 5 s with 10 connections (override with BENCH_DURATION,
 * BENCH_WARMUP and BENCH_CONNECTIONS). Latency percentiles are computed from autocannon's
 * per-response timings (sub-millisecond); autocannon's own histogram has a 1 ms resolution.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { openDatabase } from '@svc/server';
import autocannon from 'autocannon';
import { createTenant } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PG_DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

const GET_PATH = '/v1/compliance/frameworks';
const POST_PATH = '/v1/compliance/assessments';
const POST_BODY = JSON.stringify({ type: 'fria', systemId: 'sys_bench', jurisdiction: 'eu/de' });

type Scenario = 'GET frameworks' | 'POST assessment';
type Target = 'baseline' | 'pglite' | 'postgresql';

interface Measurement {
  scenario: Scenario;
  target: Target;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** autocannon's own (1 ms resolution) percentiles, for reference. */
  autocannonP50Ms: number;
  autocannonP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** First body seen per non-2xx status (truncated). */
  non2xxSamples: Record<string, string>;
  warmupNon2xx: number;
  /** Responses marked `Idempotent-Replayed` (must be 0: every POST carries a fresh key). */
  replayed: number;
}

interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  freshIdempotencyKey?: boolean;
}

interface RawRun {
  result: autocannon.Result;
  latencies: number[];
  samples: Record<string, string>;
  replayed: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

function runOnce(spec: LoadSpec, durationS: number): Promise<RawRun> {
  const latencies: number[] = [];
  const samples: Record<string, string> = {};
  let replayed = 0;
  return new Promise((resolve, reject) => {
    const request: autocannon.Request = {
      onResponse: (status, body, _context, headers) => {
        if (headers && Object.keys(headers).some((h) => h.toLowerCase() === 'idempotent-replayed')) replayed++;
        if ((status < 200 || status >= 300) && samples[status] === undefined) samples[status] = String(body).slice(0, 500);
      },
    };
    if (spec.freshIdempotencyKey) {
      request.setupRequest = (req) => {
        req.headers = { ...req.headers, 'idempotency-key': randomUUID() };
        return req;
      };
    }
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        headers: spec.headers,
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        connections: CONNECTIONS,
        duration: durationS,
        requests: [request],
      },
      (err, result) => (err ? reject(err) : resolve({ result, latencies, samples, replayed })),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
}

async function measure(scenario: Scenario, target: Target, spec: LoadSpec): Promise<Measurement> {
  const warm = await runOnce(spec, WARMUP_S);
  const { result, latencies, samples, replayed } = await runOnce(spec, DURATION_S);
  latencies.sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = s.count ?? 0;
  const m: Measurement = {
    scenario,
    target,
    requests: result.requests.total,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    autocannonP50Ms: result.latency.p50,
    autocannonP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    non2xxSamples: samples,
    warmupNon2xx: warm.result.non2xx,
    replayed: replayed + warm.replayed,
  };
  const tag = `${scenario} on ${target}`;
  if (m.non2xx !== 0 || m.warmupNon2xx !== 0) {
    console.log(`!! ${tag}: ${m.non2xx} non-2xx responses (warm-up: ${m.warmupNon2xx}); status codes ${JSON.stringify(statusCodes)}`);
    for (const [code, body] of Object.entries({ ...warm.samples, ...samples })) console.log(`!!   ${code}: ${body}`);
  }
  if (m.replayed !== 0) console.log(`!! ${tag}: ${m.replayed} responses were idempotent replays`);
  if (m.errors !== 0 || m.timeouts !== 0) console.log(`!! ${tag}: ${m.errors} connection errors, ${m.timeouts} timeouts`);
  console.log(`.. ${tag}: ${m.reqPerSec.toFixed(0)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms`);
  return m;
}

function specsFor(base: string, token?: string): { get: LoadSpec; post: LoadSpec } {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return {
    get: { url: base + GET_PATH, method: 'GET', headers: auth },
    post: {
      url: base + POST_PATH,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: POST_BODY,
      freshIdempotencyKey: true,
    },
  };
}

/** Starts the API with DATABASE_URL set to `databaseUrl` (or removed), restoring the env afterwards. */
async function startWith(databaseUrl: string | undefined): Promise<TestServer> {
  const saved = process.env.DATABASE_URL;
  if (databaseUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = databaseUrl;
  try {
    return await startTestServer();
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}

/** Undefined when `url` accepts a connection and a query within 5 s, otherwise the reason. */
async function canConnect(url: string): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5000);
  });
  const attempt = (async () => {
    const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 1 });
    try {
      await db.session((s) => s.query('SELECT 1'));
    } finally {
      await db.close().catch(() => {});
    }
  })();
  try {
    await Promise.race([attempt, timeout]);
    return undefined;
  } catch (err) {
    attempt.catch(() => {});
    return err instanceof Error ? err.message || err.constructor.name : String(err);
  } finally {
    clearTimeout(timer);
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Prepares a tenant with eu-ai-act active and checks both calls once; returns the token and the GET body. */
async function prepare(ts: TestServer, label: string): Promise<{ token: string; getBody: Buffer }> {
  const tenant = await createTenant(ts, { name: `bench ${label}` });
  const act = await tenant.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
  if (act.status !== 200 && act.status !== 201) throw new Error(`activate eu-ai-act failed: ${act.status} ${JSON.stringify(act.body)}`);
  const res = await fetch(ts.url + GET_PATH, { headers: { authorization: `Bearer ${tenant.token}` } });
  const getBody = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${GET_PATH} failed: ${res.status} ${getBody.toString()}`);
  const post = await tenant.call('POST', POST_PATH, { body: POST_BODY, headers: { 'idempotency-key': randomUUID() } });
  if (post.status < 200 || post.status >= 300) throw new Error(`POST ${POST_PATH} failed: ${post.status} ${JSON.stringify(post.body)}`);
  return { token: tenant.token, getBody };
}

function fmt(n: number | null, digits: number): string {
  return n === null || !Number.isFinite(n) ? '-' : n.toFixed(digits);
}

async function main(): Promise<number> {
  const date = new Date().toISOString();
  const cpuCount = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
  console.log(`API benchmark: node ${process.version}, ${cpuCount} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${date}`);
  const loadBefore = loadavg().map((l) => Number(l.toFixed(2)));
  console.log(`load average before: ${loadBefore.join(' ')} (other processes on this machine skew the figures)`);
  console.log(`autocannon: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per measurement`);

  const measurements: Measurement[] = [];
  const notes: string[] = [];
  const pgUrl = process.env.DATABASE_URL || PG_DEFAULT_URL;
  let baselineBody: Buffer | undefined;
  let failed = false;

  const targets: Array<{ target: Exclude<Target, 'baseline'>; databaseUrl: string | undefined }> = [
    { target: 'pglite', databaseUrl: undefined },
    { target: 'postgresql', databaseUrl: pgUrl },
  ];
  for (const { target, databaseUrl } of targets) {
    if (databaseUrl !== undefined) {
      const why = await canConnect(databaseUrl);
      if (why !== undefined) {
        const note = `PostgreSQL skipped: cannot connect to ${databaseUrl.replace(/\/\/[^@/]*@/, '//***@')} (${why})`;
        console.log(note);
        notes.push(note);
        continue;
      }
    }
    let ts: TestServer | undefined;
    try {
      ts = await startWith(databaseUrl);
      const { token, getBody } = await prepare(ts, target);
      baselineBody ??= getBody;
      const spec = specsFor(ts.url, token);
      measurements.push(await measure('GET frameworks', target, spec.get));
      measurements.push(await measure('POST assessment', target, spec.post));
    } catch (err) {
      const note = `${target} failed: ${err instanceof Error ? err.message : String(err)}`;
      console.log(`!! ${note}`);
      notes.push(note);
      failed = true;
    } finally {
      await ts?.close().catch((err: unknown) => console.log(`!! closing the ${target} server failed: ${String(err)}`));
    }
  }

  if (baselineBody === undefined) throw new Error('no API server could be measured, so there is no body for the baseline');
  const body = baselineBody;
  const bare = createServer((req, res) => {
    const reply = () => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    };
    if (req.method === 'POST') {
      req.on('data', () => {});
      req.on('end', reply);
    } else reply();
  });
  bare.keepAliveTimeout = 65_000;
  try {
    const spec = specsFor(await listen(bare));
    measurements.push(await measure('GET frameworks', 'baseline', spec.get));
    measurements.push(await measure('POST assessment', 'baseline', spec.post));
  } finally {
    await closeServer(bare);
  }

  const baselineOf = (s: Scenario) => measurements.find((m) => m.target === 'baseline' && m.scenario === s);
  const rows = measurements.map((m) => {
    const b = baselineOf(m.scenario);
    return {
      ...m,
      reqPerSecRatio: b && m.target !== 'baseline' ? m.reqPerSec / b.reqPerSec : null,
      p99Ratio: b && m.target !== 'baseline' && b.p99Ms > 0 ? m.p99Ms / b.p99Ms : null,
    };
  });

  const header = ['scenario', 'database', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ base', 'p99 ÷ base', 'non-2xx'];
  const table = rows.map((r) => [
    r.scenario,
    r.target,
    fmt(r.reqPerSec, 0),
    fmt(r.p50Ms, 2),
    fmt(r.p99Ms, 2),
    fmt(r.reqPerSecRatio, 3),
    fmt(r.p99Ratio, 1),
    String(r.non2xx),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log('');
  console.log(`node ${process.version} | ${cpuCount} CPUs | ${date}`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const row of table) console.log(line(row));
  for (const n of notes) console.log(n);
  const bad = rows.filter((r) => r.non2xx !== 0 || r.warmupNon2xx !== 0);
  if (bad.length === 0) console.log('non-2xx responses: 0 in every measurement');

  console.log(
    `BENCH_JSON ${JSON.stringify({
      date,
      node: process.version,
      cpus: cpuCount,
      settings: { connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S },
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))),
      notes,
      results: rows,
    })}`,
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('benchmark failed:', err);
    process.exit(1);
  },
);
