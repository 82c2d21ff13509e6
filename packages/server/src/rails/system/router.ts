import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { ApiError } from '../../errors.ts';
import type { RailDeps } from '../deps.ts';

export function systemHandlers({ db, version }: RailDeps) {
  return initServer().router(contract.system, {
    health: async () => {
      try {
        await db.prisma.$queryRaw`SELECT 1`;
      } catch {
        throw new ApiError('service_unavailable', 'The database is not reachable.');
      }
      return { status: 200, body: { status: 'ok' as const, version, database: db.kind } };
    },
  });
}
