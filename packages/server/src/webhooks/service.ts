import {
  type CreateWebhookSubscriptionBody,
  type DeliveriesQuery,
  GCP_SERVICE_ACCOUNT,
  type INBOUND_SECRET_PROVIDERS,
  type INBOUND_SOURCE_PROVIDERS,
  type inboundSources,
  type ReplayBody,
  SNS_TOPIC_ARN,
  type UpdateWebhookSubscriptionBody,
  type WebhookDelivery,
  type WebhookSubscription,
  type webhookDeliveries,
  type webhookSubscriptions,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../db/client.ts';
import { keysetList } from '../db/pagination.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { ApiError, notFound } from '../errors.ts';
import type {
  WebhookAttempt as AttemptRow,
  WebhookDelivery as DeliveryRow,
  WebhookSubscription as SubscriptionRow,
} from '../generated/prisma/client.ts';
import { newId } from '../ids.ts';
import type { RenderContext, Store } from '../kit.ts';
import { recordChange } from '../platform/ledger/changes.ts';
import { orNotFound } from '../platform/queries.ts';
import { lockKey, lockRecord } from '../platform/records.ts';
import { isoOrNull } from '../platform/render.ts';
import type { SettingStore } from '../setting-kit.ts';
import type { WebhookConfig } from './config.ts';
import { outboxSignal } from './outbox.ts';
import { openSecret, sealSecret } from './secret-box.ts';
import { newWebhookSecret } from './signing.ts';
import { checkTargetUrl } from './targets.ts';

type Subscription = z.infer<typeof WebhookSubscription>;
type Delivery = z.infer<typeof WebhookDelivery>;
type InboundProvider = (typeof INBOUND_SECRET_PROVIDERS)[number];
type SourceProvider = (typeof INBOUND_SOURCE_PROVIDERS)[number];

export interface Actor {
  tenantId: string;
  actor: string;
  correlationId: string;
}

export function renderSubscription(s: SubscriptionRow, now = new Date()): Subscription {
  return {
    object: 'svc.webhooks.subscription',
    id: s.id,
    url: s.url,
    description: s.description,
    eventTypes: s.eventTypes,
    enabled: s.enabled,
    secretPrefix: openSecret(s.secret).slice(0, 10),
    previousSecretExpiresAt: s.previousSecretExpiresAt && s.previousSecretExpiresAt > now ? s.previousSecretExpiresAt.toISOString() : null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** The subscription as the audit trail records it: never the secret. */
const auditData = (s: SubscriptionRow) => ({ url: s.url, eventTypes: s.eventTypes, enabled: s.enabled });

const findOwn = (tx: Tx, tenantId: string, id: string): Promise<SubscriptionRow> =>
  orNotFound(scopeToTenant(tx, tenantId).webhookSubscription.findFirst({ where: { id } }), 'Webhook subscription', id);

/** Records a change of a subscription in the caller's transaction, with its audit data (and no resource). */
const recordSubscription = (tx: Tx, who: Actor, action: string, id: string, data: Record<string, unknown>) =>
  recordChange(tx, { ...who, action, resourceType: 'svc.webhooks.subscription', resourceId: id, data });

export async function createSubscription(
  prisma: Prisma,
  config: WebhookConfig,
  who: Actor,
  body: z.infer<typeof CreateWebhookSubscriptionBody>,
) {
  checkTargetUrl(body.url, config.allowPrivateTargets);
  return prisma.$transaction(async (tx) => {
    const secret = newWebhookSecret();
    const row = await scopeToTenant(tx, who.tenantId).webhookSubscription.create({
      data: {
        id: newId('whs'),
        tenantId: who.tenantId,
        url: body.url,
        description: body.description ?? null,
        eventTypes: [...new Set(body.eventTypes)],
        enabled: body.enabled,
        secret: sealSecret(secret),
      },
    });
    await recordSubscription(tx, who, 'webhook_subscription.created', row.id, auditData(row));
    return { ...renderSubscription(row), secret };
  });
}

/** The subscriptions as the kit reads them (list, get): never the secret, only its first characters. */
export const subscriptionStore: Store<typeof webhookSubscriptions> = {
  model: 'webhookSubscription',
  render: (row: SubscriptionRow) => renderSubscription(row),
};

/** The deliveries as the kit lists them, each with its attempts (read once for the page). */
export const deliveryStore: Store<typeof webhookDeliveries> = {
  model: 'webhookDelivery',
  related: ({ db, rows }) => withAttempts(db, rows as readonly DeliveryRow[]),
  render: (row: DeliveryRow, { related }: RenderContext<unknown, AttemptRow[]>) => renderDelivery(row, related ?? []),
};

/** A page of the subscriptions, newest first, for the web application's overview. */
export async function listSubscriptions(prisma: Prisma, tenantId: string, opts: { limit: number; cursor?: string }) {
  return keysetList(scopeToTenant(prisma, tenantId).webhookSubscription, opts, { render: (r: SubscriptionRow) => renderSubscription(r) });
}

export async function updateSubscription(
  prisma: Prisma,
  config: WebhookConfig,
  who: Actor,
  id: string,
  body: z.infer<typeof UpdateWebhookSubscriptionBody>,
) {
  if (body.url !== undefined) checkTargetUrl(body.url, config.allowPrivateTargets);
  return prisma.$transaction(async (tx) => {
    await findOwn(tx, who.tenantId, id);
    const db = scopeToTenant(tx, who.tenantId);
    await db.webhookSubscription.updateMany({
      where: { id },
      data: {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.eventTypes !== undefined ? { eventTypes: [...new Set(body.eventTypes)] } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        updatedAt: new Date(),
      },
    });
    const row = await findOwn(tx, who.tenantId, id);
    await recordSubscription(tx, who, 'webhook_subscription.updated', id, { ...auditData(row), changed: Object.keys(body) });
    return renderSubscription(row);
  });
}

/**
 * A new secret; the current one becomes the previous one and keeps signing (a second `v1=`) until
 * the overlap ends, so receivers can roll their configuration without dropping a delivery.
 */
export async function rotateSecret(prisma: Prisma, config: WebhookConfig, who: Actor, id: string, overlapSeconds?: number) {
  const overlap = overlapSeconds ?? config.rotationOverlapSeconds;
  return prisma.$transaction(async (tx) => {
    const current = await findOwn(tx, who.tenantId, id);
    const secret = newWebhookSecret();
    const now = new Date();
    await scopeToTenant(tx, who.tenantId).webhookSubscription.updateMany({
      where: { id },
      data: {
        secret: sealSecret(secret),
        previousSecret: overlap > 0 ? current.secret : null,
        previousSecretExpiresAt: overlap > 0 ? new Date(now.getTime() + overlap * 1000) : null,
        updatedAt: now,
      },
    });
    const row = await findOwn(tx, who.tenantId, id);
    await recordSubscription(tx, who, 'webhook_subscription.secret_rotated', id, { overlapSeconds: overlap });
    return { ...renderSubscription(row, now), secret };
  });
}

/** Deletes the subscription and the deliveries still waiting for it; delivered history goes with it. */
export async function deleteSubscription(prisma: Prisma, who: Actor, id: string) {
  return prisma.$transaction(async (tx) => {
    // Deletions at once queue on the row: the first deletes it, the others find none (404),
    // where each used to answer 200 and record a deletion of its own.
    await lockRecord(tx, 'webhook_subscriptions', who.tenantId, id);
    const row = await findOwn(tx, who.tenantId, id);
    const db = scopeToTenant(tx, who.tenantId);
    const deliveries = await db.webhookDelivery.findMany({ where: { subscriptionId: id }, select: { id: true } });
    const ids = deliveries.map((d) => d.id);
    if (ids.length > 0) {
      await db.webhookAttempt.deleteMany({ where: { deliveryId: { in: ids } } });
      await db.webhookDelivery.deleteMany({ where: { id: { in: ids } } });
    }
    await db.webhookSubscription.deleteMany({ where: { id } });
    await recordSubscription(tx, who, 'webhook_subscription.deleted', id, auditData(row));
    return { object: 'svc.webhooks.subscription' as const, id, deleted: true as const };
  });
}

export function renderDelivery(d: DeliveryRow, attempts: AttemptRow[]): Delivery {
  return {
    object: 'svc.webhooks.delivery',
    id: d.id,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as Delivery['status'],
    attemptCount: d.attemptCount,
    nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
    deliveredAt: isoOrNull(d.deliveredAt),
    deadLetteredAt: isoOrNull(d.deadAt),
    replays: d.replays,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .sort((a, b) => a.round - b.round || a.attempt - b.attempt)
      .map((a) => ({
        attempt: a.attempt,
        at: a.startedAt.toISOString(),
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        outcome: a.outcome as 'succeeded' | 'failed',
        error: a.error,
      })),
    createdAt: d.createdAt.toISOString(),
  };
}

async function withAttempts(prisma: Prisma | Tx, rows: readonly DeliveryRow[]) {
  if (rows.length === 0) return [];
  return prisma.webhookAttempt.findMany({ where: { deliveryId: { in: rows.map((r) => r.id) } } });
}

export async function listDeliveries(prisma: Prisma, tenantId: string, q: z.infer<typeof DeliveriesQuery>) {
  const db = scopeToTenant(prisma, tenantId);
  const page = await keysetList(db.webhookDelivery, q, {
    filters: ['subscriptionId', 'eventId', 'eventType', 'status'],
    render: (r: DeliveryRow) => r,
  });
  const attempts = await withAttempts(db, page.data);
  return { data: page.data.map((r) => renderDelivery(r, attempts)), cursor: page.cursor };
}

/** Issues or rotates the tenant's secret for an inbound provider; the previous one stays valid for the overlap. */
export async function rotateInboundSecret(
  prisma: Prisma,
  config: WebhookConfig,
  who: Actor,
  provider: InboundProvider,
  overlapSeconds?: number,
) {
  const overlap = overlapSeconds ?? config.rotationOverlapSeconds;
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    // Rotations of one provider's secret queue here: each keeps the one before it as the previous
    // secret, where two at once both kept the same old one and lost the secret the other returned.
    await lockKey(tx, `svc.webhooks.inbound_secret:${who.tenantId}:${provider}`);
    const current = await db.webhookInboundSecret.findFirst({ where: { provider } });
    const secret = provider === 'azure-event-grid' ? newWebhookSecret().slice(6) : newWebhookSecret();
    const now = new Date();
    const previous =
      current && overlap > 0
        ? { previousSecret: current.secret, previousSecretExpiresAt: new Date(now.getTime() + overlap * 1000) }
        : { previousSecret: null, previousSecretExpiresAt: null };
    const sealed = sealSecret(secret);
    if (current) await db.webhookInboundSecret.updateMany({ where: { provider }, data: { secret: sealed, ...previous, createdAt: now } });
    else await db.webhookInboundSecret.create({ data: { tenantId: who.tenantId, provider, secret: sealed, createdAt: now } });
    const row = await db.webhookInboundSecret.findFirstOrThrow({ where: { provider } });
    await recordChange(tx, {
      ...who,
      action: 'webhook_inbound_secret.rotated',
      resourceType: 'svc.webhooks.inbound_secret',
      resourceId: provider,
      data: { provider, overlapSeconds: current ? overlap : 0 },
    });
    return {
      object: 'svc.webhooks.inbound_secret' as const,
      provider,
      secret,
      previousSecretExpiresAt: isoOrNull(row.previousSecretExpiresAt),
      createdAt: row.createdAt.toISOString(),
    };
  });
}

export async function listDeadLetters(prisma: Prisma, q: { limit: number; cursor?: string; tenantId?: string }) {
  const page = await keysetList(prisma.webhookDelivery, q, {
    where: { status: 'dead_lettered' },
    filters: ['tenantId'],
    render: (r: DeliveryRow) => r,
  });
  const attempts = await withAttempts(prisma, page.data);
  return { data: page.data.map((r) => ({ ...renderDelivery(r, attempts), tenantId: r.tenantId })), cursor: page.cursor };
}

/**
 * Puts dead-lettered deliveries back in line, due at once, from attempt 1 of a new round: same
 * event, same id, same envelope. Only an operator's call does this; nothing replays by itself.
 */
export async function replayDeadLetters(prisma: Prisma, who: { actor: string; correlationId: string }, body: z.infer<typeof ReplayBody>) {
  const result = await prisma.$transaction(async (tx) => {
    const rows =
      'deliveryId' in body
        ? await tx.webhookDelivery.findMany({ where: { id: body.deliveryId } })
        : await tx.webhookDelivery.findMany({
            where: {
              status: 'dead_lettered',
              deadAt: { gte: new Date(body.since) },
              ...(body.tenantId ? { tenantId: body.tenantId } : {}),
            },
            orderBy: { id: 'asc' },
            take: 10_000,
          });
    if ('deliveryId' in body && (rows.length === 0 || rows[0]?.status !== 'dead_lettered')) {
      throw notFound('Dead-lettered delivery', body.deliveryId);
    }
    const ids = rows.filter((r) => r.status === 'dead_lettered').map((r) => r.id);
    const now = new Date();
    if (ids.length > 0) {
      await tx.webhookDelivery.updateMany({
        where: { id: { in: ids }, status: 'dead_lettered' },
        data: {
          status: 'pending',
          attemptCount: 0,
          replays: { increment: 1 },
          nextAttemptAt: now,
          deadAt: null,
          leaseExpiresAt: null,
          updatedAt: now,
        },
      });
    }
    const byTenant = new Map<string, string[]>();
    for (const r of rows) byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), r.id]);
    for (const [tenantId, deliveryIds] of byTenant) {
      await recordChange(tx, {
        tenantId,
        actor: who.actor,
        correlationId: who.correlationId,
        action: 'webhook_delivery.replayed',
        resourceType: 'svc.webhooks.delivery',
        resourceId: deliveryIds.length === 1 ? (deliveryIds[0] as string) : `${deliveryIds.length} deliveries`,
        data: { deliveryIds },
      });
    }
    return { replayed: ids.length, deliveryIds: ids };
  });
  if (result.replayed > 0) outboxSignal.emit('enqueued');
  return result;
}

/**
 * The SNS topic ARNs or Pub/Sub service accounts the tenant accepts on the cloud inbound routes,
 * per provider (setting kit). Each entry must have the provider's form (a topic ARN, a
 * service-account email, compared as written and lower-cased respectively); the old and the new
 * list are audited.
 */
export const inboundSourcesStore: SettingStore<typeof inboundSources> = {
  model: 'webhookInboundSource',
  resourceId: (_row, provider) => provider,
  prepare: ({ key, body }) => {
    const provider = key as SourceProvider;
    const pattern = provider === 'aws-sns' ? SNS_TOPIC_ARN : GCP_SERVICE_ACCOUNT;
    const normalised = [...new Set(body.sources.map((s) => (provider === 'gcp-pubsub' ? s.trim().toLowerCase() : s.trim())))];
    const bad = normalised.flatMap((s, i) =>
      pattern.test(s)
        ? []
        : [{ field: `sources[${i}]`, issue: provider === 'aws-sns' ? 'not an SNS topic ARN' : 'not a service-account email' }],
    );
    if (bad.length > 0) {
      throw new ApiError(
        'validation_failed',
        `Every source must be ${provider === 'aws-sns' ? 'an SNS topic ARN' : 'a service-account email'}.`,
        bad,
      );
    }
    return { sources: normalised };
  },
  auditData: ({ before, record, key }) => ({
    provider: key,
    before: (before?.sources as string[] | undefined) ?? [],
    after: record.sources,
  }),
};
