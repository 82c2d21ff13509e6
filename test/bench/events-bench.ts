// The event index on a million rows: each filter of GET /v1/events timed with its index, next to
// the same query with index scans turned off (a sequential scan), measured in the same session.
import { migrate, openDatabase } from '@svc/server';
import pg from 'pg';

const ROWS = Number(process.env.BENCH_EVENT_ROWS ?? 1_000_000);
const RUNS = 7;
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'svc_bench_events';

const admin = new pg.Client({ connectionString: adminUrl });
try {
  await admin.connect();
} catch (err) {
  console.log(`PostgreSQL not reachable (${(err as Error).message}); this benchmark needs it.`);
  process.exit(0);
}
await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
await admin.query(`CREATE DATABASE ${DB}`);
const url = new URL(adminUrl);
url.pathname = `/${DB}`;

const db = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolSize: 2 });
await migrate(db);
await db.close();

const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
const loadStart = Date.now();
// Ten tenants; the measured one holds a tenth of the rows.
await client.query(`
  INSERT INTO event_index (id, time, tenant_id, source, kind, phase, severity, actor, entity, action, outcome, correlation_id, latency_ms, attributes)
  SELECT 'evi_' || lpad(g::text, 26, '0'),
         timestamp '2026-01-01' + (g * interval '13 seconds'),
         'ten_' || (g % 10),
         'source_' || (g % 12),
         'cat' || (g % 9) || '.event' || (g % 7),
         (ARRAY['requested','started','in_progress','completed','failed','cancelled','observed'])[1 + g % 7],
         (ARRAY['debug','info','notice','warning','error','critical'])[1 + (g / 7) % 6],
         'actor_' || (g % 211),
         'ent_' || (g % 50021),
         'act' || (g % 17),
         (ARRAY['success','failure','unknown'])[1 + g % 3],
         'cor_' || (g / 4),
         g % 3000,
         '{}'::jsonb
  FROM generate_series(1, ${ROWS}) AS g`);
await client.query('ANALYZE event_index');
const loadSeconds = (Date.now() - loadStart) / 1000;

const filters: [string, string, unknown[]][] = [
  ['time range', `"time" >= $2 AND "time" < $3`, ['2026-02-01', '2026-02-02']],
  ['source', `"source" = $2`, ['source_3']],
  ['kind', `"kind" = $2`, ['cat3.event3']],
  ['phase', `"phase" = $2`, ['failed']],
  ['severity', `"severity" = $2`, ['critical']],
  ['actor', `"actor" = $2`, ['actor_42']],
  ['entity', `"entity" = $2`, ['ent_4242']],
  ['action', `"action" = $2`, ['act5']],
  ['correlationId', `"correlation_id" = $2`, ['cor_1000']],
  ['kind + time range', `"kind" = $2 AND "time" >= $3 AND "time" < $4`, ['cat3.event3', '2026-03-01', '2026-03-15']],
];

async function p50(sql: string, params: unknown[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await client.query(sql, params);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? 0;
}

console.log(`node ${process.version} | PostgreSQL | ${new Date().toISOString()} | ${ROWS} rows loaded in ${loadSeconds.toFixed(1)} s`);
console.log('| filter (page of 50, newest first) | indexed ms | seq scan ms | seq ÷ indexed | plan |');
console.log('|---|---:|---:|---:|---|');
const results = [];
for (const [name, cond, params] of filters) {
  const sql = `SELECT * FROM event_index WHERE "tenant_id" = $1 AND ${cond} ORDER BY "time" DESC, "id" DESC LIMIT 51`;
  const args = ['ten_3', ...params];
  const plan = (await client.query(`EXPLAIN ${sql}`, args)).rows.map((r) => r['QUERY PLAN'] as string).join(' ');
  const index = /Index (Only )?Scan (Backward )?using (\S+)/.exec(plan)?.[3] ?? /Bitmap Index Scan on (\S+)/.exec(plan)?.[1] ?? 'seq scan';
  const indexed = await p50(sql, args);
  await client.query('SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off');
  const seq = await p50(sql, args);
  await client.query('RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan');
  results.push({ name, indexed, seq, ratio: seq / indexed, index });
  console.log(`| ${name} | ${indexed.toFixed(2)} | ${seq.toFixed(1)} | ${(seq / indexed).toFixed(0)} | ${index} |`);
}
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'events', rows: ROWS, results })}`);
await client.end();
await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
await admin.end();
