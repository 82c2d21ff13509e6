import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { RailDeps } from '../deps.ts';
import * as profiles from './service.ts';

export function profilesHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.profiles, {
    list: async ({ query }) => ({ status: 200, body: profiles.listProfiles(query) }),
    get: async ({ params }) => ({ status: 200, body: await profiles.getProfile(prisma, params.industry) }),
  });
}
