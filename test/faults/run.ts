/**
 * `pnpm faults`: durability under faults, measured. Starts a PostgreSQL cluster and a redis-server
 * of its own, the API and dispatchers as separate `svc serve --role ...` processes, and runs:
 *
 * 1. kill -9 of the API in the middle of a burst of creates: every acknowledged create is present
 *    after a restart, none is half-written (row, audit event and outbox rows together or not at
 *    all), and the audit chain verifies;
 * 2. kill -9 of one of two dispatchers mid-delivery: every event reaches a signature-checking
 *    receiver, redeliveries carry the same event id, none is lost;
 * 3. PostgreSQL stopped and started under load: 503 with Retry-After in the envelope while it is
 *    down, never a 500 or a hang, and the API serves again by itself;
 * 4. Redis stopped under two API processes sharing one rate limit: refused clearly (503 with
 *    Retry-After) while it is down, shared limiting again once it is back.
 *
 * Each scenario prints one line of counts; the exit code is 1 when any guarantee failed. Everything
 * started is stopped at the end, also after a failure or on SIGINT/SIGTERM.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReceiver } from './http.ts';
import { onTeardown, startPostgres, startRedis, startService, teardownAll } from './infra.ts';
import {
  type Context,
  killApiDuringCreates,
  killDispatcherDuringDelivery,
  type Outcome,
  restartPostgresUnderLoad,
  stopRedis,
} from './scenarios.ts';

/** The suite's own limit: a wedged run must still stop and clean up (CI budget is about 4 minutes). */
const SUITE_LIMIT_MS = Number(process.env.SVC_FAULTS_LIMIT_MS ?? 420_000);

const say = (line: string) => process.stdout.write(`${line}\n`);

async function setup(): Promise<Context> {
  const [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  say(`faults: PostgreSQL 15 on 127.0.0.1:${pg.port}, redis-server on 127.0.0.1:${redis.port} (both private to this run)`);
  const receiver = await startReceiver();
  onTeardown('webhook receiver', receiver.close);
  const dir = mkdtempSync(join(tmpdir(), 'svc-faults-'));
  onTeardown('credentials directory', async () => rmSync(dir, { recursive: true, force: true }));
  const credentialsFile = join(dir, 'credentials.json');
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    SVC_CREDENTIALS_FILE: credentialsFile,
    SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  const api = await startService('api', env);
  // The first start on the empty database bootstraps and writes the operator credential here.
  const operatorToken: string | undefined = existsSync(credentialsFile)
    ? JSON.parse(readFileSync(credentialsFile, 'utf8')).operatorToken
    : undefined;
  if (!operatorToken) throw new Error(`the first start wrote no operator credential to ${credentialsFile}`);
  return { pg, redis, receiver, operatorToken, api, env };
}

const SCENARIOS: [string, (ctx: Context) => Promise<Outcome>][] = [
  ['kill -9 API during creates', killApiDuringCreates],
  ['kill -9 one of two dispatchers', killDispatcherDuringDelivery],
  ['PostgreSQL restarted under load', restartPostgresUnderLoad],
  ['Redis stopped', stopRedis],
];

async function main(): Promise<number> {
  const started = Date.now();
  // `pnpm faults 3` runs scenario 3 alone (while working on one fault); no argument runs all four.
  const only = process.argv.slice(2).map(Number);
  const chosen = SCENARIOS.filter((_, i) => only.length === 0 || only.includes(i + 1));
  const ctx = await setup();
  const failed: string[] = [];
  for (const [name, scenario] of chosen) {
    const t0 = Date.now();
    let outcome: Outcome;
    try {
      outcome = await scenario(ctx);
    } catch (err) {
      outcome = { line: `${name}: did not complete`, failures: [err instanceof Error ? (err.stack ?? err.message) : String(err)] };
    }
    say(`${outcome.line} [${((Date.now() - t0) / 1000).toFixed(1)} s]`);
    for (const f of outcome.failures) say(`  FAILED: ${f}`);
    if (outcome.failures.length > 0) failed.push(name);
  }
  const took = ((Date.now() - started) / 1000).toFixed(1);
  if (failed.length > 0) {
    say(`faults: ${failed.length} of ${chosen.length} scenarios failed (${failed.join(', ')}) in ${took} s`);
    say(`--- last output of the API process ---\n${ctx.api.output().slice(-4000)}`);
    return 1;
  }
  say(`faults: all ${chosen.length} scenarios held in ${took} s`);
  return 0;
}

let finishing = false;
async function finish(code: number): Promise<never> {
  if (!finishing) {
    finishing = true;
    await teardownAll();
  }
  process.exit(code);
}

// A closed stdout (the output piped into `head`) or a stray error must still stop the clusters.
process.stdout.on('error', () => {});
process.on('uncaughtException', (err) => {
  process.stderr.write(`faults: ${err.stack ?? err.message}\n`);
  void finish(1);
});
process.on('unhandledRejection', (err) => {
  process.stderr.write(`faults: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  void finish(1);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    say(`faults: ${signal}, stopping what was started`);
    void finish(130);
  });
}
setTimeout(() => {
  say(`faults: not finished after ${SUITE_LIMIT_MS / 1000} s; stopping what was started`);
  void finish(1);
}, SUITE_LIMIT_MS).unref();

main().then(
  (code) => finish(code),
  (err: unknown) => {
    say(`faults: setup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return finish(1);
  },
);
