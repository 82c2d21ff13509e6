import { z } from 'zod';
import { prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { IndustryId } from '../profiles/index.ts';
import { ControlId, DUE_DATE_EXAMPLE, EVIDENCE_ID, EvidenceId, FINDING_ID, FindingId, NOTE_EXAMPLE, PLAN_EXAMPLE } from './fields.ts';

/** The self audit rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a self-audit record; every description names `svc.self_audit.finding` as its example. */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.self_audit.finding');

/** Days within which evidence must have been collected to count as fresh in the posture and the drift. */
export const SELF_AUDIT_FRESHNESS_DAYS = 365;
/** Points of the posture score (0 to 100) given by control coverage and by evidence freshness. */
export const SELF_AUDIT_POSTURE_WEIGHTS = { coverage: 70, freshness: 30 } as const;
/** Points each open finding takes off the posture score, by severity. */
export const SELF_AUDIT_SEVERITY_PENALTY = { low: 2, medium: 5, high: 10, critical: 25 } as const;

export const SELF_AUDIT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const SELF_AUDIT_FINDING_STATUSES = ['open', 'closed'] as const;
export const SELF_AUDIT_REMEDIATION_STATUSES = ['open', 'in_progress', 'resolved', 'verified'] as const;

const SystemId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Identifier of the AI system the record concerns, as the tenant names it.', examples: ['sys_credit_scoring_v2'] });

const Severity = z.enum(SELF_AUDIT_SEVERITIES).meta({
  description: `How serious the finding is: \`low\`, \`medium\`, \`high\` or \`critical\`; an open finding takes ${Object.entries(
    SELF_AUDIT_SEVERITY_PENALTY,
  )
    .map(([s, p]) => `${p} (${s})`)
    .join(', ')} points off the posture score.`,
});

const REMEDIATION_ID = exampleId('rem');

/** What the example finding says, and what it is about. */
const FINDING_TEXT_EXAMPLE = {
  title: 'Risk register not reviewed this quarter',
  description: 'The AI risk register was last reviewed in May.',
  severity: 'high',
};
const FINDING_SUBJECT_EXAMPLE = { controlId: 'AIA-RMS-01', systemId: 'sys_credit_scoring_v2' };

// ---------------------------------------------------------------- findings

export const SelfAuditFinding = z
  .object({
    object: objectOf('svc.self_audit.finding'),
    id: FindingId,
    title: z.string().meta({ description: 'Short statement of what was found.' }),
    description: z.string().nullable().meta({ description: 'Details of the finding; null when not given.' }),
    severity: Severity,
    status: z.enum(SELF_AUDIT_FINDING_STATUSES).meta({
      description:
        '`open` until the remediation of the finding is verified, then `closed`; back to `open` when that remediation is reopened. Never set directly.',
    }),
    controlId: z.string().nullable().meta({ description: 'Control of an activated framework the finding is about; null when none.' }),
    systemId: z.string().nullable().meta({ description: 'AI system the finding concerns, as the tenant names it; null when none.' }),
    closedAt: Timestamp.nullable().meta({ description: 'When the remediation was verified and the finding closed; null while open.' }),
    ...stamps(),
  })
  .meta({
    id: 'SelfAuditFinding',
    examples: [
      {
        object: 'svc.self_audit.finding',
        id: FINDING_ID,
        ...FINDING_TEXT_EXAMPLE,
        status: 'open',
        ...FINDING_SUBJECT_EXAMPLE,
        closedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateSelfAuditFindingBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Short statement of what was found, up to 200 characters.' }),
    description: z.string().min(1).max(4000).optional().meta({ description: 'Details of the finding, up to 4,000 characters.' }),
    severity: Severity,
    controlId: ControlId.optional().meta({
      description: 'Control the finding is about; it must belong to a framework the tenant has activated (422 otherwise).',
    }),
    systemId: SystemId.optional(),
  })
  .meta({
    id: 'CreateSelfAuditFindingRequest',
    examples: [{ ...FINDING_TEXT_EXAMPLE, ...FINDING_SUBJECT_EXAMPLE }],
  });

// ---------------------------------------------------------------- remediations

export const SelfAuditRemediation = z
  .object({
    object: objectOf('svc.self_audit.remediation'),
    id: prefixedId('rem', REMEDIATION_ID),
    findingId: z.string().meta({ description: 'The finding (`fnd_`) this remediation fixes.' }),
    plan: z.string().meta({ description: 'What will be done to fix the finding.' }),
    ownerId: z
      .string()
      .nullable()
      .meta({ description: 'Person (`usr_` of the stakeholders rail) who owns the work; null when not given.' }),
    dueDate: Timestamp.nullable().meta({ description: 'When the work is due (ISO 8601 UTC); null when not given.' }),
    status: z.enum(SELF_AUDIT_REMEDIATION_STATUSES).meta({
      description:
        '`open` -> `in_progress` (start) -> `resolved` (resolve) -> `verified` (verify, closes the finding); `reopen` from `resolved` or `verified` back to `open` (reopens the finding). Changes only through the transition routes.',
    }),
    resolvedAt: Timestamp.nullable().meta({ description: 'When it was last resolved; null until then, and again after a reopen.' }),
    verifiedAt: Timestamp.nullable().meta({ description: 'When it was verified; null until then, and again after a reopen.' }),
    ...stamps(),
  })
  .meta({
    id: 'SelfAuditRemediation',
    examples: [
      {
        object: 'svc.self_audit.remediation',
        id: REMEDIATION_ID,
        findingId: FINDING_ID,
        plan: PLAN_EXAMPLE,
        ownerId: null,
        dueDate: DUE_DATE_EXAMPLE,
        status: 'open',
        resolvedAt: null,
        verifiedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateSelfAuditRemediationBody = z
  .strictObject({
    findingId: FindingId.meta({
      description: 'The open finding to remediate; 422 when the tenant has no such finding.',
    }),
    plan: z.string().min(1).max(4000).meta({ description: 'What will be done to fix the finding, up to 4,000 characters.' }),
    ownerId: UserId.optional().meta({
      description: 'Active person of the stakeholders rail who owns the work; 422 when unknown or deactivated.',
    }),
    dueDate: Timestamp.optional().meta({ description: 'When the work is due (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'CreateSelfAuditRemediationRequest',
    examples: [{ findingId: FINDING_ID, plan: PLAN_EXAMPLE, dueDate: DUE_DATE_EXAMPLE }],
  });

// ---------------------------------------------------------------- evidence links

export const SelfAuditEvidenceLink = z
  .object({
    object: objectOf('svc.self_audit.evidence_link'),
    id: prefixedId('sev', exampleId('sev')),
    evidenceId: z.string().meta({ description: 'The compliance evidence record (`evd_`) offered as proof.' }),
    targetType: z.enum(['finding', 'remediation']).meta({ description: 'What the evidence proves: a `finding` or a `remediation`.' }),
    targetId: z.string().meta({ description: 'Id of that finding (`fnd_`) or remediation (`rem_`).' }),
    findingId: z.string().meta({
      description: 'The finding concerned: the target itself, or the finding of the target remediation.',
    }),
    note: z.string().nullable().meta({ description: 'What the evidence shows about the target; null when not given.' }),
    ...created(),
  })
  .meta({
    id: 'SelfAuditEvidenceLink',
    examples: [
      {
        object: 'svc.self_audit.evidence_link',
        id: exampleId('sev'),
        evidenceId: EVIDENCE_ID,
        targetType: 'finding',
        targetId: FINDING_ID,
        findingId: FINDING_ID,
        note: NOTE_EXAMPLE,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateSelfAuditEvidenceLinkBody = z
  .strictObject({
    evidenceId: EvidenceId.meta({
      description: 'An evidence record of the tenant (POST /v1/compliance/evidence); 422 when unknown.',
    }),
    findingId: FindingId.optional().meta({ description: 'The finding the evidence proves; give this or `remediationId`, not both.' }),
    remediationId: prefixedId('rem', REMEDIATION_ID)
      .optional()
      .meta({ description: 'The remediation the evidence proves; give this or `findingId`, not both.' }),
    note: z.string().min(1).max(2000).optional().meta({ description: 'What the evidence shows, up to 2,000 characters.' }),
  })
  .superRefine((b, ctx) => {
    if ((b.findingId === undefined) === (b.remediationId === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [b.findingId === undefined ? 'findingId' : 'remediationId'],
        message: 'give exactly one of findingId and remediationId',
      });
    }
  })
  .meta({
    id: 'CreateSelfAuditEvidenceLinkRequest',
    examples: [{ evidenceId: EVIDENCE_ID, findingId: FINDING_ID, note: NOTE_EXAMPLE }],
  });

// ---------------------------------------------------------------- posture

const Counts = z
  .object({
    low: z.int().min(0).meta({ description: 'For low severity.' }),
    medium: z.int().min(0).meta({ description: 'For medium severity.' }),
    high: z.int().min(0).meta({ description: 'For high severity.' }),
    critical: z.int().min(0).meta({ description: 'For critical severity.' }),
  })
  .meta({ description: 'A count per severity.' });

export const SelfAuditPosture = z
  .object({
    object: objectOf('svc.self_audit.posture'),
    score: z.int().min(0).max(100).meta({
      description:
        'Posture, 0 to 100: `coverage.points + freshness.points - findings.penalty`, rounded to the nearest integer and kept within 0 to 100.',
    }),
    parts: z
      .object({
        coverage: z
          .object({
            weight: z.int().meta({ description: 'Points the part gives at full coverage.' }),
            controls: z
              .int()
              .min(0)
              .meta({ description: 'Controls of the frameworks the tenant has activated (at their activated version).' }),
            evidencedControls: z.int().min(0).meta({
              description: 'Of those, the controls cited by at least one evidence record of the tenant (expired or not).',
            }),
            ratio: z.number().min(0).max(1).meta({ description: '`evidencedControls / controls`, 0 to 1 (0 when no control).' }),
            points: z.number().min(0).meta({ description: '`weight * ratio`, to two decimals.' }),
          })
          .meta({ description: 'Control coverage: the share of activated controls that have evidence.' }),
        freshness: z
          .object({
            weight: z.int().meta({ description: 'Points the part gives when all that evidence is fresh.' }),
            windowDays: z.int().meta({ description: 'Evidence collected more than this many days ago is stale.' }),
            evidence: z.int().min(0).meta({ description: 'Evidence records of the tenant citing at least one activated control.' }),
            fresh: z.int().min(0).meta({ description: 'Of those, records not expired and collected within `windowDays`.' }),
            expired: z.int().min(0).meta({ description: 'Of those, records whose `expiresAt` has passed.' }),
            stale: z.int().min(0).meta({ description: 'Of those, unexpired records collected more than `windowDays` ago.' }),
            ratio: z.number().min(0).max(1).meta({ description: '`fresh / evidence`, 0 to 1 (0 when no evidence).' }),
            points: z.number().min(0).meta({ description: '`weight * ratio`, to two decimals.' }),
          })
          .meta({ description: 'Evidence freshness: the share of the evidence behind the coverage that is still valid and recent.' }),
        findings: z
          .object({
            weights: Counts.meta({ description: 'Points one open finding of each severity takes off.' }),
            open: Counts.meta({ description: 'Open findings of the tenant, per severity.' }),
            penalty: z.int().min(0).meta({ description: 'Sum over the open findings of their weights (not capped; the score is).' }),
          })
          .meta({ description: 'The penalty of open findings, weighted by severity; a finding stops counting when it closes.' }),
      })
      .meta({ description: 'The parts of the score, each with the counts it is computed from.' }),
    computedAt: Timestamp.meta({ description: 'When the posture was computed (ISO 8601 UTC); expiry and age are judged at this time.' }),
  })
  .meta({
    id: 'SelfAuditPosture',
    examples: [
      {
        object: 'svc.self_audit.posture',
        score: 40,
        parts: {
          coverage: { weight: 70, controls: 10, evidencedControls: 5, ratio: 0.5, points: 35 },
          freshness: { weight: 30, windowDays: 365, evidence: 4, fresh: 3, expired: 1, stale: 0, ratio: 0.75, points: 22.5 },
          findings: {
            weights: SELF_AUDIT_SEVERITY_PENALTY,
            open: { low: 1, medium: 1, high: 1, critical: 0 },
            penalty: 17,
          },
        },
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- drift

export const SelfAuditDriftItem = z
  .object({
    control: z.string().meta({ description: 'Baseline control of the profile (`AIA-CLS-02`).' }),
    framework: z.string().meta({ description: 'Framework dictionary the control belongs to (`eu-ai-act`).' }),
    type: z.enum(['baseline-divergence', 'stale-evidence', 'open-finding']).meta({
      description:
        '`baseline-divergence`: the tenant lacks the control (its framework is not activated, or no evidence cites it); `stale-evidence`: every evidence record citing it has expired or was collected more than the freshness window ago; `open-finding`: an open self-audit finding is raised against it.',
    }),
    reason: z
      .enum(['framework_not_activated', 'no_evidence', 'evidence_expired_or_stale', 'open_finding'])
      .meta({ description: 'Which of the cases of `type` applies.' }),
    expected: z.string().meta({ description: 'What the baseline expects, in words.' }),
    actual: z.string().meta({ description: "What the tenant's data shows, in words." }),
    priority: z.int().min(1).max(3).meta({ description: 'Priority of the control in the profile: 1 first, 3 last.' }),
    title: z.string().meta({ description: 'Title of the control in its dictionary.' }),
    evidenceIds: z.array(z.string()).meta({ description: 'Evidence records citing the control (the stale ones for `stale-evidence`).' }),
    findingIds: z.array(z.string()).meta({ description: 'Open findings against the control (for `open-finding`).' }),
  })
  .meta({ description: 'One divergence of the tenant from its profile baseline.' });

export const SelfAuditDrift = z
  .object({
    object: objectOf('svc.self_audit.drift'),
    profile: IndustryId.nullable().meta({
      description: 'Industry profile whose baseline was compared; null when there is none to compare against (`profileSource: none`).',
    }),
    profileSource: z.enum(['query', 'onboarding', 'none']).meta({
      description:
        '`query` when given as `profile`; `onboarding` when read from the tenant’s onboarding kickoff; `none` when neither exists (a new tenant): the baseline is empty and there are no items, never a 422.',
    }),
    note: z.string().nullable().meta({
      description: 'Why the answer is empty when `profileSource` is `none`, and how to get a comparison; null otherwise.',
    }),
    baselineControls: z.int().min(0).meta({ description: 'Controls of the profile baseline.' }),
    inLine: z.int().min(0).meta({ description: 'Baseline controls with no divergence at all.' }),
    freshnessDays: z.int().meta({ description: 'Evidence collected more than this many days ago is stale.' }),
    data: z.array(SelfAuditDriftItem).meta({ description: 'The divergences, by baseline priority, then control id, then type.' }),
    computedAt: Timestamp.meta({ description: 'When the drift was computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'SelfAuditDrift',
    examples: [
      {
        object: 'svc.self_audit.drift',
        profile: 'education',
        profileSource: 'query',
        note: null,
        baselineControls: 6,
        inLine: 5,
        freshnessDays: 365,
        data: [
          {
            control: 'AIA-CLS-02',
            framework: 'eu-ai-act',
            type: 'baseline-divergence',
            reason: 'framework_not_activated',
            expected: 'eu-ai-act activated and AIA-CLS-02 evidenced',
            actual: 'eu-ai-act is not activated',
            priority: 1,
            title: 'High-risk classification assessment',
            evidenceIds: [],
            findingIds: [],
          },
        ],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

export const SelfAuditDriftQuery = z.object({
  profile: IndustryId.optional().meta({
    description:
      'Industry profile whose baseline to compare against (`banking`, `education`, ...); when absent, the profile of the tenant’s onboarding kickoff (the one in progress, else the latest).',
  }),
});
