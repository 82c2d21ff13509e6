import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as workspace from './service.ts';

export function workspaceHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.workspace, {
    list: async ({ query, res }) => ({ status: 200, body: await workspace.listWorkspaces(prisma, tenantOf(res).tenantId, query) }),
    create: async ({ body, res }) => ({ status: 201, body: await workspace.createWorkspace(prisma, actor(res), body) }),
    get: async ({ params, res }) => ({ status: 200, body: await workspace.getWorkspace(prisma, tenantOf(res).tenantId, params.id) }),
    update: async ({ params, body, res }) => ({
      status: 200,
      body: await workspace.updateWorkspace(prisma, actor(res), params.id, body),
    }),
    archive: async ({ params, body, res }) => ({
      status: 200,
      body: await workspace.archiveWorkspace(prisma, actor(res), params.id, body?.reason),
    }),
    principals: {
      list: async ({ params, query, res }) => ({
        status: 200,
        body: await workspace.listPrincipals(prisma, tenantOf(res).tenantId, params.id, query),
      }),
      add: async ({ params, body, res }) => ({ status: 201, body: await workspace.addPrincipal(prisma, actor(res), params.id, body) }),
      revoke: async ({ params, body, res }) => ({
        status: 200,
        body: await workspace.revokePrincipal(prisma, actor(res), params.id, params.principal, body?.reason),
      }),
    },
    teams: {
      list: async ({ params, query, res }) => ({
        status: 200,
        body: await workspace.listTeams(prisma, tenantOf(res).tenantId, params.id, query),
      }),
      create: async ({ params, body, res }) => ({ status: 201, body: await workspace.createTeam(prisma, actor(res), params.id, body) }),
    },
  });
}
