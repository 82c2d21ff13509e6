import { z } from 'zod';
import { ControlRef, listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, resource } from '../resource.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, idParams, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/** `object` of a trust record; every one's description names the certification as its example. */
function trustObject<const T extends string>(name: T) {
  return objectField(name, 'svc.trust.certification');
}

/** A tenant's public slug: lowercase letters, digits and hyphens. */
const Slug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/)
  .meta({ description: 'Public slug of the trust page: 3 to 63 lowercase letters, digits and hyphens.', examples: ['acme-ai'] });

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
    score: z.number().min(0).max(1).meta({ description: '`evidenced / controls`, 0 to 1 (0 when the version has no controls).' }),
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

export const certifications = resource({
  rail: 'trust',
  path: 'certifications',
  name: 'certification',
  label: { one: 'certification', many: 'certifications' },
  idPrefix: 'crt',
  record: Certification,
  create: {
    body: CreateCertificationBody,
    summary: 'Record a certification',
    description: 'Records a certification or attestation report shown on the trust page; `expired` is computed at read time.',
    eventSummary: 'A certification was added to the trust page.',
  },
});

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

export const subProcessors = resource({
  rail: 'trust',
  path: 'sub-processors',
  name: 'sub_processor',
  label: { one: 'sub-processor', many: 'sub-processors' },
  idPrefix: 'sbp',
  record: SubProcessor,
  create: {
    body: CreateSubProcessorBody,
    summary: 'Record a sub-processor',
    description: 'Adds a sub-processor `{ name, purpose, region }` to the trust page.',
    eventSummary: 'A sub-processor was added to the trust page.',
  },
});

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

export const ndaDocuments = resource({
  rail: 'trust',
  path: 'nda-vault',
  name: 'nda_document',
  label: { one: 'NDA vault document', many: 'NDA vault documents' },
  idPrefix: 'ndd',
  record: NdaDocument,
  create: {
    body: CreateNdaDocumentBody,
    summary: 'Add a document to the NDA vault',
    description: "Stores the document's metadata and content reference; the reference is released only through an accepted NDA.",
    eventSummary: 'A document was added to the NDA vault.',
  },
});

const REQUESTER_EMAIL = 'Email address of the external requester.';
const REQUESTER_NAME = 'Full name of the external requester.';
const NdaRequestStatus = z.enum(['pending', 'accepted', 'revoked']);

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

// ---------------------------------------------------------------- router

const read = meta({ auth: 'tenant', rail: 'trust', permission: 'trust:read', mutating: false });

/** Metadata of a route that changes the trust rail's records and is audited as `audit`. */
function write<const A extends string>(audit: A) {
  return meta({ auth: 'tenant', rail: 'trust', permission: 'trust:write', mutating: true, audit });
}

/** The body of a route that takes none (`publish`'s siblings and the NDA transitions). */
const NO_BODY = z.strictObject({}).optional();

export const trustRouter = railRouter('trust', {
  posture: {
    method: 'GET',
    path: '/posture',
    responses: { 200: TrustPosture },
    summary: 'Compute the trust posture',
    description:
      "Share of the controls of each activated framework that have unexpired evidence, with the parts (controls, evidenced) per framework and overall. Computed from the tenant's activations, the shipped dictionaries and its evidence at request time. Needs `trust:read`.",
    metadata: read,
  },
  certifications: certifications.routes,
  subProcessors: subProcessors.routes,
  status: {
    method: 'GET',
    path: '/status',
    responses: { 200: TrustStatus },
    summary: 'Status of the trust page',
    description: 'Whether the trust page is published, its slug and when it last changed. Needs `trust:read`.',
    metadata: read,
  },
  publish: {
    method: 'POST',
    path: '/publish',
    body: PublishTrustBody,
    responses: { 200: TrustStatus },
    summary: 'Publish the trust page',
    description:
      'Makes the trust page readable without a token at `/v1/trust/public/<slug>`. A slug is unique across tenants: 409 `conflict` when another tenant holds it. Audited (`trust_page.published`). Needs `trust:write`.',
    metadata: write('trust_page.published'),
  },
  unpublish: {
    method: 'POST',
    path: '/unpublish',
    body: NO_BODY,
    responses: { 200: TrustStatus },
    summary: 'Unpublish the trust page',
    description: 'Takes the public page down (404 from then on); the slug stays reserved for the tenant. Audited. Needs `trust:write`.',
    metadata: write('trust_page.unpublished'),
  },
  publicPage: {
    method: 'GET',
    path: '/public/:slug',
    pathParams: z.object({ slug: Slug }),
    responses: { 200: PublicTrustPage },
    summary: 'Read a published trust page (no token)',
    description:
      'The public trust page of the tenant that published this slug: posture, certifications and sub-processors. Needs no token. 404 `not_found` when no tenant has published the slug (never published, or unpublished).',
    metadata: meta({ auth: 'public', mutating: false }),
  },
  questionnaires: {
    method: 'POST',
    path: '/questionnaires',
    body: QuestionnaireBody,
    responses: { 200: QuestionnaireAnswers },
    summary: 'Answer a security questionnaire',
    description:
      "Answers each question from the tenant's controls and evidence: `yes` with the evidence ids when every cited control (or every control of the cited framework) has unexpired evidence; otherwise listed in `unanswerable` with why. Computes; stores nothing. Needs `trust:read`.",
    metadata: read,
  },
  ndaRequests: {
    list: {
      method: 'GET',
      path: '/nda-vault/requests',
      query: PaginationQuery.extend({
        status: NdaRequestStatus.optional().meta({ description: 'Only NDA requests in this state.' }),
      }),
      responses: { 200: listOf(NdaRequest) },
      summary: 'List NDA requests',
      description: 'NDA requests of external requesters for the vault, newest first, optionally by status. Needs `trust:read`.',
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/nda-vault/requests',
      body: CreateNdaRequestBody,
      responses: { 201: NdaRequest },
      summary: 'Record an NDA request',
      description:
        'Records the request of an external requester (email, name) for the NDA vault; `pending` until the NDA is accepted. Audited (`nda_request.created`). Needs `trust:write`.',
      metadata: write('nda_request.created'),
    },
    get: {
      method: 'GET',
      path: '/nda-vault/requests/:id',
      pathParams: idParams('ndr'),
      responses: { 200: NdaRequest },
      summary: 'Get an NDA request',
      description: "One NDA request of the tenant; 404 `not_found` for an unknown id or another tenant's. Needs `trust:read`.",
      metadata: read,
    },
    accept: {
      method: 'POST',
      path: '/nda-vault/requests/:id/accept',
      pathParams: idParams('ndr'),
      body: NO_BODY,
      responses: { 200: NdaRequest },
      summary: 'Record the acceptance of the NDA',
      description:
        'Records that the requester accepted the NDA (from `pending`; 409 `conflict` otherwise); from then on the vault documents are released to this request. Audited (`nda_request.accepted`). Needs `trust:write`.',
      metadata: write('nda_request.accepted'),
    },
    revoke: {
      method: 'POST',
      path: '/nda-vault/requests/:id/revoke',
      pathParams: idParams('ndr'),
      body: NO_BODY,
      responses: { 200: NdaRequest },
      summary: 'Revoke an NDA request',
      description:
        'Withdraws access (from `pending` or `accepted`; 409 `conflict` otherwise): documents are no longer released to this request. Audited (`nda_request.revoked`). Needs `trust:write`.',
      metadata: write('nda_request.revoked'),
    },
  },
  ndaDocumentContent: {
    method: 'GET',
    path: '/nda-vault/:id/content',
    pathParams: idParams('ndd'),
    query: z.object({
      ndaRequestId: prefixedId('ndr', exampleId('ndr')).meta({
        description: 'Id of the NDA request the content is released to; it must be `accepted`.',
      }),
      accessToken: z
        .string()
        .min(16)
        .max(128)
        .meta({
          description: 'The access token the `accept` response showed for that NDA request.',
          examples: ['5xq3Jw0r1mXbV9k2pQ7sLdZ4nT8yH6cF'],
        }),
    }),
    responses: { 200: NdaDocumentContent },
    summary: "Release a vault document's content to an accepted NDA",
    description:
      "For the external requester, without an API key: returns the document's content reference when the access token is the one issued for the NDA request, the request is `accepted` and the document is of the request's tenant. Every refusal is the same 403 `forbidden` (issue `not_released`), whether the token is wrong, the request is unknown, pending or revoked, or the document does not exist or belongs to another tenant, so the route does not tell which requests or documents exist.",
    metadata: meta({ auth: 'public', mutating: false }),
  },
  ndaDocuments: ndaDocuments.routes,
});

/** Event types the trust rail emits. */
export const trustEvents = [
  ...certifications.events,
  ...subProcessors.events,
  ...ndaDocuments.events,
  eventType('nda_request.created', 'An external requester asked for the NDA vault.', NdaRequest),
  eventType('nda_request.accepted', 'An NDA was accepted; the vault documents are released to the request.', NdaRequest),
  eventType('nda_request.revoked', 'An NDA request was revoked.', NdaRequest),
  eventType('trust_page.published', 'The trust page was published.', TrustStatus),
  eventType('trust_page.unpublished', 'The trust page was unpublished.', TrustStatus),
];
