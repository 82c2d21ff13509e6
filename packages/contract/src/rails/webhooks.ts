import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';
import { CREATED_AT_DESCRIPTION, EXAMPLE_AT, exampleId, idParams, objectField, UPDATED_AT_DESCRIPTION } from '../shared/records.ts';
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

/** The webhook records' `object` field: its description names a compliance record as the example. */
const objectOf = <T extends string>(name: T) => objectField(name, 'svc.compliance.assessment');

const CreatedAt = Timestamp.meta({ description: CREATED_AT_DESCRIPTION });

/** What a subscription's fields mean, said alike in the record and in the requests that set them. */
const URL_DESCRIPTION = 'HTTPS URL the deliveries are POSTed to.';
const EVENT_TYPES_DESCRIPTION =
  'Registered event types to deliver (`assessment.completed`); see the `webhooks` section of this document for each payload.';
const ENABLED_DESCRIPTION = 'Whether new events are delivered; false pauses the subscription without deleting it.';

/** What a delivery's fields mean, said alike in the record and in the filters of its list. */
const SUBSCRIPTION_ID_DESCRIPTION = 'Id of the webhook subscription (`whs_` prefix).';
const EVENT_ID_DESCRIPTION = "Id of the event delivered (`evt_` prefix), the same on every attempt and the same as the payload's `id`.";
const EVENT_TYPE_DESCRIPTION = 'Registered type of the event delivered (`assessment.completed`).';
const STATUS_DESCRIPTION =
  'Delivery state: waiting for an attempt, delivered, or dead-lettered after the last failed attempt; see the enum.';

const SUBSCRIPTION_ID = exampleId('whs');
const EVENT_TYPES_EXAMPLE = ['assessment.*', 'evidence.uploaded'];
const URL_EXAMPLE = 'https://hooks.example.com/svc';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'dead_lettered'] as const;

export const WebhookSubscription = z
  .object({
    object: objectOf('svc.webhooks.subscription'),
    id: prefixedId('whs', SUBSCRIPTION_ID),
    url: z.string().meta({ description: URL_DESCRIPTION }),
    description: z.string().nullable().meta({ description: 'Note for people (what the endpoint is for); null when none was given.' }),
    eventTypes: z.array(z.string()).meta({ description: EVENT_TYPES_DESCRIPTION }),
    enabled: z.boolean().meta({ description: ENABLED_DESCRIPTION }),
    secretPrefix: z.string().meta({ description: 'First characters of the current secret, to recognise it.' }),
    previousSecretExpiresAt: Timestamp.nullable().meta({
      description: 'While set and in the future, deliveries carry a second `v1=` signature made with the previous secret.',
    }),
    createdAt: CreatedAt,
    updatedAt: Timestamp.meta({ description: UPDATED_AT_DESCRIPTION }),
  })
  .meta({
    id: 'WebhookSubscription',
    examples: [
      {
        object: 'svc.webhooks.subscription',
        id: SUBSCRIPTION_ID,
        url: URL_EXAMPLE,
        description: 'Compliance events to the GRC bus',
        eventTypes: EVENT_TYPES_EXAMPLE,
        enabled: true,
        secretPrefix: 'whsec_Zt9q',
        previousSecretExpiresAt: null,
        createdAt: EXAMPLE_AT,
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

export const WebhookSubscriptionWithSecret = WebhookSubscription.extend({
  secret: z.string().meta({ description: 'Signing secret `whsec_...`: the HMAC key as it is written. Shown once.' }),
}).meta({ id: 'WebhookSubscriptionWithSecret' });

export const CreateWebhookSubscriptionBody = z
  .strictObject({
    url: TargetUrl.meta({ description: URL_DESCRIPTION }),
    eventTypes: z.array(EventTypeFilter).min(1).max(100).meta({ description: EVENT_TYPES_DESCRIPTION }),
    description: z.string().max(500).optional().meta({ description: 'Note for people, up to 500 characters.' }),
    enabled: z.boolean().default(true).meta({ description: ENABLED_DESCRIPTION }),
  })
  .meta({
    id: 'CreateWebhookSubscriptionRequest',
    examples: [{ url: URL_EXAMPLE, eventTypes: EVENT_TYPES_EXAMPLE, description: 'GRC bus' }],
  });

export const UpdateWebhookSubscriptionBody = z
  .strictObject({
    url: TargetUrl.optional().meta({ description: URL_DESCRIPTION }),
    eventTypes: z.array(EventTypeFilter).min(1).max(100).optional().meta({ description: EVENT_TYPES_DESCRIPTION }),
    description: z
      .string()
      .max(500)
      .nullable()
      .optional()
      .meta({ description: 'New note, up to 500 characters; null clears it, absent keeps it.' }),
    enabled: z.boolean().optional().meta({ description: ENABLED_DESCRIPTION }),
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
  .object({
    object: z.literal('svc.webhooks.subscription').meta({ description: 'Type of the deleted object.' }),
    id: z.string().meta({ description: 'Id of the deleted subscription (`whs_`).' }),
    deleted: z.literal(true).meta({ description: 'Always true: the subscription no longer exists.' }),
  })
  .meta({ id: 'DeletedWebhookSubscription' });

export const WebhookAttempt = z
  .object({
    attempt: z.int().min(1).max(5).meta({ description: 'Number of the attempt, from 1.' }),
    at: Timestamp.meta({ description: 'When the request was sent.' }),
    statusCode: z.int().nullable().meta({ description: "The receiver's status; null on a network error or time-out." }),
    latencyMs: z.int().meta({ description: 'Duration in milliseconds, measured by the reporter.' }),
    outcome: z.enum(['succeeded', 'failed']).meta({ description: 'Result of the attempt: `succeeded` (a 2xx answer) or `failed`.' }),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (HTTP status or network error); null on success.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = z
  .object({
    object: objectOf('svc.webhooks.delivery'),
    id: prefixedId('whd', exampleId('whd')),
    subscriptionId: z.string().meta({ description: SUBSCRIPTION_ID_DESCRIPTION }),
    eventId: z.string().meta({ description: EVENT_ID_DESCRIPTION }),
    eventType: z.string().meta({ description: EVENT_TYPE_DESCRIPTION }),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).meta({ description: STATUS_DESCRIPTION }),
    attemptCount: z.int().meta({ description: 'Number of delivery attempts made so far.' }),
    nextAttemptAt: Timestamp.nullable().meta({
      description: 'When the next attempt is due (ISO 8601 UTC); null once delivered or dead-lettered.',
    }),
    deliveredAt: Timestamp.nullable().meta({ description: 'When a 2xx answer was received (ISO 8601 UTC); null until then.' }),
    deadLetteredAt: Timestamp.nullable().meta({
      description: 'When the delivery was parked after its last failed attempt (ISO 8601 UTC); null unless dead-lettered.',
    }),
    replays: z.int().meta({ description: 'How often an operator replayed it from the dead-letter queue.' }),
    attempts: z.array(WebhookAttempt).meta({ description: 'Every attempt, oldest first, with its HTTP status, latency and error.' }),
    createdAt: CreatedAt,
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [
      {
        object: 'svc.webhooks.delivery',
        id: exampleId('whd'),
        subscriptionId: SUBSCRIPTION_ID,
        eventId: exampleId('evt'),
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
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const DeliveriesQuery = PaginationQuery.extend({
  subscriptionId: z.string().max(64).optional().meta({ description: SUBSCRIPTION_ID_DESCRIPTION }),
  eventId: z.string().max(64).optional().meta({ description: EVENT_ID_DESCRIPTION }),
  eventType: z.string().max(100).optional().meta({ description: EVENT_TYPE_DESCRIPTION }),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional().meta({ description: STATUS_DESCRIPTION }),
});

export const INBOUND_SECRET_PROVIDERS = ['svc', 'azure-event-grid', 'cloudflare-logpush'] as const;

export const InboundSecret = z
  .object({
    object: objectOf('svc.webhooks.inbound_secret'),
    provider: z.enum(INBOUND_SECRET_PROVIDERS).meta({ description: 'Name of the inbound provider (`github`).' }),
    secret: z.string().meta({
      description: 'Shown once. `svc`: HMAC key of `svc-signature`; azure-event-grid: the shared key; cloudflare-logpush: HMAC key.',
    }),
    previousSecretExpiresAt: Timestamp.nullable().meta({
      description: 'Until when the replaced secret is still accepted (ISO 8601 UTC); null when there was none.',
    }),
    createdAt: CreatedAt,
  })
  .meta({ id: 'InboundSecret' });

/** Cloud inbound providers whose messages are signed by the provider's keys, the same for all of its customers. */
export const INBOUND_SOURCE_PROVIDERS = ['aws-sns', 'gcp-pubsub'] as const;

/** An SNS topic ARN (standard and FIFO, every AWS partition). */
export const SNS_TOPIC_ARN = /^arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;
/** A Google service-account email as Pub/Sub puts it in the push token's `email` claim. */
export const GCP_SERVICE_ACCOUNT = /^[a-z0-9][a-z0-9._-]{0,62}@[a-z0-9][a-z0-9.-]{0,252}\.[a-z]{2,}$/;

export const InboundSourcesBody = z
  .strictObject({
    sources: z.array(z.string().min(1).max(320)).max(100).meta({
      description:
        'Every source the tenant accepts, replacing the earlier list. `aws-sns`: topic ARNs (`arn:aws:sns:eu-west-1:123456789012:compliance-events`); `gcp-pubsub`: the email of the service account the push subscription authenticates as. An empty list refuses every message.',
    }),
  })
  .meta({
    id: 'SetInboundSourcesRequest',
    examples: [{ sources: ['arn:aws:sns:eu-west-1:123456789012:compliance-events'] }],
  });

export const InboundSources = z
  .object({
    object: objectOf('svc.webhooks.inbound_sources'),
    provider: z.enum(INBOUND_SOURCE_PROVIDERS).meta({ description: 'Cloud provider whose messages the list admits.' }),
    sources: z.array(z.string()).meta({
      description:
        'Topic ARNs (`aws-sns`) or push service-account emails (`gcp-pubsub`) the tenant accepts; a validly signed message from any other source is refused.',
    }),
    updatedAt: Timestamp.nullable().meta({ description: 'When the list was last set (ISO 8601 UTC); null when it never was.' }),
  })
  .meta({
    id: 'InboundSources',
    examples: [
      {
        object: 'svc.webhooks.inbound_sources',
        provider: 'aws-sns',
        sources: ['arn:aws:sns:eu-west-1:123456789012:compliance-events'],
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

const InboundSourceParams = z.object({
  provider: z.enum(INBOUND_SOURCE_PROVIDERS).meta({ description: 'Cloud provider whose messages the list admits.', examples: ['aws-sns'] }),
});

export const DeadLetter = WebhookDelivery.extend({
  tenantId: z.string().meta({ description: 'Tenant whose event the delivery carried.' }),
}).meta({ id: 'WebhookDeadLetter' });

export const ReplayBody = z
  .union([
    z.strictObject({ deliveryId: z.string().min(1).max(64).meta({ description: 'Id of the dead-lettered delivery to queue again.' }) }),
    z.strictObject({
      since: Timestamp.meta({ description: 'Replay every dead-lettered delivery parked at or after this time.' }),
      tenantId: z.string().max(64).optional().meta({ description: 'Id of the tenant (`ten_` prefix) the record belongs to.' }),
    }),
  ])
  .meta({ id: 'ReplayDeadLettersRequest', examples: [{ since: '2026-11-22T00:00:00.000Z' }] });

export const ReplayResult = z
  .object({
    replayed: z.int().meta({ description: 'Number of deliveries queued again.' }),
    deliveryIds: z.array(z.string()).meta({ description: 'Ids of the deliveries queued again.' }),
  })
  .meta({ id: 'ReplayDeadLettersResult', description: 'The deliveries are due again at once, with the same event ids.' });

const read = meta({ auth: 'tenant', group: 'webhooks', permission: 'webhooks:read', mutating: false });
const SubscriptionParams = idParams('whs');

/** A tenant's change to its webhook setup, audited as `audit`. */
function write<const A extends string>(audit: A) {
  return meta({ auth: 'tenant', group: 'webhooks', permission: 'webhooks:write', mutating: true, audit });
}

const deadLetterRoutes = {
  listDeadLetters: {
    method: 'GET',
    path: '/v1/operator/webhooks/dead-letters',
    query: PaginationQuery.extend({ tenantId: z.string().max(64).optional().meta({ description: 'Only dead letters of this tenant.' }) }),
    responses: { 200: listOf(DeadLetter) },
    summary: 'List the dead-letter queue, newest first',
    description:
      'Returns the webhook deliveries of every tenant that exhausted their attempts and were parked, newest first, with the last error. Operator credential required.',
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
      description:
        'Creates a subscription that receives the listed event types at an HTTPS URL. The response carries the signing secret (`whsec_...`) once: store it to verify the `Webhook-Signature` header of deliveries. Audited.',
      metadata: write('webhook_subscription.created'),
    },
    listSubscriptions: {
      method: 'GET',
      path: '/v1/webhook-subscriptions',
      query: PaginationQuery,
      responses: { 200: listOf(WebhookSubscription) },
      summary: 'List webhook subscriptions',
      description: "Returns the tenant's webhook subscriptions, newest first, without their secrets; paginated by `limit` and `cursor`.",
      metadata: read,
    },
    getSubscription: {
      method: 'GET',
      path: '/v1/webhook-subscriptions/:id',
      pathParams: SubscriptionParams,
      responses: { 200: WebhookSubscription },
      summary: 'Get a webhook subscription',
      description:
        'Returns one webhook subscription of the tenant, without its secret. 404 `not_found` when it does not exist in this tenant.',
      metadata: read,
    },
    updateSubscription: {
      method: 'PATCH',
      path: '/v1/webhook-subscriptions/:id',
      pathParams: SubscriptionParams,
      body: UpdateWebhookSubscriptionBody,
      responses: { 200: WebhookSubscription },
      summary: 'Change the URL, event types, description or enabled state',
      description:
        'Updates the given fields of a subscription; fields left out keep their value. A disabled subscription receives no new deliveries. Audited.',
      metadata: write('webhook_subscription.updated'),
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhook-subscriptions/:id/rotate-secret',
      pathParams: SubscriptionParams,
      body: RotateSecretBody.optional(),
      responses: { 200: WebhookSubscriptionWithSecret },
      summary: 'Rotate the signing secret; the old one keeps signing for the overlap window',
      description:
        'Issues a new signing secret, shown once in the response. Until `previousSecretExpiresAt` deliveries carry signatures with both secrets, so receivers can switch without losing events. Audited.',
      metadata: write('webhook_subscription.secret_rotated'),
    },
    deleteSubscription: {
      method: 'DELETE',
      path: '/v1/webhook-subscriptions/:id',
      pathParams: SubscriptionParams,
      body: c.noBody(),
      responses: { 200: DeletedWebhookSubscription },
      summary: 'Delete a webhook subscription; its pending deliveries are dropped',
      description:
        'Deletes the subscription; deliveries not yet sent are dropped and nothing more is sent to its URL. Returns the id with `deleted: true`. Audited.',
      metadata: write('webhook_subscription.deleted'),
    },
    listDeliveries: {
      method: 'GET',
      path: '/v1/webhook-deliveries',
      query: DeliveriesQuery,
      responses: { 200: listOf(WebhookDelivery) },
      summary: 'Delivery state per event and subscription, with every attempt',
      description:
        "Returns the tenant's webhook deliveries with their state (pending, delivered, dead-lettered), the attempt count, the next attempt time and every attempt's HTTP status and latency.",
      metadata: read,
    },
    rotateInboundSecret: {
      method: 'POST',
      path: '/v1/webhook-inbound-secrets/:provider',
      pathParams: z.object({
        provider: z
          .enum(INBOUND_SECRET_PROVIDERS)
          .meta({ description: 'Provider that signs its inbound webhooks with the secret.', examples: ['svc'] }),
      }),
      body: RotateSecretBody.optional(),
      responses: { 201: InboundSecret },
      summary: 'Issue or rotate the secret the webhook worker checks for this tenant and provider',
      description:
        'For `POST /inbound/{tenantId}` (provider `svc`), `POST /cloud/azure-event-grid/{tenantId}` and `POST /cloud/cloudflare-logpush/{tenantId}`. The previous secret stays valid for the overlap window.',
      metadata: write('webhook_inbound_secret.rotated'),
    },
    getInboundSources: {
      method: 'GET',
      path: '/v1/webhook-inbound-sources/:provider',
      pathParams: InboundSourceParams,
      responses: { 200: InboundSources },
      summary: 'The SNS topics or Pub/Sub service accounts the webhook worker accepts for this tenant',
      description:
        "AWS and Google sign every customer's messages with the same keys, so a valid signature does not say which tenant asked for a message: `POST /cloud/aws-sns/{tenantId}` and `POST /cloud/gcp-pubsub/{tenantId}` accept only messages from the sources listed here. An empty list (the default) refuses all.",
      metadata: read,
    },
    setInboundSources: {
      method: 'PUT',
      path: '/v1/webhook-inbound-sources/:provider',
      pathParams: InboundSourceParams,
      body: InboundSourcesBody,
      responses: { 200: InboundSources },
      summary: 'Set the SNS topics or Pub/Sub service accounts the webhook worker accepts for this tenant',
      description:
        "Replaces the list. `aws-sns` takes topic ARNs; `gcp-pubsub` the service-account emails of the push subscriptions (the token's `email` claim, which must also be verified). An entry that is not of the form the provider uses is refused with 422 and nothing changes. Audited with the old and the new list.",
      metadata: write('webhook_inbound_sources.set'),
    },
    ...deadLetterRoutes,
  },
  { commonResponses: commonErrorResponses },
);
