import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get, policyOf, post, put } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { meta } from '../../platform/meta.ts';
import { listOf, PaginationQuery, Timestamp } from '../../shared/common.ts';
import { objectField, UPDATED_AT_DESCRIPTION } from '../../shared/records.ts';
import { DriftItem } from '../events/index.ts';

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

/** The object the records' `object` descriptions name as their example. */
const OBJECT_EXAMPLE = 'svc.compliance.assessment';

/** Finding counts of a run and of the summary. */
const resolvedCount = () => z.int().meta({ description: 'Number of findings resolved.' });
const openCount = () => z.int().meta({ description: 'Number of findings still open.' });

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
    object: objectField('svc.reconciliation.declared', OBJECT_EXAMPLE),
    version: z.int().meta({ description: 'Version of the declared state, incremented on each replacement.' }),
    activatedFrameworks: z
      .array(z.string())
      .meta({ description: 'Framework ids the tenant declares active; a difference with the activations is drift.' }),
    controlBaseline: z.array(z.string()).meta({ description: 'Controls that must be backed by current evidence.' }),
    attestationMaxAgeDays: z.int().nullable().meta({ description: 'Attestations older than this many days are drift; null for no limit.' }),
    maxApiKeyAgeDays: z.int().nullable().meta({ description: 'Active API keys older than this many days are drift; null for no limit.' }),
    updatedBy: z.string().nullable().meta({ description: 'Id of the API key whose request last replaced it.' }),
    updatedAt: Timestamp.nullable().meta({ description: UPDATED_AT_DESCRIPTION }),
  })
  .meta({ id: 'DeclaredState' });

export const ReconciliationRun = z
  .object({
    object: objectField('svc.reconciliation.run', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Identifier of the reconciliation run.' }),
    trigger: z.enum(['schedule', 'manual']).meta({ description: 'What started the run: `schedule` or `manual`.' }),
    startedAt: Timestamp.meta({ description: 'When the run started (ISO 8601 UTC).' }),
    finishedAt: Timestamp.meta({ description: 'When the run finished (ISO 8601 UTC).' }),
    opened: z.int().meta({ description: 'Number of findings this run opened.' }),
    resolved: resolvedCount(),
    open: openCount(),
  })
  .meta({ id: 'ReconciliationRun' });

export const ReconciliationSummary = z
  .object({
    object: objectField('svc.reconciliation.summary', OBJECT_EXAMPLE),
    open: openCount(),
    resolved: resolvedCount(),
    byCheck: z
      .array(
        z.object({
          check: z.enum(DRIFT_CHECKS).meta({ description: 'Name of the drift check the counts are for.' }),
          open: z.int().meta({ description: 'Open findings of the check.' }),
          resolved: z.int().meta({ description: 'Resolved findings of the check.' }),
        }),
      )
      .meta({ description: 'Finding counts per drift check.' }),
    byType: z
      .array(
        z.object({
          type: z.string().meta({ description: 'Kind of difference found (`baseline-divergence`).' }),
          open: z.int().meta({ description: 'Open findings of that kind.' }),
        }),
      )
      .meta({ description: 'Open finding counts per kind of difference.' }),
    lastRun: ReconciliationRun.nullable().meta({ description: 'The latest run; null before the first.' }),
    intervalSeconds: z.int().meta({ description: 'Seconds between scheduled runs; 0 when scheduling is off.' }),
  })
  .meta({ id: 'ReconciliationSummary' });

const { read, write } = policyOf('reconciliation');
/** The run's policy: a change without an audit action, which `write` requires. */
const runMeta = meta({ auth: 'tenant', rail: 'reconciliation', permission: 'reconciliation:write', mutating: true });

export const reconciliationRouter = c.router(
  {
    getDeclared: get('/declared', {}, DeclaredState, read).doc(
      "The tenant's declared state",
      'Returns the state the tenant declares (activated frameworks, control baseline, attestation and API-key age limits) against which the drift checks compare what they observe, with who changed it and when.',
    ),
    putDeclared: put('/declared', { body: DeclaredStateBody }, DeclaredState, write('reconciliation.declared_updated')).doc(
      'Replace the declared state',
      "Replaces the tenant's declared state as a whole (fields left out take their defaults) and returns it. The next reconciliation run compares against it. Audited.",
    ),
    run: post('/run', { body: c.noBody() }, ReconciliationRun, runMeta).doc(
      'Run the drift checks now',
      'Runs every drift check for the tenant immediately instead of waiting for the scheduled interval; returns the run with the number of findings opened and resolved. Findings also go to the drift events list.',
    ),
    events: get(
      '/events',
      {
        query: PaginationQuery.extend({
          status: z.enum(['open', 'resolved']).optional().meta({ description: 'Only open or only resolved findings.' }),
          check: z.enum(DRIFT_CHECKS).optional().meta({ description: 'Only findings of this drift check.' }),
        }),
      },
      listOf(DriftItem),
      read,
    ).doc(
      'Drift events, newest first',
      "Returns the tenant's drift findings, newest first, with their check, severity, detail and first- and last-seen times; paginated by `limit` and `cursor`.",
    ),
    summary: get('/summary', {}, ReconciliationSummary, read).doc(
      'Drift counts per check and type, and the last run',
      'Returns the number of open drift findings per check and per type, and the time and outcome of the last reconciliation run with the configured interval in seconds.',
    ),
  },
  { pathPrefix: '/v1/reconciliation', commonResponses: commonErrorResponses },
);
