import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import * as webhooks from '../../webhooks/service.ts';
import { actor, operatorActor, type RailDeps, tenantOf } from '../deps.ts';

export function webhooksHandlers({ db: { prisma }, webhooks: config }: RailDeps) {
  return initServer().router(contract.webhooks, {
    createSubscription: async ({ body, res }) => ({
      status: 201,
      body: await webhooks.createSubscription(prisma, config, actor(res), body),
    }),
    listSubscriptions: async ({ query, res }) => ({
      status: 200,
      body: await webhooks.listSubscriptions(prisma, tenantOf(res).tenantId, query),
    }),
    getSubscription: async ({ params, res }) => ({
      status: 200,
      body: await webhooks.getSubscription(prisma, tenantOf(res).tenantId, params.id),
    }),
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
    listDeliveries: async ({ query, res }) => ({
      status: 200,
      body: await webhooks.listDeliveries(prisma, tenantOf(res).tenantId, query),
    }),
    rotateInboundSecret: async ({ params, body, res }) => ({
      status: 201,
      body: await webhooks.rotateInboundSecret(prisma, config, actor(res), params.provider, body?.overlapSeconds),
    }),
    getInboundSources: async ({ params, res }) => ({
      status: 200,
      body: await webhooks.getInboundSources(prisma, tenantOf(res).tenantId, params.provider),
    }),
    setInboundSources: async ({ params, body, res }) => ({
      status: 200,
      body: await webhooks.setInboundSources(prisma, actor(res), params.provider, body.sources),
    }),
    listDeadLetters: async ({ query }) => ({ status: 200, body: await webhooks.listDeadLetters(prisma, query) }),
    replayDeadLetters: async ({ body, res }) => ({ status: 200, body: await webhooks.replayDeadLetters(prisma, operatorActor(res), body) }),
  });
}
