import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps } from '../deps.ts';
import * as frameworks from './service.ts';
import * as versions from './versions.ts';

export function frameworksHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.frameworks, {
    list: async ({ query }) => ({ status: 200, body: await frameworks.listFrameworks(prisma, query) }),
    get: async ({ params }) => ({ status: 200, body: await frameworks.getFramework(prisma, params.id) }),
    clauses: async ({ params, query }) => ({ status: 200, body: await frameworks.listClauses(prisma, params.id, query) }),
    controls: async ({ params, query }) => ({ status: 200, body: await frameworks.listControls(prisma, params.id, query) }),
    questions: async ({ params, query }) => ({ status: 200, body: await frameworks.listQuestions(prisma, params.id, query) }),
    versions: async ({ params, query }) => ({ status: 200, body: await versions.listVersions(prisma, params.id, query) }),
    diff: async ({ params, query }) => ({ status: 200, body: await versions.getDiff(prisma, params.id, query) }),
    obligations: async ({ params, query }) => ({ status: 200, body: await versions.listObligationsAsOf(prisma, params.id, query) }),
    repin: async ({ params, body, res }) => ({
      status: 200,
      body: await versions.repinFramework(prisma, { ...actor(res), ref: params.id, version: body.version, dryRun: body.dryRun }),
    }),
    activate: async ({ params, body, res }) => {
      const result = await frameworks.activateFramework(prisma, {
        ...actor(res),
        ref: params.id,
        ...(body?.version ? { version: body.version } : {}),
      });
      return result.created ? { status: 201, body: result.activation } : { status: 200, body: result.activation };
    },
  });
}
