// Audit events appended per second with chaining and signing, next to plain inserts of rows of
// the same shape measured in the same run, on PGlite and on PostgreSQL.
//
// Then the verification of a long chain (BENCH_AUDIT_VERIFY events, default 20,000) by the
// reconciler's audit-chain check, which reads and verifies it a page at a time, next to one walk
// over the whole range loaded at once (what the check did until 2026-12-03) in the same run: the
// time, the longest the event loop was held (what every other request of the process waits), and
// the heap the walk added at its peak.
import { randomBytes, randomUUID } from 'node:crypto';
import { verifyChain } from '@svc/contract/audit';
import { appendAudit, migrate, openDatabase } from '@svc/server';
import pg from 'pg';
import { toChainedEvent } from '../../packages/server/src/platform/ledger/audit.ts';
import { ensureSigningKey } from '../../packages/server/src/platform/ledger/key-rotation.ts';
import { listPublicKeys } from '../../packages/server/src/platform/ledger/signing.ts';
import { reconcileTenant } from '../../packages/server/src/rails/reconciliation/service.ts';
import { configureSecretsKey } from '../../packages/server/src/webhooks/secret-box.ts';

const N = Number(process.env.BENCH_AUDIT_EVENTS ?? 1000);
const PARALLEL = Number(process.env.BENCH_AUDIT_PARALLEL ?? 8);
const VERIFY = Number(process.env.BENCH_AUDIT_VERIFY ?? 20_000);
// The generated signing key is sealed at rest with the secrets key, as a server seals it.
configureSecretsKey(process.env.SVC_SECRETS_KEY ?? randomBytes(32).toString('base64'));

interface Verification {
  database: string;
  mode: string;
  seconds: number;
  longestStallMs: number;
  heapPeakMb: number;
}

/**
 * Runs `fn` with a 5 ms timer beside it: the longest gap between its ticks past 5 ms is how long
 * the event loop was held at a stretch; heapUsed is sampled at every tick and when `fn` returns
 * (before any collection: the peak includes garbage not yet collected, for both ways alike).
 */
async function watched(fn: () => Promise<boolean>): Promise<Omit<Verification, 'database' | 'mode'>> {
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 5);
  const start = performance.now();
  const ok = await fn();
  const seconds = (performance.now() - start) / 1000;
  // A walk that holds the loop throughout leaves the timer no tick to sample in: its rows are
  // still on the heap (uncollected) when it returns.
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  longest = Math.max(longest, performance.now() - last - 5);
  clearInterval(timer);
  if (!ok) throw new Error('the chain did not verify');
  return { seconds, longestStallMs: longest, heapPeakMb: (heapPeak - heapBefore) / 1048576 };
}

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

/** The `i`th audit entry of a bench tenant: an assessment created. */
function entryOf(tenantId: string, i: number) {
  return {
    tenantId,
    actor: 'key_bench',
    action: 'assessment.created',
    resourceType: 'svc.compliance.assessment',
    resourceId: `asm_${i}`,
    correlationId: `cor_${i}`,
    data: { type: 'fria', systemId: `sys_${i}`, jurisdiction: 'eu/de' },
  };
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
      const entry = (i: number) => entryOf(tenantId, i);
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

    const tenantId = `ten_bench_${randomUUID()}`;
    for (let i = 0; i < VERIFY; i += 1000) {
      await db.prisma.$transaction(
        async (tx) => {
          for (let j = i; j < Math.min(VERIFY, i + 1000); j++) {
            await appendAudit(tx, entryOf(tenantId, j));
          }
        },
        { timeout: 120_000 },
      );
    }
    const whole = await watched(async () => {
      const rows = await db.prisma.auditEvent.findMany({ where: { tenantId }, orderBy: { seq: 'asc' } });
      return verifyChain(rows.map(toChainedEvent), await listPublicKeys(db.prisma), { tenantId }).valid;
    });
    const paged = await watched(async () => (await reconcileTenant(db.prisma, tenantId, 'manual'))?.open === 0);
    verifications.push({ database: name, mode: 'one walk, loaded at once', ...whole });
    verifications.push({ database: name, mode: 'reconciler, page by page', ...paged });
    return out;
  } finally {
    await db.close();
  }
}

const results: Result[] = [];
const verifications: Verification[] = [];
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
console.log(`\nverifying a chain of ${VERIFY} events (held: the longest stretch the event loop could not run anything else)`);
console.log('| database   | mode                      | seconds | held ms | heap MB |');
console.log('|------------|---------------------------|--------:|--------:|--------:|');
for (const v of verifications) {
  console.log(
    `| ${v.database.padEnd(10)} | ${v.mode.padEnd(25)} | ${v.seconds.toFixed(2).padStart(7)} | ${v.longestStallMs.toFixed(0).padStart(7)} | ${v.heapPeakMb.toFixed(0).padStart(7)} |`,
  );
}
for (const database of new Set(verifications.map((v) => v.database))) {
  const [whole, paged] = verifications.filter((v) => v.database === database);
  if (whole && paged) {
    console.log(
      `${database}: page by page ÷ at once: time ${(paged.seconds / whole.seconds).toFixed(2)}, held ${(paged.longestStallMs / whole.longestStallMs).toFixed(3)}, heap ${(paged.heapPeakMb / whole.heapPeakMb).toFixed(2)}`,
    );
  }
}
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'audit', results, verifications })}`);
