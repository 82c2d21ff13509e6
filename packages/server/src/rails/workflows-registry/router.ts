import { contract, workflowSnapshots } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps } from '../deps.ts';
import * as wf from './service.ts';

export function workflowsRegistryHandlers({ db }: RailDeps) {
  const snapshots = serveResource(db, workflowSnapshots, wf.snapshotStore);
  return initServer().router(contract.workflows_registry, {
    catalog: {
      list: async ({ query }) => ({ status: 200, body: await wf.listWorkflows(db.prisma, query) }),
      get: async ({ params }) => ({ status: 200, body: await wf.getWorkflow(db.prisma, params.id) }),
    },
    byFramework: async ({ query }) => ({ status: 200, body: await wf.listWorkflows(db.prisma, query) }),
    byStakeholder: async ({ query }) => ({ status: 200, body: await wf.listWorkflows(db.prisma, query) }),
    byCategory: async ({ query }) => ({ status: 200, body: await wf.listWorkflows(db.prisma, query) }),
    snapshot: {
      list: snapshots.list,
      get: snapshots.get,
      create: async ({ body, res }) => ({ status: 201, body: await wf.createSnapshot(db, actor(res), body, res) }),
    },
  });
}
