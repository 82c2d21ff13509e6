import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, serverClasses } from './app.ts';
import { bootstrapIfEmpty, type FirstStart, writeCredentials } from './bootstrap.ts';
import { type Config, loadConfig } from './config.ts';
import { loadCrosswalks } from './content/crosswalk-store.ts';
import { loadFrameworks } from './content/frameworks.ts';
import { loadGlossary } from './content/glossary-store.ts';
import { contentFilesHash, useContentDir } from './content/paths.ts';
import { type Database, openDatabase } from './db/client.ts';
import {
  copyEmbeddedTemplate,
  embeddedTemplate,
  packagedTemplateArchive,
  saveEmbeddedTemplate,
  unpackPackagedTemplate,
  writePackagedTemplate,
} from './db/embedded-template.ts';
import { migrate } from './db/migrate.ts';
import { createHardenedServer } from './http/hardening.ts';
import { createCounterStore } from './http/rate-limit.ts';
import { createLogger, type Logger } from './logger.ts';
import { initTracing } from './observability/tracing.ts';
import { startIdleCollector } from './platform/idle-collector.ts';
import { ensureSigningKey } from './platform/ledger/key-rotation.ts';
import { withLoopAwake } from './platform/loop-awake.ts';
import { dsarRules } from './rails/dsar/clocks.ts';
import { gpaiTemplate } from './rails/gpai-summary/service.ts';
import { regimeRules } from './rails/incident-disclosures/clocks.ts';
import { profileCatalogue } from './rails/profiles/service.ts';
import { startReconciler } from './rails/reconciliation/service.ts';
import { corpus } from './rails/red-team/corpus.ts';
import { taxonomy } from './rails/taxonomy/service.ts';
import { stockCatalogue } from './rails/workflows-registry/service.ts';
import { type ConsoleApp, startConsole } from './ui/console/app.ts';
import { startWebApp, type WebApp } from './ui/web/app.ts';
import { startWebhookRoles, type WebhookRoles } from './webhooks/roles.ts';
import { resealUnderCurrentKey, resolveSecretsKey, sealExistingSecrets } from './webhooks/secrets-key.ts';

export { type Credentials, readCredentials } from './bootstrap.ts';
export { type Config, loadConfig } from './config.ts';
export { type Database, openDatabase } from './db/client.ts';
export { migrate } from './db/migrate.ts';

export const VERSION = '0.1.0';

/** Whether a listening host is reachable from this machine only. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Migrates a database and loads the shipped content into it: what every start does before its
 * tenants exist. A test suite prepares one database this way and starts its servers from copies
 * (`buildPgliteSnapshot`, or a PostgreSQL template database).
 */
export async function prepareDatabase(db: Database, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env, { dataDir: 'memory://', databaseUrl: undefined });
  const log = createLogger('silent', { service: 'svc-prepare' });
  await migrate(db);
  await loadContent(db, log, config.contentDir, contentFilesHash(config.contentDir));
}

/**
 * Makes the archive of a new embedded database's template that a built package ships
 * (db/embedded-template.ts): its build runs this (scripts/build-package.mjs). A new cluster in a
 * folder of its own, migrated and loaded with the shipped content, kept as a template and zipped.
 * Does nothing when the package already holds the archive of this template (the same migrations,
 * content and PGlite).
 */
export async function buildPackagedTemplate(outDir?: string): Promise<{ archive: string; built: boolean }> {
  const work = mkdtempSync(join(tmpdir(), 'svc-template-'));
  try {
    const dataDir = join(work, 'data');
    const log = createLogger('silent', { service: 'svc-build' });
    const config = loadConfig({}, { dataDir, databaseUrl: undefined });
    const template = embeddedTemplate({ dataDir, cacheDir: join(work, 'cache') }, contentFilesHash(config.contentDir), log);
    if (!template) throw new Error('no template applies to a new embedded database');
    const archive = packagedTemplateArchive(template, outDir);
    if (existsSync(archive)) return { archive, built: false };
    const db = await openDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
    try {
      await prepareDatabase(db, {});
      await saveEmbeddedTemplate(db, template, dataDir, log);
    } finally {
      await db.close();
    }
    if (!existsSync(join(template.dir, 'PG_VERSION'))) throw new Error('the template was not saved');
    return { archive: writePackagedTemplate(template, outDir), built: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The shipped dictionaries, glossary and crosswalks into the database. Parsing and checking them
 * takes most of a second, so a start whose files are byte for byte those loaded last time (the hash
 * of the files, kept as the `content-files` bundle) skips them; otherwise each is loaded, or skipped
 * when its parsed content is unchanged, and the hash is recorded.
 */
async function loadContent(db: Database, log: Logger, contentDir: string, filesHash: string): Promise<void> {
  const loaded = await db.prisma.contentBundle.findUnique({ where: { kind: 'content-files' } });
  if (loaded?.hash === filesHash) {
    log.debug('content unchanged since it was loaded', { hash: filesHash });
    return;
  }
  await loadFrameworks(db.prisma, log, join(contentDir, 'frameworks'));
  await loadGlossary(db.prisma, log, contentDir);
  await loadCrosswalks(db.prisma, log, contentDir);
  await db.prisma.contentBundle.upsert({
    where: { kind: 'content-files' },
    create: { kind: 'content-files', hash: filesHash },
    update: { hash: filesHash, loadedAt: new Date() },
  });
}

/**
 * An in-memory database migrated and loaded with the content, dumped: a test suite builds it once
 * and starts each server from it (`StartOptions.pgliteSnapshot`) instead of migrating and loading
 * every time. Tenants, keys and the signing key are not in it; each server makes its own.
 */
export async function buildPgliteSnapshot(env: NodeJS.ProcessEnv = process.env): Promise<Blob> {
  const db = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://', poolSize: 1 });
  try {
    await prepareDatabase(db, env);
    // Checkpointed (db/pglite-dump.ts): a cluster dumped with its work still in the WAL replays it at
    // every start from the dump (1.8 s instead of 3.3 s a start, measured).
    return await (db.dump as () => Promise<Blob>)();
  } finally {
    await db.close();
  }
}

export interface StartOptions {
  config?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  /** Requests per second allowed without credentials, per address. */
  anonymousPerSecond?: number;
  operatorPerSecond?: number;
  /** A new embedded database (in memory, or a folder without one) starts from this dump (`buildPgliteSnapshot`): migrated, content loaded. */
  pgliteSnapshot?: Blob;
  /**
   * A database already open (`openDatabase`) that this server uses instead of opening one from the
   * configuration, and leaves open when it closes: several servers of one process can share it, as
   * servers of several processes share a PostgreSQL database. It is migrated and loaded as any other.
   */
  database?: Database;
  /** Print the first-start secrets (the CLI does; tests do not). */
  announce?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  log: Logger;
  config: Config;
  firstStart: FirstStart | undefined;
  /** The outbound dispatcher and the inbound webhook worker this process runs (`config.webhooks.role`). */
  webhooks: WebhookRoles;
  /** The tenant web application ({app_url}), where this process serves the API and `SVC_WEB` is on. */
  appUrl: string | undefined;
  /** The operator console ({admin_url}), where this process serves the API and `SVC_CONSOLE` is on. */
  adminUrl: string | undefined;
  close(): Promise<void>;
}

/** Opens the database, migrates it, loads the dictionaries, bootstraps and listens. */
export function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  return withLoopAwake(() => start(opts));
}

async function start(opts: StartOptions): Promise<RunningServer> {
  // How long each phase of the start took, written at debug level once listening: the process's own
  // start (node, the loader and the modules imported) is what `performance.now()` reads at entry.
  const phases: Record<string, number> = { process_and_imports: Math.round(performance.now()) };
  let phaseStart = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  const config = loadConfig(opts.env ?? process.env, opts.config);
  const log = createLogger(config.logLevel, { service: 'svc-api' });
  // Before the app and the database client exist, so that their first requests and queries are traced.
  await initTracing(opts.env ?? process.env).catch((err: unknown) => log.warn('tracing not started', { error: String(err) }));
  // The rails' data files (profiles, workflows, taxonomy, clocks) come from the same content folder as the
  // dictionaries; each is read and checked now, so a broken file stops the start, naming the problem.
  useContentDir(config.contentDir);
  profileCatalogue();
  stockCatalogue();
  taxonomy();
  regimeRules();
  dsarRules();
  gpaiTemplate();
  corpus();
  phase('config_and_data_files');
  // A new embedded data folder starts from the cached template when there is one (embedded-template.ts).
  // The content files' hash, read once: it decides whether content is loaded, and names the template.
  const filesHash = contentFilesHash(config.contentDir);
  const template = config.databaseUrl || opts.pgliteSnapshot || opts.database ? undefined : embeddedTemplate(config, filesHash, log);
  // The first such start on a machine finds the template in the package's archive (when it is built).
  const unpacked = template?.present === false && unpackPackagedTemplate(template, log);
  if (unpacked) phase('template_unpacked');
  // From the template, the folder then holds a cluster and opens as existing data.
  const fromTemplate = template !== undefined && (template.present || unpacked) && copyEmbeddedTemplate(template, config.dataDir, log);
  if (fromTemplate) phase('template_copied');
  const db =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.dbPoolSize,
      snapshot: opts.pgliteSnapshot,
    }));
  // Closed with the server only when the server opened it.
  const closeDatabase = opts.database ? async () => {} : () => db.close();
  phase('database_open');
  try {
    const applied = await migrate(db);
    if (applied.length > 0) log.info('migrations applied', { migrations: applied });
    phase('migrations');
    const secrets = await resolveSecretsKey(config, db.prisma);
    log.info('secrets key', { source: secrets.source, file: secrets.file });
    await sealExistingSecrets(db, log);
    await resealUnderCurrentKey(db.prisma, config, log);
    phase('secrets');
    await loadContent(db, log, config.contentDir, filesHash);
    phase('content');
    if (template && !fromTemplate) {
      await saveEmbeddedTemplate(db, template, config.dataDir, log);
      phase('template_saved');
    }
    const keyId = await ensureSigningKey(db.prisma, config.auditSigningKey, log);
    log.info('audit signing key', { key_id: keyId, source: config.auditSigningKey ? 'configured' : 'generated' });
  } catch (err) {
    await closeDatabase();
    throw err;
  }
  const firstStart = await bootstrapIfEmpty(db.prisma);
  phase('signing_key_and_bootstrap');
  const counters = createCounterStore(config.redisUrl);
  // The token GET /metrics asks for: the start's environment's, else the process's (createApp's default).
  const metricsToken = (opts.env ?? process.env).SVC_METRICS_TOKEN || process.env.SVC_METRICS_TOKEN || undefined;
  let listeningUrl: string | undefined;
  const app = createApp({
    publicUrl: () => config.publicUrl ?? listeningUrl,
    db,
    log,
    counters,
    bodyLimit: config.bodyLimit,
    authCacheMs: config.authCacheMs,
    idempotencyTtlMs: config.idempotencyTtlMs,
    anonymousPerSecond: opts.anonymousPerSecond ?? 20,
    operatorPerSecond: opts.operatorPerSecond ?? 200,
    version: VERSION,
    webhooks: config.webhooks,
    reconcileIntervalSeconds: config.reconcileIntervalSeconds,
    http: config.http,
    trustProxy: config.trustProxy,
    ...(metricsToken ? { metricsToken } : {}),
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHardenedServer(app, config.http, serverClasses(app));
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
  phase('api_listening');
  const idleCollector = config.idleCollectSeconds > 0 ? startIdleCollector({ idleSeconds: config.idleCollectSeconds, log }) : undefined;
  idleCollector?.watch(server);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host}:${port}`;
  listeningUrl = url;
  if (!metricsToken && !isLoopback(config.host)) {
    // /metrics answers anyone who reaches the port: say so where the operator looks at start.
    log.warn('GET /metrics is open to anyone who can reach this address: set SVC_METRICS_TOKEN', {
      host: config.host,
      variable: 'SVC_METRICS_TOKEN',
    });
  }
  writeCredentials(config.credentialsFile, url, firstStart);

  // Expired idempotency records are removed hourly; they are already ignored once expired.
  const sweep = setInterval(() => {
    db.prisma.idempotencyRecord
      .deleteMany({ where: { expiresAt: { lt: new Date() } } })
      .catch((err: unknown) => log.warn('idempotency sweep failed', { error: String(err) }));
  }, 3600_000);
  sweep.unref();
  const stopReconciler = config.reconcileIntervalSeconds > 0 ? startReconciler(db.prisma, log, config.reconcileIntervalSeconds) : () => {};

  const webhooks = await startWebhookRoles({ db, log, config });
  phase('webhook_roles');

  // The two browser surfaces run beside the API (roles `all` and `api`), each on its own port.
  const servesApi = config.webhooks.role === 'all' || config.webhooks.role === 'api';
  let web: WebApp | undefined;
  let adminConsole: ConsoleApp | undefined;
  // Stops everything started here, the browser surfaces first and the database last; also what a
  // failed start of a browser surface undoes.
  const close = async () => {
    await adminConsole?.close();
    await web?.close();
    await webhooks.close();
    clearInterval(sweep);
    idleCollector?.stop();
    stopReconciler();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await counters.close();
    await closeDatabase();
  };
  try {
    if (servesApi && config.web.enabled) {
      web = await startWebApp({ db, log: createLogger(config.logLevel, { service: 'svc-web' }), config, host: config.host });
      log.info('web application listening', { url: web.url });
    }
    if (servesApi && config.console.enabled) {
      adminConsole = await startConsole({
        db,
        log: createLogger(config.logLevel, { service: 'svc-console' }),
        config,
        dispatcher: () => webhooks.dispatcher,
        appUrl: () => config.web.publicUrl ?? web?.url,
      });
      log.info('operator console listening', { url: adminConsole.url });
    }
  } catch (err) {
    await close();
    throw err;
  }
  phase('browser_surfaces');
  log.debug('start phases', { phases_ms: phases, total_ms: Math.round(performance.now()) });

  log.info('listening', {
    url,
    // `bundle` when running the serve bundle (what `svc serve` runs, scripts/build-js.mjs), `compiled`
    // when running the packages' modules in dist/, `sources` under tsx.
    runtime:
      (globalThis as { svcBuild?: string }).svcBuild === 'bundle' ? 'bundle' : import.meta.url.endsWith('.js') ? 'compiled' : 'sources',
    database: db.kind,
    data_dir: db.kind === 'pglite' ? config.dataDir : undefined,
    redis: Boolean(config.redisUrl),
  });
  return {
    url,
    port,
    db,
    log,
    config,
    firstStart,
    webhooks,
    appUrl: web?.url,
    adminUrl: adminConsole?.url,
    close,
  };
}

export { consumeDispatches } from './agents/dispatch.ts';
export { tenantModels } from './db/tenant-scope.ts';
export { issueApiKey, issueOperatorCredential } from './platform/credentials.ts';
export { sweepDeadlines } from './platform/events/deadline-sweep.ts';
export { enqueueJob, type JobHandler, type JobRun, startJobWorker } from './platform/events/jobs.ts';
export { appendAudit } from './platform/ledger/audit.ts';
export { generateSigningKeyPem } from './platform/ledger/signing.ts';
export { createDispatcher, type Dispatcher } from './webhooks/dispatcher.ts';
export { buildEventData } from './webhooks/outbox.ts';
export { startWebhookProcess, type WebhookRoles } from './webhooks/roles.ts';
export { resolveSecretsKey, SECRETS_KEY_FILE } from './webhooks/secrets-key.ts';
