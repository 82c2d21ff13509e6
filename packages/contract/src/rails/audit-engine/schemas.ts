import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { CREATED_BY_KEY_DESCRIPTION, created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField, stamps } from '../../shared/records.ts';
import { Check, FindingId, FindingStatus, RunId, RunStatus, ScheduleId, Severity } from './fields.ts';

/** The audit engine rail's records, request bodies and their examples (index.ts describes the rail). */

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
        'The facts that led to the finding: the control’s tier (why this severity), its linked obligations with their applicable-from dates, the evidence and attestations considered with their dates and the windows applied; for `requirement_not_met`, the requirement status and the approved gap analysis that gave it (`assessment`: id, approvedAt; `source`: `gap-analysis:<id>`).',
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
