import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the reporting rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const ReportId = prefixedId('rpt', exampleId('rpt'));
export const ScheduleId = prefixedId('rps', exampleId('rps'));
export const PackId = prefixedId('rpk', exampleId('rpk'));

// ---------------------------------------------------------------- reports

export const ReportStatus = z.enum(['rendering', 'ready', 'failed']).meta({
  description: '`rendering` until the background job has stored the PDF, then `ready`; `failed` when the last attempt failed.',
});

// ---------------------------------------------------------------- schedules

export const SCHEDULE_STATUSES = ['active', 'paused', 'deleted'] as const;
