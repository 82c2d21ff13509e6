import { z } from 'zod';
import { get, policyOf, post, stateful } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { Check, FindingId, FindingStatus, RunId, RunStatus, ScheduleId, Severity } from './fields.ts';
import {
  AttestAuditRunBody,
  AUDIT_SCHEDULE_STATUSES,
  AuditAttestation,
  AuditFinding,
  AuditRun,
  AuditRunAccepted,
  AuditRunReplay,
  AuditSchedule,
  AuditSignOff,
  CreateAuditScheduleBody,
  ReplayAuditRunBody,
  ResolveAuditFindingBody,
  SignOffAuditRunBody,
  StartAuditRunBody,
} from './schemas.ts';

/** The audit engine rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- schedules

export const auditSchedules = resource({
  rail: 'audit_engine',
  path: 'schedules',
  name: 'schedule',
  label: { one: 'audit schedule', many: 'audit schedules' },
  idPrefix: 'aes',
  record: AuditSchedule,
  statusField: 'status',
  filters: {
    status: z.enum(AUDIT_SCHEDULE_STATUSES).optional().meta({ description: 'Only schedules in this status.' }),
    framework: z.string().max(64).optional().meta({ description: 'Only schedules of this framework.' }),
  },
  create: {
    body: CreateAuditScheduleBody,
    action: 'audit.schedule_created',
    summary: 'Schedule recurring audits',
    description:
      'Creates an active schedule: each due time of the cron expression (UTC) starts one run of the framework over the scope, once whatever the number of worker processes. The framework must be a known dictionary and the scope must select controls of its latest version (422 otherwise); the framework must be activated when a due time comes, else that due time records `lastError` and starts nothing.',
    eventSummary: 'An audit schedule was created.',
  },
  transitions: {
    pause: {
      from: ['active'],
      to: 'paused',
      action: 'audit.schedule_paused',
      summary: 'Pause an audit schedule',
      description: 'Stops an active schedule: its due times start nothing until it is resumed.',
    },
    resume: {
      from: ['paused'],
      to: 'active',
      action: 'audit.schedule_resumed',
      summary: 'Resume an audit schedule',
      description: 'Restarts a paused schedule from its next due time after now.',
    },
    delete: {
      from: ['active', 'paused'],
      to: 'deleted',
      method: 'DELETE',
      action: 'audit.schedule_deleted',
      summary: 'Delete an audit schedule',
      description: 'No further run starts; the record stays with status `deleted`, and its runs stay for the audit trail.',
    },
  },
});

// ---------------------------------------------------------------- runs

/** Runs are started by `POST /run` (202, evaluated in the background) or by a schedule; the kit lists and gets them. */
export const auditRuns = resource({
  rail: 'audit_engine',
  path: 'runs',
  // The catalogue names the start (`run`); the runs it makes are listed beside it.
  subResource: 'run',
  name: 'run',
  label: { one: 'audit run', many: 'audit runs' },
  idPrefix: 'aer',
  record: AuditRun,
  statusField: 'status',
  filters: {
    status: RunStatus.optional().meta({ description: 'Only runs in this status.' }),
    framework: z.string().max(64).optional().meta({ description: 'Only runs of this framework.' }),
    scheduleId: ScheduleId.optional().meta({ description: 'Only runs started by this schedule.' }),
  },
  notes: { get: 'One run with its status, counts and pinned content.' },
  setup: [
    { method: 'POST', path: '/v1/frameworks/eu-ai-act/activate', body: {} },
    { method: 'POST', path: '/v1/audit-engine/run', body: { framework: 'eu-ai-act', scope: 'all' } },
  ],
});

// ---------------------------------------------------------------- router

const { read, write, changes } = policyOf('audit_engine');
const IdOf = <T extends z.ZodType>(id: T) => z.object({ id });

export const auditEngineRouter = railRouter('audit_engine', {
  schedules: auditSchedules.routes,
  run: post('/run', { body: StartAuditRunBody }, { 202: AuditRunAccepted }, stateful(write('audit.run_started'))).doc(
    'Start an audit run',
    'Starts a run of an activated framework over a scope and answers 202 at once: the run pins the framework version the tenant activated, the tenant’s taxonomy bundle hash and the rule set, and a background job evaluates every control in scope (evidence present, evidence fresh, linked obligations met, attestations current), writes one finding per failed check and completes the run. A framework the tenant has not activated, an unknown framework or a scope that selects no control: 422 naming the field. Needs `audit_engine:write`; audited and emitted as `audit.run_started`, then `audit.run_completed` and one `audit.finding_opened` per finding.',
  ),
  runs: auditRuns.routes,
  findings: {
    list: get(
      '/findings',
      {
        query: PaginationQuery.extend({
          runId: RunId.optional().meta({ description: 'Only findings of this run.' }),
          severity: Severity.optional().meta({ description: 'Only findings of this severity.' }),
          status: FindingStatus.optional().meta({ description: 'Only findings in this status.' }),
          controlId: z.string().max(64).optional().meta({ description: 'Only findings of this control.' }),
          check: Check.optional().meta({ description: 'Only findings of this check.' }),
        }),
      },
      listOf(AuditFinding),
      read,
    ).doc(
      'List audit findings',
      'Findings of the tenant’s runs, newest first, cursor-paginated, filtered by run, severity, status, control and check (combined with AND). Needs `audit_engine:read`.',
    ),
    get: get('/findings/:id', { pathParams: IdOf(FindingId) }, AuditFinding, read).doc(
      'Get an audit finding',
      'One finding with the facts that led to it; another tenant’s is 404.',
    ),
    resolve: post('/findings/resolve', { body: ResolveAuditFindingBody }, AuditFinding, stateful(write('audit.finding_resolved'))).doc(
      'Resolve an audit finding',
      'Marks an open finding `resolved` with how it was resolved. A resolved finding: 409. The run’s findings hash does not change (it covers what the run found). Needs `audit_engine:write`; audited and emitted as `audit.finding_resolved`.',
    ),
  },
  replay: post('/replay', { body: ReplayAuditRunBody }, AuditRunReplay, stateful(changes('audit_engine:read', 'audit.run_replayed'))).doc(
    'Replay an audit run',
    'Re-evaluates the inputs a completed (or attested) run stored (its controls, obligations, evidence and attestations with their dates, and its as-of instant) with the current rules, and compares the hash of the findings with the stored one, listing every divergence. A running or failed run: 409. Needs `audit_engine:read`; audited as `audit.run_replayed`.',
  ),
  signOff: post(
    '/sign-off',
    { body: SignOffAuditRunBody },
    { 201: AuditSignOff },
    stateful(changes('audit_engine:approve', 'audit.signed_off')),
  ).doc(
    'Sign off an audit run',
    'The accountable owner signs off a completed run: only keys with the owner or admin role may (`audit_engine:approve`), and only a key bound to a person (`personId`): the owner is that person, never whoever the body names (a service key, or an `owner` with another email: 403 `forbidden`). A run that is not completed, or already signed off: 409. Audited and emitted as `audit.signed_off`, with the person as the actor and the key in `data.credentialId`.',
  ),
  attest: post(
    '/attest',
    { body: AttestAuditRunBody },
    { 201: AuditAttestation },
    stateful(changes('audit_engine:attest', 'audit.attested')),
  ).doc(
    'Attest an audit run',
    'Closes a signed-off run (status `attested`) with an attestation record holding the hashes of the run, of its findings and of the sign-off. Before the sign-off, or a run already attested: 409. Needs `audit_engine:attest`; audited and emitted as `audit.attested`.',
  ),
});

/** Event types the audit_engine rail emits. */
export const auditEngineEvents: ReturnType<typeof eventType>[] = [
  ...auditSchedules.events,
  eventType('audit.run_started', 'An audit-engine run started; its evaluation runs in the background.', AuditRun),
  eventType('audit.run_completed', 'An audit-engine run finished evaluating (completed or failed); the data carries its counts.', AuditRun),
  eventType('audit.run_replayed', 'A run’s stored inputs were re-evaluated; the data says whether the findings matched.', AuditRunReplay),
  eventType('audit.finding_opened', 'A run found a control failing a check.', AuditFinding),
  eventType('audit.finding_resolved', 'An audit finding was resolved.', AuditFinding),
  eventType('audit.signed_off', 'An accountable owner signed off an audit run.', AuditSignOff),
  eventType('audit.attested', 'An audit run was attested and closed.', AuditAttestation),
];
