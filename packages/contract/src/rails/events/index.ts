import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { listOf, PaginationQuery, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, exampleId, objectField } from '../../shared/records.ts';

const c = initContract();

export const EVENT_PHASES = ['requested', 'started', 'in_progress', 'completed', 'failed', 'cancelled', 'observed'] as const;
export const EVENT_SEVERITIES = ['debug', 'info', 'notice', 'warning', 'error', 'critical'] as const;
export const EVENT_OUTCOMES = ['success', 'failure', 'unknown'] as const;

const Token = (max: number, example: string) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/)
    .meta({ examples: [example] });
const Kind = z
  .string()
  .max(128)
  .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/)
  .meta({ description: 'Dotted kind, `<category>.<event>`.', examples: ['assessment.created'] });

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.compliance.assessment';

/** What the fields of a row mean, in the row, in the request that emits it and as filters. */
const FIELD = {
  source: 'System that reported the row (`billing-service`).',
  kind: 'Kind of event the source reports (`invoice.issued`).',
  phase: 'Lifecycle phase the row records (`requested`, `started`, `completed`, `failed`, ...; see the enum).',
  severity: 'Severity of the row, from `debug` to `critical` (the enum lists the levels, lowest first).',
  actor: 'Who caused the event, as the source names it (user id, service name).',
  entity: 'Id of the entity whose lifecycle the row belongs to, as the source names it.',
  action: 'What was done, as the source names it (`approve`).',
  outcome: 'Result the source reports for the action; see the enum.',
  correlationId: 'Correlation id shared by every record one request or job produced (the `X-Correlation-Id` of the request).',
  latencyMs: 'Duration in milliseconds, measured by the reporter.',
  attributes: 'Free-form string keys and JSON values the source attached; indexed for filtering, not interpreted.',
};
const Phase = z.enum(EVENT_PHASES);
const Severity = z.enum(EVENT_SEVERITIES);

/** One row as a client emits it; the row example adds what the service fills in. */
const EMIT_EXAMPLE = {
  source: 'ci.pipeline',
  kind: 'model.deployed',
  phase: 'completed',
  severity: 'info',
  actor: 'deploy-bot',
  entity: 'sys_credit_scoring_v2',
  action: 'deploy',
  outcome: 'success',
  correlationId: 'run-8841',
  latencyMs: 412,
  attributes: { version: '2.4.1' },
} as const;

/** The 14 typed fields of an event-index row. */
export const EventRow = z
  .object({
    object: objectField('svc.events.event', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Identifier of the row.' }),
    time: Timestamp.meta({ description: 'When it happened (ISO 8601 UTC).' }),
    tenantId: z.string().meta({ description: 'Id of the tenant (`ten_` prefix) the record belongs to.' }),
    source: z.string().meta({ description: FIELD.source }),
    kind: z.string().meta({ description: FIELD.kind }),
    phase: Phase.meta({ description: FIELD.phase }),
    severity: Severity.meta({ description: FIELD.severity }),
    actor: z.string().meta({ description: FIELD.actor }),
    entity: z.string().meta({ description: FIELD.entity }),
    action: z.string().meta({ description: FIELD.action }),
    outcome: z.enum(EVENT_OUTCOMES).meta({ description: FIELD.outcome }),
    correlationId: z.string().meta({ description: FIELD.correlationId }),
    latencyMs: z.int().nullable().meta({ description: FIELD.latencyMs }),
    attributes: z.record(z.string(), z.unknown()).meta({ description: FIELD.attributes }),
    overBudget: z.boolean().meta({ description: "True when latencyMs exceeds the kind's latency budget." }),
    auditEventId: z.string().nullable().meta({ description: 'The audit-trail event that covers this row.' }),
  })
  .meta({
    id: 'EventRow',
    examples: [
      {
        object: 'svc.events.event',
        id: exampleId('evi'),
        time: EXAMPLE_AT,
        tenantId: exampleId('ten'),
        ...EMIT_EXAMPLE,
        overBudget: false,
        auditEventId: exampleId('aud'),
      },
    ],
  });

export const EmitEventBody = z
  .strictObject({
    time: Timestamp.optional().meta({ description: 'When it happened; now when absent. At most 5 minutes in the future.' }),
    tenantId: z.string().max(64).optional().meta({ description: "Must be the caller's tenant when given." }),
    source: Token(64, 'ci.pipeline').meta({ description: FIELD.source }),
    kind: Kind.meta({ description: FIELD.kind }),
    phase: Phase.meta({ description: FIELD.phase }),
    severity: Severity.meta({ description: FIELD.severity }),
    actor: Token(128, 'deploy-bot').meta({ description: FIELD.actor }),
    entity: Token(128, 'sys_credit_scoring_v2').meta({ description: FIELD.entity }),
    action: Token(64, 'deploy').meta({ description: FIELD.action }),
    outcome: z.enum(EVENT_OUTCOMES).meta({ description: FIELD.outcome }),
    correlationId: Token(128, 'run-8841').meta({ description: FIELD.correlationId }),
    latencyMs: z.int().min(0).max(86_400_000).nullable().optional().meta({ description: FIELD.latencyMs }),
    attributes: z
      .record(z.string().max(64), z.unknown())
      .optional()
      .refine((a) => a === undefined || JSON.stringify(a).length <= 16_384, { message: 'attributes may hold at most 16 KiB of JSON' })
      .meta({ description: FIELD.attributes }),
  })
  .meta({
    id: 'EmitEventRequest',
    examples: [EMIT_EXAMPLE],
  });

const Filters = {
  from: Timestamp.optional().meta({ description: 'Rows at or after this time.' }),
  to: Timestamp.optional().meta({ description: 'Rows before this time.' }),
  tenantId: z.string().max(64).optional().meta({ description: "Only the caller's tenant is visible; another id yields nothing." }),
  source: z.string().max(64).optional().meta({ description: FIELD.source }),
  kind: z.string().max(128).optional().meta({ description: FIELD.kind }),
  phase: Phase.optional().meta({ description: FIELD.phase }),
  severity: Severity.optional().meta({ description: FIELD.severity }),
  actor: z.string().max(128).optional().meta({ description: FIELD.actor }),
  entity: z.string().max(128).optional().meta({ description: FIELD.entity }),
  action: z.string().max(64).optional().meta({ description: FIELD.action }),
};

export const EventQueryBody = z
  .strictObject({
    ...Filters,
    groupBy: z
      .array(z.enum(['kind', 'severity', 'source', 'phase', 'outcome', 'action']))
      .max(3)
      .default(['kind'])
      .meta({ description: 'Fields to count by.' }),
    bucket: z.enum(['minute', 'hour', 'day']).optional().meta({ description: 'Also count per time bucket.' }),
  })
  .meta({ id: 'EventQueryRequest', examples: [{ groupBy: ['kind', 'severity'], bucket: 'hour', from: '2026-11-22T00:00:00.000Z' }] });

export const EventAggregation = z
  .object({
    object: objectField('svc.events.aggregation', OBJECT_EXAMPLE),
    total: z.int().meta({ description: 'Number of rows or records counted.' }),
    overBudget: z.int().meta({ description: 'Number of those rows whose latency exceeded the budget.' }),
    groups: z
      .array(
        z.object({
          key: z.record(z.string(), z.string()).meta({ description: 'Value of each grouped field for this group.' }),
          bucket: Timestamp.nullable().meta({ description: 'Start of the time bucket (ISO 8601 UTC).' }),
          count: z.int().meta({ description: 'Number of rows.' }),
          overBudget: z.int().meta({ description: 'Number of those rows whose latency exceeded the budget.' }),
        }),
      )
      .meta({ description: 'One entry per combination of the grouped fields and time bucket.' }),
  })
  .meta({ id: 'EventAggregation' });

export const DriftItem = z
  .object({
    object: objectField('svc.reconciliation.drift', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Identifier of the row.' }),
    check: z.string().meta({ description: 'Name of the drift check (`framework_activation`).' }),
    type: z.string().meta({ description: 'Kind of difference found (`baseline-divergence`).', examples: ['baseline-divergence'] }),
    control: z.string().nullable().meta({ description: 'The control concerned, when the drift is about one.' }),
    subject: z.string().meta({ description: 'What the record is about.' }),
    detail: z.record(z.string(), z.unknown()).meta({ description: 'Human-readable explanation of the difference found.' }),
    status: z
      .enum(['open', 'resolved'])
      .meta({ description: '`open` while the difference persists, `resolved` once a run no longer finds it.' }),
    firstSeenAt: Timestamp.meta({ description: 'When a run first found the difference (ISO 8601 UTC).' }),
    lastSeenAt: Timestamp.meta({ description: 'When a run last found the difference (ISO 8601 UTC).' }),
    resolvedAt: Timestamp.nullable().meta({ description: 'When a run no longer found it (ISO 8601 UTC); null while open.' }),
    auditSeq: z.int().meta({ description: 'Audit-trail event that recorded the finding.' }),
  })
  .meta({ id: 'DriftItem' });

const { read, write } = policyOf('events');

export const eventsRouter = c.router(
  {
    emit: post('', { body: EmitEventBody }, { 201: EventRow }, write('event.emitted')).doc(
      'Append one event-index row',
      "Appends one row to the tenant's event index: a phase of an entity's lifecycle reported by a source, with its correlation id and attributes. Rows are immutable. Returns 201 with the row; audited as `event.emitted`. Send an `Idempotency-Key` so that a retry does not append a second row.",
    ),
    list: get('', { query: PaginationQuery.extend(Filters) }, listOf(EventRow), read).doc(
      'Filter event-index rows, newest first',
      "Returns the tenant's event-index rows, newest first, filtered by equality on the given fields (entity, kind, phase, source, severity, correlation id) and paginated by `limit` and `cursor`.",
    ),
    query: post('/query', { body: EventQueryBody }, EventAggregation, read).doc(
      'Count rows by fields and time buckets, with over-budget counts',
      'Counts the event-index rows of a time range, grouped by the requested fields and time bucket, with the rows whose latency exceeded the budget. Reads only; a POST because the grouping is a body.',
    ),
    lifecycle: get(
      '/lifecycle',
      {
        query: z.object({
          entity: z.string().min(1).max(128).meta({ description: 'Id of the entity, as the sources name it; 1 to 128 characters.' }),
        }),
      },
      z
        .object({
          entity: z.string().meta({ description: FIELD.entity }),
          phases: z
            .array(
              z.object({
                phase: z.enum(EVENT_PHASES).meta({ description: 'Lifecycle phase reached.' }),
                time: Timestamp.meta({ description: 'When the phase was reached (ISO 8601 UTC).' }),
                kind: z.string().meta({ description: 'Kind of the row that recorded it.' }),
                eventId: z.string().meta({ description: 'Id of the event-index row that recorded it.' }),
              }),
            )
            .meta({ description: 'Phases of the entity, oldest first.' }),
        })
        .meta({ id: 'EntityLifecycle' }),
      read,
    ).doc(
      'The ordered phases of one entity',
      'Returns the phases recorded for one entity, in time order, each with its time, kind and the id of the row that recorded it. An entity without rows gives an empty `phases`.',
    ),
    trail: get(
      '/trail',
      {
        query: z.object({
          correlationId: z.string().min(1).max(128).meta({ description: 'Correlation id to follow; 1 to 128 characters.' }),
        }),
      },
      z
        .object({
          correlationId: z.string().meta({ description: 'The correlation id asked for.' }),
          data: z.array(EventRow).meta({ description: 'Its rows, oldest first.' }),
        })
        .meta({ id: 'CorrelationTrail' }),
      read,
    ).doc(
      'Every row of one correlation id, in order',
      'Returns every event-index row that carries the correlation id, oldest first, to follow one request or job across sources.',
    ),
    sources: get(
      '/sources',
      {},
      z
        .object({
          data: z
            .array(
              z.object({
                source: z.string().meta({ description: 'Name of the source.' }),
                count: z.int().meta({ description: 'Rows the source has reported.' }),
                lastSeen: Timestamp.meta({ description: 'Time of its latest row (ISO 8601 UTC).' }),
                kinds: z.int().meta({ description: 'Distinct kinds it has reported.' }),
              }),
            )
            .meta({ description: 'Sources, most rows first.' }),
        })
        .meta({ id: 'EventSources' }),
      read,
    ).doc(
      'Sources seen, with counts and last-seen times',
      'Returns each source that has reported rows for the tenant, with the number of rows, the number of distinct kinds and the time of its latest row.',
    ),
    drifts: get(
      '/drifts',
      {
        query: PaginationQuery.extend({
          status: z.enum(['open', 'resolved']).optional().meta({ description: 'Only open or only resolved findings.' }),
          check: z.string().max(64).optional().meta({ description: 'Only findings of this drift check.' }),
        }),
      },
      listOf(DriftItem),
      read,
    ).doc(
      'Findings of the reconciliation drift checks',
      "Returns the drift findings of the tenant's reconciliation checks, newest first: each a difference between the declared state and what the event index shows. `status` keeps open or resolved findings, `check` one check.",
    ),
  },
  { pathPrefix: '/v1/events', commonResponses: commonErrorResponses },
);
