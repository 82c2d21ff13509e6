import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as onboarding from './service.ts';

export function onboardingHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.onboarding, {
    plan: async ({ body, res }) => ({ status: 200, body: await onboarding.plan(prisma, tenantOf(res).tenantId, body.profile) }),
    checklist: async ({ query, res }) => ({ status: 200, body: await onboarding.checklist(prisma, tenantOf(res).tenantId, query) }),
    kickoff: async ({ body, res }) => ({ status: 201, body: await onboarding.kickoff(prisma, actor(res), body.profile) }),
    milestones: async ({ query, res }) => ({ status: 200, body: await onboarding.milestones(prisma, tenantOf(res).tenantId, query) }),
    export: async ({ query, res }) => ({ status: 200, body: await onboarding.exportDocument(prisma, tenantOf(res).tenantId, query) }),
  });
}
