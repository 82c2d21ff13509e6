import { existsSync, readFileSync } from 'node:fs';
import { WEBHOOK_ATTEMPT_BUDGET_MS } from '@svc/contract';
import { z } from 'zod';

export const ROLES = ['all', 'api', 'dispatcher', 'webhooks'] as const;
export type ServiceRole = (typeof ROLES)[number];

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const Env = z.object({
  SVC_ROLE: z.enum(ROLES).default('all'),
  WEBHOOK_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SVC_WEBHOOK_SCHEDULE_SCALE: z.coerce.number().positive().max(100).default(1),
  SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(10).max(WEBHOOK_ATTEMPT_BUDGET_MS).default(WEBHOOK_ATTEMPT_BUDGET_MS),
  SVC_WEBHOOK_LEASE_MS: z.coerce.number().int().min(50).optional(),
  SVC_WEBHOOK_POLL_MS: z.coerce.number().int().min(5).max(60_000).default(250),
  SVC_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(86_400),
  SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  SVC_WEBHOOK_SOURCE_BASE_URL: z.url().default('https://api.svc.example'),
  SVC_INBOUND_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i)
    .default('256kb'),
  SVC_INBOUND_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  SVC_STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  SVC_SNS_SIGNING_CERTS: z.string().min(1).optional(),
  SVC_GCP_PUBSUB_JWKS: z.string().min(1).optional(),
  SVC_GCP_PUBSUB_ISSUERS: z.string().default('https://accounts.google.com,accounts.google.com'),
  SVC_GCP_PUBSUB_AUDIENCE: z.string().default('https://webhooks.svc.example/cloud/gcp-pubsub/{tenantId}'),
});

/** Settings of the dispatcher and of the inbound webhook worker. */
export interface WebhookConfig {
  /** Which parts this process runs; `svc serve --role`. */
  role: ServiceRole;
  /** Port of the inbound webhook worker (`0` picks a free one); unset: 8081, or a free one when the API's port is 0. */
  port: number | undefined;
  /** Multiplies the retry schedule (+1 s, +5 s, +30 s, +5 min); tests run it scaled down. */
  scheduleScale: number;
  /** Budget of one attempt (at most the specification's 30 s). */
  attemptTimeoutMs: number;
  /** A claimed delivery whose dispatcher vanished is due again after this long. */
  leaseMs: number;
  pollMs: number;
  concurrency: number;
  rotationOverlapSeconds: number;
  /** Allows http and loopback or private addresses as targets (development and tests). */
  allowPrivateTargets: boolean;
  /** The envelope's `source` is this base plus the resource's path. */
  sourceBaseUrl: string;
  inboundBodyLimit: string;
  inboundToleranceSeconds: number;
  stripeSecret: string | undefined;
  /** PEM certificates that sign SNS messages, from configuration (never fetched). */
  snsCertificates: string[];
  /** JWKS of the OIDC tokens of Pub/Sub push requests. */
  gcpJwks: { keys: Record<string, unknown>[] } | undefined;
  gcpIssuers: string[];
  /** Expected audience; `{tenantId}` is replaced by the tenant of the path. */
  gcpAudience: string;
}

/** A value or, when it names an existing file, the file's content. */
function valueOrFile(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed.startsWith('-----') && !trimmed.startsWith('{') && existsSync(trimmed)) return readFileSync(trimmed, 'utf8');
  return value;
}

export function loadWebhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const pem = valueOrFile(e.SVC_SNS_SIGNING_CERTS);
  const certs = pem ? (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) : [];
  if (pem && certs.length === 0) throw new Error('Invalid configuration:\n  SVC_SNS_SIGNING_CERTS: no PEM certificate found');
  let jwks: WebhookConfig['gcpJwks'];
  const jwksText = valueOrFile(e.SVC_GCP_PUBSUB_JWKS);
  if (jwksText) {
    try {
      jwks = JSON.parse(jwksText) as WebhookConfig['gcpJwks'];
      if (!Array.isArray(jwks?.keys)) throw new Error('no keys');
    } catch {
      throw new Error('Invalid configuration:\n  SVC_GCP_PUBSUB_JWKS: must be a JWKS document ({ "keys": [...] }) or a file holding one');
    }
  }
  return {
    role: e.SVC_ROLE,
    port: e.WEBHOOK_PORT,
    scheduleScale: e.SVC_WEBHOOK_SCHEDULE_SCALE,
    attemptTimeoutMs: e.SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS,
    leaseMs: e.SVC_WEBHOOK_LEASE_MS ?? e.SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS + 30_000,
    pollMs: e.SVC_WEBHOOK_POLL_MS,
    concurrency: e.SVC_WEBHOOK_CONCURRENCY,
    rotationOverlapSeconds: e.SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS,
    allowPrivateTargets: e.SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS,
    sourceBaseUrl: e.SVC_WEBHOOK_SOURCE_BASE_URL.replace(/\/+$/, ''),
    inboundBodyLimit: e.SVC_INBOUND_BODY_LIMIT,
    inboundToleranceSeconds: e.SVC_INBOUND_TOLERANCE_SECONDS,
    stripeSecret: e.SVC_STRIPE_WEBHOOK_SECRET,
    snsCertificates: certs,
    gcpJwks: jwks,
    gcpIssuers: e.SVC_GCP_PUBSUB_ISSUERS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    gcpAudience: e.SVC_GCP_PUBSUB_AUDIENCE,
  };
}
