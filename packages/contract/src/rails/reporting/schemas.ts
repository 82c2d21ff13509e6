import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { PackId, ReportId, ReportStatus, SCHEDULE_STATUSES, ScheduleId } from './fields.ts';

/** The reporting rail's records, request bodies and their examples (index.ts describes the rail). */

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
