import { contract, inboundSources, webhookDeliveries, webhookSubscriptions } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { serveSetting } from '../../setting-kit.ts';
import * as webhooks from '../../webhooks/service.ts';
import { actor, operatorActor, type RailDeps } from '../deps.ts';

export function webhooksHandlers({ db, webhooks: config }: RailDeps) {
  const { prisma } = db;
  const subscriptions = serveResource(db, webhookSubscriptions, webhooks.subscriptionStore);
  const sources = serveSetting(db, inboundSources, webhooks.inboundSourcesStore);
  return initServer().router(contract.webhooks, {
    createSubscription: async ({ body, res }) => ({
      status: 201,
      body: await webhooks.createSubscription(prisma, config, actor(res), body),
    }),
    listSubscriptions: subscriptions.list,
    getSubscription: subscriptions.get,
    updateSubscription: async ({ params, body, res }) => ({
      status: 200,
      body: await webhooks.updateSubscription(prisma, config, actor(res), params.id, body),
    }),
    rotateSecret: async ({ params, body, res }) => ({
      status: 200,
      body: await webhooks.rotateSecret(prisma, config, actor(res), params.id, body?.overlapSeconds),
    }),
    deleteSubscription: async ({ params, res }) => ({
      status: 200,
      body: await webhooks.deleteSubscription(prisma, actor(res), params.id),
    }),
    listDeliveries: serveResource(db, webhookDeliveries, webhooks.deliveryStore).list,
    rotateInboundSecret: async ({ params, body, res }) => ({
      status: 201,
      body: await webhooks.rotateInboundSecret(prisma, config, actor(res), params.provider, body?.overlapSeconds),
    }),
    getInboundSources: sources.get,
    setInboundSources: sources.put,
    listDeadLetters: async ({ query }) => ({ status: 200, body: await webhooks.listDeadLetters(prisma, query) }),
    replayDeadLetters: async ({ body, res }) => ({ status: 200, body: await webhooks.replayDeadLetters(prisma, operatorActor(res), body) }),
  });
}
