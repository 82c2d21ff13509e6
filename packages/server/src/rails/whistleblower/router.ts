import {
  contract,
  whistleblowerIntake,
  whistleblowerInvestigations,
  whistleblowerMessages,
  whistleblowerProtections,
  whistleblowerReports,
} from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { ctxOf } from '../../http/context.ts';
import { serveResource } from '../../kit.ts';
import { serveSetting } from '../../setting-kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as wb from './service.ts';

export function whistleblowerHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const { feedback, close, triage, ...reports } = serveResource(db, whistleblowerReports, wb.reportStore);
  const { conclude, ...investigations } = serveResource(db, whistleblowerInvestigations, wb.investigationStore);
  const { review, ...protections } = serveResource(db, whistleblowerProtections, wb.protectionStore);
  const messages = serveResource(db, whistleblowerMessages, wb.messageStore);
  const intake = serveSetting(db, whistleblowerIntake, wb.intakeStore);
  return initServer().router(contract.whistleblower, {
    reports,
    investigations,
    protections,
    triageQueue: async ({ query, res }) => ({ status: 200, body: await wb.triageQueue(prisma, tenantOf(res).tenantId, query) }),
    triage,
    feedback,
    close,
    // The thread is a collection under a report: `/reports/:id/messages`.
    listMessages: messages.list,
    sendMessage: messages.create,
    concludeInvestigation: conclude,
    reviewProtection: review,
    getIntake: intake.get,
    setIntake: intake.put,
    // Public routes: no principal; the access code or the published slug is the only key.
    submit: async ({ params, body, res }) => ({
      status: 201,
      body: await wb.submit(prisma, ctxOf(res).correlationId, params.slug, body),
    }),
    followUp: async ({ body }) => ({ status: 200, body: await wb.followUp(prisma, body.accessCode) }),
    followUpMessage: async ({ body, res }) => ({ status: 200, body: await wb.reporterMessage(prisma, ctxOf(res).correlationId, body) }),
  });
}
