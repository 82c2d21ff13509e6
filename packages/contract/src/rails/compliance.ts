import { z } from 'zod';
import { ASSESSMENT_TYPE_IDS } from '../assessment-types.ts';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { railRouter, resource } from '../resource.ts';
import { eventType } from '../webhook-events.ts';

const SystemId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Identifier of the AI system the record concerns.', examples: ['sys_credit_scoring_v2'] });

const Jurisdiction = z
  .string()
  .regex(/^[a-z]{2,12}\/[a-z]{2}$/i)
  .meta({ description: '`<region>/<country>`.', examples: ['eu/de'] });

const ControlRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);

export const TenantFramework = z
  .object({
    object: z.literal('svc.compliance.framework'),
    id: z.string(),
    title: z.string(),
    shortTitle: z.string(),
    latestVersion: z.string(),
    activated: z.boolean(),
    dictionaryVersion: z.string().nullable().meta({ description: 'Activated `<dictionary>@<version>`; null when not active.' }),
    activatedAt: Timestamp.nullable(),
    obligations: z.object({ total: z.int(), open: z.int() }),
  })
  .meta({
    id: 'TenantFramework',
    examples: [
      {
        object: 'svc.compliance.framework',
        id: 'gdpr',
        title: 'Regulation (EU) 2016/679 (General Data Protection Regulation)',
        shortTitle: 'GDPR',
        latestVersion: '1.0.0',
        activated: true,
        dictionaryVersion: 'gdpr@1.0.0',
        activatedAt: '2026-11-22T09:30:00.000Z',
        obligations: { total: 88, open: 88 },
      },
    ],
  });

export const AssessmentStage = z.object({
  key: z.string(),
  title: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

export const Assessment = z
  .object({
    object: z.literal('svc.compliance.assessment'),
    id: prefixedId('asm', 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    type: z.enum(ASSESSMENT_TYPE_IDS),
    title: z.string().nullable(),
    systemId: z.string(),
    jurisdiction: z.string(),
    status: z.enum(['draft', 'in_progress', 'completed']),
    completion: z.number().min(0).max(1).meta({ description: 'Share of completed stages, 0 to 1.' }),
    stages: z.array(AssessmentStage),
    createdBy: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({
    id: 'Assessment',
    examples: [
      {
        object: 'svc.compliance.assessment',
        id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        type: 'fria',
        title: null,
        systemId: 'sys_credit_scoring_v2',
        jurisdiction: 'eu/de',
        status: 'draft',
        completion: 0,
        stages: [{ key: 'scoping', title: 'Scope and deployment context', status: 'pending' }],
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
        updatedAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateAssessmentBody = z
  .strictObject({
    type: z.enum(ASSESSMENT_TYPE_IDS),
    systemId: SystemId,
    jurisdiction: Jurisdiction,
    title: z.string().min(1).max(200).optional(),
  })
  .meta({
    id: 'CreateAssessmentRequest',
    examples: [{ type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' }],
  });

export const Obligation = z
  .object({
    object: z.literal('svc.compliance.obligation'),
    id: prefixedId('obl', 'obl_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    framework: z.string(),
    dictionaryVersion: z.string(),
    sourceRef: z.string().meta({ description: 'Obligation id in the dictionary.' }),
    title: z.string(),
    description: z.string(),
    clauseRef: z.string(),
    actor: z.string().meta({ description: 'Who bears the duty: provider, deployer, controller, processor, ...' }),
    status: z.enum(['open', 'in_progress', 'met', 'not_applicable']),
    dueDate: z.string().meta({ description: 'Date from which the obligation applies (ISO 8601 date).' }),
    createdAt: Timestamp,
  })
  .meta({
    id: 'Obligation',
    examples: [
      {
        object: 'svc.compliance.obligation',
        id: 'obl_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        sourceRef: 'AIA-OBL-001',
        title: 'Establish a risk-management system',
        description: 'Run a documented risk-management process across the lifecycle of the high-risk system.',
        clauseRef: 'art-9',
        actor: 'provider',
        status: 'open',
        dueDate: '2026-08-02',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const EVIDENCE_KINDS = [
  'document',
  'policy',
  'screenshot',
  'log',
  'configuration',
  'report',
  'certificate',
  'test-result',
  'other',
] as const;

export const Evidence = z
  .object({
    object: z.literal('svc.compliance.evidence'),
    id: prefixedId('evd', 'evd_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    title: z.string(),
    kind: z.enum(EVIDENCE_KINDS),
    description: z.string().nullable(),
    uri: z.string().nullable(),
    sha256: z.string().nullable(),
    mediaType: z.string().nullable(),
    sizeBytes: z.int().nullable(),
    systemId: z.string().nullable(),
    controlIds: z.array(z.string()),
    collectedAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    createdBy: z.string(),
    createdAt: Timestamp,
  })
  .meta({
    id: 'Evidence',
    examples: [
      {
        object: 'svc.compliance.evidence',
        id: 'evd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        title: 'Risk-management procedure v3',
        kind: 'policy',
        description: 'Approved procedure covering the lifecycle of high-risk systems.',
        uri: 'https://files.example.com/rm-procedure-v3.pdf',
        sha256: 'a3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456',
        mediaType: 'application/pdf',
        sizeBytes: 182044,
        systemId: 'sys_credit_scoring_v2',
        controlIds: ['AIA-RMS-01'],
        collectedAt: '2026-11-20T00:00:00.000Z',
        expiresAt: '2027-11-20T00:00:00.000Z',
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateEvidenceBody = z
  .strictObject({
    title: z.string().min(1).max(200),
    kind: z.enum(EVIDENCE_KINDS),
    description: z.string().max(4000).optional(),
    uri: z
      .url({ protocol: /^https?$|^s3$/ })
      .max(2048)
      .optional(),
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional()
      .meta({ description: 'Lowercase hex SHA-256 of the artefact.' }),
    mediaType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .max(127)
      .optional(),
    sizeBytes: z.int().min(0).max(10_000_000_000).optional(),
    systemId: SystemId.optional(),
    controlIds: z
      .array(ControlRef)
      .min(1)
      .max(100)
      .meta({ description: 'Controls this artefact supports; each must belong to a framework the tenant has activated.' }),
    collectedAt: Timestamp.optional(),
    expiresAt: Timestamp.optional(),
  })
  .refine((b) => !b.expiresAt || !b.collectedAt || b.expiresAt > b.collectedAt, {
    path: ['expiresAt'],
    message: 'expiresAt must be after collectedAt',
  })
  .meta({
    id: 'CreateEvidenceRequest',
    examples: [
      {
        title: 'Risk-management procedure v3',
        kind: 'policy',
        uri: 'https://files.example.com/rm-procedure-v3.pdf',
        sha256: 'a3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456',
        systemId: 'sys_credit_scoring_v2',
        controlIds: ['AIA-RMS-01'],
        expiresAt: '2027-11-20T00:00:00.000Z',
      },
    ],
  });

export const Attester = z.strictObject({
  name: z.string().min(1).max(200),
  email: z.email().max(254),
  title: z.string().min(1).max(200).optional(),
});

export const Attestation = z
  .object({
    object: z.literal('svc.compliance.attestation'),
    id: prefixedId('att', 'att_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    subject: z.object({ type: z.enum(['control', 'assessment']), id: z.string() }),
    statement: z.string(),
    attester: z.object({ name: z.string(), email: z.string(), title: z.string().nullable() }),
    attestedAt: Timestamp,
    createdBy: z.string(),
    createdAt: Timestamp,
  })
  .meta({
    id: 'Attestation',
    examples: [
      {
        object: 'svc.compliance.attestation',
        id: 'att_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        subject: { type: 'control', id: 'AIA-RMS-01' },
        statement: 'The risk-management system operated as documented for Q3 2026.',
        attester: { name: 'Dana Keller', email: 'dana.keller@example.com', title: 'Head of AI Governance' },
        attestedAt: '2026-11-22T09:30:00.000Z',
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateAttestationBody = z
  .strictObject({
    subject: z.strictObject({
      type: z.enum(['control', 'assessment']),
      id: z.string().min(1).max(64),
    }),
    statement: z.string().min(10).max(4000),
    attester: Attester,
    attestedAt: Timestamp.optional().meta({ description: 'When the statement was made; now when absent. Not in the future.' }),
  })
  .meta({
    id: 'CreateAttestationRequest',
    examples: [
      {
        subject: { type: 'control', id: 'AIA-RMS-01' },
        statement: 'The risk-management system operated as documented for Q3 2026.',
        attester: { name: 'Dana Keller', email: 'dana.keller@example.com', title: 'Head of AI Governance' },
      },
    ],
  });

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
    status: z.enum(['draft', 'in_progress', 'completed']).optional(),
    type: z.enum(ASSESSMENT_TYPE_IDS).optional(),
    systemId: SystemId.optional(),
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
    framework: z.string().max(64).optional(),
    status: z.enum(['open', 'in_progress', 'met', 'not_applicable']).optional(),
    actor: z.string().max(64).optional(),
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
    subjectType: z.enum(['control', 'assessment']).optional(),
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
      query: PaginationQuery.extend({ activated: z.enum(['true', 'false']).optional() }),
      responses: { 200: listOf(TenantFramework) },
      summary: "List frameworks with the tenant's activation state",
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
