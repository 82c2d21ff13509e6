import { contract, disclosureDrafts, incidentChannels, incidentDisclosures } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as incidents from './service.ts';

export function incidentDisclosuresHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const { update, record_submission, ...disclosures } = serveResource(db, incidentDisclosures, incidents.disclosureStore);
  return initServer().router(contract.incident_disclosures, {
    channels: serveResource(db, incidentChannels, incidents.channelStore),
    disclosures,
    drafts: serveResource(db, disclosureDrafts, incidents.draftStore),
    updateDisclosure: update,
    recordSubmission: record_submission,
    timeline: async ({ params, res }) => ({ status: 200, body: await incidents.timeline(prisma, tenantOf(res).tenantId, params.id) }),
    sla: async ({ query, res }) => ({ status: 200, body: await incidents.sla(prisma, tenantOf(res).tenantId, query) }),
  });
}
