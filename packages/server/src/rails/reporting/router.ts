import { Readable } from 'node:stream';
import { contract, reportSchedules } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import { buildAuditPack, buildNotifiedBodyPack, downloadPack, getPack } from './pack.ts';
import * as reports from './service.ts';

/**
 * A download answers the file's bytes, not JSON: the headers are set here and the body handed to
 * ts-rest as a stream, which it pipes as is (no JSON encoding, no response validation).
 */
function file(res: Response, f: { bytes: Buffer; sha256: string; filename: string }, contentType: string) {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(f.bytes.length));
  res.setHeader('Content-Disposition', `attachment; filename="${f.filename}"`);
  res.setHeader('ETag', `"${f.sha256}"`);
  res.setHeader('Cache-Control', 'private, no-store');
  return { status: 200 as const, body: Readable.from([f.bytes]) as never };
}

export function reportingHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const schedules = serveResource(db, reportSchedules, reports.scheduleStore);
  return initServer().router(contract.reporting, {
    types: async ({ query }) => ({ status: 200, body: reports.listTypes(query) }),
    generate: async ({ body, res }) => ({ status: 202, body: await reports.generateReport(prisma, actor(res), body) }),
    list: async ({ query, res }) => ({ status: 200, body: await reports.listReports(prisma, tenantOf(res).tenantId, query) }),
    export: async ({ params, res }) => {
      const out = await reports.exportReport(prisma, actor(res), params.id);
      if (out.kind === 'pending') {
        res.setHeader('Retry-After', '1');
        return { status: 202, body: out.report };
      }
      return file(res, out, out.contentType);
    },
    schedule: schedules.create,
    schedules: { list: schedules.list, get: schedules.get, pause: schedules.pause, resume: schedules.resume, delete: schedules.delete },
    auditPack: async ({ body, res }) => ({ status: 201, body: await buildAuditPack(prisma, actor(res), body) }),
    notifiedBodyPack: async ({ body, res }) => ({ status: 201, body: await buildNotifiedBodyPack(prisma, actor(res), body) }),
    packs: {
      get: async ({ params, res }) => ({ status: 200, body: await getPack(prisma, tenantOf(res).tenantId, params.id) }),
      download: async ({ params, res }) => file(res, await downloadPack(prisma, actor(res), params.id), 'application/zip'),
    },
    // Last: Express tries routes in this order, and `/:id` would catch `/schedules` and `/types`.
    get: async ({ params, res }) => ({ status: 200, body: await reports.getReport(prisma, tenantOf(res).tenantId, params.id) }),
  });
}
