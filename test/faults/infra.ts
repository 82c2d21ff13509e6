/**
 * What the fault suite runs against: a PostgreSQL cluster and a redis-server of its own (so it may
 * stop, restart and kill them while the machine's shared instances serve other tests), and the
 * service's processes, started the way `svc serve --role ...` starts them in production.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { svcServe } from '../support/svc-process.ts';

const run = promisify(execFile);
export const ROOT = join(import.meta.dirname, '..', '..');
const PG_BIN = process.env.SVC_FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Everything started here, stopped in reverse order at the end, also after a failure or a signal. */
const teardowns: { name: string; fn: () => Promise<void> }[] = [];
export function onTeardown(name: string, fn: () => Promise<void>): void {
  teardowns.push({ name, fn });
}
export async function teardownAll(): Promise<void> {
  for (const t of teardowns.splice(0).reverse()) {
    try {
      await t.fn();
    } catch (err) {
      process.stderr.write(`faults: teardown of ${t.name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A free port at or above `base`, with a random offset: several runs on one machine (CI jobs, two
 * engineers) then rarely race for the same one. PostgreSQL also needs its socket lock in /tmp free.
 */
export async function freePort(base: number): Promise<number> {
  const start = base + Math.floor(Math.random() * 400);
  for (let p = start; p < start + 200; p++) {
    if (existsSync(`/tmp/.s.PGSQL.${p}.lock`)) continue;
    if (await portFree(p)) return p;
  }
  throw new Error(`no free port between ${start} and ${start + 200}`);
}

function tcpReachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface Postgres {
  port: number;
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: sessions are ended with 57P01, new connections are refused. */
  stop(): Promise<void>;
}

async function idOf(user: string): Promise<{ uid: number; gid: number }> {
  const [u, g] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** initdb into a fresh directory owned by `postgres` (trust authentication, 127.0.0.1 only), then start. */
export async function startPostgres(): Promise<Postgres> {
  const port = await freePort(55432);
  const dir = mkdtempSync(join(tmpdir(), 'svc-faults-pg-'));
  onTeardown('PostgreSQL data directory', async () => rmSync(dir, { recursive: true, force: true }));
  // PostgreSQL refuses to run as root: as root the cluster belongs to `postgres`, otherwise to the caller.
  const root = process.getuid?.() === 0;
  if (root) {
    const { uid, gid } = await idOf('postgres');
    chownSync(dir, uid, gid);
  }
  const asPostgres = (cmd: string, args: string[]) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', join(PG_BIN, cmd), ...args], { cwd: '/tmp', maxBuffer: 16 * 1024 * 1024 })
      : run(join(PG_BIN, cmd), args, { cwd: '/tmp', maxBuffer: 16 * 1024 * 1024 });
  await asPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const log = join(dir, 'faults.log');
  const opts = `-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200`;
  let running = false;
  const pgCtl = async (args: string[]) => {
    try {
      await asPostgres('pg_ctl', ['-D', dir, '-l', log, ...args]);
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`pg_ctl ${args.at(-1)} failed: ${e.stderr || e.message}`);
    }
  };
  const pgStart = async () => {
    await pgCtl(['-w', '-t', '60', '-o', opts, 'start']);
    running = true;
  };
  onTeardown('PostgreSQL', async () => {
    if (running) await pgCtl(['-w', '-t', '30', '-m', 'immediate', 'stop']);
  });
  await pgStart();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: pgStart,
    stop: async () => {
      await pgCtl(['-w', '-t', '60', '-m', 'fast', 'stop']);
      running = false;
    },
  };
}

export interface RedisServer {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** redis-server as a child process, without persistence, on a free port. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort(56379);
  let child: ChildProcess | undefined;
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited;
  };
  const start = async () => {
    const c = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = c;
    let err = '';
    c.stderr?.on('data', (d) => {
      err += String(d);
    });
    const deadline = Date.now() + 20_000;
    while (!(await tcpReachable(port))) {
      if (c.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${port}: ${err}`);
      await sleep(50);
    }
  };
  onTeardown('redis-server', stop);
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, stop };
}

export interface ServiceProcess {
  role: string;
  /** The API's URL (role api or all). */
  url: string;
  child: ChildProcess;
  /** The last lines it wrote, for a failure report. */
  output(): string;
  /** SIGKILL: no handler runs, nothing is flushed or released. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `svc serve --role ROLE` in its own process, the service itself (test/support/svc-process.ts: no
 * wrapper process between the signal and the service): a SIGKILL must hit the process that holds
 * the connections and the in-flight work.
 */
export async function startService(role: 'api' | 'dispatcher', env: Record<string, string>): Promise<ServiceProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'SVC_ROLE', 'PORT', 'WEBHOOK_PORT']) delete childEnv[k];
  Object.assign(childEnv, { PORT: '0', HOST: '127.0.0.1', SVC_LOG_LEVEL: 'warn', SVC_RECONCILE_INTERVAL_SECONDS: '0', ...env });
  const child = spawn(...svcServe(['--role', role]), {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + String(d)).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (gone()) return;
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };
  onTeardown(`${role} process ${child.pid}`, stop);
  const ready = role === 'api' ? /svc listening on (http:\/\/\S+)/ : /svc webhook dispatcher (\S+) running/;
  const deadline = Date.now() + 120_000;
  let m = ready.exec(out);
  while (!m) {
    if (gone()) throw new Error(`${role} process exited before it was ready:\n${out}`);
    if (Date.now() > deadline) throw new Error(`${role} process not ready after 120 s:\n${out}`);
    await sleep(50);
    m = ready.exec(out);
  }
  return {
    role,
    url: role === 'api' ? (m[1] as string) : '',
    child,
    output: () => out,
    kill9: async () => {
      if (gone()) return;
      child.kill('SIGKILL');
      await exited;
    },
    stop,
  };
}
