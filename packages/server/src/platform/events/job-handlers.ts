import { auditEngineJobs } from '../../rails/audit-engine/jobs.ts';
import { reportJobs } from '../../rails/reporting/jobs.ts';
import type { JobHandler } from './jobs.ts';

/** Every kind of background job the worker runs, by kind: one list, so a process runs them all. */
export function jobHandlers(): Record<string, JobHandler> {
  const all: Record<string, JobHandler> = {};
  for (const group of [reportJobs, auditEngineJobs]) {
    for (const [kind, handler] of Object.entries(group)) {
      if (all[kind]) throw new Error(`Job kind ${kind} has two handlers.`);
      all[kind] = handler as JobHandler;
    }
  }
  return all;
}
