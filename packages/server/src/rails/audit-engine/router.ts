import { auditRuns, auditSchedules, contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, personActor, type RailDeps, tenantOf } from '../deps.ts';
import * as ae from './service.ts';

export function auditEngineHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.audit_engine, {
    schedules: serveResource(db, auditSchedules, ae.scheduleStore),
    run: async ({ body, res }) => ({ status: 202, body: await ae.startRun(prisma, actor(res), body) }),
    runs: serveResource(db, auditRuns, ae.runStore),
    findings: {
      list: async ({ query, res }) => ({ status: 200, body: await ae.listFindings(prisma, tenantOf(res).tenantId, query) }),
      get: async ({ params, res }) => ({ status: 200, body: await ae.getFinding(prisma, tenantOf(res).tenantId, params.id) }),
      resolve: async ({ body, res }) => ({ status: 200, body: await ae.resolveFinding(prisma, actor(res), body) }),
    },
    replay: async ({ body, res }) => ({ status: 200, body: await ae.replayRun(prisma, actor(res), body.runId) }),
    // The permission layer admits only owner and admin keys (`audit_engine:approve`); the role is kept with the sign-off.
    signOff: async ({ body, res }) => ({
      status: 201,
      body: await ae.signOff(prisma, { ...personActor(res), role: tenantOf(res).role }, body),
    }),
    attest: async ({ body, res }) => ({ status: 201, body: await ae.attestRun(prisma, actor(res), body) }),
  });
}
