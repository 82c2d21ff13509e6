import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { meta } from '../../platform/meta.ts';

/** The system routes: public, outside the catalogue and the tenants (`/v1/health`). */

const c = initContract();

export const Health = z
  .object({
    status: z.enum(['ok']).meta({ description: '`ok` when the process runs and the database answers.' }),
    version: z.string().meta({ description: 'Version of the running service (semver).' }),
    database: z.enum(['pglite', 'postgresql']).meta({ description: 'Database engine in use: embedded PGlite or PostgreSQL.' }),
  })
  .meta({ id: 'Health', examples: [{ status: 'ok', version: '0.1.0', database: 'pglite' }] });

export const systemRouter = c.router(
  {
    health: get(
      '/v1/health',
      {},
      { 200: Health, 429: commonErrorResponses[429], 503: commonErrorResponses[503] },
      meta({ auth: 'public', mutating: false }),
    ).doc(
      'Liveness and database reachability',
      'Returns `ok` with the service version when the process is up and the database answers, 503 `service_unavailable` when it does not. No credential needed; for load balancers and probes.',
    ),
  },
  {},
);
