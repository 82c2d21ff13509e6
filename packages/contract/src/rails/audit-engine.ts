import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter } from '../resource.ts';
import { CREATED_BY_KEY_DESCRIPTION, created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The audit_engine rail (`/v1/audit-engine`, enterprise): automated audits of a framework the
 * tenant has activated. `POST /run` pins the content (the framework's dictionary version, the
 * tenant's taxonomy bundle hash, the rule set) and answers 202; a background job evaluates every
 * activated control in scope against the tenant's evidence, obligations and attestations, writes
 * one finding per failed check and completes the run. A completed run can be replayed (the stored
 * inputs re-evaluated, the findings compared by hash), signed off by an accountable owner and then
 * attested, which closes it. Schedules start one run per due time of a cron expression.
 *
 * Scope strings: `all` (every control of the framework), `family:<prefix>` (controls whose id
 * starts with `<prefix>-`, e.g. `family:AIA-RMS`), `clause:<ref>` (controls citing the clause or
 * one of its sub-clauses, e.g. `clause:art-9`), `system:<id>` (every control, counting only the
 * evidence recorded for that AI system). A bare value is read as a family, then as a clause.
 */

export const AUDIT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const AUDIT_CHECKS = [
  'evidence_missing',
  'evidence_stale',
  'obligation_unmet',
  'attestation_missing',
  'attestation_expired',
] as const;
export const AUDIT_RUN_STATUSES = ['running', 'completed', 'failed', 'attested'] as const;
export const AUDIT_SCHEDULE_STATUSES = ['active', 'paused', 'deleted'] as const;

claimIdPrefix('aes', 'svc.audit_engine.schedule');
claimIdPrefix('aer', 'svc.audit_engine.run');
claimIdPrefix('aef', 'svc.audit_engine.finding');
claimIdPrefix('aso', 'svc.audit_engine.sign_off');
claimIdPrefix('aat', 'svc.audit_engine.attestation');

/** `object` of a record of the rail; every one's description names the run as its example. */
function auditObject<const T extends string>(name: T) {
  return objectField(name, 'svc.audit_engine.run');
}

/** `createdAt` of the records that are never changed (findings, sign-offs, attestations). */
const createdAt = () => created().createdAt;

const ScheduleId = prefixedId('aes', exampleId('aes'));
const RunId = prefixedId('aer', exampleId('aer'));
const FindingId = prefixedId('aef', exampleId('aef'));
const SignOffId = prefixedId('aso', exampleId('aso'));
const AttestationId = prefixedId('aat', exampleId('aat'));

// The examples follow one run of the EU AI Act and the records made about it.
const EXAMPLE_RUN = exampleId('aer');
const EXAMPLE_FINDINGS_HASH = 'sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';
const EXAMPLE_SIGN_OFF_HASH = 'sha256:fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9';
const EXAMPLE_ATTESTATION_STATEMENT = 'The audit ran as recorded and its findings are complete.';

const FrameworkRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/)
  .meta({ description: 'Id of a framework dictionary the tenant has activated (`eu-ai-act`).', examples: ['eu-ai-act'] });
const Scope = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9:._-]+$/)
  .meta({
    description:
      'What the audit covers: `all`, `family:<control id prefix>` (`family:AIA-RMS`), `clause:<clause ref>` (`clause:art-9`, sub-clauses included) or `system:<AI system id>` (every control, only that system’s evidence counts). A bare value is read as a control family, then as a clause.',
    examples: ['all'],
  });
const Severity = z.enum(AUDIT_SEVERITIES).meta({ description: 'Severity of a finding: `critical`, `high`, `medium` or `low`.' });
const Check = z.enum(AUDIT_CHECKS).meta({
  description:
    'The failed check: `evidence_missing` (no evidence cites the control), `evidence_stale` (no evidence collected within the freshness window of its kind, or all of it expired), `obligation_unmet` (an obligation linked to the control applies and the control has no current evidence), `attestation_missing` or `attestation_expired` (a control that needs a current attestation has none, or only one older than the validity window).',
});
const FindingStatus = z.enum(['open', 'resolved']);
const RunStatus = z.enum(AUDIT_RUN_STATUSES).meta({
  description:
    '`running` until the evaluation ends; `completed` with its findings; `failed` when it could not be evaluated; `attested` once closed by an attestation.',
});

// ---------------------------------------------------------------- schedules

/** The schedule the examples create: the whole framework, Mondays at 06:00 UTC. */
const SCHEDULE_INPUT = { framework: 'eu-ai-act', scope: 'all', cron: '0 6 * * 1' };

export const AuditSchedule = z
  .object({
    object: auditObject('svc.audit_engine.schedule'),
    id: ScheduleId,
    framework: z.string().meta({ description: 'Framework each run audits.' }),
    scope: z.string().meta({ description: 'Scope of each run.' }),
    cron: z.string().meta({ description: 'Five-field cron expression, evaluated in UTC.' }),
    status: z.enum(AUDIT_SCHEDULE_STATUSES).meta({
      description: '`active` (its due times start runs), `paused` (nothing runs until resumed) or `deleted`.',
    }),
    nextRunAt: Timestamp.nullable().meta({ description: 'The next due time; null when paused or deleted.' }),
    lastRunId: RunId.nullable().meta({ description: 'The run its last due time started; null before the first.' }),
    lastError: z
      .string()
      .nullable()
      .meta({ description: 'Why the last due time started no run (the framework is no longer activated, ...); null otherwise.' }),
    ...stamps('When the record last changed.', CREATED_BY_KEY_DESCRIPTION),
  })
  .meta({
    id: 'AuditSchedule',
    examples: [
      {
        object: 'svc.audit_engine.schedule',
        id: exampleId('aes'),
        ...SCHEDULE_INPUT,
        status: 'active',
        nextRunAt: '2026-11-30T06:00:00.000Z',
        lastRunId: null,
        lastError: null,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateAuditScheduleBody = z
  .strictObject({
    framework: FrameworkRef,
    scope: Scope,
    cron: z.string().min(9).max(100).meta({
      description:
        'Five-field cron expression in UTC (`0 6 * * 1`: Mondays at 06:00), or `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`; no seconds field.',
    }),
  })
  .meta({ id: 'CreateAuditScheduleRequest', examples: [SCHEDULE_INPUT] });

// ---------------------------------------------------------------- runs

const Counts = z
  .object({
    controls: z.int().min(0).meta({ description: 'Controls evaluated.' }),
    controlsPassed: z.int().min(0).meta({ description: 'Controls without any finding.' }),
    findings: z.int().min(0).meta({ description: 'Findings written.' }),
    bySeverity: z
      .object({
        critical: z.int().min(0).meta({ description: 'Critical findings.' }),
        high: z.int().min(0).meta({ description: 'High findings.' }),
        medium: z.int().min(0).meta({ description: 'Medium findings.' }),
        low: z.int().min(0).meta({ description: 'Low findings.' }),
      })
      .meta({ description: 'Findings per severity.' }),
    byCheck: z.record(z.string(), z.int().min(0)).meta({ description: 'Findings per failed check.' }),
  })
  .meta({ description: 'What the evaluation found.' });

export const AuditRun = z
  .object({
    object: auditObject('svc.audit_engine.run'),
    id: RunId,
    framework: z.string().meta({ description: 'Framework audited.' }),
    dictionaryVersion: z
      .string()
      .meta({ description: 'The version of the framework’s dictionary the tenant activated, pinned by the run (`eu-ai-act@1.0.0`).' }),
    scope: z.string().meta({ description: 'Scope of the run, as asked.' }),
    scheduleId: ScheduleId.nullable().meta({ description: 'The schedule whose due time started the run; null for a run asked directly.' }),
    status: RunStatus,
    bundleHash: z.string().meta({ description: 'The tenant’s pinned taxonomy bundle hash when the run started.' }),
    bundleVersions: z.record(z.string(), z.string()).meta({ description: 'Versions of the dictionaries in that bundle.' }),
    ruleSet: z
      .object({
        id: z.string().meta({ description: 'Id of the evaluation rules.' }),
        version: z.string().meta({ description: 'Their version.' }),
        hash: z.string().meta({ description: 'SHA-256 of their canonical JSON.' }),
      })
      .meta({ description: 'The evaluation rules the run used (freshness windows, severities, costs).' }),
    asOf: Timestamp.meta({ description: 'The instant the run evaluates at: records made later are not counted.' }),
    controls: z.int().min(0).meta({ description: 'Controls in scope.' }),
    estimatedCompletion: Timestamp.meta({ description: 'When the run was expected to complete, from the controls in scope.' }),
    counts: Counts.nullable().meta({ description: 'What the evaluation found; null while running.' }),
    findingsHash: z
      .string()
      .nullable()
      .meta({ description: 'SHA-256 of the canonical list of findings (control, check, severity, facts); null while running.' }),
    signOffId: SignOffId.nullable().meta({ description: 'The sign-off of the run; null before it.' }),
    attestationId: AttestationId.nullable().meta({ description: 'The attestation that closed the run; null before it.' }),
    error: z.string().nullable().meta({ description: 'Why a failed run failed.' }),
    ...created(CREATED_BY_KEY_DESCRIPTION),
    completedAt: Timestamp.nullable().meta({ description: 'When the evaluation ended.' }),
    attestedAt: Timestamp.nullable().meta({ description: 'When the run was attested.' }),
    updatedAt: Timestamp.meta({ description: 'When the record last changed.' }),
  })
  .meta({
    id: 'AuditRun',
    examples: [
      {
        object: 'svc.audit_engine.run',
        id: EXAMPLE_RUN,
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        scope: 'family:AIA-RMS',
        scheduleId: null,
        status: 'completed',
        bundleHash: 'sha256:5d41402abc4b2a76b9719d911017c592a3f1c2e4b5d6978812345678901234ab',
        bundleVersions: { 'eu-ai-act': '1.0.0' },
        ruleSet: {
          id: 'audit-engine-rules',
          version: '1.0.0',
          hash: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        },
        asOf: EXAMPLE_AT,
        controls: 5,
        estimatedCompletion: '2026-11-22T09:30:15.000Z',
        counts: {
          controls: 5,
          controlsPassed: 3,
          findings: 3,
          bySeverity: { critical: 0, high: 2, medium: 1, low: 0 },
          byCheck: { evidence_missing: 1, obligation_unmet: 1, attestation_missing: 1 },
        },
        findingsHash: EXAMPLE_FINDINGS_HASH,
        signOffId: null,
        attestationId: null,
        error: null,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
        completedAt: '2026-11-22T09:30:02.000Z',
        attestedAt: null,
        updatedAt: '2026-11-22T09:30:02.000Z',
      },
    ],
  });

export const StartAuditRunBody = z
  .strictObject({ framework: FrameworkRef, scope: Scope })
  .meta({ id: 'StartAuditRunRequest', examples: [{ framework: 'eu-ai-act', scope: 'all' }] });

export const AuditRunAccepted = z
  .object({
    runId: RunId.meta({ description: 'Id of the run; poll `GET /v1/audit-engine/runs/{runId}`.' }),
    status: z.literal('running').meta({ description: 'Always `running`: the evaluation happens in the background.' }),
    estimatedCompletion: Timestamp.meta({
      description:
        'When the run should complete: the controls in scope times the per-control cost of the rules, after a fixed start-up cost.',
    }),
    framework: z.string().meta({ description: 'Framework audited.' }),
    dictionaryVersion: z.string().meta({ description: 'The dictionary version the run pinned.' }),
    scope: z.string().meta({ description: 'Scope of the run.' }),
    controls: z.int().min(0).meta({ description: 'Controls in scope.' }),
  })
  .meta({
    id: 'AuditRunAccepted',
    examples: [
      {
        runId: EXAMPLE_RUN,
        status: 'running',
        estimatedCompletion: '2026-11-22T09:30:15.000Z',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        scope: 'all',
        controls: 71,
      },
    ],
  });

// ---------------------------------------------------------------- findings

export const AuditFinding = z
  .object({
    object: auditObject('svc.audit_engine.finding'),
    id: FindingId,
    runId: RunId,
    controlId: z.string().meta({ description: 'The control that failed the check.' }),
    check: Check,
    severity: Severity,
    status: FindingStatus.meta({ description: '`open` until resolved.' }),
    title: z.string().meta({ description: 'What failed, in one sentence.' }),
    facts: z.record(z.string(), z.unknown()).meta({
      description:
        'The facts that led to the finding: the control’s tier (why this severity), its linked obligations with their applicable-from dates, the evidence and attestations considered with their dates and the windows applied.',
    }),
    resolution: z.string().nullable().meta({ description: 'How it was resolved; null while open.' }),
    resolvedBy: z.string().nullable().meta({ description: 'Key that resolved it.' }),
    resolvedAt: Timestamp.nullable().meta({ description: 'When it was resolved.' }),
    createdAt: createdAt(),
  })
  .meta({
    id: 'AuditFinding',
    examples: [
      {
        object: 'svc.audit_engine.finding',
        id: exampleId('aef'),
        runId: EXAMPLE_RUN,
        controlId: 'AIA-RMS-02',
        check: 'evidence_missing',
        severity: 'high',
        status: 'open',
        title: 'No evidence supports control AIA-RMS-02 (Risk identification and evaluation).',
        facts: {
          tier: 'high_risk',
          obligations: [{ id: 'AIA-OBL-019', clauseRef: 'art-9-2', applicableFrom: '2026-08-02T00:00:00.000Z', inForce: true }],
          evidence: [],
        },
        resolution: null,
        resolvedBy: null,
        resolvedAt: null,
        createdAt: '2026-11-22T09:30:02.000Z',
      },
    ],
  });

export const ResolveAuditFindingBody = z
  .strictObject({
    findingId: FindingId,
    resolution: z.string().min(3).max(2000).meta({ description: 'How the finding was resolved; kept in the audit trail.' }),
  })
  .meta({
    id: 'ResolveAuditFindingRequest',
    examples: [{ findingId: exampleId('aef'), resolution: 'Risk identification workshop minutes uploaded as evidence.' }],
  });

// ---------------------------------------------------------------- replay, sign-off, attestation

export const ReplayAuditRunBody = z
  .strictObject({ runId: RunId })
  .meta({ id: 'ReplayAuditRunRequest', examples: [{ runId: EXAMPLE_RUN }] });

const FindingKey = z
  .object({
    controlId: z.string().meta({ description: 'The control.' }),
    check: Check,
    stored: Severity.nullable().meta({ description: 'Severity in the run’s stored findings; null when it has no such finding.' }),
    replayed: Severity.nullable().meta({ description: 'Severity the replay gives; null when the replay has no such finding.' }),
  })
  .meta({ description: 'A finding present on one side only, or with another severity or other facts.' });

export const AuditRunReplay = z
  .object({
    object: auditObject('svc.audit_engine.replay'),
    runId: RunId,
    matched: z.boolean().meta({ description: 'True when the replayed findings hash equals the stored one.' }),
    storedHash: z.string().meta({ description: 'The run’s findings hash.' }),
    replayedHash: z.string().meta({ description: 'The hash of the findings the replay computed.' }),
    ruleSet: z
      .object({
        stored: z.string().meta({ description: '`<id>@<version>` of the rules the run used.' }),
        current: z.string().meta({ description: '`<id>@<version>` of the rules the replay used.' }),
        sameHash: z.boolean().meta({ description: 'True when the rules are byte-for-byte the same.' }),
      })
      .meta({ description: 'The rules on both sides.' }),
    dictionaryVersion: z.string().meta({ description: 'The pinned dictionary version whose controls and obligations were replayed.' }),
    asOf: Timestamp.meta({ description: 'The instant evaluated, as stored.' }),
    findings: z.int().min(0).meta({ description: 'Findings the replay computed.' }),
    divergences: z.array(FindingKey).meta({ description: 'Where the replay differs from the stored findings; empty when matched.' }),
  })
  .meta({
    id: 'AuditRunReplay',
    examples: [
      {
        object: 'svc.audit_engine.replay',
        runId: EXAMPLE_RUN,
        matched: true,
        storedHash: EXAMPLE_FINDINGS_HASH,
        replayedHash: EXAMPLE_FINDINGS_HASH,
        ruleSet: { stored: 'audit-engine-rules@1.0.0', current: 'audit-engine-rules@1.0.0', sameHash: true },
        dictionaryVersion: 'eu-ai-act@1.0.0',
        asOf: EXAMPLE_AT,
        findings: 3,
        divergences: [],
      },
    ],
  });

const Person = z.strictObject({
  name: z.string().trim().min(1).max(200).meta({ description: 'Full name of the accountable owner.' }),
  email: z.email().max(254).meta({ description: 'Email address of the accountable owner.' }),
  title: z.string().trim().min(1).max(200).optional().meta({ description: 'Job title of the accountable owner.' }),
});

/** The sign-off the examples ask for, by the example run's accountable owner. */
const SIGN_OFF_INPUT = {
  runId: EXAMPLE_RUN,
  owner: { name: 'Dana Keller', email: 'dana.keller@example.com', title: 'Head of AI Governance' },
  statement: 'I reviewed the findings of this audit and accept the remediation plan.',
};

export const SignOffAuditRunBody = z
  .strictObject({
    runId: RunId,
    owner: Person.optional().meta({
      description:
        "The accountable owner who signs off, who is always the person the API key acts for (`personId` of the key): the sign-off records that person's name and email from the stakeholders rail, and `title` from here. Absent means that person; an owner whose email is not that person's is 403 `forbidden`. The calling key must have the owner or admin role.",
    }),
    statement: z
      .string()
      .trim()
      .min(10)
      .max(4000)
      .meta({ description: 'What the owner states about the run and its findings; kept verbatim.' }),
  })
  .meta({ id: 'SignOffAuditRunRequest', examples: [SIGN_OFF_INPUT] });

export const AuditSignOff = z
  .object({
    object: auditObject('svc.audit_engine.sign_off'),
    id: SignOffId,
    runId: RunId,
    owner: z
      .object({
        name: z.string().meta({ description: 'Full name.' }),
        email: z.string().meta({ description: 'Email address.' }),
        title: z.string().nullable().meta({ description: 'Job title; null when not given.' }),
      })
      .meta({ description: 'The accountable owner.' }),
    statement: z.string().meta({ description: 'The owner’s statement.' }),
    signedBy: z.string().meta({ description: 'Id of the key (role owner or admin) that signed off.' }),
    signerRole: z.string().meta({ description: 'Role of that key.' }),
    findingsHash: z.string().meta({ description: 'The run’s findings hash the sign-off covers.' }),
    hash: z.string().meta({ description: 'SHA-256 of the canonical sign-off (run, findings hash, owner, statement, signer, time).' }),
    createdAt: createdAt(),
  })
  .meta({
    id: 'AuditSignOff',
    examples: [
      {
        object: 'svc.audit_engine.sign_off',
        id: exampleId('aso'),
        ...SIGN_OFF_INPUT,
        signedBy: EXAMPLE_KEY,
        signerRole: 'owner',
        findingsHash: EXAMPLE_FINDINGS_HASH,
        hash: EXAMPLE_SIGN_OFF_HASH,
        createdAt: '2026-11-22T10:00:00.000Z',
      },
    ],
  });

export const AttestAuditRunBody = z
  .strictObject({
    runId: RunId,
    statement: z.string().trim().min(10).max(4000).meta({ description: 'What the attester states; kept verbatim.' }),
  })
  .meta({ id: 'AttestAuditRunRequest', examples: [{ runId: EXAMPLE_RUN, statement: EXAMPLE_ATTESTATION_STATEMENT }] });

export const AuditAttestation = z
  .object({
    object: auditObject('svc.audit_engine.attestation'),
    id: AttestationId,
    runId: RunId,
    signOffId: SignOffId,
    statement: z.string().meta({ description: 'The attester’s statement.' }),
    attestedBy: z.string().meta({ description: 'Id of the key that attested.' }),
    runHash: z.string().meta({ description: 'SHA-256 of the canonical run record (pinned content, inputs, counts) as attested.' }),
    findingsHash: z.string().meta({ description: 'SHA-256 of the canonical list of the run’s findings with their ids and states.' }),
    signOffHash: z.string().meta({ description: 'The sign-off’s hash.' }),
    hash: z.string().meta({ description: 'SHA-256 over the three hashes, the statement, the attester and the time.' }),
    createdAt: createdAt(),
  })
  .meta({
    id: 'AuditAttestation',
    examples: [
      {
        object: 'svc.audit_engine.attestation',
        id: exampleId('aat'),
        runId: EXAMPLE_RUN,
        signOffId: exampleId('aso'),
        statement: EXAMPLE_ATTESTATION_STATEMENT,
        attestedBy: EXAMPLE_KEY,
        runHash: 'sha256:3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
        findingsHash: EXAMPLE_FINDINGS_HASH,
        signOffHash: EXAMPLE_SIGN_OFF_HASH,
        hash: 'sha256:b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
        createdAt: '2026-11-22T10:05:00.000Z',
      },
    ],
  });

// ---------------------------------------------------------------- router

const rail = 'audit_engine' as const;
const read = meta({ auth: 'tenant', rail, permission: 'audit_engine:read', mutating: false });
const write = (audit: string) => meta({ auth: 'tenant', rail, permission: 'audit_engine:write', mutating: true, audit });
/** Metadata of a change that succeeds only in some states of its record (409 otherwise). */
const stateful = (audit: string, permission = 'audit_engine:write') => ({
  ...meta({ auth: 'tenant', rail, permission, mutating: true, audit }),
  stateful: true as const,
});
const IdOf = <T extends z.ZodType>(id: T) => z.object({ id });
const NoBody = z.strictObject({}).optional().meta({ description: 'No fields.' });

export const auditEngineRouter = railRouter('audit_engine', {
  schedules: {
    list: {
      method: 'GET',
      path: '/schedules',
      query: PaginationQuery.extend({
        status: z.enum(AUDIT_SCHEDULE_STATUSES).optional().meta({ description: 'Only schedules in this status.' }),
        framework: z.string().max(64).optional().meta({ description: 'Only schedules of this framework.' }),
      }),
      responses: { 200: listOf(AuditSchedule) },
      summary: 'List audit schedules',
      description:
        'The tenant’s audit schedules, newest first, cursor-paginated, filtered by status and framework. Needs `audit_engine:read`.',
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/schedules',
      body: CreateAuditScheduleBody,
      responses: { 201: AuditSchedule },
      summary: 'Schedule recurring audits',
      description:
        'Creates an active schedule: each due time of the cron expression (UTC) starts one run of the framework over the scope, once whatever the number of worker processes. The framework must be a known dictionary and the scope must select controls of its latest version (422 otherwise); the framework must be activated when a due time comes, else that due time records `lastError` and starts nothing. Needs `audit_engine:write`; audited and emitted as `audit.schedule_created`.',
      metadata: write('audit.schedule_created'),
    },
    get: {
      method: 'GET',
      path: '/schedules/:id',
      pathParams: IdOf(ScheduleId),
      responses: { 200: AuditSchedule },
      summary: 'Get an audit schedule',
      description: 'One schedule of the tenant; another tenant’s is 404.',
      metadata: read,
    },
    pause: {
      method: 'POST',
      path: '/schedules/:id/pause',
      pathParams: IdOf(ScheduleId),
      body: NoBody,
      responses: { 200: AuditSchedule },
      summary: 'Pause an audit schedule',
      description:
        'Stops an active schedule: its due times start nothing until it is resumed. From another state: 409. Audited as `audit.schedule_paused`.',
      metadata: stateful('audit.schedule_paused'),
    },
    resume: {
      method: 'POST',
      path: '/schedules/:id/resume',
      pathParams: IdOf(ScheduleId),
      body: NoBody,
      responses: { 200: AuditSchedule },
      summary: 'Resume an audit schedule',
      description:
        'Restarts a paused schedule from its next due time after now. From another state: 409. Audited as `audit.schedule_resumed`.',
      metadata: stateful('audit.schedule_resumed'),
    },
    delete: {
      method: 'DELETE',
      path: '/schedules/:id',
      pathParams: IdOf(ScheduleId),
      body: NoBody,
      responses: { 200: AuditSchedule },
      summary: 'Delete an audit schedule',
      description:
        'Marks the schedule `deleted`: no further run starts; the record and its runs stay for the audit trail. Deleting twice: 409. Audited as `audit.schedule_deleted`.',
      metadata: stateful('audit.schedule_deleted'),
    },
  },
  run: {
    method: 'POST',
    path: '/run',
    body: StartAuditRunBody,
    responses: { 202: AuditRunAccepted },
    summary: 'Start an audit run',
    description:
      'Starts a run of an activated framework over a scope and answers 202 at once: the run pins the framework version the tenant activated, the tenant’s taxonomy bundle hash and the rule set, and a background job evaluates every control in scope (evidence present, evidence fresh, linked obligations met, attestations current), writes one finding per failed check and completes the run. A framework the tenant has not activated, an unknown framework or a scope that selects no control: 422 naming the field. Needs `audit_engine:write`; audited and emitted as `audit.run_started`, then `audit.run_completed` and one `audit.finding_opened` per finding.',
    metadata: stateful('audit.run_started'),
  },
  runs: {
    list: {
      method: 'GET',
      path: '/runs',
      query: PaginationQuery.extend({
        status: RunStatus.optional().meta({ description: 'Only runs in this status.' }),
        framework: z.string().max(64).optional().meta({ description: 'Only runs of this framework.' }),
        scheduleId: ScheduleId.optional().meta({ description: 'Only runs started by this schedule.' }),
      }),
      responses: { 200: listOf(AuditRun) },
      summary: 'List audit runs',
      description:
        'The tenant’s runs, newest first, cursor-paginated, filtered by status, framework and schedule. Needs `audit_engine:read`.',
      metadata: read,
    },
    get: {
      method: 'GET',
      path: '/runs/:id',
      pathParams: IdOf(RunId),
      responses: { 200: AuditRun },
      summary: 'Get an audit run',
      description: 'One run with its status, counts and pinned content; another tenant’s is 404.',
      metadata: read,
    },
  },
  findings: {
    list: {
      method: 'GET',
      path: '/findings',
      query: PaginationQuery.extend({
        runId: RunId.optional().meta({ description: 'Only findings of this run.' }),
        severity: Severity.optional().meta({ description: 'Only findings of this severity.' }),
        status: FindingStatus.optional().meta({ description: 'Only findings in this status.' }),
        controlId: z.string().max(64).optional().meta({ description: 'Only findings of this control.' }),
        check: Check.optional().meta({ description: 'Only findings of this check.' }),
      }),
      responses: { 200: listOf(AuditFinding) },
      summary: 'List audit findings',
      description:
        'Findings of the tenant’s runs, newest first, cursor-paginated, filtered by run, severity, status, control and check (combined with AND). Needs `audit_engine:read`.',
      metadata: read,
    },
    get: {
      method: 'GET',
      path: '/findings/:id',
      pathParams: IdOf(FindingId),
      responses: { 200: AuditFinding },
      summary: 'Get an audit finding',
      description: 'One finding with the facts that led to it; another tenant’s is 404.',
      metadata: read,
    },
    resolve: {
      method: 'POST',
      path: '/findings/resolve',
      body: ResolveAuditFindingBody,
      responses: { 200: AuditFinding },
      summary: 'Resolve an audit finding',
      description:
        'Marks an open finding `resolved` with how it was resolved. A resolved finding: 409. The run’s findings hash does not change (it covers what the run found). Needs `audit_engine:write`; audited and emitted as `audit.finding_resolved`.',
      metadata: stateful('audit.finding_resolved'),
    },
  },
  replay: {
    method: 'POST',
    path: '/replay',
    body: ReplayAuditRunBody,
    responses: { 200: AuditRunReplay },
    summary: 'Replay an audit run',
    description:
      'Re-evaluates the inputs a completed (or attested) run stored (its controls, obligations, evidence and attestations with their dates, and its as-of instant) with the current rules, and compares the hash of the findings with the stored one, listing every divergence. A running or failed run: 409. Needs `audit_engine:read`; audited as `audit.run_replayed`.',
    metadata: stateful('audit.run_replayed', 'audit_engine:read'),
  },
  signOff: {
    method: 'POST',
    path: '/sign-off',
    body: SignOffAuditRunBody,
    responses: { 201: AuditSignOff },
    summary: 'Sign off an audit run',
    description:
      'The accountable owner signs off a completed run: only keys with the owner or admin role may (`audit_engine:approve`), and only a key bound to a person (`personId`): the owner is that person, never whoever the body names (a service key, or an `owner` with another email: 403 `forbidden`). A run that is not completed, or already signed off: 409. Audited and emitted as `audit.signed_off`, with the person as the actor and the key in `data.credentialId`.',
    metadata: stateful('audit.signed_off', 'audit_engine:approve'),
  },
  attest: {
    method: 'POST',
    path: '/attest',
    body: AttestAuditRunBody,
    responses: { 201: AuditAttestation },
    summary: 'Attest an audit run',
    description:
      'Closes a signed-off run (status `attested`) with an attestation record holding the hashes of the run, of its findings and of the sign-off. Before the sign-off, or a run already attested: 409. Needs `audit_engine:attest`; audited and emitted as `audit.attested`.',
    metadata: stateful('audit.attested', 'audit_engine:attest'),
  },
});

/** Event types the audit_engine rail emits. */
export const auditEngineEvents: ReturnType<typeof eventType>[] = [
  eventType('audit.schedule_created', 'An audit schedule was created.', AuditSchedule),
  eventType('audit.schedule_paused', 'An audit schedule was paused.', AuditSchedule),
  eventType('audit.schedule_resumed', 'An audit schedule was resumed.', AuditSchedule),
  eventType('audit.schedule_deleted', 'An audit schedule was deleted.', AuditSchedule),
  eventType('audit.run_started', 'An audit-engine run started; its evaluation runs in the background.', AuditRun),
  eventType('audit.run_completed', 'An audit-engine run finished evaluating (completed or failed); the data carries its counts.', AuditRun),
  eventType('audit.run_replayed', 'A run’s stored inputs were re-evaluated; the data says whether the findings matched.', AuditRunReplay),
  eventType('audit.finding_opened', 'A run found a control failing a check.', AuditFinding),
  eventType('audit.finding_resolved', 'An audit finding was resolved.', AuditFinding),
  eventType('audit.signed_off', 'An accountable owner signed off an audit run.', AuditSignOff),
  eventType('audit.attested', 'An audit run was attested and closed.', AuditAttestation),
];
