import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { ControlId, DUE_DATE_EXAMPLE, EvidenceId, FindingId, NOTE_EXAMPLE, PLAN_EXAMPLE } from './fields.ts';
import {
  CreateSelfAuditEvidenceLinkBody,
  CreateSelfAuditFindingBody,
  CreateSelfAuditRemediationBody,
  SELF_AUDIT_FINDING_STATUSES,
  SELF_AUDIT_FRESHNESS_DAYS,
  SELF_AUDIT_POSTURE_WEIGHTS,
  SELF_AUDIT_REMEDIATION_STATUSES,
  SELF_AUDIT_SEVERITIES,
  SELF_AUDIT_SEVERITY_PENALTY,
  SelfAuditDrift,
  SelfAuditDriftQuery,
  SelfAuditEvidenceLink,
  SelfAuditFinding,
  SelfAuditPosture,
  SelfAuditRemediation,
} from './schemas.ts';

/** The self audit rail's resources and hand-declared routes, its router and the event types it emits. */

// Calls the resources' `setup` makes before their create examples are valid.
const activateEuAiAct = { method: 'POST', path: '/v1/frameworks/eu-ai-act/activate', body: {} } as const;
const raiseFinding = {
  method: 'POST',
  path: '/v1/self-audit/findings',
  body: { title: 'Risk register not reviewed', severity: 'high', controlId: 'AIA-RMS-01' },
  as: 'finding',
} as const;

// ---------------------------------------------------------------- findings

export const selfAuditFindings = resource({
  rail: 'self_audit',
  path: 'findings',
  name: 'finding',
  label: { one: 'finding', many: 'findings' },
  idPrefix: 'fnd',
  record: SelfAuditFinding,
  filters: {
    status: z.enum(SELF_AUDIT_FINDING_STATUSES).optional().meta({ description: '`open` or `closed`.' }),
    severity: z.enum(SELF_AUDIT_SEVERITIES).optional().meta({ description: '`low`, `medium`, `high` or `critical`.' }),
    controlId: ControlId.optional().meta({ description: 'A control id (`AIA-RMS-01`).' }),
  },
  create: {
    body: CreateSelfAuditFindingBody,
    summary: 'Raise a finding',
    description:
      'Records a finding of the tenant against its own controls, `open` until its remediation is verified. A `controlId` that is not a control of an activated framework is 422 naming `controlId`.',
    eventSummary: 'A self-audit finding was raised.',
  },
  setup: [activateEuAiAct],
});

// ---------------------------------------------------------------- remediations

export const selfAuditRemediations = resource({
  rail: 'self_audit',
  path: 'remediations',
  name: 'remediation',
  label: { one: 'remediation', many: 'remediations' },
  idPrefix: 'rem',
  record: SelfAuditRemediation,
  statusField: 'status',
  filters: {
    status: z.enum(SELF_AUDIT_REMEDIATION_STATUSES).optional().meta({ description: '`open`, `in_progress`, `resolved` or `verified`.' }),
    findingId: FindingId.optional(),
  },
  setup: [activateEuAiAct, raiseFinding],
  create: {
    body: CreateSelfAuditRemediationBody,
    fixture: { findingId: '{{finding.id}}', plan: PLAN_EXAMPLE, dueDate: DUE_DATE_EXAMPLE },
    summary: 'Plan the remediation of a finding',
    description:
      'Creates the `open` remediation of an open finding. A finding has at most one remediation: 409 `conflict` naming it when one exists (reopen that one instead), and 409 when the finding is closed.',
    eventSummary: 'The remediation of a self-audit finding was planned.',
  },
  transitions: {
    start: { from: ['open'], to: 'in_progress', summary: 'Start a remediation', description: 'Work on the fix has begun.' },
    resolve: {
      from: ['in_progress'],
      to: 'resolved',
      summary: 'Resolve a remediation',
      description: 'The fix is in place and awaits verification; sets `resolvedAt`.',
    },
    verify: {
      from: ['resolved'],
      to: 'verified',
      grant: 'attest',
      summary: 'Verify a remediation',
      description:
        'Confirms that the fix works, keeping who fixes apart from who verifies (needs the attest permission, which editors lack). Needs at least one evidence link (POST /v1/self-audit/evidence with this `remediationId`) to an evidence record that has not expired: 409 `conflict` naming `evidence` otherwise. Sets `verifiedAt` and closes the finding (`finding.closed`).',
    },
    reopen: {
      from: ['resolved', 'verified'],
      to: 'open',
      summary: 'Reopen a remediation',
      description:
        'The fix did not hold: back to `open`, clearing `resolvedAt` and `verifiedAt`; a closed finding is reopened with it (`finding.reopened`).',
    },
  },
});

// ---------------------------------------------------------------- evidence links

export const selfAuditEvidenceLinks = resource({
  rail: 'self_audit',
  path: 'evidence',
  name: 'evidence_link',
  label: { one: 'evidence link', many: 'evidence links' },
  idPrefix: 'sev',
  record: SelfAuditEvidenceLink,
  filters: {
    evidenceId: EvidenceId.optional(),
    targetId: z
      .string()
      .regex(/^(fnd|rem)_[0-9A-HJKMNP-TV-Z]{26}$/)
      .optional()
      .meta({ description: 'A finding (`fnd_`) or remediation (`rem_`) id.' }),
    findingId: FindingId.optional().meta({ description: 'Links to this finding or to its remediation.' }),
  },
  setup: [
    activateEuAiAct,
    raiseFinding,
    {
      method: 'POST',
      path: '/v1/compliance/evidence',
      body: { title: 'Review minutes', kind: 'policy', controlIds: ['AIA-RMS-01'] },
      as: 'evidence',
    },
  ],
  create: {
    body: CreateSelfAuditEvidenceLinkBody,
    fixture: { evidenceId: '{{evidence.id}}', findingId: '{{finding.id}}', note: NOTE_EXAMPLE },
    summary: 'Link evidence to a finding or a remediation',
    description:
      'Links an existing compliance evidence record to a finding or to a remediation as proof (exactly one of `findingId` and `remediationId`). Unknown evidence, finding or remediation ids are 422 naming the field; the same evidence linked twice to the same target is 409 `conflict`. A remediation needs a link to unexpired evidence before it can be verified.',
    eventSummary: 'Evidence was linked to a self-audit finding or remediation.',
  },
});

// ---------------------------------------------------------------- router

const { read } = policyOf('self_audit');

export const selfAuditRouter = railRouter('self_audit', {
  posture: get('/posture', {}, SelfAuditPosture, read).doc(
    'Compute the self-audit posture',
    `Score 0 to 100 from three parts, each shown with its inputs: control coverage (${SELF_AUDIT_POSTURE_WEIGHTS.coverage} points times the share of the controls of the activated frameworks cited by any evidence), evidence freshness (${SELF_AUDIT_POSTURE_WEIGHTS.freshness} points times the share of that evidence not expired and collected within ${SELF_AUDIT_FRESHNESS_DAYS} days) and the penalty of open findings (${Object.entries(
      SELF_AUDIT_SEVERITY_PENALTY,
    )
      .map(([s, p]) => `${s} ${p}`)
      .join(
        ', ',
      )} points each). Computed from the tenant's activations, evidence and selfAuditFindings at request time; stores nothing. Needs \`self_audit:read\`.`,
  ),
  drift: get('/drift', { query: SelfAuditDriftQuery }, SelfAuditDrift, read).doc(
    'Compare the tenant with its profile baseline',
    `For each control of the profile's baseline: \`baseline-divergence\` when its framework is not activated or no evidence cites it, \`stale-evidence\` when all its evidence expired or was collected more than ${SELF_AUDIT_FRESHNESS_DAYS} days ago, \`open-finding\` when an open finding is raised against it. The profile is \`profile\` (422 when not one of the industries) or that of the tenant's onboarding kickoff. When neither exists (a new tenant) the answer is 200 with an empty baseline and no items: \`profile: null\`, \`profileSource: none\` and a \`note\` saying so. Computed at request time; stores nothing. Needs \`self_audit:read\`.`,
  ),
  findings: selfAuditFindings.routes,
  remediations: selfAuditRemediations.routes,
  evidence: selfAuditEvidenceLinks.routes,
});

/** Event types the self_audit rail emits. */
export const selfAuditEvents = [
  ...selfAuditFindings.events,
  ...selfAuditRemediations.events,
  ...selfAuditEvidenceLinks.events,
  eventType('finding.closed', 'A finding was closed: its remediation was verified.', SelfAuditFinding),
  eventType('finding.reopened', 'A closed finding was reopened with its remediation.', SelfAuditFinding),
];
