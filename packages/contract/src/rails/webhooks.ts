import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';
import { isEventTypeFilter } from '../webhook-events.ts';

const c = initContract();

/**
 * Outbound webhook subscriptions, their deliveries, the inbound secrets of the webhook worker and
 * the operators' dead-letter queue. Not a rail of the catalogue: the routes form their own group
 * (`webhooks`), open to every tier.
 */

const EventTypeFilter = z
  .string()
  .min(1)
  .max(100)
  .refine(isEventTypeFilter, { message: 'not a registered event type, a category wildcard such as `assessment.*`, or `*`' })
  .meta({ description: 'A registered event type, a category wildcard (`assessment.*`) or `*`.', examples: ['assessment.*'] });

const TargetUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({ description: 'Where events are POSTed. https, and a public address, unless the operator allows private targets.' });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'dead_lettered'] as const;

export const WebhookSubscription = z
  .object({
    object: z.literal('svc.webhooks.subscription'),
    id: prefixedId('whs', 'whs_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    secretPrefix: z.string().meta({ description: 'First characters of the current secret, to recognise it.' }),
    previousSecretExpiresAt: Timestamp.nullable().meta({
      description: 'While set and in the future, deliveries carry a second `v1=` signature made with the previous secret.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({
    id: 'WebhookSubscription',
    examples: [
      {
        object: 'svc.webhooks.subscription',
        id: 'whs_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        url: 'https://hooks.example.com/svc',
        description: 'Compliance events to the GRC bus',
        eventTypes: ['assessment.*', 'evidence.uploaded'],
        enabled: true,
        secretPrefix: 'whsec_Zt9q',
        previousSecretExpiresAt: null,
        createdAt: '2026-11-22T09:30:00.000Z',
        updatedAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const WebhookSubscriptionWithSecret = WebhookSubscription.extend({
  secret: z.string().meta({ description: 'Signing secret `whsec_...`: the HMAC key as it is written. Shown once.' }),
}).meta({ id: 'WebhookSubscriptionWithSecret' });

export const CreateWebhookSubscriptionBody = z
  .strictObject({
    url: TargetUrl,
    eventTypes: z.array(EventTypeFilter).min(1).max(100),
    description: z.string().max(500).optional(),
    enabled: z.boolean().default(true),
  })
  .meta({
    id: 'CreateWebhookSubscriptionRequest',
    examples: [{ url: 'https://hooks.example.com/svc', eventTypes: ['assessment.*', 'evidence.uploaded'], description: 'GRC bus' }],
  });

export const UpdateWebhookSubscriptionBody = z
  .strictObject({
    url: TargetUrl.optional(),
    eventTypes: z.array(EventTypeFilter).min(1).max(100).optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'name at least one field to change' })
  .meta({ id: 'UpdateWebhookSubscriptionRequest', examples: [{ eventTypes: ['assessment.*'], enabled: true }] });

export const RotateSecretBody = z
  .strictObject({
    overlapSeconds: z
      .int()
      .min(0)
      .max(7 * 86_400)
      .optional()
      .meta({ description: 'How long the previous secret keeps signing too; the configured default when absent.' }),
  })
  .meta({ id: 'RotateWebhookSecretRequest', examples: [{ overlapSeconds: 3600 }] });

export const DeletedWebhookSubscription = z
  .object({ object: z.literal('svc.webhooks.subscription'), id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookSubscription' });

export const WebhookAttempt = z
  .object({
    attempt: z.int().min(1).max(5),
    at: Timestamp.meta({ description: 'When the request was sent.' }),
    statusCode: z.int().nullable().meta({ description: "The receiver's status; null on a network error or time-out." }),
    latencyMs: z.int(),
    outcome: z.enum(['succeeded', 'failed']),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = z
  .object({
    object: z.literal('svc.webhooks.delivery'),
    id: prefixedId('whd', 'whd_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    subscriptionId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attemptCount: z.int(),
    nextAttemptAt: Timestamp.nullable(),
    deliveredAt: Timestamp.nullable(),
    deadLetteredAt: Timestamp.nullable(),
    replays: z.int().meta({ description: 'How often an operator replayed it from the dead-letter queue.' }),
    attempts: z.array(WebhookAttempt),
    createdAt: Timestamp,
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [
      {
        object: 'svc.webhooks.delivery',
        id: 'whd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        subscriptionId: 'whs_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        eventId: 'evt_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        eventType: 'assessment.created',
        status: 'succeeded',
        attemptCount: 2,
        nextAttemptAt: null,
        deliveredAt: '2026-11-22T09:30:01.204Z',
        deadLetteredAt: null,
        replays: 0,
        attempts: [
          { attempt: 1, at: '2026-11-22T09:30:00.050Z', statusCode: 503, latencyMs: 41, outcome: 'failed', error: 'HTTP 503' },
          { attempt: 2, at: '2026-11-22T09:30:01.170Z', statusCode: 200, latencyMs: 34, outcome: 'succeeded', error: null },
        ],
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const DeliveriesQuery = PaginationQuery.extend({
  subscriptionId: z.string().max(64).optional(),
  eventId: z.string().max(64).optional(),
  eventType: z.string().max(100).optional(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

export const INBOUND_SECRET_PROVIDERS = ['svc', 'azure-event-grid', 'cloudflare-logpush'] as const;

export const InboundSecret = z
  .object({
    object: z.literal('svc.webhooks.inbound_secret'),
    provider: z.enum(INBOUND_SECRET_PROVIDERS),
    secret: z.string().meta({
      description: 'Shown once. `svc`: HMAC key of `svc-signature`; azure-event-grid: the shared key; cloudflare-logpush: HMAC key.',
    }),
    previousSecretExpiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'InboundSecret' });

export const DeadLetter = WebhookDelivery.extend({ tenantId: z.string() }).meta({ id: 'WebhookDeadLetter' });

export const ReplayBody = z
  .union([
    z.strictObject({ deliveryId: z.string().min(1).max(64) }),
    z.strictObject({
      since: Timestamp.meta({ description: 'Replay every dead-lettered delivery parked at or after this time.' }),
      tenantId: z.string().max(64).optional(),
    }),
  ])
  .meta({ id: 'ReplayDeadLettersRequest', examples: [{ since: '2026-11-22T00:00:00.000Z' }] });

export const ReplayResult = z
  .object({
    replayed: z.int(),
    deliveryIds: z.array(z.string()),
  })
  .meta({ id: 'ReplayDeadLettersResult', description: 'The deliveries are due again at once, with the same event ids.' });

const read = meta({ auth: 'tenant', group: 'webhooks', permission: 'webhooks:read', mutating: false });
const SubscriptionParams = z.object({ id: prefixedId('whs', 'whs_01JD3Z8W2M6Q4X9V7K5T1B0N3R') });

const deadLetterRoutes = {
  listDeadLetters: {
    method: 'GET',
    path: '/v1/operator/webhooks/dead-letters',
    query: PaginationQuery.extend({ tenantId: z.string().max(64).optional() }),
    responses: { 200: listOf(DeadLetter) },
    summary: 'List the dead-letter queue, newest first',
    metadata: meta({ auth: 'operator', group: 'webhooks', mutating: false }),
  },
  replayDeadLetters: {
    method: 'POST',
    path: '/v1/operator/webhooks/replay',
    body: ReplayBody,
    responses: { 200: ReplayResult },
    summary: 'Replay one dead-lettered delivery, or all parked since a time',
    description: 'Replayed deliveries start again at attempt 1 with the same event id and envelope.',
    metadata: meta({ auth: 'operator', group: 'webhooks', mutating: true, audit: 'webhook_delivery.replayed' }),
  },
} as const;

export const webhooksRouter = c.router(
  {
    createSubscription: {
      method: 'POST',
      path: '/v1/webhook-subscriptions',
      body: CreateWebhookSubscriptionBody,
      responses: { 201: WebhookSubscriptionWithSecret },
      summary: 'Create a webhook subscription; the secret is shown once',
      metadata: meta({
        auth: 'tenant',
        group: 'webhooks',
        permission: 'webhooks:write',
        mutating: true,
        audit: 'webhook_subscription.created',
      }),
    },
    listSubscriptions: {
      method: 'GET',
      path: '/v1/webhook-subscriptions',
      query: PaginationQuery,
      responses: { 200: listOf(WebhookSubscription) },
      summary: 'List webhook subscriptions',
      metadata: read,
    },
    getSubscription: {
      method: 'GET',
      path: '/v1/webhook-subscriptions/:id',
      pathParams: SubscriptionParams,
      responses: { 200: WebhookSubscription },
      summary: 'Get a webhook subscription',
      metadata: read,
    },
    updateSubscription: {
      method: 'PATCH',
      path: '/v1/webhook-subscriptions/:id',
      pathParams: SubscriptionParams,
      body: UpdateWebhookSubscriptionBody,
      responses: { 200: WebhookSubscription },
      summary: 'Change the URL, event types, description or enabled state',
      metadata: meta({
        auth: 'tenant',
        group: 'webhooks',
        permission: 'webhooks:write',
        mutating: true,
        audit: 'webhook_subscription.updated',
      }),
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhook-subscriptions/:id/rotate-secret',
      pathParams: SubscriptionParams,
      body: RotateSecretBody.optional(),
      responses: { 200: WebhookSubscriptionWithSecret },
      summary: 'Rotate the signing secret; the old one keeps signing for the overlap window',
      metadata: meta({
        auth: 'tenant',
        group: 'webhooks',
        permission: 'webhooks:write',
        mutating: true,
        audit: 'webhook_subscription.secret_rotated',
      }),
    },
    deleteSubscription: {
      method: 'DELETE',
      path: '/v1/webhook-subscriptions/:id',
      pathParams: SubscriptionParams,
      body: c.noBody(),
      responses: { 200: DeletedWebhookSubscription },
      summary: 'Delete a webhook subscription; its pending deliveries are dropped',
      metadata: meta({
        auth: 'tenant',
        group: 'webhooks',
        permission: 'webhooks:write',
        mutating: true,
        audit: 'webhook_subscription.deleted',
      }),
    },
    listDeliveries: {
      method: 'GET',
      path: '/v1/webhook-deliveries',
      query: DeliveriesQuery,
      responses: { 200: listOf(WebhookDelivery) },
      summary: 'Delivery state per event and subscription, with every attempt',
      metadata: read,
    },
    rotateInboundSecret: {
      method: 'POST',
      path: '/v1/webhook-inbound-secrets/:provider',
      pathParams: z.object({ provider: z.enum(INBOUND_SECRET_PROVIDERS).meta({ examples: ['svc'] }) }),
      body: RotateSecretBody.optional(),
      responses: { 201: InboundSecret },
      summary: 'Issue or rotate the secret the webhook worker checks for this tenant and provider',
      description:
        'For `POST /inbound/{tenantId}` (provider `svc`), `POST /cloud/azure-event-grid/{tenantId}` and `POST /cloud/cloudflare-logpush/{tenantId}`. The previous secret stays valid for the overlap window.',
      metadata: meta({
        auth: 'tenant',
        group: 'webhooks',
        permission: 'webhooks:write',
        mutating: true,
        audit: 'webhook_inbound_secret.rotated',
      }),
    },
    ...deadLetterRoutes,
  },
  { commonResponses: commonErrorResponses },
);
