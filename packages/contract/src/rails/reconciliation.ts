import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PaginationQuery, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';
import { DriftItem } from './events.ts';

const c = initContract();

/** The seven checks the reconciler runs; each is documented in the README. */
export const DRIFT_CHECKS = [
  'framework-activation',
  'control-evidence',
  'evidence-expiry',
  'attestation-freshness',
  'events-covered',
  'audit-chain',
  'credential-age',
] as const;

const ControlId = z.string().min(1).max(64);

export const DeclaredStateBody = z
  .strictObject({
    activatedFrameworks: z
      .array(z.string().min(1).max(64))
      .max(100)
      .default([])
      .meta({ description: 'Framework ids that must be active.' }),
    controlBaseline: z.array(ControlId).max(2000).default([]).meta({ description: 'Controls that must be backed by current evidence.' }),
    attestationMaxAgeDays: z.int().min(1).max(3650).nullable().default(null).meta({
      description: 'Each baseline control needs an attestation no older than this; null: not checked.',
    }),
    maxApiKeyAgeDays: z.int().min(1).max(3650).nullable().default(null).meta({ description: 'Active API keys older than this are drift.' }),
  })
  .meta({
    id: 'DeclaredStateRequest',
    examples: [
      { activatedFrameworks: ['eu-ai-act', 'gdpr'], controlBaseline: ['AIA-RMS-01'], attestationMaxAgeDays: 90, maxApiKeyAgeDays: 365 },
    ],
  });

export const DeclaredState = z
  .object({
    object: z.literal('svc.reconciliation.declared'),
    version: z.int(),
    activatedFrameworks: z.array(z.string()),
    controlBaseline: z.array(z.string()),
    attestationMaxAgeDays: z.int().nullable(),
    maxApiKeyAgeDays: z.int().nullable(),
    updatedBy: z.string().nullable(),
    updatedAt: Timestamp.nullable(),
  })
  .meta({ id: 'DeclaredState' });

export const ReconciliationRun = z
  .object({
    object: z.literal('svc.reconciliation.run'),
    id: z.string(),
    trigger: z.enum(['schedule', 'manual']),
    startedAt: Timestamp,
    finishedAt: Timestamp,
    opened: z.int(),
    resolved: z.int(),
    open: z.int(),
  })
  .meta({ id: 'ReconciliationRun' });

export const ReconciliationSummary = z
  .object({
    object: z.literal('svc.reconciliation.summary'),
    open: z.int(),
    resolved: z.int(),
    byCheck: z.array(z.object({ check: z.enum(DRIFT_CHECKS), open: z.int(), resolved: z.int() })),
    byType: z.array(z.object({ type: z.string(), open: z.int() })),
    lastRun: ReconciliationRun.nullable(),
    intervalSeconds: z.int(),
  })
  .meta({ id: 'ReconciliationSummary' });

const read = meta({ auth: 'tenant', rail: 'reconciliation', permission: 'reconciliation:read', mutating: false });

export const reconciliationRouter = c.router(
  {
    getDeclared: {
      method: 'GET',
      path: '/declared',
      responses: { 200: DeclaredState },
      summary: "The tenant's declared state",
      metadata: read,
    },
    putDeclared: {
      method: 'PUT',
      path: '/declared',
      body: DeclaredStateBody,
      responses: { 200: DeclaredState },
      summary: 'Replace the declared state',
      metadata: meta({
        auth: 'tenant',
        rail: 'reconciliation',
        permission: 'reconciliation:write',
        mutating: true,
        audit: 'reconciliation.declared_updated',
      }),
    },
    run: {
      method: 'POST',
      path: '/run',
      body: c.noBody(),
      responses: { 200: ReconciliationRun },
      summary: 'Run the drift checks now',
      metadata: meta({ auth: 'tenant', rail: 'reconciliation', permission: 'reconciliation:write', mutating: true }),
    },
    events: {
      method: 'GET',
      path: '/events',
      query: PaginationQuery.extend({ status: z.enum(['open', 'resolved']).optional(), check: z.enum(DRIFT_CHECKS).optional() }),
      responses: { 200: listOf(DriftItem) },
      summary: 'Drift events, newest first',
      metadata: read,
    },
    summary: {
      method: 'GET',
      path: '/summary',
      responses: { 200: ReconciliationSummary },
      summary: 'Drift counts per check and type, and the last run',
      metadata: read,
    },
  },
  { pathPrefix: '/v1/reconciliation', commonResponses: commonErrorResponses },
);
