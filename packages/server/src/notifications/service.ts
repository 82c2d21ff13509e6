import { createHash } from 'node:crypto';
import {
  type EmailChannel,
  type EmailRecipientConfirmation,
  type emailChannels,
  type InboxCounts,
  type MarkReadBody,
  type MarkReadResult,
  Notification,
  type NotificationChannelKind,
  NotificationDelivery,
  NotificationSubscription,
  type notificationPreferences,
  type notificationSubscriptions,
  type SlackChannel,
  type slackChannels,
  type TeamsChannel,
  type teamsChannels,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../db/client.ts';
import { keysetList } from '../db/pagination.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { ApiError } from '../errors.ts';
import type {
  NotificationChannel as ChannelRow,
  NotificationDelivery as DeliveryRow,
  Notification as NotificationRow,
  NotificationEmailRecipient as RecipientRow,
  NotificationSubscription as SubscriptionRow,
} from '../generated/prisma/client.ts';
import { newId } from '../ids.ts';
import type { RenderContext, Store } from '../kit.ts';
import type { Actor } from '../platform/ledger/changes.ts';
import { recorded, stampsOf } from '../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../platform/render.ts';
import type { SettingStore } from '../setting-kit.ts';
import { sealSecret } from '../webhooks/secret-box.ts';
import { checkTargetUrl } from '../webhooks/targets.ts';

// ---------------------------------------------------------------- subscriptions

const renderSubscription = rendererOf<SubscriptionRow>()(NotificationSubscription, {
  channels: (r) => r.channels as z.infer<typeof NotificationSubscription>['channels'],
});

/** The subscriber is the calling API key: a key subscribes itself, its inbox is its own. */
export const subscriptionStore: Store<typeof notificationSubscriptions> = {
  model: 'notificationSubscription',
  render: renderSubscription,
  create: async ({ who, body }) => ({
    subscriberId: who.actor,
    eventTypes: [...new Set(body.eventTypes)],
    channels: body.channels,
    status: 'active',
    createdBy: who.actor,
  }),
  auditData: (s) => ({ eventTypes: s.eventTypes, channels: s.channels }),
};

// ---------------------------------------------------------------- inbox

type NotificationOut = z.infer<typeof Notification>;

const renderNotification = rendererOf<NotificationRow>()(Notification, { read: (r) => r.readAt !== null });

export async function listInbox(
  prisma: Prisma,
  who: Actor,
  query: { limit: number; cursor?: string | undefined; unread?: 'true' | 'false' | undefined; eventType?: string | undefined },
) {
  const db = scopeToTenant(prisma, who.tenantId);
  const where: Record<string, unknown> = { recipientId: who.actor };
  if (query.unread === 'true') where.readAt = null;
  if (query.unread === 'false') where.readAt = { not: null };
  if (query.eventType) where.eventType = query.eventType;
  return keysetList(db.notification, query, { where, render: renderNotification });
}

export async function getNotification(prisma: Prisma, who: Actor, id: string): Promise<NotificationOut> {
  const row = await scopeToTenant(prisma, who.tenantId).notification.findFirst({ where: { id, recipientId: who.actor } });
  if (!row) throw new ApiError('not_found', `Notification ${id} was not found.`);
  return renderNotification(row);
}

export async function inboxCounts(prisma: Prisma, who: Actor): Promise<z.infer<typeof InboxCounts>> {
  const db = scopeToTenant(prisma, who.tenantId);
  const [total, unread] = await Promise.all([
    db.notification.count({ where: { recipientId: who.actor } }),
    db.notification.count({ where: { recipientId: who.actor, readAt: null } }),
  ]);
  return { object: 'svc.notifications.inbox_counts', recipientId: who.actor, total, unread };
}

export async function markRead(prisma: Prisma, who: Actor, body: z.infer<typeof MarkReadBody>): Promise<z.infer<typeof MarkReadResult>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const now = new Date();
    const which: Record<string, unknown> = body.ids ? { id: { in: body.ids } } : { occurredAt: { lte: new Date(body.upTo as string) } };
    const { count } = await db.notification.updateMany({
      where: { recipientId: who.actor, readAt: null, ...which },
      data: { readAt: now },
    });
    const unread = await db.notification.count({ where: { recipientId: who.actor, readAt: null } });
    const data = { ...(body.ids ? { ids: body.ids } : { upTo: body.upTo }), marked: count };
    return recorded(
      tx,
      who,
      { object: 'svc.notifications.mark_read' as const, marked: count, unread },
      { action: 'notification.marked_read', resourceType: 'svc.notifications.inbox', resourceId: who.actor, data },
    );
  });
}

// ---------------------------------------------------------------- preferences

/** A key's preferences (setting kit): its own row, or the defaults until it sets them. */
export const preferencesStore: SettingStore<typeof notificationPreferences> = {
  model: 'notificationPreference',
  newId: () => newId('npf'),
  prepare: ({ body }) => ({
    mutedEventTypes: [...new Set(body.mutedEventTypes)],
    minimumSeverity: body.minimumSeverity,
    channels: body.channels,
  }),
  auditData: ({ record }) => ({
    mutedEventTypes: record.mutedEventTypes,
    minimumSeverity: record.minimumSeverity,
    channels: record.channels,
  }),
};

// ---------------------------------------------------------------- channels

type ChannelOut = z.infer<typeof SlackChannel> | z.infer<typeof TeamsChannel> | z.infer<typeof EmailChannel>;

/** Scheme, host and the last four characters: enough to recognise a URL, not to use it. */
export function urlHint(raw: string): string {
  const url = new URL(raw);
  return `${url.protocol}//${url.host}/…${raw.slice(-4)}`;
}

/** An email channel's recipients with their confirmation state, in the channel's order. */
function recipientStatus(r: ChannelRow, rows: readonly RecipientRow[]): z.infer<typeof EmailChannel>['recipientStatus'] {
  const of = new Map(rows.filter((x) => x.channelId === r.id).map((x) => [x.email, x]));
  return r.recipients.map((email) => {
    const x = of.get(email);
    const confirmed = x?.status === 'confirmed';
    return {
      email,
      status: confirmed ? 'confirmed' : 'pending',
      invitedAt: isoOrNull(x?.invitedAt ?? null),
      confirmedAt: isoOrNull(x?.confirmedAt ?? null),
    };
  });
}

function renderChannel(r: ChannelRow, recipients: readonly RecipientRow[] = []): ChannelOut {
  const base = {
    id: r.id,
    name: r.name,
    status: r.status as 'active' | 'disabled',
    ...stampsOf(r),
  };
  if (r.kind === 'email') {
    return {
      object: 'svc.notifications.email_channel',
      kind: 'email',
      ...base,
      recipients: r.recipients,
      recipientStatus: recipientStatus(r, recipients),
    };
  }
  if (r.kind === 'teams') return { object: 'svc.notifications.teams_channel', kind: 'teams', ...base, urlHint: r.urlHint ?? '' };
  return { object: 'svc.notifications.slack_channel', kind: 'slack', ...base, urlHint: r.urlHint ?? '' };
}

/**
 * A Slack or Teams channel, a variant of the channels' table served by the kit: its URL (a
 * webhook carrying the channel's token) checked like a webhook target, stored sealed, and shown
 * only as its hint; the audit event names the kind and the name, never the URL.
 */
export function webhookChannelStore(kind: 'slack', allowPrivateTargets: boolean): Store<typeof slackChannels>;
export function webhookChannelStore(kind: 'teams', allowPrivateTargets: boolean): Store<typeof teamsChannels>;
export function webhookChannelStore(
  kind: 'slack' | 'teams',
  allowPrivateTargets: boolean,
): Store<typeof slackChannels> | Store<typeof teamsChannels> {
  const store: Store<typeof slackChannels> = {
    model: 'notificationChannel',
    computed: { urlHint: (r: ChannelRow) => r.urlHint ?? '' },
    create: async ({ who, body }) => {
      checkTargetUrl(body.url, allowPrivateTargets);
      return {
        kind,
        name: body.name,
        url: sealSecret(body.url),
        urlHint: urlHint(body.url),
        recipients: [],
        status: 'active',
        createdBy: who.actor,
      };
    },
    auditData: (c) => ({ kind: c.kind, name: c.name }),
  };
  return store;
}

/**
 * Email channels, the variant whose records show their recipients: each address lower-cased and
 * kept once, its recipient row (pending, its confirmation message due now: the notifier sends it)
 * written in the create's transaction, before the channel's row, so the record created and its
 * webhook event show every recipient pending. A web user of the tenant is not confirmed at once:
 * nothing records that a person's sign-in address was proved by mail.
 */
export const emailChannelStore: Store<typeof emailChannels> = {
  model: 'notificationChannel',
  computed: {
    recipientStatus: (r: ChannelRow, { related }: RenderContext<undefined, RecipientRow[]>) => recipientStatus(r, related),
  },
  related: ({ db, rows }) =>
    db.notificationEmailRecipient.findMany({ where: { channelId: { in: (rows as readonly ChannelRow[]).map((r) => r.id) } } }),
  create: async ({ who, body }) => ({
    name: body.name,
    url: null,
    urlHint: null,
    recipients: [...new Set(body.recipients.map((r) => r.toLowerCase()))],
    status: 'active',
    createdBy: who.actor,
  }),
  prepare: async ({ tx, who, id, data, now }) => {
    await tx.notificationEmailRecipient.createMany({
      data: (data.recipients as string[]).map((email) => ({
        id: newId('ner'),
        tenantId: who.tenantId,
        channelId: id,
        email,
        status: 'pending',
        inviteNextAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    });
  },
  auditData: (c) => ({ kind: c.kind, name: c.name, recipients: c.recipients.length }),
};

const KIND_WORDS: Record<NotificationChannelKind, string> = { slack: 'Slack channel', teams: 'Teams channel', email: 'Email channel' };

async function findChannel(prisma: Prisma, tenantId: string, kind: NotificationChannelKind, id: string): Promise<ChannelRow> {
  const row = await scopeToTenant(prisma, tenantId).notificationChannel.findFirst({ where: { id, kind } });
  if (!row) throw new ApiError('not_found', `${KIND_WORDS[kind]} ${id} was not found.`);
  return row;
}

/** The recipient rows of email channels, for rendering them. */
function recipientsOf(prisma: Prisma, tenantId: string, channelIds: string[]): Promise<RecipientRow[]> {
  if (channelIds.length === 0) return Promise.resolve([]);
  return scopeToTenant(prisma, tenantId).notificationEmailRecipient.findMany({ where: { channelId: { in: channelIds } } });
}

async function rendered(prisma: Prisma, tenantId: string, row: ChannelRow): Promise<ChannelOut> {
  return renderChannel(row, row.kind === 'email' ? await recipientsOf(prisma, tenantId, [row.id]) : []);
}

const renderDelivery = rendererOf<DeliveryRow>()(NotificationDelivery, { attempts: (r) => r.attemptCount });

export async function listDeliveries(
  prisma: Prisma,
  tenantId: string,
  kind: NotificationChannelKind,
  id: string,
  query: { limit: number; cursor?: string | undefined; status?: string | undefined },
) {
  await findChannel(prisma, tenantId, kind, id);
  const where: Record<string, unknown> = { channelId: id };
  if (query.status) where.status = query.status;
  return keysetList(scopeToTenant(prisma, tenantId).notificationDelivery, query, { where, render: renderDelivery });
}

// ---------------------------------------------------------------- email recipient confirmation

/** SHA-256 of a confirmation token: what the recipient row stores. */
export const confirmationTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long the token of a confirmation message works. */
export const CONFIRMATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Confirms a recipient with the token its confirmation message brought (public: the token is the
 * credential). Single use: the hash is cleared in the same guarded update that confirms, so two
 * concurrent uses confirm once. Unknown, used, replaced and expired tokens get one answer.
 */
export async function confirmRecipient(
  prisma: Prisma,
  correlationId: string,
  token: string,
): Promise<z.infer<typeof EmailRecipientConfirmation>> {
  const hash = confirmationTokenHash(token);
  const refused = () => new ApiError('not_found', 'This confirmation token is unknown, used or expired.');
  const found = await prisma.notificationEmailRecipient.findUnique({ where: { tokenHash: hash } });
  const now = new Date();
  if (found?.status !== 'pending' || !found.tokenExpiresAt || found.tokenExpiresAt <= now) throw refused();
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.notificationEmailRecipient.updateMany({
      where: { id: found.id, tokenHash: hash, status: 'pending' },
      data: { status: 'confirmed', confirmedAt: now, tokenHash: null, tokenExpiresAt: null, inviteNextAt: null, updatedAt: now },
    });
    if (count !== 1) throw refused();
    const out = {
      object: 'svc.notifications.email_recipient_confirmation' as const,
      channelId: found.channelId,
      email: found.email,
      status: 'confirmed' as const,
      confirmedAt: iso(now),
    };
    const who = { tenantId: found.tenantId, actor: 'email_recipient', correlationId };
    return recorded(tx, who, out, {
      action: 'notification_channel.recipient_confirmed',
      resourceType: 'svc.notifications.email_channel',
      resourceId: found.channelId,
      data: { email: found.email },
    });
  });
}

/** Makes a new confirmation message due for every pending recipient of a channel; earlier tokens stop working. */
export async function resendConfirmations(prisma: Prisma, who: Actor, id: string): Promise<ChannelOut> {
  return prisma.$transaction(async (tx) => {
    const channel = await findChannel(tx as Prisma, who.tenantId, 'email', id);
    const now = new Date();
    const { count } = await scopeToTenant(tx as Prisma, who.tenantId).notificationEmailRecipient.updateMany({
      where: { channelId: channel.id, status: 'pending' },
      data: { tokenHash: null, tokenExpiresAt: null, inviteNextAt: now, inviteAttempts: 0, inviteError: null, updatedAt: now },
    });
    const out = await rendered(tx as Prisma, who.tenantId, channel);
    return recorded(tx, who, out, {
      action: 'notification_channel.confirmations_resent',
      resourceType: 'svc.notifications.email_channel',
      resourceId: channel.id,
      data: { pending: count },
    });
  });
}
