import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { ControlRef, prefixedId, Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { NdaRequestStatus, Slug } from './fields.ts';

/** The trust rail's records, request bodies and their examples (index.ts describes the rail). */

/** `object` of a trust record; every one's description names the certification as its example. */
function trustObject<const T extends string>(name: T) {
  return objectField(name, 'svc.trust.certification');
}

// ---------------------------------------------------------------- posture

export const FrameworkPosture = z
  .object({
    framework: z.string().meta({ description: 'Id of the activated framework dictionary (`eu-ai-act`).' }),
    dictionaryVersion: z.string().meta({ description: 'Activated `<dictionary>@<version>` whose controls are counted.' }),
    controls: z.int().min(0).meta({ description: 'Controls of that dictionary version.' }),
    evidenced: z
      .int()
      .min(0)
      .meta({ description: 'Of those, the controls cited by at least one unexpired evidence record of the tenant.' }),
    score: z.number().min(0).max(1).meta({
      description:
        '`(passing + partial / 2) / controls`, 0 to 1 (0 when the version has no controls): a control passes when it is evidenced, unless the latest approved gap analysis of the framework assessed it otherwise.',
    }),
    passing: z.int().min(0).optional().meta({ description: 'Controls that pass (tenant view only).' }),
    partial: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Controls the latest approved gap analysis found partially compliant (tenant view only).' }),
    failing: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Controls the latest approved gap analysis found non-compliant (tenant view only).' }),
    gapAnalysis: z
      .object({
        assessmentId: z.string().meta({ description: 'The approved gap analysis (`asm_`).' }),
        approvedAt: Timestamp.meta({ description: 'When it was approved.' }),
      })
      .nullable()
      .optional()
      .meta({ description: 'The latest approved gap analysis of the framework, when one exists (tenant view only).' }),
    assessedControls: z
      .array(
        z.object({
          control: z.string().meta({ description: 'The control.' }),
          requirement: z.string().meta({ description: 'Its requirement status in the gap analysis.' }),
          status: z.enum(['passing', 'partial', 'failing', 'not_evidenced']).meta({ description: 'What the posture counts it as.' }),
          evidenced: z.boolean().meta({ description: 'Whether unexpired evidence cites it.' }),
          source: z.string().meta({ description: '`gap-analysis:<assessment id>`.' }),
        }),
      )
      .optional()
      .meta({ description: 'The controls the gap analysis assessed, with their source (tenant view only).' }),
  })
  .meta({ description: 'Posture under one activated framework: the parts its score is computed from.' });

/** The example posture (one of four EU AI Act controls evidenced), which the public page's example shows too. */
const POSTURE_EXAMPLE = {
  object: 'svc.trust.posture',
  score: 0.25,
  controls: 4,
  evidenced: 1,
  frameworks: [{ framework: 'eu-ai-act', dictionaryVersion: 'eu-ai-act@1.0.0', controls: 4, evidenced: 1, score: 0.25 }],
  computedAt: EXAMPLE_AT,
};

export const TrustPosture = z
  .object({
    object: trustObject('svc.trust.posture'),
    score: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'Share of the controls of every activated framework that have unexpired evidence, 0 to 1.' }),
    controls: z.int().min(0).meta({ description: 'Controls counted, summed over the activated frameworks.' }),
    evidenced: z.int().min(0).meta({ description: 'Of those, the controls with unexpired evidence.' }),
    frameworks: z.array(FrameworkPosture).meta({ description: 'The parts of the score, one per activated framework, by framework id.' }),
    computedAt: Timestamp.meta({ description: 'When the posture was computed (ISO 8601 UTC); evidence expiring after it counts.' }),
  })
  .meta({ id: 'TrustPosture', examples: [POSTURE_EXAMPLE] });

// ---------------------------------------------------------------- certifications

const CERTIFICATION_NAME = 'Name of the certification or attestation report (`ISO/IEC 27001:2022`).';
const CERTIFICATION_ISSUER = 'Body that issued it (certification body, audit firm).';
const VALID_FROM = 'Start of validity (ISO 8601 UTC).';

/** What a certification is recorded with: the create request's example, and the record's fields. */
const CERTIFICATION_INPUT = {
  name: 'ISO/IEC 27001:2022',
  issuer: 'BSI Group',
  scope: 'Hosting and operation of the compliance API',
  validFrom: '2026-01-15T00:00:00.000Z',
  validUntil: '2029-01-14T00:00:00.000Z',
};

export const Certification = z
  .object({
    object: trustObject('svc.trust.certification'),
    id: prefixedId('crt', exampleId('crt')),
    name: z.string().meta({ description: CERTIFICATION_NAME }),
    issuer: z.string().meta({ description: CERTIFICATION_ISSUER }),
    scope: z.string().nullable().meta({ description: 'What the certificate covers; null when not given.' }),
    validFrom: Timestamp.meta({ description: VALID_FROM }),
    validUntil: Timestamp.nullable().meta({ description: 'End of validity (ISO 8601 UTC); null when it does not expire.' }),
    expired: z.boolean().meta({ description: 'True when `validUntil` is in the past at the time of the response.' }),
    ...created(),
  })
  .meta({
    id: 'TrustCertification',
    examples: [
      {
        object: 'svc.trust.certification',
        id: exampleId('crt'),
        ...CERTIFICATION_INPUT,
        expired: false,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateCertificationBody = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: CERTIFICATION_NAME }),
    issuer: z.string().min(1).max(200).meta({ description: CERTIFICATION_ISSUER }),
    scope: z.string().min(1).max(2000).optional().meta({ description: 'What the certificate covers, up to 2,000 characters.' }),
    validFrom: Timestamp.meta({ description: VALID_FROM }),
    validUntil: Timestamp.optional().meta({
      description: 'End of validity (ISO 8601 UTC), after `validFrom`; absent when it does not expire.',
    }),
  })
  .refine((b) => !b.validUntil || b.validUntil > b.validFrom, { path: ['validUntil'], message: 'validUntil must be after validFrom' })
  .meta({ id: 'CreateTrustCertificationRequest', examples: [CERTIFICATION_INPUT] });

// ---------------------------------------------------------------- sub-processors

const SUB_PROCESSOR_NAME = 'Legal or trading name of the sub-processor.';
const SUB_PROCESSOR_PURPOSE = 'What the sub-processor does with the data.';

/** A sub-processor as recorded and as the public page shows it: `{ name, purpose, region }`. */
const SUB_PROCESSOR_INPUT = { name: 'Hetzner Online GmbH', purpose: 'Infrastructure hosting', region: 'eu/de' };

export const SubProcessor = z
  .object({
    object: trustObject('svc.trust.sub_processor'),
    id: prefixedId('sbp', exampleId('sbp')),
    name: z.string().meta({ description: SUB_PROCESSOR_NAME }),
    purpose: z.string().meta({ description: SUB_PROCESSOR_PURPOSE }),
    region: z.string().meta({ description: 'Where it processes the data (`eu`, `us`, `eu/de`).' }),
    ...created(),
  })
  .meta({
    id: 'TrustSubProcessor',
    examples: [
      {
        object: 'svc.trust.sub_processor',
        id: exampleId('sbp'),
        ...SUB_PROCESSOR_INPUT,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateSubProcessorBody = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: SUB_PROCESSOR_NAME }),
    purpose: z.string().min(1).max(500).meta({ description: SUB_PROCESSOR_PURPOSE }),
    region: z
      .string()
      .min(2)
      .max(32)
      .regex(/^[a-z]{2,12}(\/[a-z]{2})?$/i)
      .meta({ description: 'Where it processes the data: `<region>` or `<region>/<country>` (`eu`, `eu/de`).' }),
  })
  .meta({ id: 'CreateTrustSubProcessorRequest', examples: [SUB_PROCESSOR_INPUT] });

// ---------------------------------------------------------------- publishing and status

claimIdPrefix('tpg', 'svc.trust.page');
claimIdPrefix('ndr', 'svc.trust.nda_request');

export const TrustStatus = z
  .object({
    object: trustObject('svc.trust.status'),
    published: z.boolean().meta({ description: 'Whether the trust page is readable without a token at its slug.' }),
    slug: z.string().nullable().meta({ description: 'Public slug of the page; null until it was first published.' }),
    publicPath: z.string().nullable().meta({ description: 'Path of the public page (`/v1/trust/public/<slug>`); null while unpublished.' }),
    updatedAt: Timestamp.nullable().meta({ description: 'When the page was last published or unpublished; null when never.' }),
  })
  .meta({
    id: 'TrustStatus',
    examples: [
      {
        object: 'svc.trust.status',
        published: true,
        slug: 'acme-ai',
        publicPath: '/v1/trust/public/acme-ai',
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

export const PublishTrustBody = z.strictObject({ slug: Slug }).meta({ id: 'PublishTrustPageRequest', examples: [{ slug: 'acme-ai' }] });

const PublicSubProcessor = z.object({
  name: z.string().meta({ description: SUB_PROCESSOR_NAME }),
  purpose: z.string().meta({ description: SUB_PROCESSOR_PURPOSE }),
  region: z.string().meta({ description: 'Where it processes the data.' }),
});

export const PublicTrustPage = z
  .object({
    object: trustObject('svc.trust.public_page'),
    slug: z.string().meta({ description: 'Public slug of the page.' }),
    posture: TrustPosture,
    certifications: z
      .array(Certification.omit({ createdBy: true }))
      .meta({ description: 'Certifications of the tenant, newest first, each with whether it has expired.' }),
    subProcessors: z
      .array(PublicSubProcessor)
      .meta({ description: 'Sub-processors of the tenant as `{ name, purpose, region }`, by name.' }),
    updatedAt: Timestamp.meta({ description: 'When the page was last published.' }),
  })
  .meta({
    id: 'PublicTrustPage',
    examples: [
      {
        object: 'svc.trust.public_page',
        slug: 'acme-ai',
        posture: POSTURE_EXAMPLE,
        certifications: [],
        subProcessors: [SUB_PROCESSOR_INPUT],
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- questionnaires

/** The example questionnaire's one question. */
const QUESTION_EXAMPLE = { id: 'Q1', text: 'Do you run a risk-management system?' };

export const QuestionnaireBody = z
  .strictObject({
    questions: z
      .array(
        z.strictObject({
          id: z.string().min(1).max(64).meta({ description: "The question's id in the requester's questionnaire." }),
          text: z.string().min(1).max(2000).meta({ description: 'Text of the question, kept in the answer.' }),
          controlIds: z
            .array(ControlRef.meta({ description: 'Id of a control of a framework the tenant has activated (`AIA-RMS-01`).' }))
            .min(1)
            .max(50)
            .optional()
            .meta({ description: 'Controls whose evidence answers the question.' }),
          framework: z
            .string()
            .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
            .optional()
            .meta({
              description:
                'Framework whose controls answer the question when `controlIds` is absent: all of its controls must be evidenced.',
            }),
        }),
      )
      .min(1)
      .max(200)
      .meta({ description: 'The questions to answer, 1 to 200.' }),
  })
  .meta({ id: 'TrustQuestionnaireRequest', examples: [{ questions: [{ ...QUESTION_EXAMPLE, controlIds: ['AIA-RMS-01'] }] }] });

/** The `id` and `text` an answered or unanswerable question repeats from the request. */
const QUESTION = {
  id: z.string().meta({ description: "The question's id." }),
  text: z.string().meta({ description: 'Text of the question.' }),
};

export const QuestionnaireAnswers = z
  .object({
    object: trustObject('svc.trust.questionnaire'),
    answered: z
      .array(
        z.object({
          ...QUESTION,
          answer: z.literal('yes').meta({ description: 'The answer: every cited control has unexpired evidence.' }),
          controlIds: z.array(z.string()).meta({ description: 'Controls the answer rests on.' }),
          evidenceIds: z.array(z.string()).meta({ description: 'Unexpired evidence records of those controls.' }),
        }),
      )
      .meta({ description: "Questions answered from the tenant's controls and evidence." }),
    unanswerable: z
      .array(
        z.object({
          ...QUESTION,
          reason: z
            .enum(['no_controls_cited', 'unknown_controls', 'framework_not_activated', 'missing_evidence'])
            .meta({ description: 'Why it cannot be answered.' }),
          detail: z.string().meta({ description: 'The reason in words, naming the controls or framework concerned.' }),
          controlIds: z.array(z.string()).meta({ description: 'The controls concerned (unknown, or without unexpired evidence).' }),
        }),
      )
      .meta({ description: 'Questions the tenant cannot answer from its data, each with why.' }),
    computedAt: Timestamp.meta({ description: 'When the answers were computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'TrustQuestionnaireAnswers',
    examples: [
      {
        object: 'svc.trust.questionnaire',
        answered: [{ ...QUESTION_EXAMPLE, answer: 'yes', controlIds: ['AIA-RMS-01'], evidenceIds: [exampleId('evd')] }],
        unanswerable: [],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- NDA vault

const MEDIA_TYPE = 'IANA media type of the document; null when not given.';

export const NdaDocument = z
  .object({
    object: trustObject('svc.trust.nda_document'),
    id: prefixedId('ndd', exampleId('ndd')),
    title: z.string().meta({ description: 'Title of the document (`SOC 2 Type II report 2026`).' }),
    description: z.string().nullable().meta({ description: 'What the document is; null when not given.' }),
    mediaType: z.string().nullable().meta({ description: MEDIA_TYPE }),
    ...created(),
  })
  .meta({
    id: 'TrustNdaDocument',
    examples: [
      {
        object: 'svc.trust.nda_document',
        id: exampleId('ndd'),
        title: 'SOC 2 Type II report 2026',
        description: 'Report of the 2026 audit period.',
        mediaType: 'application/pdf',
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateNdaDocumentBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Title of the document.' }),
    description: z.string().min(1).max(2000).optional().meta({ description: 'What the document is, up to 2,000 characters.' }),
    contentUri: z
      .url({ protocol: /^https?$|^s3$/ })
      .max(2048)
      .meta({ description: 'Where the document is stored (`s3://`, `https://`); released only to an accepted NDA.' }),
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional()
      .meta({ description: 'Lowercase hex SHA-256 of the document.' }),
    mediaType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .max(127)
      .optional()
      .meta({ description: 'IANA media type of the document (`application/pdf`).' }),
  })
  .meta({
    id: 'CreateTrustNdaDocumentRequest',
    examples: [
      {
        title: 'SOC 2 Type II report 2026',
        contentUri: 'https://files.example.com/soc2-2026.pdf',
        mediaType: 'application/pdf',
      },
    ],
  });

const REQUESTER_EMAIL = 'Email address of the external requester.';
const REQUESTER_NAME = 'Full name of the external requester.';

/** Who asks for the vault: the create request's example, and the record's fields. */
const NDA_REQUEST_INPUT = { requesterEmail: 'jo.buyer@example.com', requesterName: 'Jo Buyer', company: 'Example Corp' };

export const NdaRequest = z
  .object({
    object: trustObject('svc.trust.nda_request'),
    id: prefixedId('ndr', exampleId('ndr')),
    requesterEmail: z.string().meta({ description: REQUESTER_EMAIL }),
    requesterName: z.string().meta({ description: REQUESTER_NAME }),
    company: z.string().nullable().meta({ description: "Requester's organisation; null when not given." }),
    status: NdaRequestStatus.meta({ description: 'Current state of the record; changes only through the transition routes.' }),
    accessToken: z.string().nullable().meta({
      description:
        'Secret the requester reads the released documents with (no API key needed); shown once, in the response of `accept`, null everywhere else. Stored hashed.',
    }),
    ...stamps(),
  })
  .meta({
    id: 'TrustNdaRequest',
    examples: [
      {
        object: 'svc.trust.nda_request',
        id: exampleId('ndr'),
        ...NDA_REQUEST_INPUT,
        status: 'pending',
        accessToken: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateNdaRequestBody = z
  .strictObject({
    requesterEmail: z.email().max(254).meta({ description: REQUESTER_EMAIL }),
    requesterName: z.string().min(1).max(200).meta({ description: REQUESTER_NAME }),
    company: z.string().min(1).max(200).optional().meta({ description: "Requester's organisation." }),
  })
  .meta({ id: 'CreateTrustNdaRequestRequest', examples: [NDA_REQUEST_INPUT] });

export const NdaDocumentContent = z
  .object({
    object: trustObject('svc.trust.nda_document_content'),
    documentId: z.string().meta({ description: 'Id of the vault document.' }),
    ndaRequestId: z.string().meta({ description: 'Id of the accepted NDA request the content is released to.' }),
    contentUri: z.string().meta({ description: 'Where the document is stored.' }),
    sha256: z.string().nullable().meta({ description: 'Lowercase hex SHA-256 of the document; null when not given.' }),
    mediaType: z.string().nullable().meta({ description: MEDIA_TYPE }),
  })
  .meta({
    id: 'TrustNdaDocumentContent',
    examples: [
      {
        object: 'svc.trust.nda_document_content',
        documentId: exampleId('ndd'),
        ndaRequestId: exampleId('ndr'),
        contentUri: 'https://files.example.com/soc2-2026.pdf',
        sha256: null,
        mediaType: 'application/pdf',
      },
    ],
  });
