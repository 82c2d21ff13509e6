import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { del, get, patch, post } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { meta } from '../../platform/meta.ts';
import { resource } from '../../platform/resource.ts';
import { setting } from '../../platform/setting.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { idParams } from '../../shared/records.ts';
import {
  CreateWebhookSubscriptionBody,
  DeadLetter,
  DeletedWebhookSubscription,
  DeliveriesQuery,
  INBOUND_SECRET_PROVIDERS,
  INBOUND_SOURCE_PROVIDERS,
  InboundSecret,
  InboundSources,
  InboundSourcesBody,
  ReplayBody,
  ReplayResult,
  RotateSecretBody,
  UpdateWebhookSubscriptionBody,
  WebhookDelivery,
  WebhookSubscription,
  WebhookSubscriptionWithSecret,
} from './schemas.ts';

/** The webhooks rail's resources and hand-declared routes, its router and the event types it emits. */

const c = initContract();

const InboundSourceParams = z.object({
  provider: z.enum(INBOUND_SOURCE_PROVIDERS).meta({ description: 'Cloud provider whose messages the list admits.', examples: ['aws-sns'] }),
});

const SubscriptionParams = idParams('whs');

/** A tenant's change to its webhook setup, audited as `audit`. */
function write<const A extends string>(audit: A) {
  return meta({ auth: 'tenant', group: 'webhooks', permission: 'webhooks:write', mutating: true, audit });
}

const deadLetterRoutes = {
  listDeadLetters: get(
    '/v1/operator/webhooks/dead-letters',
    {
      query: PaginationQuery.extend({ tenantId: z.string().max(64).optional().meta({ description: 'Only dead letters of this tenant.' }) }),
    },
    listOf(DeadLetter),
    meta({ auth: 'operator', group: 'webhooks', mutating: false }),
  ).doc(
    'List the dead-letter queue, newest first',
    'Returns the webhook deliveries of every tenant that exhausted their attempts and were parked, newest first, with the last error. Operator credential required.',
  ),
  replayDeadLetters: post(
    '/v1/operator/webhooks/replay',
    { body: ReplayBody },
    ReplayResult,
    meta({ auth: 'operator', group: 'webhooks', mutating: true, audit: 'webhook_delivery.replayed' }),
  ).doc(
    'Replay one dead-lettered delivery, or all parked since a time',
    'Replayed deliveries start again at attempt 1 with the same event id and envelope.',
  ),
} as const;

const BySubscription = { pathParams: SubscriptionParams };

/** The tenant's subscriptions, read by the kit; their writes (a secret shown once, a deletion) stay routes of their own. */
export const webhookSubscriptions = resource({
  rail: 'webhooks',
  path: 'webhook-subscriptions',
  name: 'subscription',
  label: { one: 'webhook subscription', many: 'webhook subscriptions' },
  idPrefix: 'whs',
  record: WebhookSubscription,
  notes: {
    list: 'The subscriptions are shown without their secrets (`secretPrefix` only).',
    get: 'A secret is shown once, by the create or the rotation that made it; here `secretPrefix` only.',
  },
  // One type the walks hardly emit: a subscription to every type would queue a delivery to an
  // unreachable host for each of their writes, ahead of other suites' on a shared database.
  setup: [
    {
      method: 'POST',
      path: '/v1/webhook-subscriptions',
      body: { url: 'https://hooks.example.com/svc/{{unique}}', eventTypes: ['label.added'] },
    },
  ],
});

/** Delivery state per event and subscription, with every attempt: the outbox's rows, listed by the kit. */
export const webhookDeliveries = resource({
  rail: 'webhooks',
  path: 'webhook-deliveries',
  name: 'delivery',
  label: { one: 'webhook delivery', many: 'webhook deliveries' },
  idPrefix: 'whd',
  record: WebhookDelivery,
  get: false,
  filters: {
    subscriptionId: DeliveriesQuery.shape.subscriptionId,
    eventId: DeliveriesQuery.shape.eventId,
    eventType: DeliveriesQuery.shape.eventType,
    status: DeliveriesQuery.shape.status,
  },
  notes: {
    list: "The tenant's webhook deliveries with their state (pending, delivered, dead-lettered), the attempt count, the next attempt time and every attempt's HTTP status and latency.",
  },
  // A subscription to every type, then a change whose event it receives.
  // A subscription to one type (not `*`: see the subscriptions' setup), then a change of that type.
  setup: [
    {
      method: 'POST',
      path: '/v1/webhook-subscriptions',
      body: { url: 'https://hooks.example.com/svc/{{unique}}', eventTypes: ['workspace.created'] },
    },
    { method: 'POST', path: '/v1/workspaces', body: { name: 'Delivered {{unique}}' } },
  ],
});

/** The SNS topics or Pub/Sub service accounts the webhook worker accepts for the tenant, per provider. */
export const inboundSources = setting({
  rail: 'webhooks',
  path: 'webhook-inbound-sources',
  name: 'inbound_sources',
  label: 'accepted sources',
  record: InboundSources,
  body: InboundSourcesBody,
  key: { param: 'provider', schema: InboundSourceParams.shape.provider, label: 'provider' },
  // An empty list (the default) refuses all.
  unset: { defaults: { sources: [] } },
  action: 'webhook_inbound_sources.set',
  get: {
    summary: 'The SNS topics or Pub/Sub service accounts the webhook worker accepts for this tenant',
    description:
      "AWS and Google sign every customer's messages with the same keys, so a valid signature does not say which tenant asked for a message: `POST /cloud/aws-sns/{tenantId}` and `POST /cloud/gcp-pubsub/{tenantId}` accept only messages from the sources listed here. An empty list refuses all.",
  },
  put: {
    summary: 'Set the SNS topics or Pub/Sub service accounts the webhook worker accepts for this tenant',
    description:
      "`aws-sns` takes topic ARNs; `gcp-pubsub` the service-account emails of the push subscriptions (the token's `email` claim, which must also be verified). An entry that is not of the form the provider uses is refused with 422 and nothing changes. The audit event has the old and the new list.",
  },
});

export const webhooksRouter = c.router(
  {
    createSubscription: post(
      '/v1/webhook-subscriptions',
      { body: CreateWebhookSubscriptionBody },
      { 201: WebhookSubscriptionWithSecret },
      write('webhook_subscription.created'),
    ).doc(
      'Create a webhook subscription; the secret is shown once',
      'Creates a subscription that receives the listed event types at an HTTPS URL. The response carries the signing secret (`whsec_...`) once: store it to verify the `Webhook-Signature` header of deliveries. Audited.',
    ),
    listSubscriptions: webhookSubscriptions.routes.list,
    getSubscription: webhookSubscriptions.routes.get,
    updateSubscription: patch(
      '/v1/webhook-subscriptions/:id',
      { ...BySubscription, body: UpdateWebhookSubscriptionBody },
      WebhookSubscription,
      write('webhook_subscription.updated'),
    ).doc(
      'Change the URL, event types, description or enabled state',
      'Updates the given fields of a subscription; fields left out keep their value. A disabled subscription receives no new deliveries. Audited.',
    ),
    rotateSecret: post(
      '/v1/webhook-subscriptions/:id/rotate-secret',
      { ...BySubscription, body: RotateSecretBody.optional() },
      WebhookSubscriptionWithSecret,
      write('webhook_subscription.secret_rotated'),
    ).doc(
      'Rotate the signing secret; the old one keeps signing for the overlap window',
      'Issues a new signing secret, shown once in the response. Until `previousSecretExpiresAt` deliveries carry signatures with both secrets, so receivers can switch without losing events. Audited.',
    ),
    deleteSubscription: del(
      '/v1/webhook-subscriptions/:id',
      { pathParams: SubscriptionParams, body: c.noBody() },
      DeletedWebhookSubscription,
      write('webhook_subscription.deleted'),
    ).doc(
      'Delete a webhook subscription; its pending deliveries are dropped',
      'Deletes the subscription; deliveries not yet sent are dropped and nothing more is sent to its URL. Returns the id with `deleted: true`. Audited.',
    ),
    listDeliveries: webhookDeliveries.routes.list,
    rotateInboundSecret: post(
      '/v1/webhook-inbound-secrets/:provider',
      {
        pathParams: z.object({
          provider: z
            .enum(INBOUND_SECRET_PROVIDERS)
            .meta({ description: 'Provider that signs its inbound webhooks with the secret.', examples: ['svc'] }),
        }),
        body: RotateSecretBody.optional(),
      },
      { 201: InboundSecret },
      write('webhook_inbound_secret.rotated'),
    ).doc(
      'Issue or rotate the secret the webhook worker checks for this tenant and provider',
      'For `POST /inbound/{tenantId}` (provider `svc`), `POST /cloud/azure-event-grid/{tenantId}` and `POST /cloud/cloudflare-logpush/{tenantId}`. The previous secret stays valid for the overlap window.',
    ),
    getInboundSources: inboundSources.routes.get,
    setInboundSources: inboundSources.routes.put,
    ...deadLetterRoutes,
  },
  { commonResponses: commonErrorResponses },
);
