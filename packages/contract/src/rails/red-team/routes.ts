import { z } from 'zod';
import { get, policyOf, post, stateful } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { idParams } from '../../shared/records.ts';
import { Category, OUTCOMES, ProbeId, RUN_STATUSES, RunId, Severity, TargetId } from './fields.ts';
import {
  CreateRedTeamRunBody,
  CreateRedTeamTargetBody,
  RedTeamCategories,
  RedTeamProbe,
  RedTeamResult,
  RedTeamRobustness,
  RedTeamRun,
  RedTeamTarget,
} from './schemas.ts';

/** The red team rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- targets

export const redTeamTargets = resource({
  rail: 'red_team',
  path: 'targets',
  // The endpoints runs send their probes to.
  subResource: 'runs',
  name: 'target',
  label: { one: 'target', many: 'targets' },
  idPrefix: 'rtt',
  record: RedTeamTarget,
  create: {
    body: CreateRedTeamTargetBody,
    action: 'red_team.target_created',
    summary: 'Configure a target',
    description:
      'Configures the HTTP endpoint of a model that runs send probes to. The URL is checked like a webhook target (https, public address) unless the operator allows private targets; names are checked again when called.',
    eventSummary: 'A red-team target (model endpoint) was configured.',
  },
});

// ---------------------------------------------------------------- runs

export const redTeamRuns = resource({
  rail: 'red_team',
  path: 'runs',
  name: 'run',
  label: { one: 'run', many: 'runs' },
  idPrefix: 'rtn',
  record: RedTeamRun,
  statusField: 'status',
  filters: {
    targetId: TargetId.optional().meta({ description: 'Only runs against this target.' }),
    status: z.enum(RUN_STATUSES).optional().meta({ description: 'Only runs in this status.' }),
  },
  setup: [
    {
      method: 'POST',
      path: '/v1/red-team/targets',
      body: {
        name: 'Setup target {{unique}}',
        url: 'https://llm.example.com/v1/chat',
        bodyTemplate: { prompt: '{{prompt}}', system: '{{system_prompt}}' },
        answerPath: 'answer',
      },
      as: 'target',
    },
  ],
  create: {
    body: CreateRedTeamRunBody,
    action: 'red_team.run_queued',
    fixture: { targetId: '{{target.id}}', categories: ['prompt_injection'] },
    summary: 'Queue a run against a target',
    description: 'Queues a run of the selected categories against a target of the tenant; `POST /runs/{id}/execute` sends the probes.',
    eventSummary: 'A red-team run was queued.',
  },
  transitions: {
    cancel: { from: ['queued'], to: 'canceled', action: 'red_team.run_canceled', summary: 'Cancel a queued run' },
  },
});

// ---------------------------------------------------------------- router

const { read, write } = policyOf('red_team');

export const redTeamRouter = railRouter('red_team', {
  corpus: {
    list: get(
      '/corpus',
      {
        query: PaginationQuery.extend({
          category: Category.optional().meta({ description: 'Only probes of this category.' }),
          severity: Severity.optional().meta({ description: 'Only probes of this severity.' }),
        }),
      },
      listOf(RedTeamProbe),
      read,
    ).doc(
      'List the probes of the corpus',
      'The probes of the shipped corpus in id order, filtered by category and severity, cursor-paginated. Needs `red_team:read`.',
    ),
    get: get('/corpus/:probeId', { pathParams: z.object({ probeId: ProbeId }) }, RedTeamProbe, read).doc(
      'Get a probe',
      'One probe of the corpus with its detector; 404 for an id the corpus does not have.',
    ),
  },
  categories: get('/categories', {}, RedTeamCategories, read).doc(
    'The nine categories with their probe counts',
    'Every category of the corpus with its reference and its probes per severity, and the severity weights of the score.',
  ),
  targets: redTeamTargets.routes,
  runs: redTeamRuns.routes,
  executeRun: post(
    '/runs/:id/execute',
    { pathParams: idParams('rtn'), body: z.strictObject({}).optional().meta({ description: 'No fields.' }) },
    RedTeamRun,
    stateful(write('red_team.run_started')),
  ).doc(
    'Execute a queued run',
    'Sends every probe of the run’s categories to its target (in this request, four at a time, each within the target’s timeout), judges each answer with the probe’s detector, stores one result per probe and computes the score and the regression against the target’s previous completed run. Emits `red_team.run_started`, `red_team.run_completed`, one `red_team.finding_reported` per failed high or critical probe and `red_team.regression_detected` when a probe that passed before fails now. A run that is not queued: 409. Needs `red_team:write`.',
  ),
  results: {
    list: get(
      '/results',
      {
        query: PaginationQuery.extend({
          runId: RunId.optional().meta({ description: 'Only results of this run.' }),
          category: Category.optional().meta({ description: 'Only results of this category.' }),
          outcome: z.enum(OUTCOMES).optional().meta({ description: 'Only results with this outcome.' }),
        }),
      },
      listOf(RedTeamResult),
      read,
    ).doc(
      'List results',
      'Results of the tenant’s runs, newest first, cursor-paginated, filtered by run, category and outcome. Needs `red_team:read`.',
    ),
    get: get('/results/:id', { pathParams: idParams('rtx') }, RedTeamResult, read).doc(
      'Get a result',
      'One result of the tenant; another tenant’s is 404.',
    ),
  },
  robustness: get('/robustness/:id', { pathParams: idParams('rtn') }, RedTeamRobustness, read).doc(
    'The robustness score of a run',
    'Computed from the run’s stored results: per category, 100 × (sum of the severity weights of passed probes) / (sum of the weights of judged probes); overall, the same over every judged probe. Errors are not judged. Needs `red_team:read`.',
  ),
});

/** Event types the red_team rail emits. */
export const redTeamEvents: ReturnType<typeof eventType>[] = [
  ...redTeamTargets.events,
  ...redTeamRuns.events,
  eventType('red_team.run_started', 'A red-team run started sending its probes.', RedTeamRun),
  eventType('red_team.run_completed', 'A red-team run completed; the data carries its passed and failed counts and score.', RedTeamRun),
  eventType('red_team.finding_reported', 'A probe of severity high or critical failed in a run.', RedTeamResult),
  eventType('red_team.regression_detected', 'A run failed probes the target’s previous run passed.', RedTeamRun),
];
