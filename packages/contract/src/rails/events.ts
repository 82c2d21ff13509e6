import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PaginationQuery, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';

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
    object: z.literal('svc.events.event'),
    id: z.string(),
    time: Timestamp,
    tenantId: z.string(),
    source: z.string(),
    kind: z.string(),
    phase: z.enum(EVENT_PHASES),
    severity: z.enum(EVENT_SEVERITIES),
    actor: z.string(),
    entity: z.string(),
    action: z.string(),
    outcome: z.enum(EVENT_OUTCOMES),
    correlationId: z.string(),
    latencyMs: z.int().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    overBudget: z.boolean().meta({ description: "True when latencyMs exceeds the kind's latency budget." }),
    auditEventId: z.string().nullable().meta({ description: 'The audit-trail event that covers this row.' }),
  })
  .meta({
    id: 'EventRow',
    examples: [
      {
        object: 'svc.events.event',
        id: 'evi_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        time: '2026-11-22T09:30:00.000Z',
        tenantId: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        ...EMIT_EXAMPLE,
        overBudget: false,
        auditEventId: 'aud_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      },
    ],
  });

export const EmitEventBody = z
  .strictObject({
    time: Timestamp.optional().meta({ description: 'When it happened; now when absent. At most 5 minutes in the future.' }),
    tenantId: z.string().max(64).optional().meta({ description: "Must be the caller's tenant when given." }),
    source: Token(64, 'ci.pipeline'),
    kind: Kind,
    phase: z.enum(EVENT_PHASES),
    severity: z.enum(EVENT_SEVERITIES),
    actor: Token(128, 'deploy-bot'),
    entity: Token(128, 'sys_credit_scoring_v2'),
    action: Token(64, 'deploy'),
    outcome: z.enum(EVENT_OUTCOMES),
    correlationId: Token(128, 'run-8841'),
    latencyMs: z.int().min(0).max(86_400_000).nullable().optional(),
    attributes: z
      .record(z.string().max(64), z.unknown())
      .optional()
      .refine((a) => a === undefined || JSON.stringify(a).length <= 16_384, { message: 'attributes may hold at most 16 KiB of JSON' }),
  })
  .meta({
    id: 'EmitEventRequest',
    examples: [EMIT_EXAMPLE],
  });

const Filters = {
  from: Timestamp.optional().meta({ description: 'Rows at or after this time.' }),
  to: Timestamp.optional().meta({ description: 'Rows before this time.' }),
  tenantId: z.string().max(64).optional().meta({ description: "Only the caller's tenant is visible; another id yields nothing." }),
  source: z.string().max(64).optional(),
  kind: z.string().max(128).optional(),
  phase: z.enum(EVENT_PHASES).optional(),
  severity: z.enum(EVENT_SEVERITIES).optional(),
  actor: z.string().max(128).optional(),
  entity: z.string().max(128).optional(),
  action: z.string().max(64).optional(),
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
    object: z.literal('svc.events.aggregation'),
    total: z.int(),
    overBudget: z.int(),
    groups: z.array(
      z.object({
        key: z.record(z.string(), z.string()),
        bucket: Timestamp.nullable(),
        count: z.int(),
        overBudget: z.int(),
      }),
    ),
  })
  .meta({ id: 'EventAggregation' });

export const DriftItem = z
  .object({
    object: z.literal('svc.reconciliation.drift'),
    id: z.string(),
    check: z.string(),
    type: z.string().meta({ examples: ['baseline-divergence'] }),
    control: z.string().nullable().meta({ description: 'The control concerned, when the drift is about one.' }),
    subject: z.string(),
    detail: z.record(z.string(), z.unknown()),
    status: z.enum(['open', 'resolved']),
    firstSeenAt: Timestamp,
    lastSeenAt: Timestamp,
    resolvedAt: Timestamp.nullable(),
    auditSeq: z.int().meta({ description: 'Audit-trail event that recorded the finding.' }),
  })
  .meta({ id: 'DriftItem' });

const read = meta({ auth: 'tenant', rail: 'events', permission: 'events:read', mutating: false });

export const eventsRouter = c.router(
  {
    emit: {
      method: 'POST',
      path: '',
      body: EmitEventBody,
      responses: { 201: EventRow },
      summary: 'Append one event-index row',
      metadata: meta({ auth: 'tenant', rail: 'events', permission: 'events:write', mutating: true, audit: 'event.emitted' }),
    },
    list: {
      method: 'GET',
      path: '',
      query: PaginationQuery.extend(Filters),
      responses: { 200: listOf(EventRow) },
      summary: 'Filter event-index rows, newest first',
      metadata: read,
    },
    query: {
      method: 'POST',
      path: '/query',
      body: EventQueryBody,
      responses: { 200: EventAggregation },
      summary: 'Count rows by fields and time buckets, with over-budget counts',
      metadata: read,
    },
    lifecycle: {
      method: 'GET',
      path: '/lifecycle',
      query: z.object({ entity: z.string().min(1).max(128) }),
      responses: {
        200: z
          .object({
            entity: z.string(),
            phases: z.array(z.object({ phase: z.enum(EVENT_PHASES), time: Timestamp, kind: z.string(), eventId: z.string() })),
          })
          .meta({ id: 'EntityLifecycle' }),
      },
      summary: 'The ordered phases of one entity',
      metadata: read,
    },
    trail: {
      method: 'GET',
      path: '/trail',
      query: z.object({ correlationId: z.string().min(1).max(128) }),
      responses: { 200: z.object({ correlationId: z.string(), data: z.array(EventRow) }).meta({ id: 'CorrelationTrail' }) },
      summary: 'Every row of one correlation id, in order',
      metadata: read,
    },
    sources: {
      method: 'GET',
      path: '/sources',
      responses: {
        200: z
          .object({
            data: z.array(z.object({ source: z.string(), count: z.int(), lastSeen: Timestamp, kinds: z.int() })),
          })
          .meta({ id: 'EventSources' }),
      },
      summary: 'Sources seen, with counts and last-seen times',
      metadata: read,
    },
    drifts: {
      method: 'GET',
      path: '/drifts',
      query: PaginationQuery.extend({ status: z.enum(['open', 'resolved']).optional(), check: z.string().max(64).optional() }),
      responses: { 200: listOf(DriftItem) },
      summary: 'Findings of the reconciliation drift checks',
      metadata: read,
    },
  },
  { pathPrefix: '/v1/events', commonResponses: commonErrorResponses },
);
