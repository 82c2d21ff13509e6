import { isIP } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { CONTENT_ROOT } from './content/check.ts';
import type { HttpHardening } from './http/hardening.ts';
import { loadWebhookConfig, type WebhookConfig } from './webhooks/config.ts';

const Env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
      .optional(),
    SVC_DATA_DIR: z.string().optional(),
    SVC_CACHE_DIR: z.string().min(1).optional(),
    SVC_CONTENT_DIR: z.string().min(1).optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
      .optional(),
    SVC_CREDENTIALS_FILE: z.string().optional(),
    SVC_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    SVC_BODY_LIMIT: z
      .string()
      .regex(/^\d+(b|kb|mb)$/i)
      .default('1mb'),
    SVC_IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
    SVC_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    SVC_AUDIT_SIGNING_KEY: z.string().min(1).optional(),
    SVC_SECRETS_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'SVC_SECRETS_KEY must be 32 bytes, base64-encoded')
      .optional(),
    SVC_SECRETS_KEY_PREVIOUS: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'SVC_SECRETS_KEY_PREVIOUS must be 32 bytes, base64-encoded')
      .optional(),
    SVC_AUTH_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
    SVC_IDLE_GC_SECONDS: z.coerce.number().min(0).max(3600).default(5),
    SVC_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
    SVC_DEADLINE_SWEEP_SECONDS: z.coerce.number().int().min(0).default(60),
    SVC_JOBS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
    SVC_JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    SVC_HSTS: z.enum(['true', 'false', '1', '0']).default('false'),
    SVC_CORS_ORIGINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .refine(
        (list) => list.every((o) => /^https?:\/\/[^/\s*]+$/.test(o)),
        'SVC_CORS_ORIGINS must list exact origins (scheme://host[:port]), comma-separated, no wildcard',
      ),
    SVC_PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
    SVC_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(10),
    SVC_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
    SVC_MAX_HEADER_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(16_384),
    SVC_SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^/\s]+/, 'SVC_SMTP_URL must be an smtp:// or smtps:// URL')
      .optional(),
    SVC_SMTP_FROM: z.email('SVC_SMTP_FROM must be an email address').default('notifications@svc.example'),
    SVC_WEB: z.enum(['true', 'false', '1', '0']).default('true'),
    SVC_WEB_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    SVC_WEB_PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
    SVC_WEB_SESSION_HOURS: z.coerce.number().positive().max(720).default(12),
    SVC_CONSOLE: z.enum(['true', 'false', '1', '0']).default('true'),
    SVC_CONSOLE_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    SVC_CONSOLE_HOST: z.string().min(1).default('127.0.0.1'),
    SVC_CONSOLE_SESSION_HOURS: z.coerce.number().positive().max(72).default(8),
    SVC_TRUST_PROXY: z
      .string()
      .default('')
      .refine(
        (v) => !/^\s*true\s*$/i.test(v),
        'SVC_TRUST_PROXY=true would believe any X-Forwarded-For a client sends: give the number of proxies in front of the service or their addresses',
      )
      .refine(
        (v) => trustProxyOf(v) !== undefined,
        'SVC_TRUST_PROXY must be a number of proxies (1) or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal',
      ),
    SVC_SIGN_IN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
    SVC_SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
    SVC_SIGN_IN_FAILURES_PER_SUBNET: z.coerce.number().int().min(1).max(1_000_000).default(100),
    SVC_SIGN_IN_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  })
  .refine((e) => e.SVC_HEADERS_TIMEOUT_SECONDS <= e.SVC_REQUEST_TIMEOUT_SECONDS, {
    path: ['SVC_HEADERS_TIMEOUT_SECONDS'],
    message: 'SVC_HEADERS_TIMEOUT_SECONDS must not exceed SVC_REQUEST_TIMEOUT_SECONDS',
  });

export interface Config {
  port: number;
  host: string;
  /** Public origin of the API, stated in the served OpenAPI document; the listening URL when absent (`SVC_PUBLIC_URL`). */
  publicUrl?: string;
  /** PostgreSQL URL; absent means the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Where a new embedded database's template is kept (templates.ts); `SVC_CACHE_DIR`, else ~/.cache/svc. */
  cacheDir: string;
  /** Folder of the reference content (frameworks/, glossary/, crosswalks/); the shipped one by default. */
  contentDir: string;
  redisUrl: string | undefined;
  credentialsFile: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  bodyLimit: string;
  idempotencyTtlMs: number;
  dbPoolSize: number;
  /** Ed25519 private key (PKCS#8 PEM, or base64 of it); absent: one is generated and kept. */
  auditSigningKey: string | undefined;
  /** Outbound dispatcher, inbound webhook worker and `--role` (webhooks/config.ts). */
  webhooks: WebhookConfig;
  /** AES-256-GCM key (base64, 32 bytes) that seals webhook secrets at rest; absent: stored as issued. */
  secretsKey: string | undefined;
  /** The secrets key being rotated away from: rows sealed with it are re-sealed at start, audited. */
  previousSecretsKey: string | undefined;
  /** How long a resolved API key is served from memory (revocations elsewhere wait this long). */
  authCacheMs: number;
  /** Seconds without an API request after which a grown heap is collected and given back (platform/idle-collector.ts); 0: never. */
  idleCollectSeconds: number;
  /** Seconds between scheduled reconciliation runs; 0 turns the schedule off. */
  reconcileIntervalSeconds: number;
  /** Seconds between deadline sweeps (missed disclosure clocks), run beside the dispatcher; 0: off. */
  deadlineSweepSeconds: number;
  /** Background jobs (platform/events/jobs.ts), run beside the dispatcher: poll interval and the lease of a claim. */
  jobs: { pollMs: number; leaseSeconds: number };
  /** Security headers, CORS and slow-client limits of every port (http/hardening.ts). */
  http: HttpHardening;
  /** SMTP server the notifier sends email notifications through (`SVC_SMTP_URL`); absent: email deliveries wait for a process that has one. */
  smtp: { url: string | undefined; from: string };
  /** The tenant web application ({app_url}) on its own port, where the API runs (`SVC_WEB*`). */
  web: WebSurfaceConfig;
  /** The operator console ({admin_url}) on its own port, loopback by default (`SVC_CONSOLE*`). */
  console: ConsoleSurfaceConfig;
  /**
   * Which proxies' X-Forwarded-For the API and the browser surfaces believe for the client address
   * (Express's `trust proxy`): off, a number of hops, or their addresses (`SVC_TRUST_PROXY`).
   */
  trustProxy: false | number | string[];
}

/** `SVC_TRUST_PROXY` as Express takes it; undefined when it is not valid. */
function trustProxyOf(raw: string): false | number | string[] | undefined {
  const v = raw.trim();
  if (v === '' || v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
  const items = v.split(',').map((x) => x.trim());
  const valid = items.every((item) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(item)) return true;
    const [addr, prefix, extra] = item.split('/');
    const kind = isIP(addr ?? '');
    if (!kind || extra !== undefined) return false;
    return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128));
  });
  return valid ? items : undefined;
}

export interface WebSurfaceConfig {
  enabled: boolean;
  /** Unset: 8082, or a free port when the API's port is 0 (tests). */
  port: number | undefined;
  /** Public origin of the web application (sign-in links; `https://` makes the cookies Secure); the listening URL when absent. */
  publicUrl: string | undefined;
  sessionHours: number;
  signIn: SignInLimits;
}

/** What a password sign-in may cost and how often it may fail (ui/sign-in-guard.ts). */
export interface SignInLimits {
  /** The longest an account waits after failures (the backoff doubles up to it), `SVC_SIGN_IN_BACKOFF_MAX_SECONDS`. */
  backoffMaxMs: number;
  /** Failed sign-ins allowed per client address in 15 minutes. */
  failuresPerAddress: number;
  /** Failed sign-ins allowed per /24 (IPv4) or /64 (IPv6) in 15 minutes. */
  failuresPerSubnet: number;
  /** Password hashes computed at once by the process; a few more wait, beyond that 503. */
  hashConcurrency: number;
}

export interface ConsoleSurfaceConfig {
  enabled: boolean;
  /** Unset: 8083, or a free port when the API's port is 0 (tests). */
  port: number | undefined;
  /** 127.0.0.1 unless configured: the console is for the machine's operators. */
  host: string;
  sessionHours: number;
}

/** The one place configuration is read; invalid values stop the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.SVC_DATA_DIR ?? join(process.cwd(), '.data'));
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.SVC_PUBLIC_URL,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    cacheDir: resolve(e.SVC_CACHE_DIR ?? join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc')),
    contentDir: resolve(e.SVC_CONTENT_DIR ?? CONTENT_ROOT),
    redisUrl: e.REDIS_URL,
    credentialsFile: resolve(e.SVC_CREDENTIALS_FILE ?? join(homedir(), '.svc', 'credentials.json')),
    logLevel: e.SVC_LOG_LEVEL,
    bodyLimit: e.SVC_BODY_LIMIT,
    idempotencyTtlMs: e.SVC_IDEMPOTENCY_TTL_HOURS * 3600_000,
    dbPoolSize: e.SVC_DB_POOL_SIZE,
    auditSigningKey: e.SVC_AUDIT_SIGNING_KEY,
    webhooks: loadWebhookConfig(env),
    reconcileIntervalSeconds: e.SVC_RECONCILE_INTERVAL_SECONDS,
    deadlineSweepSeconds: e.SVC_DEADLINE_SWEEP_SECONDS,
    jobs: { pollMs: e.SVC_JOBS_POLL_MS, leaseSeconds: e.SVC_JOB_LEASE_SECONDS },
    authCacheMs: e.SVC_AUTH_CACHE_SECONDS * 1000,
    idleCollectSeconds: e.SVC_IDLE_GC_SECONDS,
    secretsKey: e.SVC_SECRETS_KEY,
    previousSecretsKey: e.SVC_SECRETS_KEY_PREVIOUS,
    http: {
      hsts: e.SVC_HSTS === 'true' || e.SVC_HSTS === '1',
      corsOrigins: e.SVC_CORS_ORIGINS,
      headersTimeoutMs: e.SVC_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: e.SVC_REQUEST_TIMEOUT_SECONDS * 1000,
      maxHeaderBytes: e.SVC_MAX_HEADER_BYTES,
    },
    smtp: { url: e.SVC_SMTP_URL, from: e.SVC_SMTP_FROM },
    web: {
      enabled: e.SVC_WEB === 'true' || e.SVC_WEB === '1',
      port: e.SVC_WEB_PORT,
      publicUrl: e.SVC_WEB_PUBLIC_URL,
      sessionHours: e.SVC_WEB_SESSION_HOURS,
      signIn: {
        backoffMaxMs: e.SVC_SIGN_IN_BACKOFF_MAX_SECONDS * 1000,
        failuresPerAddress: e.SVC_SIGN_IN_FAILURES_PER_ADDRESS,
        failuresPerSubnet: e.SVC_SIGN_IN_FAILURES_PER_SUBNET,
        hashConcurrency: e.SVC_SIGN_IN_HASH_CONCURRENCY,
      },
    },
    console: {
      enabled: e.SVC_CONSOLE === 'true' || e.SVC_CONSOLE === '1',
      port: e.SVC_CONSOLE_PORT,
      host: e.SVC_CONSOLE_HOST,
      sessionHours: e.SVC_CONSOLE_SESSION_HOURS,
    },
    trustProxy: trustProxyOf(e.SVC_TRUST_PROXY) ?? false,
    ...overrides,
  };
}
