import { z } from 'zod';
import { isEventTypeFilter } from '../../platform/webhook-events.ts';
import { PaginationQuery, prefixedId, Timestamp } from '../../shared/common.ts';
import { CREATED_AT_DESCRIPTION, EXAMPLE_AT, exampleId, objectField, UPDATED_AT_DESCRIPTION } from '../../shared/records.ts';

/** The webhooks rail's records, request bodies and their examples (index.ts describes the rail). */

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
