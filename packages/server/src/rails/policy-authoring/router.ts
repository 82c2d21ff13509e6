import { contract, policyDrafts, policyPublications } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, personActor, type RailDeps, tenantOf } from '../deps.ts';
import * as policies from './service.ts';

export function policyAuthoringHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const { retire, ...drafts } = serveResource(db, policyDrafts, policies.policyStore);
  return initServer().router(contract.policy_authoring, {
    drafts,
    versions: {
      add: async ({ body, res }) => ({ status: 201, body: await policies.addVersion(prisma, actor(res), body) }),
      list: async ({ params, query, res }) => ({
        status: 200,
        body: await policies.listVersions(prisma, tenantOf(res).tenantId, params.id, query),
      }),
      diff: async ({ params, query, res }) => ({
        status: 200,
        body: await policies.diffVersions(prisma, tenantOf(res).tenantId, params.id, query),
      }),
      get: async ({ params, res }) => ({
        status: 200,
        body: await policies.getVersion(prisma, tenantOf(res).tenantId, params.id, Number(params.number)),
      }),
    },
    publish: {
      start: async ({ body, res }) => ({ status: 201, body: await policies.startPublication(prisma, actor(res), body) }),
      list: serveResource(db, policyPublications, policies.publicationStore).list,
      approve: async ({ body, res }) => ({ status: 200, body: await policies.decide(prisma, personActor(res), body, 'approve') }),
      reject: async ({ body, res }) => ({ status: 200, body: await policies.decide(prisma, personActor(res), body, 'reject') }),
    },
    attest: {
      create: async ({ body, res }) => ({ status: 201, body: await policies.attest(prisma, personActor(res), body) }),
      list: async ({ query, res }) => ({ status: 200, body: await policies.listAttestations(prisma, tenantOf(res).tenantId, query) }),
      coverage: async ({ params, query, res }) => ({
        status: 200,
        body: await policies.attestationCoverage(prisma, tenantOf(res).tenantId, params.id, query.roleIds),
      }),
    },
    retire,
    gapFill: async ({ query, res }) => ({ status: 200, body: await policies.gapFill(prisma, tenantOf(res).tenantId, query) }),
  });
}
