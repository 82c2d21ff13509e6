import { contract, redTeamRuns, redTeamTargets } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import { renderCategories } from './corpus.ts';
import * as rt from './service.ts';

/**
 * Targets are checked and called like webhook targets: private addresses and plain http only when
 * the operator allows private webhook targets (`SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS`). The setting
 * comes from the webhook configuration when the app passes it, else from the environment.
 */
export function redTeamHandlers({ db, webhooks }: RailDeps) {
  const { prisma } = db;
  const allowPrivate = webhooks.allowPrivateTargets;
  return initServer().router(contract.red_team, {
    corpus: {
      list: async ({ query }) => ({ status: 200, body: rt.listCorpus(query) }),
      get: async ({ params }) => ({ status: 200, body: rt.getProbe(params.probeId) }),
    },
    categories: async () => ({ status: 200, body: renderCategories() }),
    targets: serveResource(db, redTeamTargets, rt.targetStore(allowPrivate)),
    runs: serveResource(db, redTeamRuns, rt.runStore),
    executeRun: async ({ params, res }) => ({ status: 200, body: await rt.executeRun(prisma, actor(res), params.id, allowPrivate) }),
    results: {
      list: async ({ query, res }) => ({ status: 200, body: await rt.listResults(prisma, tenantOf(res).tenantId, query) }),
      get: async ({ params, res }) => ({ status: 200, body: await rt.getResult(prisma, tenantOf(res).tenantId, params.id) }),
    },
    robustness: async ({ params, res }) => ({ status: 200, body: await rt.robustness(prisma, tenantOf(res).tenantId, params.id) }),
  });
}
