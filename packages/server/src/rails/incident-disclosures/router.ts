import { contract, disclosureDrafts, incidentChannels, incidentDisclosures } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as incidents from './service.ts';

export function incidentDisclosuresHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.incident_disclosures, {
    channels: serveResource(db, incidentChannels, incidents.channelStore),
    disclosures: serveResource(db, incidentDisclosures, incidents.disclosureStore),
    drafts: serveResource(db, disclosureDrafts, incidents.draftStore),
    updateDisclosure: async ({ params, body, res }) => ({
      status: 200,
      body: await incidents.updateDisclosure(prisma, actor(res), params.id, body),
    }),
    recordSubmission: async ({ params, body, res }) => ({
      status: 200,
      body: await incidents.recordSubmission(prisma, actor(res), params.id, body),
    }),
    timeline: async ({ params, res }) => ({ status: 200, body: await incidents.timeline(prisma, tenantOf(res).tenantId, params.id) }),
    sla: async ({ query, res }) => ({ status: 200, body: await incidents.sla(prisma, tenantOf(res).tenantId, query) }),
  });
}
