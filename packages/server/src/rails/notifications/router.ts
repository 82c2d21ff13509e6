import {
  contract,
  emailChannels,
  type NotificationChannelKind,
  notificationPreferences,
  notificationSubscriptions,
  slackChannels,
  teamsChannels,
} from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { ctxOf } from '../../http/context.ts';
import { serveResource } from '../../kit.ts';
import * as ntf from '../../notifications/service.ts';
import { serveSetting } from '../../setting-kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';

/**
 * The notifications rail. The "user" a notification is for is the API key that calls: its id is
 * the principal of the request, the subscriber of the subscriptions it creates, and the owner of
 * its inbox and preferences. Channel URLs are checked like webhook targets (`allowPrivateTargets`).
 */
export function notificationsHandlers({ db, webhooks }: RailDeps) {
  const { prisma } = db;
  const allowPrivate = webhooks.allowPrivateTargets;
  // A channel's deliveries, declared by hand: the channel is of one kind, another kind's id is 404.
  const deliveries =
    (kind: NotificationChannelKind) =>
    async ({
      params,
      query,
      res,
    }: {
      params: { id: string };
      query: { limit: number; cursor?: string; status?: string };
      res: Response;
    }) => ({
      status: 200 as const,
      body: await ntf.listDeliveries(prisma, tenantOf(res).tenantId, kind, params.id, query),
    });
  return initServer().router(contract.notifications, {
    inbox: {
      list: async ({ query, res }) => ({ status: 200, body: await ntf.listInbox(prisma, actor(res), query) }),
      counts: async ({ res }) => ({ status: 200, body: await ntf.inboxCounts(prisma, actor(res)) }),
      get: async ({ params, res }) => ({ status: 200, body: await ntf.getNotification(prisma, actor(res), params.id) }),
    },
    markRead: async ({ body, res }) => ({ status: 200, body: await ntf.markRead(prisma, actor(res), body) }),
    subscribe: serveResource(db, notificationSubscriptions, ntf.subscriptionStore),
    preferences: serveSetting(db, notificationPreferences, ntf.preferencesStore),
    slack: { ...serveResource(db, slackChannels, ntf.webhookChannelStore('slack', allowPrivate)), deliveries: deliveries('slack') },
    teams: { ...serveResource(db, teamsChannels, ntf.webhookChannelStore('teams', allowPrivate)), deliveries: deliveries('teams') },
    email: {
      ...serveResource(db, emailChannels, ntf.emailChannelStore),
      deliveries: deliveries('email'),
      confirm: async ({ body, res }) => ({ status: 200, body: await ntf.confirmRecipient(prisma, ctxOf(res).correlationId, body.token) }),
      resendConfirmations: async ({ params, res }) => ({
        status: 200,
        body: (await ntf.resendConfirmations(prisma, actor(res), params.id)) as never,
      }),
    },
  });
}
