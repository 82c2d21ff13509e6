import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAgentDispatch } from '../agents/dispatch.ts';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createHardenedServer } from '../http/hardening.ts';
import type { Logger } from '../logger.ts';
import { createLogger } from '../logger.ts';
import { createNotifier, type Notifier } from '../notifications/notifier.ts';
import { startDeadlineSweep } from '../platform/events/deadline-sweep.ts';
import { jobHandlers } from '../platform/events/job-handlers.ts';
import { type JobWorker, startJobWorker } from '../platform/events/jobs.ts';
import { withLoopAwake } from '../platform/loop-awake.ts';
import { createDispatcher, type Dispatcher } from './dispatcher.ts';
import { createInboundApp, type InboundMetrics } from './inbound/worker.ts';
import { resolveSecretsKey } from './secrets-key.ts';

/** The webhook parts a process runs, after its role: the dispatcher and the inbound worker. */
export interface WebhookRoles {
  dispatcher: Dispatcher | undefined;
  /** The notifier (inbox notifications and Slack, Teams and email deliveries), beside the dispatcher. */
  notifier: Notifier | undefined;
  /** URL of the inbound webhook worker, when this process runs it. */
  webhookUrl: string | undefined;
  webhookPort: number | undefined;
  metrics: InboundMetrics | undefined;
  /** The background-job worker (report rendering, schedules, audit runs, routed agents), beside the dispatcher. */
  jobs: JobWorker | undefined;
  close(): Promise<void>;
}

/**
 * Starts what `config.webhooks.role` asks for: `all` both parts, `dispatcher` or `webhooks` one, `api`
 * none. The dispatcher's processes also run the notifier and the deadline sweep.
 */
export async function startWebhookRoles(opts: { db: Database; log: Logger; config: Config }): Promise<WebhookRoles> {
  const { db, config } = opts;
  const role = config.webhooks.role;
  let dispatcher: Dispatcher | undefined;
  let notifier: Notifier | undefined;
  let stopSweep: (() => void) | undefined;
  let jobs: JobWorker | undefined;
  let stopAgents: (() => void) | undefined;
  if (role === 'all' || role === 'dispatcher') {
    dispatcher = createDispatcher({ db, config: config.webhooks, log: opts.log });
    dispatcher.start();
    notifier = createNotifier({ db, config, log: opts.log });
    notifier.start();
    if (config.deadlineSweepSeconds > 0) stopSweep = startDeadlineSweep(db.prisma, opts.log, config.deadlineSweepSeconds);
    jobs = startJobWorker({ prisma: db.prisma, log: opts.log, handlers: jobHandlers(), ...config.jobs });
    stopAgents = startAgentDispatch(db.prisma, opts.log, config.jobs.pollMs, config.jobs.leaseSeconds);
  }
  let server: Server | undefined;
  let metrics: InboundMetrics | undefined;
  if (role === 'all' || role === 'webhooks') {
    const inbound = createInboundApp({
      db,
      config: config.webhooks,
      log: createLogger(config.logLevel, { service: 'svc-webhooks' }),
      http: config.http,
    });
    metrics = inbound.metrics;
    try {
      const port = config.webhooks.port ?? (config.port === 0 ? 0 : 8081);
      server = await new Promise<Server>((resolve, reject) => {
        const s = createHardenedServer(inbound.app, config.http);
        s.once('error', reject);
        s.listen(port, config.host, () => resolve(s));
      });
    } catch (err) {
      await jobs?.stop();
      await dispatcher?.stop();
      await notifier?.stop();
      throw err;
    }
  }
  const port = server ? (server.address() as AddressInfo).port : undefined;
  const webhookUrl = port !== undefined ? `http://${config.host}:${port}` : undefined;
  if (webhookUrl) opts.log.info('webhook worker listening', { url: webhookUrl });
  if (dispatcher) opts.log.info('webhook dispatcher started', { dispatcher: dispatcher.id });
  return {
    dispatcher,
    notifier,
    webhookUrl,
    webhookPort: port,
    metrics,
    jobs,
    close: async () => {
      stopSweep?.();
      stopAgents?.();
      await jobs?.stop();
      await dispatcher?.stop();
      await notifier?.stop();
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server?.close(() => resolve()));
      }
    },
  };
}

/**
 * A process of role `dispatcher` or `webhooks` (`svc serve --role ...`): the database and the
 * chosen part, no API. Several may run against one PostgreSQL.
 */
export function startWebhookProcess(config: Config): Promise<WebhookRoles & { db: Database; log: Logger }> {
  return withLoopAwake(() => startRolesProcess(config));
}

async function startRolesProcess(config: Config): Promise<WebhookRoles & { db: Database; log: Logger }> {
  const log = createLogger(config.logLevel, { service: `svc-${config.webhooks.role}` });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  try {
    await migrate(db);
    await resolveSecretsKey(config, db.prisma);
    const roles = await startWebhookRoles({ db, log, config });
    return {
      ...roles,
      db,
      log,
      close: async () => {
        await roles.close();
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}
