import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { isEventTypeFilter } from '../../platform/webhook-events.ts';
import { PaginationQuery, prefixedId, Timestamp } from '../../shared/common.ts';
import {
  CREATED_AT_DESCRIPTION,
  CREATED_BY_KEY_DESCRIPTION,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
  UPDATED_AT_DESCRIPTION,
} from '../../shared/records.ts';
import { EVENT_SEVERITIES } from '../events/index.ts';
import { ChannelStatus, SUBSCRIPTION_STATUSES } from './fields.ts';

/** The notifications rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a notifications record; every description names `svc.notifications.notification` as its example. */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.notifications.notification');

/** `createdBy` (an API key), `createdAt` and `updatedAt` of a record. */
const keyStamps = () => stamps(UPDATED_AT_DESCRIPTION, CREATED_BY_KEY_DESCRIPTION);

const EVENT_ID = exampleId('evi');
const EVIDENCE_ID = exampleId('evd');
const SUBSCRIPTION_ID = exampleId('nsb');
const NOTIFICATION_ID = exampleId('ntf');
const CHANNEL_ID = exampleId('nch');

/** Where a notification can go: the recipient's inbox, or the tenant's Slack, Teams or email channels. */
export const NOTIFICATION_CHANNELS = ['inbox', 'slack', 'teams', 'email'] as const;
/** The external channel kinds, each a sub-resource with its own settings. */
export const NOTIFICATION_CHANNEL_KINDS = ['slack', 'teams', 'email'] as const;
export type NotificationChannelKind = (typeof NOTIFICATION_CHANNEL_KINDS)[number];
export const NOTIFICATION_DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;

/** Event categories of this rail: never notified about, so that notifying cannot feed itself. */
export const NOTIFICATION_OWN_CATEGORIES = [
  'notification',
  'notification_subscription',
  'notification_channel',
  'notification_preferences',
];

const ownCategory = (filter: string) => NOTIFICATION_OWN_CATEGORIES.includes(filter.split('.')[0] as string);

const EventTypeFilter = z
  .string()
  .min(1)
  .max(100)
  .refine((f) => isEventTypeFilter(f) && !ownCategory(f), {
    message: 'not a registered event type, a category wildcard such as `evidence.*`, or `*` (except the notifications rail own events)',
  })
  .meta({
    description:
      'A registered event type (`evidence.uploaded`), a category wildcard (`assessment.*`) or `*`; the event types of the notifications rail itself are not notified.',
    examples: ['evidence.uploaded'],
  });

/** True when no channel of the list stands in it twice. */
const distinct = (channels: readonly string[]) => new Set(channels).size === channels.length;
const LISTED_TWICE = { message: 'a channel is listed twice' };

const Channel = z.enum(NOTIFICATION_CHANNELS).meta({
  description:
    "`inbox`: a notification in the subscriber's inbox; `slack`, `teams`, `email`: a message to every active channel of that kind the tenant configured.",
});

const Severity = z
  .enum(EVENT_SEVERITIES)
  .meta({ description: 'Severity of an event, lowest first: debug, info, notice, warning, error, critical.' });

// ---------------------------------------------------------------- subscriptions

const SUBSCRIBE_EXAMPLE = { eventTypes: ['evidence.uploaded', 'assessment.*'], channels: ['inbox', 'slack'] };

export const NotificationSubscription = z
  .object({
    object: objectOf('svc.notifications.notification_subscription'),
    id: prefixedId('nsb', SUBSCRIPTION_ID),
    subscriberId: z.string().meta({ description: 'Id of the API key the notifications are for (the key that created the subscription).' }),
    eventTypes: z.array(z.string()).meta({ description: 'Event types, category wildcards (`assessment.*`) or `*` that select events.' }),
    channels: z.array(Channel).meta({ description: 'Where a selected event is notified.' }),
    status: z.enum(SUBSCRIPTION_STATUSES).meta({
      description: 'Current state: only `active` subscriptions produce notifications; changes only through the transition routes.',
    }),
    ...keyStamps(),
  })
  .meta({
    id: 'NotificationSubscription',
    examples: [
      {
        object: 'svc.notifications.notification_subscription',
        id: SUBSCRIPTION_ID,
        subscriberId: EXAMPLE_KEY,
        ...SUBSCRIBE_EXAMPLE,
        status: 'active',
        ...exampleStamps(),
      },
    ],
  });

export const CreateNotificationSubscriptionBody = z
  .strictObject({
    eventTypes: z.array(EventTypeFilter).min(1).max(50).meta({ description: 'Event types to be notified of, 1 to 50.' }),
    channels: z
      .array(Channel)
      .min(1)
      .max(4)
      .refine(distinct, LISTED_TWICE)
      .meta({ description: 'Channels to notify on, 1 to 4, each at most once.' }),
  })
  .meta({
    id: 'CreateNotificationSubscriptionRequest',
    examples: [SUBSCRIBE_EXAMPLE],
  });

// ---------------------------------------------------------------- inbox

claimIdPrefix('ntf', 'svc.notifications.notification');
claimIdPrefix('npf', 'svc.notifications.preferences');
claimIdPrefix('nch', 'svc.notifications.notification_channel');
claimIdPrefix('ndv', 'svc.notifications.delivery');
claimIdPrefix('ner', 'svc.notifications.email_recipient');

const NotificationId = prefixedId('ntf', NOTIFICATION_ID);

export const Notification = z
  .object({
    object: objectOf('svc.notifications.notification'),
    id: NotificationId,
    recipientId: z.string().meta({ description: 'Id of the API key whose inbox holds the notification.' }),
    eventId: z.string().meta({ description: 'Id of the event-index row (`evi_`) the notification was produced from.' }),
    eventType: z.string().meta({ description: 'Registered event type of the event (`evidence.uploaded`).' }),
    subscriptionId: z.string().meta({ description: 'Id of the subscription (`nsb_`) that selected the event.' }),
    title: z.string().meta({ description: 'One line saying what happened.' }),
    body: z.string().meta({ description: 'What happened, who did it and where the record is.' }),
    resourceType: z.string().nullable().meta({ description: 'Object type of the record the event is about (`svc.compliance.evidence`).' }),
    resourceId: z.string().meta({ description: 'Id of the record the event is about.' }),
    path: z.string().nullable().meta({ description: 'API path of the record (`/v1/compliance/evidence/evd_...`); null when unknown.' }),
    actor: z.string().meta({ description: 'Who caused the event (API key id, operator, source).' }),
    severity: Severity,
    occurredAt: Timestamp.meta({ description: 'When the event happened (ISO 8601 UTC).' }),
    read: z.boolean().meta({ description: 'Whether the recipient marked it read.' }),
    readAt: Timestamp.nullable().meta({ description: 'When it was marked read; null while unread.' }),
    createdAt: Timestamp.meta({ description: 'When the notifier delivered it to the inbox.' }),
  })
  .meta({
    id: 'Notification',
    examples: [
      {
        object: 'svc.notifications.notification',
        id: NOTIFICATION_ID,
        recipientId: EXAMPLE_KEY,
        eventId: EVENT_ID,
        eventType: 'evidence.uploaded',
        subscriptionId: SUBSCRIPTION_ID,
        title: `evidence.uploaded: ${EVIDENCE_ID}`,
        body: `Evidence was uploaded. By ${EXAMPLE_KEY} at ${EXAMPLE_AT}: /v1/compliance/evidence/${EVIDENCE_ID}`,
        resourceType: 'svc.compliance.evidence',
        resourceId: EVIDENCE_ID,
        path: `/v1/compliance/evidence/${EVIDENCE_ID}`,
        actor: EXAMPLE_KEY,
        severity: 'info',
        occurredAt: EXAMPLE_AT,
        read: false,
        readAt: null,
        createdAt: '2026-11-22T09:30:00.250Z',
      },
    ],
  });

export const InboxQuery = PaginationQuery.extend({
  unread: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: '`true`: only unread notifications; `false`: only read ones; absent: both.' }),
  eventType: z.string().min(1).max(100).optional().meta({ description: 'Only notifications of this event type.' }),
});

export const InboxCounts = z
  .object({
    object: objectOf('svc.notifications.inbox_counts'),
    recipientId: z.string().meta({ description: 'Id of the API key whose inbox is counted (the caller).' }),
    total: z.int().min(0).meta({ description: 'Notifications in the inbox.' }),
    unread: z.int().min(0).meta({ description: 'Of those, the unread ones.' }),
  })
  .meta({
    id: 'NotificationInboxCounts',
    examples: [{ object: 'svc.notifications.inbox_counts', recipientId: EXAMPLE_KEY, total: 12, unread: 3 }],
  });

export const MarkReadBody = z
  .strictObject({
    ids: z.array(NotificationId).min(1).max(200).optional().meta({ description: 'Notifications to mark read, 1 to 200, of the caller.' }),
    upTo: Timestamp.optional().meta({
      description: 'Marks read every notification of the caller whose event happened at or before this time (ISO 8601 UTC).',
    }),
  })
  .refine((b) => (b.ids === undefined) !== (b.upTo === undefined), {
    path: ['ids'],
    message: 'give exactly one of ids and upTo',
  })
  .meta({
    id: 'MarkNotificationsReadRequest',
    examples: [{ ids: [NOTIFICATION_ID] }, { upTo: EXAMPLE_AT }],
  });

export const MarkReadResult = z
  .object({
    object: objectOf('svc.notifications.mark_read'),
    marked: z.int().min(0).meta({ description: 'Notifications this call moved from unread to read.' }),
    unread: z.int().min(0).meta({ description: "Unread notifications left in the caller's inbox after the call." }),
  })
  .meta({ id: 'MarkNotificationsReadResult', examples: [{ object: 'svc.notifications.mark_read', marked: 1, unread: 2 }] });

// ---------------------------------------------------------------- preferences

const PREFERENCES_EXAMPLE = {
  mutedEventTypes: ['assessment.started'],
  minimumSeverity: 'info',
  channels: ['inbox', 'slack', 'teams', 'email'],
};

export const NotificationPreferences = z
  .object({
    object: objectOf('svc.notifications.preferences'),
    principalId: z.string().meta({ description: 'Id of the API key the preferences belong to (the caller).' }),
    mutedEventTypes: z
      .array(z.string())
      .meta({ description: 'Event types or wildcards never notified to this key, whatever its subscriptions say.' }),
    minimumSeverity: Severity.meta({ description: 'Events below this severity are not notified (`debug` lets every event through).' }),
    channels: z
      .array(Channel)
      .meta({ description: "Channels this key's subscriptions may use; a channel left out is switched off for every subscription." }),
    updatedAt: Timestamp.nullable().meta({ description: 'When the preferences were last set; null while they are the defaults.' }),
  })
  .meta({
    id: 'NotificationPreferences',
    examples: [
      {
        object: 'svc.notifications.preferences',
        principalId: EXAMPLE_KEY,
        ...PREFERENCES_EXAMPLE,
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

export const PutPreferencesBody = z
  .strictObject({
    mutedEventTypes: z.array(EventTypeFilter).max(100).meta({ description: 'Event types or wildcards to mute, up to 100.' }),
    minimumSeverity: Severity.meta({ description: 'Events below this severity are not notified.' }),
    channels: z
      .array(Channel)
      .max(4)
      .refine(distinct, LISTED_TWICE)
      .meta({ description: 'Channels switched on for this key, each at most once; an empty list silences every channel.' }),
  })
  .meta({
    id: 'PutNotificationPreferencesRequest',
    examples: [PREFERENCES_EXAMPLE],
  });

// ---------------------------------------------------------------- channels

const channelRecord = <K extends NotificationChannelKind>(kind: K) =>
  z.object({
    object: objectOf(`svc.notifications.${kind}_channel` as `svc.notifications.${K}_channel`),
    id: prefixedId('nch', CHANNEL_ID),
    kind: z.literal(kind).meta({ description: 'Kind of channel.' }),
    name: z.string().meta({ description: 'Name of the channel as shown to people.' }),
    status: ChannelStatus,
    ...keyStamps(),
  });

/** The example of an active channel of `kind`: its own fields (`own`) stand between `status` and the stamps. */
const channelExample = (kind: NotificationChannelKind, name: string, own: Record<string, unknown>) => ({
  object: `svc.notifications.${kind}_channel`,
  id: CHANNEL_ID,
  kind,
  name,
  status: 'active',
  ...own,
  ...exampleStamps(),
});

const urlHintDescription =
  'The webhook URL with its secret part hidden (scheme, host and the last four characters): the URL carries a token and is never returned in full, not even on creation.';

export const SlackChannel = channelRecord('slack')
  .extend({ urlHint: z.string().meta({ description: urlHintDescription }) })
  .meta({
    id: 'NotificationSlackChannel',
    examples: [channelExample('slack', '#compliance-alerts', { urlHint: 'https://hooks.slack.com/…XXXX' })],
  });

export const TeamsChannel = channelRecord('teams')
  .extend({ urlHint: z.string().meta({ description: urlHintDescription }) })
  .meta({
    id: 'NotificationTeamsChannel',
    examples: [channelExample('teams', 'Compliance team', { urlHint: 'https://example.webhook.office.com/…a1b2' })],
  });

export const EMAIL_RECIPIENT_STATUSES = ['pending', 'confirmed'] as const;

export const EmailRecipientStatus = z
  .object({
    email: z.string().meta({ description: 'The address, lower-cased.' }),
    status: z.enum(EMAIL_RECIPIENT_STATUSES).meta({
      description:
        '`pending` until the address confirms with the token of its confirmation message, then `confirmed`. Only confirmed recipients receive messages.',
    }),
    invitedAt: Timestamp.nullable().meta({ description: 'When the latest confirmation message was sent; null while it is not yet.' }),
    confirmedAt: Timestamp.nullable().meta({ description: 'When the address confirmed; null while pending.' }),
  })
  .meta({ id: 'NotificationEmailRecipientStatus' });

export const EmailChannel = channelRecord('email')
  .extend({
    recipients: z.array(z.string()).meta({
      description: 'Email addresses of the channel. Messages go only to those `recipientStatus` shows `confirmed`.',
    }),
    recipientStatus: z.array(EmailRecipientStatus).meta({
      description:
        'Each recipient with its confirmation state: a confirmation message with a single-use token is sent to every new address, and nothing else is sent to it until it confirms (`POST /v1/notifications/email/confirm`).',
    }),
  })
  .meta({
    id: 'NotificationEmailChannel',
    examples: [
      channelExample('email', 'Compliance officers', {
        recipients: ['dpo@example.com', 'ciso@example.com'],
        recipientStatus: [
          { email: 'dpo@example.com', status: 'confirmed', invitedAt: EXAMPLE_AT, confirmedAt: '2026-11-22T09:40:00.000Z' },
          { email: 'ciso@example.com', status: 'pending', invitedAt: EXAMPLE_AT, confirmedAt: null },
        ],
      }),
    ],
  });

export const ConfirmEmailRecipientBody = z
  .strictObject({
    token: z.string().min(16).max(128).meta({ description: 'The token of the confirmation message the address received.' }),
  })
  .meta({ id: 'ConfirmNotificationEmailRecipientRequest', examples: [{ token: 'q8Yt3Jw0r1mXbV9k2pQ7sLdZ4nT8yH6cF5uA1eR0wKs' }] });

export const EmailRecipientConfirmation = z
  .object({
    object: objectOf('svc.notifications.email_recipient_confirmation'),
    channelId: z.string().meta({ description: 'Id of the email channel (`nch_`) the address now receives messages of.' }),
    email: z.string().meta({ description: 'The confirmed address.' }),
    status: z.literal('confirmed').meta({ description: 'Always `confirmed`.' }),
    confirmedAt: Timestamp.meta({ description: 'When the address confirmed.' }),
  })
  .meta({
    id: 'NotificationEmailRecipientConfirmation',
    examples: [
      {
        object: 'svc.notifications.email_recipient_confirmation',
        channelId: CHANNEL_ID,
        email: 'ciso@example.com',
        status: 'confirmed',
        confirmedAt: EXAMPLE_AT,
      },
    ],
  });

const WebhookUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .meta({
      description: `${what} incoming-webhook URL; https and a public address unless the operator allows private targets. Stored sealed.`,
    });

const ChannelName = z.string().min(1).max(200).meta({ description: 'Name of the channel as shown to people.' });

export const CreateSlackChannelBody = z.strictObject({ name: ChannelName, url: WebhookUrl('Slack') }).meta({
  id: 'CreateNotificationSlackChannelRequest',
  examples: [{ name: '#compliance-alerts', url: 'https://hooks.slack.com/services/T000/B000/XXXX' }],
});
export const CreateTeamsChannelBody = z.strictObject({ name: ChannelName, url: WebhookUrl('Microsoft Teams') }).meta({
  id: 'CreateNotificationTeamsChannelRequest',
  examples: [{ name: 'Compliance team', url: 'https://example.webhook.office.com/webhookb2/abc/IncomingWebhook/def/a1b2' }],
});
export const CreateEmailChannelBody = z
  .strictObject({
    name: ChannelName,
    recipients: z.array(z.email().max(254)).min(1).max(50).meta({
      description:
        'Email addresses of the channel, 1 to 50. Each is sent a confirmation message and receives nothing else until it confirms.',
    }),
  })
  .meta({ id: 'CreateNotificationEmailChannelRequest', examples: [{ name: 'Compliance officers', recipients: ['dpo@example.com'] }] });

export const NotificationDelivery = z
  .object({
    object: objectOf('svc.notifications.delivery'),
    id: prefixedId('ndv', exampleId('ndv')),
    channelId: z.string().meta({ description: 'Id of the channel (`nch_`) the message goes to.' }),
    kind: z.enum(NOTIFICATION_CHANNEL_KINDS).meta({ description: 'Kind of the channel.' }),
    eventId: z.string().meta({ description: 'Id of the event-index row (`evi_`) the message is about.' }),
    eventType: z.string().meta({ description: 'Registered event type of the event.' }),
    status: z.enum(NOTIFICATION_DELIVERY_STATUSES).meta({
      description:
        '`pending` (waiting for its next attempt), `delivering` (an attempt is under way), `succeeded`, or `failed` after the last attempt.',
    }),
    attempts: z.int().min(0).meta({ description: 'Attempts made so far.' }),
    lastStatusCode: z
      .int()
      .nullable()
      .meta({ description: 'HTTP status (Slack, Teams) or SMTP reply code (email) of the last attempt; null when none came.' }),
    lastError: z.string().nullable().meta({ description: 'Why the last attempt failed; null when it did not.' }),
    nextAttemptAt: Timestamp.nullable().meta({ description: 'When the next attempt is due; null once succeeded or failed.' }),
    deliveredAt: Timestamp.nullable().meta({ description: 'When the channel accepted the message; null until then.' }),
    failedAt: Timestamp.nullable().meta({ description: 'When the last attempt failed for good; null otherwise.' }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
  })
  .meta({
    id: 'NotificationDelivery',
    examples: [
      {
        object: 'svc.notifications.delivery',
        id: exampleId('ndv'),
        channelId: CHANNEL_ID,
        kind: 'slack',
        eventId: EVENT_ID,
        eventType: 'evidence.uploaded',
        status: 'succeeded',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: '2026-11-22T09:30:01.000Z',
        failedAt: null,
        createdAt: '2026-11-22T09:30:00.250Z',
      },
    ],
  });
