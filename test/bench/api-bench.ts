/**
 * `pnpm bench`: the API's two hot paths side by side with a raw baseline doing the same SQL, in the
 * same run, every server in its own child process (so the load generator here never shares a
 * thread with a server):
 *
 * - raw: a bare node:http + pg server (raw-server.ts) running the API's frameworks-list statement
 *   and the create transaction by hand (assessment row, chained Ed25519-signed audit row under the
 *   chain-head lock, event-index row, outbox rows), against the same PostgreSQL and tenant;
 * - API on PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test);
 * - API on PGlite in memory, beside them for reference (the raw baseline speaks to PostgreSQL).
 *
 * Scenarios: `GET /v1/compliance/frameworks` and `POST /v1/compliance/assessments` (a fresh
 * Idempotency-Key per request). Measurements alternate (raw, API on PostgreSQL, then again)
 * BENCH_ROUNDS times so that drift of the machine spreads over both, then the API on PGlite runs
 * its rounds; the median round is reported. Neither PostgreSQL server is idle between its rounds
 * for longer than the other's round (3 s), under the API's idle collection (SVC_IDLE_GC_SECONDS,
 * 5 s here): with the PGlite rounds between them (until 2026-12-03), the API collected its heap
 * before every round and spent the next one growing it again (CPU per GET from 435 to 756 µs across
 * the rounds of one run, the raw server's 288 to 370). Rounds are short and many (12 of 2 s): a host whose speed moves by a third
 * within a minute moves the ratio of a raw and an API measurement less when they run 3 s apart
 * than 6 s apart, and the median of 12 ratios less than the median of 5 (measured on such a host:
 * the ratios of 5-round runs spread over 0.71-0.80 in four runs of one build). Printed per target: req/s, p50/p99 latency, the ratio API ÷ raw of req/s,
 * database round trips per request (counted in the child by wrapping pg's Client#query, see
 * bench-child-ipc.ts) and the server's CPU time per request.
 *
 * First, the start as `pnpm start` runs it (compiled, one process): seconds to the first answer on an
 * empty database (embedded: with no template cached, as on a new machine, so the start unpacks the
 * one the server's build ships; then from the cached one) and on
 * existing data, embedded and on PostgreSQL, the RSS after BENCH_IDLE s idle, and the RSS of that same
 * process BENCH_IDLE s after BENCH_SOAK s of POSTs (the bench tenant of bench-tenant.ts).
 * The API children below run the compiled build too (built first when stale).
 *
 * Then a soak: BENCH_SOAK seconds (default 60, 0 skips) of POSTs at full load against the API on
 * PostgreSQL, RSS sampled every second; it prints the RSS growth over the last half and the RSS after
 * BENCH_IDLE s idle once the load stops.
 *
 * Env: BENCH_DURATION (s per measurement, default 2), BENCH_WARMUP (default 1), BENCH_PRIME (s of
 * load per server and scenario before the first round, default 5), BENCH_CONNECTIONS
 * (default 10), BENCH_ROUNDS (default 12), BENCH_SOAK (default 60), BENCH_IDLE (s idle before RSS is read,
 * default 10), DATABASE_URL.
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureJsBuild } from '../../scripts/build-js.mjs';
import { adminQuery } from '../support/pg-admin.ts';
import { START_NODE_FLAGS, svcServe } from '../support/svc-process.ts';
import type { ChildMessage, ChildStats } from './bench-child-ipc.ts';
import { benchTenant } from './bench-tenant.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 2);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 12));
const PRIME_S = Number(process.env.BENCH_PRIME ?? 5);
const SOAK_S = Number(process.env.BENCH_SOAK ?? 60);
const PG_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const GET_PATH = '/v1/compliance/frameworks';
const POST_PATH = '/v1/compliance/assessments';
const POST_BODY = JSON.stringify({ type: 'fria', systemId: 'sys_bench', jurisdiction: 'eu/de' });

type Scenario = 'GET frameworks' | 'POST assessment';
type TargetName = 'raw (pg)' | 'API on PostgreSQL' | 'API on PGlite';

/** This process's environment with `env` over it; a variable given as '' or undefined is removed. */
function envOf(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(out)) if (v === '' || v === undefined) delete out[k];
  return out;
}

class Child {
  private nextId = 1;
  private readonly waiting = new Map<number, (s: ChildStats) => void>();
  private constructor(
    readonly proc: ChildProcess,
    readonly info: Record<string, string>,
  ) {
    proc.on('message', (raw) => {
      const m = raw as ChildMessage;
      if (m.type !== 'reply') return;
      this.waiting.get(m.id)?.(m.stats);
      this.waiting.delete(m.id);
    });
  }

  static start(file: string, env: Record<string, string | undefined>): Promise<Child> {
    const childEnv = envOf({ ...env, NODE_ENV: 'production' });
    const proc = fork(new URL(file, import.meta.url).pathname, [], {
      // The service as operators run it: compiled (packages/*/dist, through the svc-dist condition),
      // with Node's flags as `pnpm start` passes them (package.json); tsx only for this child's own file.
      execArgv: [...START_NODE_FLAGS, '--import', 'tsx', '--expose-gc'],
      env: childEnv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      proc.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
      proc.on('message', function first(raw) {
        const m = raw as ChildMessage;
        if (m.type === 'ready') {
          proc.off('message', first);
          proc.removeAllListeners('exit');
          resolve(new Child(proc, m.info));
        } else if (m.type === 'failed') reject(new Error(`${file}: ${m.message}`));
      });
    });
  }

  private ask(cmd: 'stats' | 'gcstats' | 'shutdown'): Promise<ChildStats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.proc.send({ id, cmd });
    });
  }

  stats(): Promise<ChildStats> {
    return this.ask('stats');
  }

  /** Stats after a full collection in the child: its heap then holds only what is still referenced. */
  liveStats(): Promise<ChildStats> {
    return this.ask('gcstats');
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    await Promise.race([this.ask('shutdown').then(() => exited), new Promise((r) => setTimeout(r, 8000))]);
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}

interface Target {
  name: TargetName;
  child: Child;
  headers: Record<string, string>;
}

interface Measurement {
  scenario: Scenario;
  target: TargetName;
  round: number;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  roundTripsPerRequest: number | null;
  cpuUsPerRequest: number;
  samples: Record<string, string>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Where a load goes: a server's base URL and the headers of its requests. */
interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

const endpointOf = (target: Target): Endpoint => ({ url: target.child.info.url ?? '', headers: target.headers });

function load(target: Endpoint, scenario: Scenario, durationS: number, latencies?: number[], samples?: Record<string, string>) {
  const post = scenario === 'POST assessment';
  const request: autocannon.Request = {
    onResponse: (status, body) => {
      if ((status < 200 || status >= 300) && samples && samples[status] === undefined) samples[status] = String(body).slice(0, 300);
    },
  };
  if (post) {
    request.setupRequest = (req) => {
      req.headers = { ...req.headers, 'idempotency-key': randomUUID() };
      return req;
    };
  }
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url + (post ? POST_PATH : GET_PATH),
        method: post ? 'POST' : 'GET',
        headers: post ? { ...target.headers, 'content-type': 'application/json' } : target.headers,
        ...(post ? { body: POST_BODY } : {}),
        connections: CONNECTIONS,
        duration: durationS,
        requests: [request],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (latencies) instance.on('response', (_c, _s, _b, ms) => latencies.push(ms));
  });
}

async function measure(target: Target, scenario: Scenario, round: number): Promise<Measurement> {
  await load(endpointOf(target), scenario, WARMUP_S);
  const latencies: number[] = [];
  const samples: Record<string, string> = {};
  const before = await target.child.stats();
  const result = await load(endpointOf(target), scenario, DURATION_S, latencies, samples);
  const after = await target.child.stats();
  latencies.sort((a, b) => a - b);
  const n = result.requests.total;
  const m: Measurement = {
    scenario,
    target: target.name,
    round,
    requests: n,
    reqPerSec: n / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    // The stats questions themselves send no SQL; PGlite has no pg client to count.
    roundTripsPerRequest: target.name === 'API on PGlite' ? null : (after.roundTrips - before.roundTrips) / n,
    cpuUsPerRequest: (after.cpuUs - before.cpuUs) / n,
    samples,
  };
  const warn = m.non2xx || m.errors ? ` !! ${m.non2xx} non-2xx, ${m.errors} errors ${JSON.stringify(samples)}` : '';
  console.log(
    `.. round ${round} ${scenario} on ${target.name}: ${m.reqPerSec.toFixed(0)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, ` +
      `p99 ${m.p99Ms.toFixed(2)} ms, ${m.roundTripsPerRequest?.toFixed(2) ?? '-'} round trips, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req${warn}`,
  );
  return m;
}

async function canConnect(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * RSS of the API child every second for `seconds` under full POST load. The garbage collector makes
 * RSS a sawtooth, so growth compares its floors (what stays after a collection): the lowest RSS of
 * the last quarter of the soak against the lowest of the quarter before (the last half in two
 * windows, each long enough to hold a collection). A leak raises the floor. Every 10 s the child
 * also runs a full collection and reports its live heap: a leak grows it, a heap the collector
 * merely keeps larger does not.
 */
async function soak(
  target: Target,
  seconds: number,
): Promise<{ samplesMb: number[]; growthLastHalf: number; liveHeapMb: number[]; liveHeapGrowthLastHalf: number; reqPerSec: number }> {
  const rss: number[] = [];
  const live: number[] = [];
  let tick = 0;
  const timer = setInterval(() => {
    tick++;
    if (tick % 10 === 0) target.child.liveStats().then((s) => live.push(s.heapUsedBytes));
    else target.child.stats().then((s) => rss.push(s.rssBytes));
  }, 1000);
  const result = await load(endpointOf(target), 'POST assessment', seconds);
  clearInterval(timer);
  const q = Math.floor(rss.length / 4);
  const before = Math.min(...rss.slice(rss.length - 2 * q, rss.length - q));
  const last = Math.min(...rss.slice(rss.length - q));
  const mid = live[Math.floor((live.length - 1) / 2)] ?? Number.NaN;
  return {
    samplesMb: rss.map((b) => Math.round(b / 1048576)),
    growthLastHalf: (last - before) / before,
    liveHeapMb: live.map((b) => Math.round(b / 1048576)),
    liveHeapGrowthLastHalf: ((live.at(-1) ?? Number.NaN) - mid) / mid,
    reqPerSec: result.requests.total / result.duration,
  };
}

const IDLE_S = Number(process.env.BENCH_IDLE ?? 10);

function rssMb(pid: number): number {
  // VmRSS of /proc (Linux), in kB.
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Math.round(Number(kb) / 1024) : Number.NaN;
}

/** The bench tenant (bench-tenant.ts) on a running `svc serve`, made with the operator token of its credentials file. */
async function serveTenant(url: string, credentialsFile: string): Promise<Endpoint> {
  const { operatorToken } = JSON.parse(readFileSync(credentialsFile, 'utf8')) as { operatorToken: string };
  const { token } = await benchTenant({ url, operatorToken }, 'bench soak');
  return { url, headers: { authorization: `Bearer ${token}` } };
}

/**
 * `svc serve` as `pnpm start` runs it (one process, the compiled build): seconds from spawning it to
 * its first answer to GET /v1/health, and (when `idleS` is given) its RSS after `idleS` seconds idle.
 * With `loadS` too, `loadS` seconds of POSTs follow, and its RSS `idleS` seconds after them.
 */
async function serveOnce(
  env: Record<string, string | undefined>,
  idleS?: number,
  loadS = 0,
): Promise<{ firstAnswerS: number; idleRssMb?: number; afterLoadRssMb?: number }> {
  const childEnv = envOf({ ...env, PORT: '0', SVC_WEB_PORT: '0', SVC_CONSOLE_PORT: '0', SVC_LOG_LEVEL: 'warn' });
  const started = performance.now();
  const [node, args] = svcServe([]);
  const proc = spawn(node, args, {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      proc.stderr?.on('data', (d) => {
        err += String(d);
        const m = /svc listening on (\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      proc.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${err}`)));
    });
    const res = await fetch(`${url}/v1/health`);
    if (!res.ok) throw new Error(`GET /v1/health: ${res.status}`);
    const firstAnswerS = (performance.now() - started) / 1000;
    if (idleS === undefined) return { firstAnswerS };
    await new Promise((r) => setTimeout(r, idleS * 1000));
    const idleRssMb = rssMb(proc.pid as number);
    if (loadS <= 0 || !env.SVC_CREDENTIALS_FILE) return { firstAnswerS, idleRssMb };
    await load(await serveTenant(url, env.SVC_CREDENTIALS_FILE), 'POST assessment', loadS);
    await new Promise((r) => setTimeout(r, idleS * 1000));
    return { firstAnswerS, idleRssMb, afterLoadRssMb: rssMb(proc.pid as number) };
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }
}

interface StartFigures {
  /** An empty database, nothing cached (the embedded one unpacks the template the package ships). */
  freshS: number;
  /** Embedded only: an empty data folder, from the template the first start unpacked into the cache. */
  freshFromTemplateS?: number;
  existingS: number;
  idleRssMb: number | undefined;
  /** RSS `BENCH_IDLE` seconds after `BENCH_SOAK` seconds of POSTs, on the existing-data start. */
  afterLoadRssMb: number | undefined;
}

/** The first start on an empty database and a start on existing data, embedded and on PostgreSQL. */
async function startup(pgUrl: string | undefined): Promise<Record<string, StartFigures>> {
  const out: Record<string, StartFigures> = {};
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-start-'));
  try {
    // A cache folder of its own: the first start finds no template there and unpacks the package's,
    // the second (another empty folder) starts from the cached one, the third reopens the second's data.
    const embedded = (folder: string) => ({
      DATABASE_URL: '',
      SVC_DATA_DIR: join(dir, folder),
      SVC_CACHE_DIR: join(dir, 'cache'),
      SVC_CREDENTIALS_FILE: join(dir, 'credentials.json'),
    });
    const fresh = await serveOnce(embedded('data-1'));
    const fromTemplate = await serveOnce(embedded('data-2'));
    const existing = await serveOnce(embedded('data-2'), IDLE_S, SOAK_S);
    out.embedded = {
      freshS: fresh.firstAnswerS,
      freshFromTemplateS: fromTemplate.firstAnswerS,
      existingS: existing.firstAnswerS,
      idleRssMb: existing.idleRssMb,
      afterLoadRssMb: existing.afterLoadRssMb,
    };
    if (pgUrl) {
      const db = `svc_bench_start_${process.pid}`;
      await adminQuery(pgUrl, `CREATE DATABASE "${db}"`);
      try {
        const url = new URL(pgUrl);
        url.pathname = `/${db}`;
        const env = {
          DATABASE_URL: url.toString(),
          SVC_SECRETS_KEY: randomBytes(32).toString('base64'),
          SVC_CREDENTIALS_FILE: join(dir, 'pg-credentials.json'),
        };
        const freshPg = await serveOnce(env);
        const existingPg = await serveOnce(env, IDLE_S, SOAK_S);
        out.postgresql = {
          freshS: freshPg.firstAnswerS,
          existingS: existingPg.firstAnswerS,
          idleRssMb: existingPg.idleRssMb,
          afterLoadRssMb: existingPg.afterLoadRssMb,
        };
      } finally {
        await adminQuery(pgUrl, `DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const [db, f] of Object.entries(out))
    console.log(
      `start on ${db}: first answer on an empty database ${f.freshFromTemplateS === undefined ? `${f.freshS.toFixed(2)} s` : `${f.freshS.toFixed(2)} s (unpacking the package's template), ${f.freshFromTemplateS.toFixed(2)} s (from the cached one)`}, ` +
        `${f.existingS.toFixed(2)} s on existing data; RSS ${f.idleRssMb ?? '-'} MB after ${IDLE_S} s idle` +
        (f.afterLoadRssMb === undefined ? '' : `, ${f.afterLoadRssMb} MB ${IDLE_S} s after ${SOAK_S} s of POSTs`),
    );
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function fmt(n: number | null | undefined, digits: number): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits);
}

async function main(): Promise<number> {
  const date = new Date().toISOString();
  const cpuCount = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
  console.log(`API benchmark: node ${process.version}, ${cpuCount} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${date}`);
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other work on the machine skews the figures)`,
  );
  console.log(`autocannon: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per measurement, ${ROUNDS} rounds`);

  const notes: string[] = [];
  const targets: Target[] = [];
  let failed = false;
  const children: Child[] = [];
  let benchDb: string | undefined;
  try {
    const built = await ensureJsBuild(undefined, (line) => console.log(`.. ${line}`));
    if (built.length > 0) console.log(`.. built ${built.join(', ')}`);
    // The template of a new embedded database that the server's build ships (made when missing).
    execFileSync(process.execPath, ['--conditions=svc-dist', 'scripts/embedded-template.mjs'], {
      cwd: join(import.meta.dirname, '../../packages/server'),
      stdio: 'inherit',
    });
    const why = await canConnect(PG_URL);
    const start = await startup(why === undefined ? PG_URL : undefined);
    if (why === undefined) {
      // A database of its own, dropped at the end: the benchmark leaves thousands of rows (and
      // pending webhook deliveries) that must not reach anything else using the server.
      benchDb = `svc_bench_${process.pid}`;
      await adminQuery(PG_URL, `CREATE DATABASE "${benchDb}"`);
      const url = new URL(PG_URL);
      url.pathname = `/${benchDb}`;
      // One secrets key for both: the API seals the audit signing key with it, and the raw server
      // opens it once, as the API does, to sign the same audit events.
      const secretsKey = randomBytes(32).toString('base64');
      const api = await Child.start('api-bench-child.ts', { DATABASE_URL: url.toString(), SVC_SECRETS_KEY: secretsKey });
      children.push(api);
      const raw = await Child.start('raw-server.ts', {
        DATABASE_URL: url.toString(),
        BENCH_TENANT_ID: api.info.tenantId,
        SVC_SECRETS_KEY: secretsKey,
      });
      children.push(raw);
      targets.push({ name: 'raw (pg)', child: raw, headers: {} });
      targets.push({ name: 'API on PostgreSQL', child: api, headers: { authorization: `Bearer ${api.info.token}` } });
    } else {
      const note = `PostgreSQL skipped: cannot connect to ${PG_URL.replace(/\/\/[^@/]*@/, '//***@')} (${why}); no raw baseline`;
      console.log(note);
      notes.push(note);
    }
    const lite = await Child.start('api-bench-child.ts', { DATABASE_URL: '' });
    children.push(lite);
    targets.push({ name: 'API on PGlite', child: lite, headers: { authorization: `Bearer ${lite.info.token}` } });

    const measurements: Measurement[] = [];
    for (const scenario of ['GET frameworks', 'POST assessment'] as const) {
      // The raw server and the API on PostgreSQL alternate, each idle only for the other's round (3
      // s): under the API's idle collection (5 s), so both are measured in their steady state, not
      // regrowing a heap collected between rounds. The API on PGlite, reported for reference, runs
      // its rounds after them.
      const lite = targets.filter((t) => t.name === 'API on PGlite');
      const paired = targets.filter((t) => t.name !== 'API on PGlite');
      for (const group of [paired, lite]) {
        // Each server first runs the scenario long enough for the JIT to settle (the API has far
        // more code to compile than the raw server), right before its rounds: primed before the
        // other group's rounds (over a minute), the PGlite server started its own cold (in one run
        // 9,191 µs of CPU per POST in its first round against 2,745 in its best).
        for (const t of group) await load(endpointOf(t), scenario, PRIME_S);
        for (let round = 1; round <= ROUNDS; round++) {
          for (const t of group) measurements.push(await measure(t, scenario, round));
        }
      }
    }

    const summary = (scenario: Scenario, target: TargetName) => {
      const ms = measurements.filter((m) => m.scenario === scenario && m.target === target);
      if (ms.length === 0) return undefined;
      return {
        scenario,
        target,
        reqPerSec: median(ms.map((m) => m.reqPerSec)),
        p50Ms: median(ms.map((m) => m.p50Ms)),
        p99Ms: median(ms.map((m) => m.p99Ms)),
        roundTrips: ms[0]!.roundTripsPerRequest === null ? null : median(ms.map((m) => m.roundTripsPerRequest!)),
        cpuUs: median(ms.map((m) => m.cpuUsPerRequest)),
        non2xx: ms.reduce((a, m) => a + m.non2xx + m.errors, 0),
      };
    };
    const rows = (['GET frameworks', 'POST assessment'] as const).flatMap((s) =>
      targets.map((t) => summary(s, t.name)).filter((r): r is NonNullable<typeof r> => r !== undefined),
    );
    const ratios: Record<string, number> = {};
    const header = ['scenario', 'server', 'req/s', 'API ÷ raw', 'p50 ms', 'p99 ms', 'round trips/req', 'CPU µs/req', 'non-2xx'];
    const table = rows.map((r) => {
      // The ratio of each round (API and raw measured back to back), then the median of the rounds:
      // steadier than a ratio of medians when the machine's speed drifts during the run.
      const perRound = measurements
        .filter((m) => m.scenario === r.scenario && m.target === r.target && r.target !== 'raw (pg)')
        .map((m) => {
          const raw = measurements.find((x) => x.scenario === m.scenario && x.round === m.round && x.target === 'raw (pg)');
          return raw ? m.reqPerSec / raw.reqPerSec : Number.NaN;
        })
        .filter(Number.isFinite);
      const ratio = perRound.length > 0 ? median(perRound) : null;
      if (ratio !== null) ratios[`${r.scenario} / ${r.target}`] = Number(ratio.toFixed(3));
      if (r.non2xx) failed = true;
      return [
        r.scenario,
        r.target,
        fmt(r.reqPerSec, 0),
        fmt(ratio, 2),
        fmt(r.p50Ms, 2),
        fmt(r.p99Ms, 2),
        fmt(r.roundTrips, 2),
        fmt(r.cpuUs, 0),
        String(r.non2xx),
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    console.log('');
    console.log(
      `median of ${ROUNDS} rounds (API ÷ raw: median of the rounds' ratios); node ${process.version}, ${cpuCount} CPUs, ${CONNECTIONS} connections`,
    );
    console.log(line(header));
    console.log(`|${widths.map((w, i) => `${'-'.repeat(w + 1)}${i < 2 ? '-' : ':'}`).join('|')}|`);
    for (const row of table) console.log(line(row));

    let soakResult: Awaited<ReturnType<typeof soak>> | undefined;
    let idleAfterLoadMb: number | undefined;
    const soakTarget = targets.find((t) => t.name === 'API on PostgreSQL') ?? targets.find((t) => t.name === 'API on PGlite');
    if (SOAK_S > 0 && soakTarget) {
      console.log(`\nsoak: ${SOAK_S} s of POST ${POST_PATH} at full load on ${soakTarget.name}`);
      soakResult = await soak(soakTarget, SOAK_S);
      console.log(`RSS MB each second: ${soakResult.samplesMb.join(' ')}`);
      console.log(
        `live heap MB after a full collection, every 10 s: ${soakResult.liveHeapMb.join(' ')} (last half: ${(soakResult.liveHeapGrowthLastHalf * 100).toFixed(1)}%)`,
      );
      await new Promise((r) => setTimeout(r, IDLE_S * 1000));
      idleAfterLoadMb = Math.round((await soakTarget.child.stats()).rssBytes / 1048576);
      console.log(`RSS ${idleAfterLoadMb} MB after ${IDLE_S} s idle after the soak`);
      console.log(
        `RSS growth over the last ${Math.floor(soakResult.samplesMb.length / 2)} s (lowest RSS of its second half against its first): ${(soakResult.growthLastHalf * 100).toFixed(1)}% ` +
          `(${soakResult.reqPerSec.toFixed(0)} req/s during the soak)`,
      );
    }
    for (const n of notes) console.log(n);
    console.log(
      `BENCH_JSON ${JSON.stringify({ date, node: process.version, cpus: cpuCount, connections: CONNECTIONS, rounds: ROUNDS, ratios, start, rows, soak: soakResult && { ...soakResult, idleAfterLoadMb }, notes })}`,
    );
  } catch (err) {
    console.error('benchmark failed:', err);
    failed = true;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    if (benchDb)
      await adminQuery(PG_URL, `DROP DATABASE IF EXISTS "${benchDb}" WITH (FORCE)`).catch((err: unknown) =>
        console.log(`!! ${String(err)}`),
      );
  }
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code));
