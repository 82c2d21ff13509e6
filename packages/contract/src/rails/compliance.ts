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
    object: z.literal('svc.compliance.framework').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: z.string().meta({ description: 'Id of the subject (a control id or an `asm_` assessment id).' }),
    title: z.string().meta({ description: 'Human-readable title, free text, shown in lists.' }),
    shortTitle: z.string().meta({ description: 'Short name for lists (`EU AI Act`).' }),
    latestVersion: z.string().meta({ description: 'Latest version of the dictionary.' }),
    activated: z.boolean().meta({ description: 'Whether the tenant has activated the framework.' }),
    dictionaryVersion: z.string().nullable().meta({ description: 'Activated `<dictionary>@<version>`; null when not active.' }),
    activatedAt: Timestamp.nullable().meta({
      description: 'When the tenant activated the framework (ISO 8601 UTC); null when not active.',
    }),
    obligations: z
      .object({
        total: z.int().meta({ description: 'Obligations derived for the tenant from the framework.' }),
        open: z.int().meta({ description: 'Of those, the ones not yet met.' }),
      })
      .meta({ description: "Counts of the tenant's obligations under this framework; zero when not activated." }),
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
  key: z.string().meta({ description: 'Stable key of the stage, from the assessment type.' }),
  title: z.string().meta({ description: 'Human-readable title, free text, shown in lists.' }),
  status: z
    .enum(['pending', 'in_progress', 'completed'])
    .meta({ description: 'Current state of the record; changes only through the transition routes.' }),
});

export const Assessment = z
  .object({
    object: z.literal('svc.compliance.assessment').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: prefixedId('asm', 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    type: z.enum(ASSESSMENT_TYPE_IDS).meta({ description: 'Kind of assessment (`fria`, `dpia`, ...); decides its stages and questions.' }),
    title: z.string().nullable().meta({ description: 'Human-readable title, free text, shown in lists.' }),
    systemId: z.string().meta({ description: 'Identifier of the AI system the record concerns, as the tenant names it.' }),
    jurisdiction: z.string().meta({ description: '`<region>/<country>` whose law applies, lowercase (`eu/de`).' }),
    status: z
      .enum(['draft', 'in_progress', 'completed'])
      .meta({ description: 'Current state of the record; changes only through the transition routes.' }),
    completion: z.number().min(0).max(1).meta({ description: 'Share of completed stages, 0 to 1.' }),
    stages: z.array(AssessmentStage).meta({ description: 'Stages of the assessment, in order; their keys come from the assessment type.' }),
    createdBy: z.string().meta({ description: 'Id of the API key (or operator credential) whose request created the record.' }),
    createdAt: Timestamp.meta({ description: 'When the record was created: ISO 8601 UTC timestamp with milliseconds.' }),
    updatedAt: Timestamp.meta({
      description: 'When the record last changed: ISO 8601 UTC timestamp with milliseconds; equals `createdAt` until the first change.',
    }),
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
    type: z.enum(ASSESSMENT_TYPE_IDS).meta({ description: 'Kind of assessment (`fria`, `dpia`, ...); decides its stages and questions.' }),
    systemId: SystemId.meta({ description: 'Identifier of the AI system the record concerns, as the tenant names it.' }),
    jurisdiction: Jurisdiction.meta({ description: '`<region>/<country>` whose law applies, lowercase (`eu/de`).' }),
    title: z.string().min(1).max(200).optional().meta({ description: 'Human-readable title, free text, shown in lists.' }),
  })
  .meta({
    id: 'CreateAssessmentRequest',
    examples: [{ type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' }],
  });

export const Obligation = z
  .object({
    object: z.literal('svc.compliance.obligation').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: prefixedId('obl', 'obl_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    framework: z.string().meta({ description: 'Id of the framework dictionary (`eu-ai-act`).' }),
    dictionaryVersion: z.string().meta({ description: '`<dictionary>@<version>` the obligation was derived from.' }),
    sourceRef: z.string().meta({ description: 'Obligation id in the dictionary.' }),
    title: z.string().meta({ description: 'Human-readable title, free text, shown in lists.' }),
    description: z.string().meta({ description: 'What the obligation requires, in plain language.' }),
    clauseRef: z.string().meta({ description: 'Reference of the clause in the framework (`art-9`), as in the clauses list.' }),
    actor: z.string().meta({ description: 'Who bears the duty: provider, deployer, controller, processor, ...' }),
    status: z
      .enum(['open', 'in_progress', 'met', 'not_applicable'])
      .meta({ description: 'Current state of the record; changes only through the transition routes.' }),
    dueDate: z.string().meta({ description: 'Date from which the obligation applies (ISO 8601 date).' }),
    createdAt: Timestamp.meta({ description: 'When the record was created: ISO 8601 UTC timestamp with milliseconds.' }),
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
    object: z.literal('svc.compliance.evidence').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: prefixedId('evd', 'evd_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    title: z.string().meta({ description: 'Human-readable title, free text, shown in lists.' }),
    kind: z.enum(EVIDENCE_KINDS).meta({ description: 'Kind of artefact; the enum lists the accepted kinds.' }),
    description: z.string().nullable().meta({ description: 'What the artefact shows; null when none was given.' }),
    uri: z
      .string()
      .nullable()
      .meta({ description: 'Where the artefact is stored (`s3://`, `https://`); the service stores the reference, not the file.' }),
    sha256: z.string().nullable().meta({ description: 'Lowercase hex SHA-256 of the artefact.' }),
    mediaType: z.string().nullable().meta({ description: 'IANA media type of the artefact (`application/pdf`).' }),
    sizeBytes: z.int().nullable().meta({ description: 'Size of the artefact in bytes.' }),
    systemId: z.string().nullable().meta({ description: 'Identifier of the AI system the record concerns, as the tenant names it.' }),
    controlIds: z
      .array(z.string())
      .meta({ description: 'Ids of the controls this record supports; each belongs to a framework the tenant has activated.' }),
    collectedAt: Timestamp.meta({ description: 'When the artefact was collected (ISO 8601 UTC); not in the future.' }),
    expiresAt: Timestamp.nullable().meta({
      description: 'When it stops being valid: ISO 8601 UTC timestamp; null or absent for no expiry.',
    }),
    createdBy: z.string().meta({ description: 'Id of the API key (or operator credential) whose request created the record.' }),
    createdAt: Timestamp.meta({ description: 'When the record was created: ISO 8601 UTC timestamp with milliseconds.' }),
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
    title: z.string().min(1).max(200).meta({ description: 'Human-readable title, free text, shown in lists.' }),
    kind: z.enum(EVIDENCE_KINDS).meta({ description: 'Kind of artefact; the enum lists the accepted kinds.' }),
    description: z.string().max(4000).optional().meta({ description: 'What the artefact shows, up to 4,000 characters.' }),
    uri: z
      .url({ protocol: /^https?$|^s3$/ })
      .max(2048)
      .optional()
      .meta({ description: 'Where the artefact is stored (`s3://`, `https://`); the service stores the reference, not the file.' }),
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional()
      .meta({ description: 'Lowercase hex SHA-256 of the artefact.' }),
    mediaType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .max(127)
      .optional()
      .meta({ description: 'IANA media type of the artefact (`application/pdf`).' }),
    sizeBytes: z.int().min(0).max(10_000_000_000).optional().meta({ description: 'Size of the artefact in bytes.' }),
    systemId: SystemId.optional().meta({ description: 'Identifier of the AI system the record concerns, as the tenant names it.' }),
    controlIds: z
      .array(ControlRef)
      .min(1)
      .max(100)
      .meta({ description: 'Controls this artefact supports; each must belong to a framework the tenant has activated.' }),
    collectedAt: Timestamp.optional().meta({ description: 'When the artefact was collected (ISO 8601 UTC); not in the future.' }),
    expiresAt: Timestamp.optional().meta({
      description: 'When it stops being valid: ISO 8601 UTC timestamp; null or absent for no expiry.',
    }),
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
  name: z.string().min(1).max(200).meta({ description: 'Full name of the attester.' }),
  email: z.email().max(254).meta({ description: 'Email address of the person.' }),
  title: z.string().min(1).max(200).optional().meta({ description: 'Human-readable title, free text, shown in lists.' }),
});

export const Attestation = z
  .object({
    object: z.literal('svc.compliance.attestation').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: prefixedId('att', 'att_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    subject: z
      .object({
        type: z.enum(['control', 'assessment']).meta({ description: 'What is attested: a control or an assessment.' }),
        id: z.string().meta({ description: 'Control id, or `asm_` id of the assessment.' }),
      })
      .meta({ description: 'What the record is about.' }),
    statement: z.string().meta({ description: 'What the attester states, in their own words; kept verbatim.' }),
    attester: z
      .object({
        name: z.string().meta({ description: 'Full name of the attester.' }),
        email: z.string().meta({ description: 'Email address of the attester.' }),
        title: z.string().nullable().meta({ description: 'Job title of the attester; null when not given.' }),
      })
      .meta({ description: 'Person who makes the statement.' }),
    attestedAt: Timestamp.meta({ description: 'When the statement was made (ISO 8601 UTC).' }),
    createdBy: z.string().meta({ description: 'Id of the API key (or operator credential) whose request created the record.' }),
    createdAt: Timestamp.meta({ description: 'When the record was created: ISO 8601 UTC timestamp with milliseconds.' }),
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
    subject: z
      .strictObject({
        type: z.enum(['control', 'assessment']).meta({ description: 'What is attested: a control or an assessment.' }),
        id: z.string().min(1).max(64).meta({ description: 'Id of the subject (a control id or an `asm_` assessment id).' }),
      })
      .meta({ description: 'What the statement is about; the control must belong to an activated framework.' }),
    statement: z.string().min(10).max(4000).meta({ description: 'What the attester states, in their own words; kept verbatim.' }),
    attester: Attester.meta({ description: 'Person who makes the statement.' }),
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
    status: z
      .enum(['draft', 'in_progress', 'completed'])
      .optional()
      .meta({ description: 'Current state of the record; changes only through the transition routes.' }),
    type: z.enum(ASSESSMENT_TYPE_IDS).optional().meta({ description: 'Only assessments of this kind.' }),
    systemId: SystemId.optional().meta({ description: 'Identifier of the AI system the record concerns, as the tenant names it.' }),
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
    status: z
      .enum(['open', 'in_progress', 'met', 'not_applicable'])
      .optional()
      .meta({ description: 'Current state of the record; changes only through the transition routes.' }),
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
