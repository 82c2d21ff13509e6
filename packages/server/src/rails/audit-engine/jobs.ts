import type { JobHandler } from '../../platform/events/jobs.ts';
import { executeRun, failRun, scheduleTick } from './service.ts';

/**
 * Background jobs of the audit_engine rail, by kind. Both are safe to run twice (a lease that ran
 * out): `audit.run` completes only a run still `running`, `audit.schedule_tick` moves the
 * schedule's last due time conditionally and enqueues the next tick under a dedupe key.
 */
export const auditEngineJobs: Record<string, JobHandler> = {
  'audit.run': {
    async run(job, { prisma }) {
      await executeRun(prisma, job.tenantId, String(job.payload.runId));
    },
    async failed(job, error, { prisma }) {
      await failRun(prisma, job.tenantId, String(job.payload.runId), error);
    },
  },
  'audit.schedule_tick': {
    async run(job, { prisma }) {
      await scheduleTick(prisma, job.tenantId, String(job.payload.scheduleId), new Date(String(job.payload.dueAt)));
    },
    async failed(job, error, { log }) {
      // The next due time was not enqueued: say so loudly; resuming the schedule enqueues it again.
      log.warn('audit schedule tick failed for good', { scheduleId: job.payload.scheduleId, dueAt: job.payload.dueAt, error });
    },
  },
};
