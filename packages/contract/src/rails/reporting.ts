import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter } from '../resource.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The reporting rail (`/v1/reports`, sandbox): stakeholder reports of the 13 types the report
 * engine knows, rendered to PDF in the background (`POST /generate` answers `rendering` at once; a
 * job renders and stores the PDF and its SHA-256), recurring reports on a cron schedule (one
 * report per due time whatever the number of processes), and two signed zip bundles: the audit
 * pack (audit-trail export, evidence index, a report, manifest and its signature) that
 * `svc audit verify` checks offline, and the notified-body pack of a high-risk system.
 * A report is always a draft: the service never publishes it.
 */

/** The reporting records' `object` field: its description names the report as the example. */
const objectOf = <T extends string>(name: T) => objectField(name, 'svc.reporting.report');

/** A report may be made by a schedule rather than a request. */
const createdByDescription = 'Id of the API key (or the schedule) whose request created the record.';
/** The stamps of the reports and schedules, which change after they are made. */
const reportStamps = () => stamps('When the record last changed.', createdByDescription);

const SYSTEM_EXAMPLE = 'sys_credit_scoring_v2';

claimIdPrefix('rpt', 'svc.reporting.report');
claimIdPrefix('rps', 'svc.reporting.schedule');
claimIdPrefix('rpk', 'svc.reporting.pack');
const ReportId = prefixedId('rpt', exampleId('rpt'));
const ScheduleId = prefixedId('rps', exampleId('rps'));
const PackId = prefixedId('rpk', exampleId('rpk'));
const Sha256 = z
  .string()
  .regex(/^[a-f0-9]{64}$/)
  .meta({ description: 'Lowercase hex SHA-256.' });

const TemplateField = z
  .string()
  .min(1)
  .max(64)
  .meta({ description: 'Id of the report type (`regulator`, `board`, ...): one of `GET /v1/reports/types`.', examples: ['board'] });
const SystemIdField = z
  .string()
  .min(1)
  .max(200)
  .meta({
    description:
      'Id of one of the tenant’s AI systems (a system id its assessments, evidence or disclosure profiles cite); another id is 404.',
    examples: [SYSTEM_EXAMPLE],
  });
/** Values a report input may take: short text, a number, a flag or a list of short texts. */
const InputValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.array(z.string().max(200)).max(100)]);

// ---------------------------------------------------------------- report types

export const ReportType = z
  .object({
    object: objectOf('svc.reporting.report_type'),
    id: z.string().meta({ description: 'Id of the type, the `template` of `POST /v1/reports/generate`.' }),
    title: z.string().meta({ description: 'Name of the report.' }),
    audience: z.string().meta({ description: 'Who the report is written for.' }),
    templateId: z.string().meta({ description: 'Id and version of the PDF template (`pdf/regulator@1`).' }),
    requiredInputs: z
      .array(z.string())
      .meta({ description: 'Fields `POST /v1/reports/generate` needs for this type besides `template`; a missing one is 422.' }),
    reviewers: z.array(z.string()).meta({ description: 'Roles that review the draft before anyone publishes it.' }),
  })
  .meta({
    id: 'ReportType',
    examples: [
      {
        object: 'svc.reporting.report_type',
        id: 'regulator',
        title: 'Regulator report',
        audience: 'market-surveillance authority',
        templateId: 'pdf/regulator@1',
        requiredInputs: ['systemId'],
        reviewers: ['compliance-officer', 'legal'],
      },
    ],
  });

// ---------------------------------------------------------------- reports

const ReportStatus = z.enum(['rendering', 'ready', 'failed']).meta({
  description: '`rendering` until the background job has stored the PDF, then `ready`; `failed` when the last attempt failed.',
});

export const Report = z
  .object({
    object: objectOf('svc.reporting.report'),
    id: ReportId,
    template: z.string().meta({ description: 'The report type.' }),
    title: z.string().nullable().meta({ description: 'Title of the report; null until rendered.' }),
    audience: z.string().nullable().meta({ description: 'Who the report is written for; null until rendered.' }),
    systemId: z.string().nullable().meta({ description: 'The AI system the report is about; null for a tenant-wide report.' }),
    inputs: z.record(z.string(), z.unknown()).meta({ description: 'The other fields of the request (the type’s inputs).' }),
    status: ReportStatus,
    downloadUrl: z
      .string()
      .nullable()
      .meta({ description: 'Where the PDF is downloaded (`/v1/reports/export/{id}`); null while rendering or after a failure.' }),
    sha256: Sha256.nullable().meta({ description: 'SHA-256 of the PDF (also its ETag); null until ready.' }),
    sizeBytes: z.int().nullable().meta({ description: 'Size of the PDF in bytes; null until ready.' }),
    pages: z.int().nullable().meta({ description: 'Pages of the PDF; null until ready.' }),
    asOf: Timestamp.nullable().meta({ description: 'The moment the facts of the report were read; null until rendered.' }),
    draft: z.literal(true).meta({ description: 'Always true: a report is a draft until a person publishes it.' }),
    recommendedReviewers: z.array(z.string()).meta({ description: 'Who should review the draft; empty until rendered.' }),
    error: z.string().nullable().meta({ description: 'Why rendering failed; null otherwise.' }),
    scheduleId: ScheduleId.nullable().meta({ description: 'The schedule that made the report; null for one made on request.' }),
    dueAt: Timestamp.nullable().meta({ description: 'The schedule’s due time the report was made for; null otherwise.' }),
    ...reportStamps(),
    renderedAt: Timestamp.nullable().meta({ description: 'When the PDF was stored; null until ready.' }),
  })
  .meta({
    id: 'Report',
    examples: [
      {
        object: 'svc.reporting.report',
        id: exampleId('rpt'),
        template: 'board',
        title: null,
        audience: null,
        systemId: SYSTEM_EXAMPLE,
        inputs: {},
        status: 'rendering',
        downloadUrl: null,
        sha256: null,
        sizeBytes: null,
        pages: null,
        asOf: null,
        draft: true,
        recommendedReviewers: [],
        error: null,
        scheduleId: null,
        dueAt: null,
        ...exampleStamps(),
        renderedAt: null,
      },
    ],
  });

export const GenerateReportBody = z
  .object({
    template: TemplateField,
    systemId: SystemIdField.optional(),
  })
  .catchall(InputValue)
  .meta({
    id: 'GenerateReportRequest',
    description:
      'The report type, the AI system when the report is about one, and the type’s other required inputs as further fields (short texts, numbers, flags or lists of short texts).',
    examples: [{ template: 'board' }],
  });

// ---------------------------------------------------------------- schedules

const SCHEDULE_STATUSES = ['active', 'paused', 'deleted'] as const;

export const ReportSchedule = z
  .object({
    object: objectOf('svc.reporting.schedule'),
    id: ScheduleId,
    template: z.string().meta({ description: 'The report type each run generates.' }),
    systemId: z.string().nullable().meta({ description: 'The AI system of the reports; null for tenant-wide reports.' }),
    inputs: z.record(z.string(), z.unknown()).meta({ description: 'The type’s other inputs, passed to every report.' }),
    cron: z.string().meta({ description: 'Five-field cron expression (minute hour day-of-month month day-of-week).' }),
    timezone: z.string().meta({ description: 'IANA time zone the expression is evaluated in (`UTC`, `Europe/Berlin`).' }),
    status: z.enum(SCHEDULE_STATUSES).meta({
      description: '`active` (ticks make reports), `paused` (no tick runs until resumed) or `deleted` (stopped for good).',
    }),
    nextRunAt: Timestamp.nullable().meta({ description: 'The next due time; null unless active.' }),
    lastRunAt: Timestamp.nullable().meta({ description: 'The due time of the last report made; null before the first.' }),
    lastReportId: ReportId.nullable().meta({ description: 'The last report made; null before the first.' }),
    runs: z.int().min(0).meta({ description: 'Reports made so far.' }),
    ...reportStamps(),
  })
  .meta({
    id: 'ReportSchedule',
    examples: [
      {
        object: 'svc.reporting.schedule',
        id: exampleId('rps'),
        template: 'board',
        systemId: null,
        inputs: {},
        cron: '0 8 1 * *',
        timezone: 'UTC',
        status: 'active',
        nextRunAt: '2026-12-01T08:00:00.000Z',
        lastRunAt: null,
        lastReportId: null,
        runs: 0,
        ...exampleStamps(),
      },
    ],
  });

export const ScheduleReportBody = z
  .strictObject({
    template: TemplateField,
    systemId: SystemIdField.optional(),
    cron: z
      .string()
      .min(9)
      .max(120)
      .meta({ description: 'Five-field cron expression (`0 8 1 * *`: 08:00 on the first of every month).', examples: ['0 8 1 * *'] }),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'IANA time zone the expression is evaluated in; `UTC` when absent.', examples: ['UTC'] }),
    inputs: z
      .record(z.string().max(64), InputValue)
      .optional()
      .meta({ description: 'The type’s other required inputs, given to every report the schedule makes.' }),
  })
  .meta({ id: 'ScheduleReportRequest', examples: [{ template: 'board', cron: '0 8 1 * *', timezone: 'UTC' }] });

// ---------------------------------------------------------------- packs

/** The example audit pack's files (all but the manifest and its signature). */
const EVIDENCE_INDEX_FILE = {
  name: 'evidence-index.json',
  sha256: 'b3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456',
  size: 912,
};
const PACK_FILES_EXAMPLE = [
  { name: 'audit-trail.json', sha256: 'a3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456', size: 48211 },
  EVIDENCE_INDEX_FILE,
  { name: 'keys.json', sha256: 'c3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456', size: 301 },
];

const PackFile = z
  .object({
    name: z.string().meta({ description: 'Name of the file in the zip.' }),
    sha256: Sha256.meta({ description: 'SHA-256 of the file’s bytes.' }),
    size: z.int().min(0).meta({ description: 'Size of the file in bytes.' }),
  })
  .meta({
    id: 'ReportPackFile',
    description: 'A file of a pack, as its manifest lists it.',
    examples: [EVIDENCE_INDEX_FILE],
  });

export const ReportPack = z
  .object({
    object: objectOf('svc.reporting.pack'),
    id: PackId,
    kind: z.enum(['audit', 'notified_body']).meta({
      description: '`audit` (audit pack of `POST /audit-pack`) or `notified_body` (conformity-assessment bundle of one system).',
    }),
    systemId: z.string().nullable().meta({ description: 'The AI system of a notified-body pack; null for an audit pack.' }),
    reportId: ReportId.nullable().meta({ description: 'The report whose PDF the pack holds; null when none.' }),
    range: z
      .object({
        fromSeq: z.int().meta({ description: 'First audit event of the export.' }),
        toSeq: z.int().meta({ description: 'Last audit event of the export.' }),
      })
      .nullable()
      .meta({ description: 'The audit-trail range the pack exports; null for a notified-body pack.' }),
    files: z.array(PackFile).meta({ description: 'The files the manifest lists (every file but `manifest.json` and `manifest.sig`).' }),
    keyId: z.string().meta({ description: 'The audit signing key that signed the manifest.' }),
    sha256: Sha256.meta({ description: 'SHA-256 of the zip.' }),
    sizeBytes: z.int().meta({ description: 'Size of the zip in bytes.' }),
    downloadUrl: z.string().meta({ description: 'Where the zip is downloaded (`/v1/reports/packs/{id}/download`).' }),
    ...created(createdByDescription),
  })
  .meta({
    id: 'ReportPack',
    examples: [
      {
        object: 'svc.reporting.pack',
        id: exampleId('rpk'),
        kind: 'audit',
        systemId: null,
        reportId: null,
        range: { fromSeq: 1, toSeq: 42 },
        files: PACK_FILES_EXAMPLE,
        keyId: 'sk_3f9a1c2e4b5d69788123abcd',
        sha256: 'd3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456',
        sizeBytes: 20480,
        downloadUrl: `/v1/reports/packs/${exampleId('rpk')}/download`,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const AuditPackBody = z
  .strictObject({
    fromSeq: z.int().min(1).optional().meta({ description: 'First audit event to export; 1 when absent.' }),
    toSeq: z.int().min(1).optional().meta({ description: 'Last audit event to export; the chain’s head when absent.' }),
    reportId: ReportId.optional().meta({ description: 'A ready report of the tenant whose PDF goes into the pack as `report.pdf`.' }),
  })
  .meta({ id: 'AuditPackRequest', examples: [{}] });

export const NotifiedBodyPackBody = z
  .strictObject({ systemId: SystemIdField })
  .meta({ id: 'NotifiedBodyPackRequest', examples: [{ systemId: SYSTEM_EXAMPLE }] });

/** The bytes of a PDF or zip download: not JSON (the response's Content-Type says which). */
/** A file answered as its bytes; `contentType` tells the OpenAPI document its media type. */
const fileOf = (contentType: string, description: string) => z.custom<Uint8Array>(() => true).meta({ contentType, description });
const PdfFile = fileOf('application/pdf', 'The PDF’s bytes, with `Content-Disposition: attachment` and an `ETag` holding its SHA-256.');
const ZipFile = fileOf('application/zip', 'The zip’s bytes, with `Content-Disposition: attachment` and an `ETag` holding its SHA-256.');

// ---------------------------------------------------------------- router

const read = meta({ auth: 'tenant', rail: 'reporting', permission: 'reports:read', mutating: false });
const write = (audit: string) => meta({ auth: 'tenant', rail: 'reporting', permission: 'reports:write', mutating: true, audit });
const IdOf = <T extends z.ZodType>(id: T) => z.object({ id });
const NoFields = z.strictObject({}).optional().meta({ description: 'No fields.' });

/** `POST /schedules/:id/<verb>`: a change of a schedule's state, which only some states allow (409 otherwise). */
function scheduleChange<const V extends 'pause' | 'resume'>(verb: V, summary: string, description: string, audit: string) {
  return {
    method: 'POST',
    path: `/schedules/:id/${verb}`,
    pathParams: IdOf(ScheduleId),
    body: NoFields,
    responses: { 200: ReportSchedule },
    summary,
    description,
    metadata: { ...write(audit), stateful: true },
  } as const;
}

export const reportingRouter = railRouter('reporting', {
  types: {
    method: 'GET',
    path: '/types',
    query: PaginationQuery,
    responses: { 200: listOf(ReportType) },
    summary: 'The report types',
    description:
      'The 13 stakeholder-report types `POST /v1/reports/generate` accepts: audience, PDF template id, required input fields and recommended reviewers, in the engine’s order, cursor-paginated (the 13 fit the default page).',
    metadata: read,
  },
  generate: {
    method: 'POST',
    path: '/generate',
    body: GenerateReportBody,
    responses: { 202: Report },
    summary: 'Generate a report',
    description:
      'Checks the type (unknown: 422 on `template`), its required inputs (a missing one: 422 naming it) and the system (not one of the tenant’s: 404), stores the report as `rendering` and answers 202 at once; a background job reads the tenant’s records, composes the report and renders the PDF, then sets `ready` and `downloadUrl` (`report.generated`), or `failed` after its last attempt (`report.failed`). Needs `reports:write`; audited and emitted as `report.requested`.',
    metadata: write('report.requested'),
  },
  list: {
    method: 'GET',
    path: '',
    query: PaginationQuery.extend({
      status: ReportStatus.optional().meta({ description: 'Only reports in this status.' }),
      template: z.string().max(64).optional().meta({ description: 'Only reports of this type.' }),
    }),
    responses: { 200: listOf(Report) },
    summary: 'List reports',
    description: 'The tenant’s reports, newest first, cursor-paginated. Needs `reports:read`.',
    metadata: read,
  },
  export: {
    method: 'GET',
    path: '/export/:id',
    pathParams: IdOf(ReportId),
    responses: { 200: PdfFile, 202: Report },
    summary: 'Download a report’s PDF',
    description:
      'A ready report: 200 with the PDF (`application/pdf`, `Content-Disposition: attachment`, `ETag` = its SHA-256), audited as `report.exported`. While it renders: 202 with the report (status `rendering`); poll again. A failed report: 409 `conflict` with its error. Needs `reports:read`.',
    metadata: read,
  },
  schedule: {
    method: 'POST',
    path: '/schedule',
    body: ScheduleReportBody,
    responses: { 201: ReportSchedule },
    summary: 'Schedule a recurring report',
    description:
      'Checks the type, its inputs and the system as `generate` does, and the cron expression and time zone (422 naming the field), stores the schedule and queues its first tick at the next due time; each tick makes one report (as `generate`) and queues the next. One report per due time, whatever the number of processes. Needs `reports:write`; audited and emitted as `report.scheduled`.',
    metadata: write('report.scheduled'),
  },
  schedules: {
    list: {
      method: 'GET',
      path: '/schedules',
      query: PaginationQuery.extend({
        status: z.enum(SCHEDULE_STATUSES).optional().meta({ description: 'Only schedules in this status.' }),
      }),
      responses: { 200: listOf(ReportSchedule) },
      summary: 'List report schedules',
      description: 'The tenant’s schedules, newest first, cursor-paginated. Needs `reports:read`.',
      metadata: read,
    },
    get: {
      method: 'GET',
      path: '/schedules/:id',
      pathParams: IdOf(ScheduleId),
      responses: { 200: ReportSchedule },
      summary: 'Get a report schedule',
      description: 'One schedule of the tenant; another tenant’s is 404.',
      metadata: read,
    },
    pause: scheduleChange(
      'pause',
      'Pause a report schedule',
      'An active schedule stops making reports (its queued tick finds it paused and does nothing); other states: 409. Needs `reports:write`; audited and emitted as `report.schedule_paused`.',
      'report.schedule_paused',
    ),
    resume: scheduleChange(
      'resume',
      'Resume a paused report schedule',
      'A paused schedule is active again from its next due time after now (due times missed while paused are skipped); other states: 409. Needs `reports:write`; audited and emitted as `report.schedule_resumed`.',
      'report.schedule_resumed',
    ),
    delete: {
      method: 'DELETE',
      path: '/schedules/:id',
      pathParams: IdOf(ScheduleId),
      responses: { 200: ReportSchedule },
      summary: 'Delete a report schedule',
      description:
        'Stops the schedule for good (status `deleted`; the reports it made stay). Deleting a deleted schedule: 409. Needs `reports:write`; audited and emitted as `report.schedule_deleted`.',
      metadata: { ...write('report.schedule_deleted'), stateful: true },
    },
  },
  auditPack: {
    method: 'POST',
    path: '/audit-pack',
    body: AuditPackBody,
    responses: { 201: ReportPack },
    summary: 'Build a signed audit pack',
    description:
      'Builds a zip holding `audit-trail.json` (the audit-trail export of the range, as `POST /v1/audit-trail/export` gives it), `evidence-index.json` (every evidence record: id, title, SHA-256, controls, collection time), `report.pdf` (the given ready report, when `reportId` is sent), `keys.json` (the service’s public signing keys), `manifest.json` (every file with its SHA-256 and size, the tenant, the creation time, the signing key) and `manifest.sig` (Ed25519 signature of the manifest by the audit signing key). `svc audit verify pack.zip --trust keys.json` checks it offline. A report that is not ready: 409; another tenant’s: 404. Needs `reports:write`; audited and emitted as `report.audit_pack_created`.',
    metadata: write('report.audit_pack_created'),
  },
  notifiedBodyPack: {
    method: 'POST',
    path: '/notified-body-pack',
    body: NotifiedBodyPackBody,
    responses: { 201: ReportPack },
    summary: 'Build a notified-body (conformity-assessment) pack',
    description:
      'Builds the signed zip a notified body reviews for one high-risk system: `technical-documentation.json` and `.md` (the nine Annex IV sections filled from the tenant’s records, each with its sources, and the sections with nothing on record listed as missing), `qms-evidence.json` (evidence citing Art. 17 or quality-management controls), `agent-decisions.json` (the agents’ decisions about the system), `keys.json`, `manifest.json` and `manifest.sig` as in the audit pack. A system that is not the tenant’s: 404. Needs `reports:write`; audited and emitted as `report.notified_body_pack_created`.',
    metadata: write('report.notified_body_pack_created'),
  },
  packs: {
    get: {
      method: 'GET',
      path: '/packs/:id',
      pathParams: IdOf(PackId),
      responses: { 200: ReportPack },
      summary: 'Get a pack',
      description: 'One pack of the tenant with its file list; another tenant’s is 404.',
      metadata: read,
    },
    download: {
      method: 'GET',
      path: '/packs/:id/download',
      pathParams: IdOf(PackId),
      responses: { 200: ZipFile },
      summary: 'Download a pack',
      description:
        'The zip (`application/zip`, `Content-Disposition: attachment`, `ETag` = its SHA-256). Needs `reports:read`; audited as `report.exported`.',
      metadata: read,
    },
  },
  // Last: `/:id` would otherwise catch `/schedules` and `/types`.
  get: {
    method: 'GET',
    path: '/:id',
    pathParams: IdOf(ReportId),
    responses: { 200: Report },
    summary: 'Get a report',
    description: 'One report of the tenant with its status; another tenant’s is 404.',
    metadata: read,
  },
});

/** Event types the reporting rail emits. */
export const reportingEvents: ReturnType<typeof eventType>[] = [
  eventType('report.requested', 'A report was requested; it is rendering.', Report),
  eventType('report.generated', 'A report’s PDF was rendered and stored; it is ready to download.', Report),
  eventType('report.failed', 'A report could not be rendered after its last attempt.', Report),
  eventType('report.scheduled', 'A recurring report was scheduled.', ReportSchedule),
  eventType('report.exported', 'A report’s PDF or a pack was downloaded.', z.union([Report, ReportPack])),
  eventType('report.schedule_paused', 'A report schedule was paused.', ReportSchedule),
  eventType('report.schedule_resumed', 'A paused report schedule was resumed.', ReportSchedule),
  eventType('report.schedule_deleted', 'A report schedule was deleted.', ReportSchedule),
  eventType('report.audit_pack_created', 'A signed audit pack was built.', ReportPack),
  eventType('report.notified_body_pack_created', 'A signed notified-body pack was built.', ReportPack),
];
