/**
 * Outbound webhook throughput: deliveries per second from the dispatcher to a receiver on
 * 127.0.0.1 that answers 204, on PGlite (in memory) and on PostgreSQL (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; skipped when it cannot connect). Run with
 * `pnpm bench:webhooks`; it stops by itself.
 *
 * The outbox is filled first (BENCH_EVENTS events, default 2000, one subscription), then one
 * dispatcher (concurrency BENCH_CONCURRENCY, default 32) is started and timed until the receiver
 * has every delivery, each signed and checked by the receiver.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus } from 'node:os';
import { webhooks } from '@svc/sdk';
import { createDispatcher, openDatabase } from '@svc/server';
import { createTenant } from '../support/api.ts';
import { startTestServer } from '../support/server.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PG_DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

async function canConnect(url: string): Promise<boolean> {
  try {
    const db = await openDatabase({ databaseUrl: url, dataDir: '', poolSize: 1 });
    await db.prisma.$queryRaw`SELECT 1`;
    await db.close();
    return true;
  } catch {
    return false;
  }
}

async function measure(target: 'pglite' | 'postgresql') {
  let secret = '';
  let received = 0;
  let invalid = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        webhooks.verify(Buffer.concat(chunks), req.headers['x-svc-signature'] as string, secret);
      } catch {
        invalid++;
      }
      res.writeHead(204).end();
      if (++received === EVENTS) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  if (target === 'pglite') delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL ??= PG_DEFAULT_URL;
  // Role api: no built-in dispatcher, so the outbox fills up before the timed one starts.
  const ts = await startTestServer({ SVC_ROLE: 'api', SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SVC_WEBHOOK_POLL_MS: '20' });
  try {
    const t = await createTenant(ts);
    const asm = await t.call('POST', '/v1/compliance/assessments', {
      body: { type: 'fria', systemId: 'sys_bench', jurisdiction: 'eu/de' },
    });
    const sub = await t.call('POST', '/v1/webhook-subscriptions', { body: { url, eventTypes: ['assessment.*'] } });
    secret = sub.body.secret;
    const prisma = ts.server.db.prisma;
    const now = new Date();
    // Ids unique per run (the PostgreSQL database keeps earlier runs' rows): a random tag and the index.
    const tag = Array.from({ length: 6 }, () => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(Math.random() * 32)]).join('');
    const pad = (i: number) => `${tag}${String(i).padStart(20, '0')}`;
    for (let from = 0; from < EVENTS; from += 500) {
      const ids = Array.from({ length: Math.min(500, EVENTS - from) }, (_, k) => pad(from + k));
      await prisma.webhookEvent.createMany({
        data: ids.map((i) => ({
          id: `evt_${i}`,
          tenantId: t.tenantId,
          type: 'assessment.created',
          source: `/v1/compliance/assessments/${asm.body.id}`,
          subject: asm.body.id,
          data: asm.body,
          correlationId: 'bench',
          createdAt: now,
        })),
      });
      await prisma.webhookDelivery.createMany({
        data: ids.map((i) => ({
          id: `whd_${i}`,
          tenantId: t.tenantId,
          subscriptionId: sub.body.id,
          eventId: `evt_${i}`,
          eventType: 'assessment.created',
          status: 'pending',
          nextAttemptAt: now,
        })),
      });
    }
    const dispatcher = createDispatcher({
      db: ts.server.db,
      config: { ...ts.server.config.webhooks, concurrency: CONCURRENCY },
      log: ts.server.log,
    });
    const started = performance.now();
    dispatcher.start();
    const timeout = setTimeout(() => done(), 300_000);
    await finished;
    clearTimeout(timeout);
    const seconds = (performance.now() - started) / 1000;
    await dispatcher.stop();
    const succeeded = await prisma.webhookDelivery.count({ where: { tenantId: t.tenantId, status: 'succeeded' } });
    return { target, events: EVENTS, received, succeeded, invalid, seconds, perSecond: received / seconds };
  } finally {
    await ts.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

const pgUrl = process.env.DATABASE_URL ?? PG_DEFAULT_URL;
const targets: ('pglite' | 'postgresql')[] = ['pglite'];
if (await canConnect(pgUrl)) targets.push('postgresql');
else console.log(`PostgreSQL at ${pgUrl} not reachable: measuring PGlite only`);

console.log(
  `webhook dispatcher bench: ${EVENTS} deliveries, concurrency ${CONCURRENCY}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`,
);
for (const target of targets) {
  const r = await measure(target);
  console.log(
    `${r.target.padEnd(10)} ${r.received}/${r.events} delivered (${r.succeeded} recorded succeeded, ${r.invalid} bad signatures) in ${r.seconds.toFixed(2)} s: ${r.perSecond.toFixed(0)} deliveries/s`,
  );
}
process.exit(0);
