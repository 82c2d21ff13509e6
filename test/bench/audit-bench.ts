// Audit events appended per second with chaining and signing, next to plain inserts of rows of
// the same shape measured in the same run, on PGlite and on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { appendAudit, migrate, openDatabase } from '@svc/server';
import pg from 'pg';
import { ensureSigningKey } from '../../packages/server/src/platform/ledger/key-rotation.ts';

const N = Number(process.env.BENCH_AUDIT_EVENTS ?? 1000);
const PARALLEL = Number(process.env.BENCH_AUDIT_PARALLEL ?? 8);

interface Result {
  database: string;
  mode: string;
  perSecond: number;
  ratio: number;
}

async function timed(n: number, parallel: number, fn: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) await fn(next++);
    }),
  );
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function bench(name: string, databaseUrl: string | undefined): Promise<Result[]> {
  const db = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 10 });
  try {
    await migrate(db);
    await ensureSigningKey(db.prisma, undefined);
    await db.prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS bench_plain_events (LIKE audit_events INCLUDING DEFAULTS)`);
    const out: Result[] = [];
    for (const parallel of [1, PARALLEL]) {
      const tenantId = `ten_bench_${randomUUID()}`;
      const entry = (i: number) => ({
        tenantId,
        actor: 'key_bench',
        action: 'assessment.created',
        resourceType: 'svc.compliance.assessment',
        resourceId: `asm_${i}`,
        correlationId: `cor_${i}`,
        data: { type: 'fria', systemId: `sys_${i}`, jurisdiction: 'eu/de' },
      });
      const plain = await timed(N, parallel, async (i) => {
        const e = entry(i);
        await db.prisma.$transaction(async (tx) => {
          await tx.$executeRaw`INSERT INTO bench_plain_events (id, tenant_id, seq, prev_hash, hash, signature, key_id, actor, action, resource_type, resource_id, correlation_id, data)
            VALUES (${randomUUID()}, ${e.tenantId}, ${i}, '', '', '', '', ${e.actor}, ${e.action}, ${e.resourceType}, ${e.resourceId}, ${e.correlationId}, ${JSON.stringify(e.data)}::jsonb)`;
        });
      });
      const chained = await timed(N, parallel, async (i) => {
        await db.prisma.$transaction(async (tx) => {
          await appendAudit(tx, entry(i));
        });
      });
      out.push({ database: name, mode: `plain insert, ${parallel} writer(s)`, perSecond: plain, ratio: 1 });
      out.push({ database: name, mode: `chained + signed, ${parallel} writer(s)`, perSecond: chained, ratio: chained / plain });
    }
    await db.prisma.$executeRawUnsafe('DROP TABLE bench_plain_events');
    return out;
  } finally {
    await db.close();
  }
}

const results: Result[] = [];
results.push(...(await bench('pglite', undefined)));
// A database of its own, dropped afterwards: audit rows cannot be deleted, so none is left behind.
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new pg.Client({ connectionString: adminUrl });
try {
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS svc_bench_audit');
  await admin.query('CREATE DATABASE svc_bench_audit');
  const url = new URL(adminUrl);
  url.pathname = '/svc_bench_audit';
  results.push(...(await bench('postgresql', url.toString())));
  await admin.query('DROP DATABASE IF EXISTS svc_bench_audit');
} catch (err) {
  console.log(`PostgreSQL skipped: ${(err as Error).message}`);
} finally {
  await admin.end().catch(() => {});
}
console.log(`node ${process.version} | ${new Date().toISOString()} | ${N} events per measurement (one tenant, one chain)`);
console.log('| database   | mode                             | events/s | ÷ plain |');
console.log('|------------|----------------------------------|---------:|--------:|');
for (const r of results) {
  console.log(
    `| ${r.database.padEnd(10)} | ${r.mode.padEnd(32)} | ${r.perSecond.toFixed(0).padStart(8)} | ${r.ratio.toFixed(2).padStart(7)} |`,
  );
}
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'audit', results })}`);
