import { z } from 'zod';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { ASSESSMENT_TYPE_IDS } from '../../shared/assessment-types.ts';
import { ControlRef, listOf, PaginationQuery } from '../../shared/common.ts';
import { ASSESSMENT_STATUSES, OBLIGATION_STATUSES, STATUS, SUBJECT_TYPES, SYSTEM_ID, SystemId } from './fields.ts';
import {
  Assessment,
  Attestation,
  CreateAssessmentBody,
  CreateAttestationBody,
  CreateEvidenceBody,
  Evidence,
  Obligation,
  TenantFramework,
} from './schemas.ts';

/** The compliance rail's resources and hand-declared routes, its router and the event types it emits. */

const read = meta({ auth: 'tenant', rail: 'compliance', permission: 'compliance:read', mutating: false });

/** Activating the EU AI Act brings the controls and obligations the examples cite. */
const activateEuAiAct = { method: 'POST', path: '/v1/frameworks/eu-ai-act/activate', body: {} } as const;

export const assessments = resource({
  rail: 'compliance',
  path: 'assessments',
  name: 'assessment',
  label: { one: 'assessment', many: 'assessments' },
  idPrefix: 'asm',
  record: Assessment,
  statusField: 'status',
  filters: {
    status: z.enum(ASSESSMENT_STATUSES).optional().meta({ description: STATUS }),
    type: z.enum(ASSESSMENT_TYPE_IDS).optional().meta({ description: 'Only assessments of this kind.' }),
    systemId: SystemId.optional().meta({ description: SYSTEM_ID }),
  },
  create: {
    body: CreateAssessmentBody,
    summary: 'Create an assessment',
    description: 'Creates a `draft` assessment with completion 0 and the stages of its type.',
  },
  transitions: {
    start: {
      from: ['draft'],
      to: 'in_progress',
      summary: 'Start an assessment',
      description: 'Marks the first stage in progress.',
    },
    complete: {
      from: ['draft', 'in_progress'],
      to: 'completed',
      summary: 'Complete an assessment',
      description: 'Marks every stage completed and the completion 1.',
    },
  },
});

export const obligations = resource({
  rail: 'compliance',
  path: 'obligations',
  name: 'obligation',
  label: { one: 'obligation', many: 'obligations' },
  idPrefix: 'obl',
  record: Obligation,
  filters: {
    framework: z.string().max(64).optional().meta({ description: 'Id of the framework dictionary (`eu-ai-act`).' }),
    status: z.enum(OBLIGATION_STATUSES).optional().meta({ description: STATUS }),
    actor: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'Only obligations whose duty-bearer (provider, deployer, ...) is this value.' }),
  },
  setup: [activateEuAiAct],
});

export const evidence = resource({
  rail: 'compliance',
  path: 'evidence',
  name: 'evidence',
  label: { one: 'evidence record', many: 'evidence' },
  idPrefix: 'evd',
  record: Evidence,
  filters: { controlId: ControlRef.optional(), systemId: SystemId.optional() },
  filterFields: { controlId: 'controlIds[]' },
  create: {
    body: CreateEvidenceBody,
    action: 'evidence.uploaded',
    summary: 'Record evidence',
    description: 'Records artefact metadata and links it to controls of activated frameworks.',
    eventSummary: 'Evidence was recorded.',
  },
  setup: [activateEuAiAct],
});

export const attestations = resource({
  rail: 'compliance',
  path: 'attestations',
  name: 'attestation',
  label: { one: 'attestation', many: 'attestations' },
  idPrefix: 'att',
  record: Attestation,
  filters: {
    subjectType: z.enum(SUBJECT_TYPES).optional(),
    subjectId: z.string().max(64).optional(),
  },
  filterFields: { subjectType: 'subject.type', subjectId: 'subject.id' },
  create: {
    body: CreateAttestationBody,
    event: 'audit.attestation_created',
    grant: 'attest',
    summary: 'Attest a control or an assessment',
    eventSummary: 'Someone attested a control or an assessment.',
  },
  setup: [activateEuAiAct],
});

export const complianceRouter = railRouter('compliance', {
  frameworks: {
    list: {
      method: 'GET',
      path: '/frameworks',
      query: PaginationQuery.extend({
        activated: z
          .enum(['true', 'false'])
          .optional()
          .meta({ description: '`true`: only frameworks the tenant has activated; `false`: only the others; absent: all.' }),
      }),
      responses: { 200: listOf(TenantFramework) },
      summary: "List frameworks with the tenant's activation state",
      description:
        'Returns every framework dictionary with whether the calling tenant has activated it, the activated `<dictionary>@<version>` and when. `activated=true` or `false` keeps only activated or not activated frameworks. Needs `compliance:read`.',
      metadata: read,
    },
  },
  assessments: assessments.routes,
  obligations: obligations.routes,
  evidence: evidence.routes,
  attestations: attestations.routes,
});

/** Event types the compliance rail emits. */
export const complianceEvents = [
  ...assessments.events,
  eventType('assessment.updated', 'An assessment changed.', Assessment),
  ...evidence.events,
  eventType('evidence.updated', 'Evidence changed.', Evidence),
  ...attestations.events,
];
