import { z } from 'zod';
import { ASSESSMENT_TYPE_IDS } from '../../shared/assessment-types.ts';
import { ControlRef, prefixedId, Timestamp } from '../../shared/common.ts';
import {
  CREATED_AT_DESCRIPTION,
  created,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
} from '../../shared/records.ts';
import { ASSESSMENT_STATUSES, OBLIGATION_STATUSES, STATUS, SUBJECT_TYPES, SYSTEM_EXAMPLE, SYSTEM_ID, SystemId } from './fields.ts';

/** The compliance rail's records, request bodies and their examples (index.ts describes the rail). */

/**
 * One rule for the service and the document: the pattern spells out both cases (a JSON Schema
 * pattern carries no `i` flag), and the service stores the value lower case.
 */
const Jurisdiction = z
  .string()
  .regex(/^[A-Za-z]{2,12}\/[A-Za-z]{2}$/)
  .meta({ description: '`<region>/<country>`.', examples: ['eu/de'] });

/** The compliance records' `object` field: its description names the assessment as the example. */
const objectOf = <T extends string>(name: T) => objectField(name, 'svc.compliance.assessment');

/** What the fields of the compliance records mean, said alike in the records, their requests and their filters. */
const TITLE = 'Human-readable title, free text, shown in lists.';
const JURISDICTION = '`<region>/<country>` whose law applies, lowercase (`eu/de`).';
const ASSESSMENT_TYPE = 'Kind of assessment (`fria`, `dpia`, ...); decides its stages and questions.';
const EVIDENCE_KIND = 'Kind of artefact; the enum lists the accepted kinds.';
const URI = 'Where the artefact is stored (`s3://`, `https://`); the service stores the reference, not the file.';
const SHA256 = 'Lowercase hex SHA-256 of the artefact.';
const MEDIA_TYPE = 'IANA media type of the artefact (`application/pdf`).';
const SIZE_BYTES = 'Size of the artefact in bytes.';
const COLLECTED_AT = 'When the artefact was collected (ISO 8601 UTC); not in the future.';
const EXPIRES_AT = 'When it stops being valid: ISO 8601 UTC timestamp; null or absent for no expiry.';
const SUBJECT_TYPE = 'What is attested: a control or an assessment.';
const STATEMENT = 'What the attester states, in their own words; kept verbatim.';
const ATTESTER = 'Person who makes the statement.';

export const TenantFramework = z
  .object({
    object: objectOf('svc.compliance.framework'),
    id: z.string().meta({ description: 'Id of the subject (a control id or an `asm_` assessment id).' }),
    title: z.string().meta({ description: TITLE }),
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
        activatedAt: EXAMPLE_AT,
        obligations: { total: 88, open: 88 },
      },
    ],
  });

export const AssessmentStage = z.object({
  key: z
    .string()
    .meta({ description: 'Stable key of the stage, from the recipe of the assessment type (a control category in a gap analysis).' }),
  title: z.string().meta({ description: TITLE }),
  citation: z.string().nullable().meta({ description: 'The provision the stage covers (`Art. 27(1)(a)`); null in a gap analysis.' }),
  status: z.enum(['pending', 'in_progress', 'completed']).meta({
    description: 'Follows from the answers: `pending` (nothing answered), `in_progress`, `completed` (every required question answered).',
  }),
  questions: z.int().min(0).meta({ description: 'Questions of the stage.' }),
  required: z.int().min(0).meta({ description: 'Required questions of the stage, given the answers so far.' }),
  answered: z.int().min(0).meta({ description: 'Required questions of the stage that are answered.' }),
  completion: z.number().min(0).max(1).meta({ description: '`answered` / `required` (1 when nothing is required).' }),
});

export const Assessment = z
  .object({
    object: objectOf('svc.compliance.assessment'),
    id: prefixedId('asm', exampleId('asm')),
    type: z.enum(ASSESSMENT_TYPE_IDS).meta({ description: ASSESSMENT_TYPE }),
    title: z.string().nullable().meta({ description: TITLE }),
    systemId: z.string().meta({ description: SYSTEM_ID }),
    jurisdiction: z.string().meta({ description: JURISDICTION }),
    status: z.enum(ASSESSMENT_STATUSES).meta({ description: STATUS }),
    completion: z.number().min(0).max(1).meta({ description: 'Share of the required questions answered, 0 to 1.' }),
    stages: z
      .array(AssessmentStage)
      .meta({ description: 'Stages of the assessment, in order; their keys come from the recipe of its type.' }),
    framework: z
      .string()
      .nullable()
      .meta({ description: 'The dictionary the questions come from (`eu-ai-act`; the assessed framework of a gap analysis).' }),
    dictionaryVersion: z.string().nullable().meta({
      description: 'The `<dictionary>@<version>` pinned at creation: the tenant’s activated version, else the latest.',
    }),
    recipeVersion: z
      .string()
      .nullable()
      .meta({ description: 'Version of the recipe its questions were drawn from (`assessments/recipes@1.0.0`).' }),
    revision: z.int().min(1).meta({ description: '1, or one more than the approved assessment it revises.' }),
    previousId: z
      .string()
      .nullable()
      .meta({ description: 'The approved assessment this revision starts from; null for a first revision.' }),
    submittedAt: Timestamp.nullable().meta({ description: 'When it was last submitted for review.' }),
    submittedBy: z.string().nullable().meta({ description: 'Who submitted it (person or API key).' }),
    approvedAt: Timestamp.nullable().meta({ description: 'When it was approved; null until then.' }),
    approvedBy: z.string().nullable().meta({ description: 'The person who approved it (never one who answered).' }),
    answersHash: z.string().nullable().meta({
      description: 'SHA-256 (hex) of the frozen answers and their evidence (id and SHA-256), set on approval.',
    }),
    ...stamps(),
  })
  .meta({
    id: 'Assessment',
    examples: [
      {
        object: 'svc.compliance.assessment',
        id: exampleId('asm'),
        type: 'fria',
        title: null,
        systemId: SYSTEM_EXAMPLE,
        jurisdiction: 'eu/de',
        status: 'draft',
        completion: 0,
        stages: [
          {
            key: 'process',
            title: 'Processes in which the system is used',
            citation: 'Art. 27(1)(a)',
            status: 'pending',
            questions: 3,
            required: 3,
            answered: 0,
            completion: 0,
          },
        ],
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        recipeVersion: 'assessments/recipes@1.0.0',
        revision: 1,
        previousId: null,
        submittedAt: null,
        submittedBy: null,
        approvedAt: null,
        approvedBy: null,
        answersHash: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateAssessmentBody = z
  .strictObject({
    type: z.enum(ASSESSMENT_TYPE_IDS).meta({ description: ASSESSMENT_TYPE }),
    systemId: SystemId.meta({ description: SYSTEM_ID }),
    jurisdiction: Jurisdiction.meta({
      description:
        '`<region>/<country>` whose law applies (`eu/de`): 2 to 12 letters, a slash, 2 letters. Case is ignored (`EU/DE` is accepted) and the value is stored lower case.',
    }),
    title: z.string().min(1).max(200).optional().meta({ description: TITLE }),
    framework: z.string().min(2).max(64).optional().meta({
      description:
        'The framework a `gap-analysis` assesses (required for that type, refused for the others): one the tenant has activated.',
    }),
  })
  .meta({
    id: 'CreateAssessmentRequest',
    examples: [{ type: 'fria', systemId: SYSTEM_EXAMPLE, jurisdiction: 'eu/de' }],
  });

export const Obligation = z
  .object({
    object: objectOf('svc.compliance.obligation'),
    id: prefixedId('obl', exampleId('obl')),
    framework: z.string().meta({ description: 'Id of the framework dictionary (`eu-ai-act`).' }),
    dictionaryVersion: z.string().meta({ description: '`<dictionary>@<version>` the obligation was derived from.' }),
    sourceRef: z.string().meta({ description: 'Obligation id in the dictionary.' }),
    title: z.string().meta({ description: TITLE }),
    description: z.string().meta({ description: 'What the obligation requires, in plain language.' }),
    clauseRef: z.string().meta({ description: 'Reference of the clause in the framework (`art-9`), as in the clauses list.' }),
    actor: z.string().meta({ description: 'Who bears the duty: provider, deployer, controller, processor, ...' }),
    status: z.enum(OBLIGATION_STATUSES).meta({ description: STATUS }),
    dueDate: z.string().meta({ description: 'Date from which the obligation applies (ISO 8601 date).' }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
  })
  .meta({
    id: 'Obligation',
    examples: [
      {
        object: 'svc.compliance.obligation',
        id: exampleId('obl'),
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        sourceRef: 'AIA-OBL-001',
        title: 'Establish a risk-management system',
        description: 'Run a documented risk-management process across the lifecycle of the high-risk system.',
        clauseRef: 'art-9',
        actor: 'provider',
        status: 'open',
        dueDate: '2026-08-02',
        createdAt: EXAMPLE_AT,
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
    object: objectOf('svc.compliance.evidence'),
    id: prefixedId('evd', exampleId('evd')),
    title: z.string().meta({ description: TITLE }),
    kind: z.enum(EVIDENCE_KINDS).meta({ description: EVIDENCE_KIND }),
    description: z.string().nullable().meta({ description: 'What the artefact shows; null when none was given.' }),
    uri: z.string().nullable().meta({ description: URI }),
    sha256: z.string().nullable().meta({ description: SHA256 }),
    mediaType: z.string().nullable().meta({ description: MEDIA_TYPE }),
    sizeBytes: z.int().nullable().meta({ description: SIZE_BYTES }),
    systemId: z.string().nullable().meta({ description: SYSTEM_ID }),
    controlIds: z
      .array(z.string())
      .meta({ description: 'Ids of the controls this record supports; each belongs to a framework the tenant has activated.' }),
    collectedAt: Timestamp.meta({ description: COLLECTED_AT }),
    expiresAt: Timestamp.nullable().meta({
      description: EXPIRES_AT,
    }),
    ...created(),
  })
  .meta({
    id: 'Evidence',
    examples: [
      {
        object: 'svc.compliance.evidence',
        id: exampleId('evd'),
        title: 'Risk-management procedure v3',
        kind: 'policy',
        description: 'Approved procedure covering the lifecycle of high-risk systems.',
        uri: 'https://files.example.com/rm-procedure-v3.pdf',
        sha256: 'a3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456',
        mediaType: 'application/pdf',
        sizeBytes: 182044,
        systemId: SYSTEM_EXAMPLE,
        controlIds: ['AIA-RMS-01'],
        collectedAt: '2026-11-20T00:00:00.000Z',
        expiresAt: '2027-11-20T00:00:00.000Z',
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateEvidenceBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: TITLE }),
    kind: z.enum(EVIDENCE_KINDS).meta({ description: EVIDENCE_KIND }),
    description: z.string().max(4000).optional().meta({ description: 'What the artefact shows, up to 4,000 characters.' }),
    uri: z
      .url({ protocol: /^https?$|^s3$/ })
      .max(2048)
      .optional()
      .meta({ description: URI }),
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional()
      .meta({ description: SHA256 }),
    mediaType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .max(127)
      .optional()
      .meta({ description: MEDIA_TYPE }),
    sizeBytes: z.int().min(0).max(10_000_000_000).optional().meta({ description: SIZE_BYTES }),
    systemId: SystemId.optional().meta({ description: SYSTEM_ID }),
    controlIds: z
      .array(ControlRef)
      .min(1)
      .max(100)
      .meta({ description: 'Controls this artefact supports; each must belong to a framework the tenant has activated.' }),
    collectedAt: Timestamp.optional().meta({ description: COLLECTED_AT }),
    expiresAt: Timestamp.optional().meta({
      description: EXPIRES_AT,
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
        systemId: SYSTEM_EXAMPLE,
        controlIds: ['AIA-RMS-01'],
        expiresAt: '2027-11-20T00:00:00.000Z',
      },
    ],
  });

export const Attester = z.strictObject({
  name: z.string().min(1).max(200).meta({ description: 'Full name of the attester.' }),
  email: z.email().max(254).meta({ description: 'Email address of the person.' }),
  title: z.string().min(1).max(200).optional().meta({ description: TITLE }),
});

/** An attestation as requested; the record adds its id, the instant and the stamps. */
const ATTESTATION_REQUEST_EXAMPLE = {
  subject: { type: 'control', id: 'AIA-RMS-01' },
  statement: 'The risk-management system operated as documented for Q3 2026.',
  attester: { name: 'Dana Keller', email: 'dana.keller@example.com', title: 'Head of AI Governance' },
};

export const Attestation = z
  .object({
    object: objectOf('svc.compliance.attestation'),
    id: prefixedId('att', exampleId('att')),
    subject: z
      .object({
        type: z.enum(SUBJECT_TYPES).meta({ description: SUBJECT_TYPE }),
        id: z.string().meta({ description: 'Control id, or `asm_` id of the assessment.' }),
      })
      .meta({ description: 'What the record is about.' }),
    statement: z.string().meta({ description: STATEMENT }),
    attester: z
      .object({
        name: z.string().meta({ description: 'Full name of the attester.' }),
        email: z.string().meta({ description: 'Email address of the attester.' }),
        title: z.string().nullable().meta({ description: 'Job title of the attester; null when not given.' }),
      })
      .meta({ description: ATTESTER }),
    attestedAt: Timestamp.meta({ description: 'When the statement was made (ISO 8601 UTC).' }),
    ...created(),
  })
  .meta({
    id: 'Attestation',
    examples: [
      {
        object: 'svc.compliance.attestation',
        id: exampleId('att'),
        ...ATTESTATION_REQUEST_EXAMPLE,
        attestedAt: EXAMPLE_AT,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateAttestationBody = z
  .strictObject({
    subject: z
      .strictObject({
        type: z.enum(SUBJECT_TYPES).meta({ description: SUBJECT_TYPE }),
        id: z.string().min(1).max(64).meta({ description: 'Id of the subject (a control id or an `asm_` assessment id).' }),
      })
      .meta({ description: 'What the statement is about; the control must belong to an activated framework.' }),
    statement: z.string().min(10).max(4000).meta({ description: STATEMENT }),
    attester: Attester.meta({ description: ATTESTER }),
    attestedAt: Timestamp.optional().meta({ description: 'When the statement was made; now when absent. Not in the future.' }),
  })
  .meta({
    id: 'CreateAttestationRequest',
    examples: [ATTESTATION_REQUEST_EXAMPLE],
  });
