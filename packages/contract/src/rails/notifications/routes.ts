import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource, withArticle } from '../../platform/resource.ts';
import { setting } from '../../platform/setting.ts';
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
  NOTIFICATION_CHANNELS,
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

const { read, write } = policyOf('notifications');
const ByChannel = { pathParams: ChannelIdParams };

const KIND_LABEL: Record<NotificationChannelKind, string> = { slack: 'Slack channel', teams: 'Teams channel', email: 'email channel' };

/**
 * The channels of one kind: the rows of the channels' table whose `kind` is `kind` (a variant of
 * the `notification_channel` family), with their list, create, get, disable and enable.
 */
function channelResource<R extends z.ZodObject, B extends z.ZodType>(kind: NotificationChannelKind, record: R, body: B) {
  const label = KIND_LABEL[kind];
  const secretNote = kind === 'email' ? '' : ' The URL is checked like a webhook target and stored sealed; responses show only `urlHint`.';
  return resource({
    rail: 'notifications',
    path: kind,
    variant: { family: 'notification_channel', field: 'kind', value: kind },
    name: `${kind}_channel`,
    label: { one: label, many: `${label}s` },
    idPrefix: 'nch',
    record,
    statusField: 'status',
    filters: { status: ChannelStatus.optional().meta({ description: `Only ${label}s in this state.` }) },
    notes: { get: 'Channels of every kind share the `nch_` prefix: the id of a channel of another kind is 404 here.' },
    create: {
      body,
      action: 'notification_channel.created',
      summary: `Add ${withArticle(label)}`,
      description: `Adds ${withArticle(label)} of the tenant; subscriptions naming \`${kind}\` send their events to every active one.${secretNote}`,
    },
    transitions: {
      disable: {
        from: ['active'],
        to: 'disabled',
        action: 'notification_channel.disabled',
        summary: `Disable ${withArticle(label)}`,
        description: 'Stops sending to the channel; deliveries already queued still run.',
      },
      enable: {
        from: ['disabled'],
        to: 'active',
        action: 'notification_channel.enabled',
        summary: `Enable ${withArticle(label)}`,
        description: 'Sends to the channel again.',
      },
    },
  });
}

/** What each API key is notified of: muted types, the lowest severity, the channels switched on. */
export const notificationPreferences = setting({
  rail: 'notifications',
  path: 'preferences',
  name: 'preferences',
  label: 'notification preferences',
  record: NotificationPreferences,
  body: PutPreferencesBody,
  key: { caller: true },
  // Nothing muted, every severity, every channel.
  unset: { defaults: { mutedEventTypes: [], minimumSeverity: 'debug', channels: [...NOTIFICATION_CHANNELS] } },
  action: 'notification_preferences.updated',
  eventSummary: "An API key's notification preferences changed.",
  get: {
    summary: "Get the caller's notification preferences",
    description: 'Muted event types, minimum severity and channels switched on.',
  },
  put: {
    summary: "Set the caller's notification preferences",
    description:
      'The notifier applies them to every event after the change: a muted type, a severity below the minimum or a channel switched off is not notified.',
  },
});

export const slackChannels = channelResource('slack', SlackChannel, CreateSlackChannelBody);
export const teamsChannels = channelResource('teams', TeamsChannel, CreateTeamsChannelBody);

/** A channel's deliveries: messages sent or to be sent to it. */
function deliveriesRoute(kind: NotificationChannelKind) {
  const label = KIND_LABEL[kind];
  return get(
    `/${kind}/:id/deliveries`,
    {
      ...ByChannel,
      query: PaginationQuery.extend({
        status: z.enum(NOTIFICATION_DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this state.' }),
      }),
    },
    listOf(NotificationDelivery),
    read,
  ).doc(
    `List the deliveries of ${withArticle(label)}`,
    `Messages sent or to be sent to the channel, newest first, with their state, attempts and last error. Needs \`notifications:read\`.`,
  );
}

export const emailChannels = channelResource('email', EmailChannel, CreateEmailChannelBody);

// ---------------------------------------------------------------- router

export const notificationsRouter = railRouter('notifications', {
  inbox: {
    list: get('/inbox', { query: InboxQuery }, listOf(Notification), meta({ ...read, source: { object: 'svc.notifications.inbox' } })).doc(
      "List the caller's notifications",
      'Notifications in the inbox of the calling API key, newest first, as `{ data, cursor }`; `unread=true` for the unread ones only. Needs `notifications:read`.',
    ),
    counts: get('/inbox/counts', {}, InboxCounts, read).doc(
      "Count the caller's notifications",
      "Total and unread notifications in the calling key's inbox, counted at request time. Needs `notifications:read`.",
    ),
    get: get('/inbox/:id', { pathParams: idParams('ntf') }, Notification, read).doc(
      'Get a notification',
      "One notification of the caller's inbox; 404 `not_found` for an unknown id or one of another key or tenant. Needs `notifications:read`.",
    ),
  },
  markRead: post('/mark-read', { body: MarkReadBody }, MarkReadResult, write('notification.marked_read')).doc(
    'Mark notifications read',
    "Marks read the caller's notifications named in `ids` (unknown ids and other keys' are ignored), or every one whose event happened at or before `upTo`. Returns how many changed and how many stay unread. Audited (`notification.marked_read`). Needs `notifications:write`.",
  ),
  subscribe: notificationSubscriptions.routes,
  preferences: notificationPreferences.routes,
  slack: { ...slackChannels.routes, deliveries: deliveriesRoute('slack') },
  teams: { ...teamsChannels.routes, deliveries: deliveriesRoute('teams') },
  email: {
    ...emailChannels.routes,
    deliveries: deliveriesRoute('email'),
    confirm: post(
      '/email/confirm',
      { body: ConfirmEmailRecipientBody },
      EmailRecipientConfirmation,
      meta({ auth: 'public', mutating: true, audit: 'notification_channel.recipient_confirmed' }),
    ).doc(
      'Confirm an email recipient (no token)',
      "For the person at the address, without an API key: the token of the confirmation message confirms the address as a recipient of its channel; from then on the channel's messages go to it. The token works once and for 7 days; 404 `not_found` for a token that is unknown, used, replaced by a newer message or expired. Audited (`notification_channel.recipient_confirmed`).",
    ),
    resendConfirmations: post(
      '/email/:id/resend-confirmations',
      { ...ByChannel, body: z.strictObject({}).optional() },
      EmailChannel,
      write('notification_channel.confirmations_resent'),
    ).doc(
      'Send the confirmation messages of an email channel again',
      'Sends a new confirmation message to every recipient of the channel still `pending` (a message that failed or a token that expired); the tokens sent before stop working. Audited (`notification_channel.confirmations_resent`). Needs `notifications:write`.',
    ),
  },
});

const AnyChannel = z.union([SlackChannel, TeamsChannel, EmailChannel]);

/** Event types the notifications rail emits. */
export const notificationsEvents = [
  ...notificationSubscriptions.events,
  eventType('notification.marked_read', 'An API key marked notifications of its inbox read.', MarkReadResult),
  ...notificationPreferences.events,
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
