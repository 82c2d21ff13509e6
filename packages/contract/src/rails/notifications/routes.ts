import { z } from 'zod';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { idParams } from '../../shared/records.ts';
import { ChannelStatus, SUBSCRIPTION_STATUSES } from './fields.ts';
import {
  ConfirmEmailRecipientBody,
  CreateEmailChannelBody,
  CreateNotificationSubscriptionBody,
  CreateSlackChannelBody,
  CreateTeamsChannelBody,
  EmailChannel,
  EmailRecipientConfirmation,
  InboxCounts,
  InboxQuery,
  MarkReadBody,
  MarkReadResult,
  NOTIFICATION_DELIVERY_STATUSES,
  Notification,
  type NotificationChannelKind,
  NotificationDelivery,
  NotificationPreferences,
  NotificationSubscription,
  PutPreferencesBody,
  SlackChannel,
  TeamsChannel,
} from './schemas.ts';

/** The notifications rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- subscriptions

export const notificationSubscriptions = resource({
  rail: 'notifications',
  path: 'subscribe',
  name: 'notification_subscription',
  label: { one: 'notification subscription', many: 'notification subscriptions' },
  idPrefix: 'nsb',
  record: NotificationSubscription,
  statusField: 'status',
  filters: {
    status: z.enum(SUBSCRIPTION_STATUSES).optional(),
    subscriberId: z.string().min(1).max(64).optional(),
  },
  create: {
    body: CreateNotificationSubscriptionBody,
    summary: 'Subscribe to event types',
    description:
      "Subscribes the calling API key to the event types named (validated against the registered types; wildcards `<category>.*` and `*`) on the channels named. Events after the subscription are notified, subject to the key's preferences.",
    eventSummary: 'An API key subscribed to notifications.',
  },
  transitions: {
    pause: { from: ['active'], to: 'paused', summary: 'Pause a notification subscription' },
    resume: { from: ['paused'], to: 'active', summary: 'Resume a notification subscription' },
    cancel: { from: ['active', 'paused'], to: 'canceled', summary: 'Cancel a notification subscription' },
  },
});

// ---------------------------------------------------------------- channels

const ChannelIdParams = idParams('nch');

const read = meta({ auth: 'tenant', rail: 'notifications', permission: 'notifications:read', mutating: false });
const write = (audit: string) => meta({ auth: 'tenant', rail: 'notifications', permission: 'notifications:write', mutating: true, audit });

const KIND_LABEL: Record<NotificationChannelKind, string> = { slack: 'Slack channel', teams: 'Teams channel', email: 'email channel' };

function channelRoutes<R extends z.ZodObject, B extends z.ZodType>(kind: NotificationChannelKind, record: R, body: B) {
  const label = KIND_LABEL[kind];
  const article = /^[aeiou]/i.test(label) ? 'an' : 'a';
  const secretNote = kind === 'email' ? '' : ' The URL is checked like a webhook target and stored sealed; responses show only `urlHint`.';
  return {
    list: {
      method: 'GET',
      path: `/${kind}`,
      query: PaginationQuery.extend({ status: ChannelStatus.optional().meta({ description: `Only ${label}s in this state.` }) }),
      responses: { 200: listOf(record) },
      summary: `List ${label}s`,
      description: `The tenant's ${label}s, newest first, as \`{ data, cursor }\`. Needs \`notifications:read\`.`,
      metadata: read,
    },
    create: {
      method: 'POST',
      path: `/${kind}`,
      body,
      responses: { 201: record },
      summary: `Add ${article} ${label}`,
      description: `Adds ${article} ${label} of the tenant; subscriptions naming \`${kind}\` send their events to every active one.${secretNote} Audited (\`notification_channel.created\`). Needs \`notifications:write\`.`,
      metadata: write('notification_channel.created'),
    },
    get: {
      method: 'GET',
      path: `/${kind}/:id`,
      pathParams: ChannelIdParams,
      responses: { 200: record },
      summary: `Get ${article} ${label}`,
      description: `One ${label} of the tenant; 404 \`not_found\` for an unknown id, another tenant's or another kind's. Needs \`notifications:read\`.`,
      metadata: meta({ ...read, source: { object: `svc.notifications.${kind}_channel` } }),
    },
    disable: {
      method: 'POST',
      path: `/${kind}/:id/disable`,
      pathParams: ChannelIdParams,
      body: z.strictObject({}).optional(),
      responses: { 200: record },
      summary: `Disable ${article} ${label}`,
      description: `Stops sending to the channel (from \`active\`; 409 \`conflict\` otherwise); deliveries already queued still run. Audited (\`notification_channel.disabled\`). Needs \`notifications:write\`.`,
      metadata: write('notification_channel.disabled'),
    },
    enable: {
      method: 'POST',
      path: `/${kind}/:id/enable`,
      pathParams: ChannelIdParams,
      body: z.strictObject({}).optional(),
      responses: { 200: record },
      summary: `Enable ${article} ${label}`,
      description: `Sends to the channel again (from \`disabled\`; 409 \`conflict\` otherwise). Audited (\`notification_channel.enabled\`). Needs \`notifications:write\`.`,
      metadata: { ...write('notification_channel.enabled'), stateful: true },
    },
    deliveries: {
      method: 'GET',
      path: `/${kind}/:id/deliveries`,
      pathParams: ChannelIdParams,
      query: PaginationQuery.extend({
        status: z.enum(NOTIFICATION_DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this state.' }),
      }),
      responses: { 200: listOf(NotificationDelivery) },
      summary: `List the deliveries of ${article} ${label}`,
      description: `Messages sent or to be sent to the channel, newest first, with their state, attempts and last error. Needs \`notifications:read\`.`,
      metadata: read,
    },
  } as const;
}

// ---------------------------------------------------------------- router

export const notificationsRouter = railRouter('notifications', {
  inbox: {
    list: {
      method: 'GET',
      path: '/inbox',
      query: InboxQuery,
      responses: { 200: listOf(Notification) },
      summary: "List the caller's notifications",
      description:
        'Notifications in the inbox of the calling API key, newest first, as `{ data, cursor }`; `unread=true` for the unread ones only. Needs `notifications:read`.',
      metadata: meta({ ...read, source: { object: 'svc.notifications.inbox' } }),
    },
    counts: {
      method: 'GET',
      path: '/inbox/counts',
      responses: { 200: InboxCounts },
      summary: "Count the caller's notifications",
      description: "Total and unread notifications in the calling key's inbox, counted at request time. Needs `notifications:read`.",
      metadata: read,
    },
    get: {
      method: 'GET',
      path: '/inbox/:id',
      pathParams: idParams('ntf'),
      responses: { 200: Notification },
      summary: 'Get a notification',
      description:
        "One notification of the caller's inbox; 404 `not_found` for an unknown id or one of another key or tenant. Needs `notifications:read`.",
      metadata: read,
    },
  },
  markRead: {
    method: 'POST',
    path: '/mark-read',
    body: MarkReadBody,
    responses: { 200: MarkReadResult },
    summary: 'Mark notifications read',
    description:
      "Marks read the caller's notifications named in `ids` (unknown ids and other keys' are ignored), or every one whose event happened at or before `upTo`. Returns how many changed and how many stay unread. Audited (`notification.marked_read`). Needs `notifications:write`.",
    metadata: write('notification.marked_read'),
  },
  subscribe: notificationSubscriptions.routes,
  preferences: {
    get: {
      method: 'GET',
      path: '/preferences',
      responses: { 200: NotificationPreferences },
      summary: "Get the caller's notification preferences",
      description:
        'Muted event types, minimum severity and channels switched on for the calling API key; the defaults (nothing muted, `debug`, every channel) until set. Needs `notifications:read`.',
      metadata: meta({ ...read, source: { object: 'svc.notifications.preferences' } }),
    },
    put: {
      method: 'PUT',
      path: '/preferences',
      body: PutPreferencesBody,
      responses: { 200: NotificationPreferences },
      summary: "Set the caller's notification preferences",
      description:
        'Replaces the preferences of the calling API key; the notifier applies them to every event after the change: a muted type, a severity below the minimum or a channel switched off is not notified. Audited (`notification_preferences.updated`). Needs `notifications:write`.',
      metadata: write('notification_preferences.updated'),
    },
  },
  slack: channelRoutes('slack', SlackChannel, CreateSlackChannelBody),
  teams: channelRoutes('teams', TeamsChannel, CreateTeamsChannelBody),
  email: {
    ...channelRoutes('email', EmailChannel, CreateEmailChannelBody),
    confirm: {
      method: 'POST',
      path: '/email/confirm',
      body: ConfirmEmailRecipientBody,
      responses: { 200: EmailRecipientConfirmation },
      summary: 'Confirm an email recipient (no token)',
      description:
        "For the person at the address, without an API key: the token of the confirmation message confirms the address as a recipient of its channel; from then on the channel's messages go to it. The token works once and for 7 days; 404 `not_found` for a token that is unknown, used, replaced by a newer message or expired. Audited (`notification_channel.recipient_confirmed`).",
      metadata: meta({ auth: 'public', mutating: true, audit: 'notification_channel.recipient_confirmed' }),
    },
    resendConfirmations: {
      method: 'POST',
      path: '/email/:id/resend-confirmations',
      pathParams: ChannelIdParams,
      body: z.strictObject({}).optional(),
      responses: { 200: EmailChannel },
      summary: 'Send the confirmation messages of an email channel again',
      description:
        'Sends a new confirmation message to every recipient of the channel still `pending` (a message that failed or a token that expired); the tokens sent before stop working. Audited (`notification_channel.confirmations_resent`). Needs `notifications:write`.',
      metadata: write('notification_channel.confirmations_resent'),
    },
  },
});

const AnyChannel = z.union([SlackChannel, TeamsChannel, EmailChannel]);

/** Event types the notifications rail emits. */
export const notificationsEvents = [
  ...notificationSubscriptions.events,
  eventType('notification.marked_read', 'An API key marked notifications of its inbox read.', MarkReadResult),
  eventType('notification_preferences.updated', "An API key's notification preferences changed.", NotificationPreferences),
  eventType('notification_channel.created', 'A Slack, Teams or email channel was added.', AnyChannel),
  eventType('notification_channel.disabled', 'A notification channel was disabled.', AnyChannel),
  eventType('notification_channel.enabled', 'A notification channel was enabled again.', AnyChannel),
  eventType(
    'notification_channel.recipient_confirmed',
    'A recipient of an email channel confirmed its address.',
    EmailRecipientConfirmation,
  ),
  eventType('notification_channel.confirmations_resent', 'The confirmation messages of an email channel were sent again.', EmailChannel),
];
