import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { Database } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import { DEFAULT_HARDENING, type HttpHardening, securityHeaders } from '../../http/hardening.ts';
import { correlation, errorMapper } from '../../http/pipeline.ts';
import { newId } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import { appendEventRow } from '../../platform/events/event-index.ts';
import { recordChange } from '../../platform/ledger/changes.ts';
import type { WebhookConfig } from '../config.ts';
import { openSecret } from '../secret-box.ts';
import {
  type Accepted,
  type InboundRequest,
  Rejection,
  type RejectReason,
  verifyAwsSns,
  verifyAzureEventGrid,
  verifyCloudflareLogpush,
  verifyGcpPubSub,
  verifyStripe,
  verifySvc,
} from './providers.ts';

export const CLOUD_PROVIDERS = ['aws-sns', 'azure-event-grid', 'gcp-pubsub', 'cloudflare-logpush'] as const;

/** Counters of the worker, per provider: accepted, duplicates, and rejections per reason. */
export class InboundMetrics {
  readonly accepted = new Map<string, number>();
  readonly duplicates = new Map<string, number>();
  readonly rejections = new Map<string, number>();
  private bump(map: Map<string, number>, key: string) {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
  accept(provider: string, fresh: boolean) {
    this.bump(fresh ? this.accepted : this.duplicates, provider);
  }
  reject(provider: string, reason: RejectReason) {
    this.bump(this.rejections, `${provider}|${reason}`);
  }
  rejectionCount(provider: string, reason: RejectReason): number {
    return this.rejections.get(`${provider}|${reason}`) ?? 0;
  }
  /** Prometheus text exposition. */
  render(): string {
    const out = [
      '# HELP svc_inbound_rejections_total Inbound webhook requests refused, by provider and reason.',
      '# TYPE svc_inbound_rejections_total counter',
    ];
    for (const [key, n] of [...this.rejections].sort()) {
      const [provider, reason] = key.split('|');
      out.push(`svc_inbound_rejections_total{provider="${provider}",reason="${reason}"} ${n}`);
    }
    out.push('# HELP svc_inbound_accepted_total Inbound events stored.', '# TYPE svc_inbound_accepted_total counter');
    for (const [p, n] of [...this.accepted].sort()) out.push(`svc_inbound_accepted_total{provider="${p}"} ${n}`);
    out.push('# HELP svc_inbound_duplicates_total Inbound events already stored (same id).', '# TYPE svc_inbound_duplicates_total counter');
    for (const [p, n] of [...this.duplicates].sort()) out.push(`svc_inbound_duplicates_total{provider="${p}"} ${n}`);
    return `${out.join('\n')}\n`;
  }
}

function parseLimit(text: string): number {
  const m = /^(\d+)(b|kb|mb)$/i.exec(text);
  const unit = { b: 1, kb: 1024, mb: 1024 * 1024 }[(m?.[2] ?? 'b').toLowerCase() as 'b'];
  return Number(m?.[1] ?? 0) * unit;
}

const TENANT_ID = /^ten_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The webhook worker: verified inbound endpoints on their own port. A request is verified before
 * anything is read from the database beyond the tenant's secret, and nothing is stored unless it
 * verifies; every refusal is counted by reason (`GET /metrics`) and answered with the error envelope.
 */
export function createInboundApp(opts: {
  db: Database;
  config: WebhookConfig;
  log: Logger;
  metrics?: InboundMetrics;
  http?: Pick<HttpHardening, 'hsts'>;
}) {
  const { db, config, log } = opts;
  const prisma = db.prisma;
  const metrics = opts.metrics ?? new InboundMetrics();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(securityHeaders(opts.http ?? DEFAULT_HARDENING));
  app.use(correlation(log));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', (_req, res) => {
    res.type('text/plain; version=0.0.4').send(metrics.render());
  });

  // The body exactly as sent (compressed or not): signatures cover these bytes. Bounded.
  const limit = parseLimit(config.inboundBodyLimit);
  const raw = (req: Request, _res: Response, next: (err?: unknown) => void) => {
    const declared = Number(req.get('content-length') ?? 0);
    if (declared > limit) return next(Object.assign(new Error('too large'), { type: 'entity.too.large' }));
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        req.unpipe();
        req.resume();
        return next(Object.assign(new Error('too large'), { type: 'entity.too.large' }));
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (failed) return;
      req.body = Buffer.concat(chunks);
      next();
    });
    req.on('error', (err) => {
      if (failed) return;
      failed = true;
      next(Object.assign(err, { type: 'request.aborted' }));
    });
  };

  /**
   * Whether the tenant exists, and its secrets for a provider (current, then previous while its
   * overlap lasts) or the sources it accepts (SNS topics, Pub/Sub service accounts). The same
   * queries run whether or not the tenant exists, and the request is verified either way (an
   * unknown tenant has no secret and no source), so neither the answer nor its timing tells an
   * unknown tenant from a configured one; only the metrics and the log do.
   */
  async function credentialsOf(
    tenantId: string,
    provider: string,
    what: 'secrets' | 'sources',
  ): Promise<{ exists: boolean; secrets: string[]; sources: string[] }> {
    if (!TENANT_ID.test(tenantId)) return { exists: false, secrets: [], sources: [] };
    const where = { tenantId_provider: { tenantId, provider } };
    const [tenant, secret, source] = await Promise.all([
      prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }),
      what === 'secrets' ? prisma.webhookInboundSecret.findUnique({ where }) : null,
      what === 'sources' ? prisma.webhookInboundSource.findUnique({ where }) : null,
    ]);
    const now = new Date();
    const secrets = secret
      ? (secret.previousSecret && secret.previousSecretExpiresAt && secret.previousSecretExpiresAt > now
          ? [secret.secret, secret.previousSecret]
          : [secret.secret]
        ).map(openSecret)
      : [];
    return { exists: tenant !== null, secrets, sources: source?.sources ?? [] };
  }

  /** Runs a verification; a refusal of a request for a tenant that does not exist is counted as such. */
  function verifiedFor<T>(exists: boolean, verify: () => T): T {
    try {
      return verify();
    } catch (err) {
      if (!exists && err instanceof Rejection && err.unauthenticated) throw new Rejection('unknown_tenant', err.message);
      throw err;
    }
  }

  /**
   * Stores each accepted event once (by provider, tenant and external id). A tenant's event is
   * also appended to the event index under its canonical kind, covered by an audit event, in the
   * same transaction; platform-level events (Stripe) have no tenant and stay in inbound_events.
   */
  async function store(provider: string, tenantId: string | undefined, items: Accepted[]): Promise<boolean[]> {
    const fresh: boolean[] = [];
    for (const item of items) {
      const id = newId('ibe');
      const inserted = await prisma.$transaction(async (tx) => {
        const { count } = await tx.inboundEvent.createMany({
          skipDuplicates: true,
          data: [
            {
              id,
              tenantId: tenantId ?? null,
              provider,
              externalId: item.externalId,
              dedupKey: `${provider}:${tenantId ?? '-'}:${item.externalId}`,
              kind: item.kind,
              type: item.type ?? null,
              payload: item.payload as object,
            },
          ],
        });
        if (count > 0 && tenantId) {
          const who = { tenantId, actor: `inbound:${provider}`, correlationId: item.externalId };
          const audit = await recordChange(
            tx,
            {
              ...who,
              action: 'inbound.received',
              resourceType: 'svc.webhooks.inbound_event',
              resourceId: id,
              data: { provider, kind: item.kind, externalId: item.externalId },
            },
            { index: false },
          );
          await appendEventRow(tx, {
            ...who,
            source: `inbound.${provider}`,
            kind: item.kind,
            phase: 'observed',
            severity: 'info',
            entity: item.externalId,
            action: 'received',
            outcome: 'success',
            attributes: { inboundEventId: id, ...(item.type ? { type: item.type } : {}) },
            auditEventId: audit.id,
          });
        }
        return count > 0;
      });
      metrics.accept(provider, inserted);
      fresh.push(inserted);
    }
    return fresh;
  }

  const requestOf = (req: Request, tenantId: string | undefined, secrets: string[], sources: string[] = []): InboundRequest => ({
    raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    header: (name) => req.get(name) ?? undefined,
    tenantId,
    secrets,
    sources,
    config,
    now: Date.now(),
  });

  const handle =
    (provider: (req: Request) => string, fn: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response, next: (err?: unknown) => void) => {
      try {
        await fn(req, res);
      } catch (err) {
        if (err instanceof Rejection) {
          // The reason is for the operator (metrics, log); the caller gets one answer for every unauthenticated refusal.
          metrics.reject(provider(req), err.reason);
          log.info('inbound webhook refused', { provider: provider(req), reason: err.reason, detail: err.message, path: req.path });
          return next(
            new ApiError(err.status === 400 ? 'bad_request' : 'unauthorized', err.publicMessage, [
              { field: 'request', issue: err.publicReason },
            ]),
          );
        }
        next(err);
      }
    };

  const reply = (res: Response, items: Accepted[], fresh: boolean[]) => {
    const handshake = items.find((i) => i.reply !== undefined);
    if (handshake) return void res.status(200).json(handshake.reply);
    res.status(200).json({ received: true, events: items.map((i, n) => ({ id: i.externalId, kind: i.kind, duplicate: !fresh[n] })) });
  };

  app.post(
    '/inbound/:tenantId',
    raw,
    handle(
      () => 'svc',
      async (req, res) => {
        const tenantId = String(req.params.tenantId);
        const { exists, secrets } = await credentialsOf(tenantId, 'svc', 'secrets');
        const accepted = verifiedFor(exists, () => verifySvc(requestOf(req, tenantId, secrets)));
        reply(res, [accepted], await store('svc', tenantId, [accepted]));
      },
    ),
  );

  app.post(
    '/stripe',
    raw,
    handle(
      () => 'stripe',
      async (req, res) => {
        const accepted = verifyStripe(requestOf(req, undefined, []));
        reply(res, [accepted], await store('stripe', accepted.tenantId, [accepted]));
      },
    ),
  );

  app.post(
    '/cloud/:provider/:tenantId',
    raw,
    handle(
      (req) => ((CLOUD_PROVIDERS as readonly string[]).includes(String(req.params.provider)) ? String(req.params.provider) : 'unknown'),
      async (req, res) => {
        const provider = String(req.params.provider);
        const tenantId = String(req.params.tenantId);
        if (!(CLOUD_PROVIDERS as readonly string[]).includes(provider)) {
          throw new Rejection('unknown_provider', `Unknown provider ${provider}; one of ${CLOUD_PROVIDERS.join(', ')}.`);
        }
        // Event Grid and Logpush carry the tenant's own secret, which proves the tenant asked for the
        // message. SNS and Pub/Sub are signed with the provider's keys, the same for every customer:
        // there the tenant's registered topics and service accounts say which messages are its own.
        const ownKeys = provider === 'aws-sns' || provider === 'gcp-pubsub';
        const { exists, secrets, sources } = await credentialsOf(tenantId, provider, ownKeys ? 'sources' : 'secrets');
        const r = requestOf(req, tenantId, secrets, sources);
        const items = verifiedFor(exists, (): Accepted[] => {
          if (provider === 'aws-sns') return [verifyAwsSns(r)];
          if (provider === 'azure-event-grid') return verifyAzureEventGrid(r);
          if (provider === 'gcp-pubsub') return [verifyGcpPubSub(r)];
          const gzip = (req.get('content-encoding') ?? '').toLowerCase() === 'gzip';
          return [verifyCloudflareLogpush(r, gzip, createHash('sha256').update(r.raw).digest('hex'))];
        });
        reply(res, items, await store(provider, tenantId, items));
      },
    ),
  );

  app.use((req, _res, next) => next(new ApiError('not_found', `No route ${req.method} ${req.path} on the webhook worker.`)));
  // Oversized and unreadable bodies are refusals too: count them before the envelope is rendered.
  app.use((err: unknown, req: Request, _res: Response, next: (err?: unknown) => void) => {
    const type = (err as { type?: string })?.type;
    if (type === 'entity.too.large' || type === 'request.aborted' || type === 'encoding.unsupported') {
      const provider = req.path.startsWith('/stripe')
        ? 'stripe'
        : req.path.startsWith('/inbound/')
          ? 'svc'
          : (req.path.split('/')[2] ?? 'unknown');
      metrics.reject(provider, type === 'entity.too.large' ? 'too_large' : 'malformed_body');
    }
    next(err);
  });
  app.use(errorMapper());
  return { app, metrics };
}
