import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { PackId, ReportId, ReportStatus, SCHEDULE_STATUSES } from './fields.ts';
import {
  AuditPackBody,
  GenerateReportBody,
  NotifiedBodyPackBody,
  Report,
  ReportPack,
  ReportSchedule,
  ReportType,
  ScheduleReportBody,
} from './schemas.ts';

/** The reporting rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- packs

/** The bytes of a PDF or zip download: not JSON (the response's Content-Type says which). */
/** A file answered as its bytes; `contentType` tells the OpenAPI document its media type. */
const fileOf = (contentType: string, description: string) => z.custom<Uint8Array>(() => true).meta({ contentType, description });
const PdfFile = fileOf('application/pdf', 'The PDF’s bytes, with `Content-Disposition: attachment` and an `ETag` holding its SHA-256.');
const ZipFile = fileOf('application/zip', 'The zip’s bytes, with `Content-Disposition: attachment` and an `ETag` holding its SHA-256.');

// ---------------------------------------------------------------- schedules

export const reportSchedules = resource({
  rail: 'reporting',
  path: 'schedules',
  subResource: 'schedule',
  area: 'reports',
  name: 'schedule',
  label: { one: 'report schedule', many: 'report schedules' },
  idPrefix: 'rps',
  record: ReportSchedule,
  statusField: 'status',
  filters: { status: z.enum(SCHEDULE_STATUSES).optional().meta({ description: 'Only schedules in this status.' }) },
  create: {
    path: 'schedule',
    body: ScheduleReportBody,
    action: 'report.scheduled',
    summary: 'Schedule a recurring report',
    description:
      'Checks the type, its inputs and the system as `generate` does, and the cron expression and time zone (422 naming the field), stores the schedule and queues its first tick at the next due time; each tick makes one report (as `generate`) and queues the next. One report per due time, whatever the number of processes.',
    eventSummary: 'A recurring report was scheduled.',
  },
  transitions: {
    pause: {
      from: ['active'],
      to: 'paused',
      action: 'report.schedule_paused',
      summary: 'Pause a report schedule',
      description: 'An active schedule stops making reports: its queued tick finds it paused and does nothing.',
    },
    resume: {
      from: ['paused'],
      to: 'active',
      action: 'report.schedule_resumed',
      summary: 'Resume a paused report schedule',
      description: 'The schedule is active again from its next due time after now; due times missed while paused are skipped.',
    },
    delete: {
      from: ['active', 'paused'],
      to: 'deleted',
      method: 'DELETE',
      action: 'report.schedule_deleted',
      summary: 'Delete a report schedule',
      description: 'Stops the schedule for good; the record stays with status `deleted`, and the reports it made stay.',
    },
  },
});

// ---------------------------------------------------------------- router

const { read, write } = policyOf('reporting', 'reports');
const IdOf = <T extends z.ZodType>(id: T) => z.object({ id });
const ByReport = { pathParams: IdOf(ReportId) };
const ByPack = { pathParams: IdOf(PackId) };

export const reportingRouter = railRouter('reporting', {
  types: get('/types', { query: PaginationQuery }, listOf(ReportType), read).doc(
    'The report types',
    'The 15 report types `POST /v1/reports/generate` accepts (13 for stakeholders; `fria` and `dpia` render an assessment of that type, named by `assessmentId`): audience, PDF template id, required input fields and recommended reviewers, in the engine’s order, cursor-paginated (the 15 fit the default page).',
  ),
  generate: post('/generate', { body: GenerateReportBody }, { 202: Report }, write('report.requested')).doc(
    'Generate a report',
    'Checks the type (unknown: 422 on `template`), its required inputs (a missing one: 422 naming it) and the system (not one of the tenant’s: 404), stores the report as `rendering` and answers 202 at once; a background job reads the tenant’s records, composes the report and renders the PDF, then sets `ready` and `downloadUrl` (`report.generated`), or `failed` after its last attempt (`report.failed`). Needs `reports:write`; audited and emitted as `report.requested`.',
  ),
  list: get(
    '',
    {
      query: PaginationQuery.extend({
        status: ReportStatus.optional().meta({ description: 'Only reports in this status.' }),
        template: z.string().max(64).optional().meta({ description: 'Only reports of this type.' }),
      }),
    },
    listOf(Report),
    read,
  ).doc('List reports', 'The tenant’s reports, newest first, cursor-paginated. Needs `reports:read`.'),
  export: get('/export/:id', ByReport, { 200: PdfFile, 202: Report }, read).doc(
    'Download a report’s PDF',
    'A ready report: 200 with the PDF (`application/pdf`, `Content-Disposition: attachment`, `ETag` = its SHA-256), audited as `report.exported`. While it renders: 202 with the report (status `rendering`); poll again. A failed report: 409 `conflict` with its error. Needs `reports:read`.',
  ),
  schedule: reportSchedules.routes.create,
  schedules: {
    list: reportSchedules.routes.list,
    get: reportSchedules.routes.get,
    pause: reportSchedules.routes.pause,
    resume: reportSchedules.routes.resume,
    delete: reportSchedules.routes.delete,
  },
  auditPack: post('/audit-pack', { body: AuditPackBody }, { 201: ReportPack }, write('report.audit_pack_created')).doc(
    'Build a signed audit pack',
    'Builds a zip holding `audit-trail.json` (the audit-trail export of the range, as `POST /v1/audit-trail/export` gives it), `evidence-index.json` (every evidence record: id, title, SHA-256, controls, collection time), `report.pdf` (the given ready report, when `reportId` is sent), `keys.json` (the service’s public signing keys), `manifest.json` (every file with its SHA-256 and size, the tenant, the creation time, the signing key) and `manifest.sig` (Ed25519 signature of the manifest by the audit signing key). `svc audit verify pack.zip --trust keys.json` checks it offline. A report that is not ready: 409; another tenant’s: 404. Needs `reports:write`; audited and emitted as `report.audit_pack_created`.',
  ),
  notifiedBodyPack: post(
    '/notified-body-pack',
    { body: NotifiedBodyPackBody },
    { 201: ReportPack },
    write('report.notified_body_pack_created'),
  ).doc(
    'Build a notified-body (conformity-assessment) pack',
    'Builds the signed zip a notified body reviews for one high-risk system: `technical-documentation.json` and `.md` (the nine Annex IV sections filled from the tenant’s records, each with its sources, and the sections with nothing on record listed as missing), `qms-evidence.json` (evidence citing Art. 17 or quality-management controls), `agent-decisions.json` (the agents’ decisions about the system), `keys.json`, `manifest.json` and `manifest.sig` as in the audit pack. A system that is not the tenant’s: 404. Needs `reports:write`; audited and emitted as `report.notified_body_pack_created`.',
  ),
  packs: {
    get: get('/packs/:id', ByPack, ReportPack, read).doc(
      'Get a pack',
      'One pack of the tenant with its file list; another tenant’s is 404.',
    ),
    download: get('/packs/:id/download', ByPack, ZipFile, read).doc(
      'Download a pack',
      'The zip (`application/zip`, `Content-Disposition: attachment`, `ETag` = its SHA-256). Needs `reports:read`; audited as `report.exported`.',
    ),
  },
  // Last: `/:id` would otherwise catch `/schedules` and `/types`.
  get: get('/:id', ByReport, Report, read).doc('Get a report', 'One report of the tenant with its status; another tenant’s is 404.'),
});

/** Event types the reporting rail emits. */
export const reportingEvents: ReturnType<typeof eventType>[] = [
  ...reportSchedules.events,
  eventType('report.requested', 'A report was requested; it is rendering.', Report),
  eventType('report.generated', 'A report’s PDF was rendered and stored; it is ready to download.', Report),
  eventType('report.failed', 'A report could not be rendered after its last attempt.', Report),
  eventType('report.exported', 'A report’s PDF or a pack was downloaded.', z.union([Report, ReportPack])),
  eventType('report.audit_pack_created', 'A signed audit pack was built.', ReportPack),
  eventType('report.notified_body_pack_created', 'A signed notified-body pack was built.', ReportPack),
];
