import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { prefixedId } from '../../shared/common.ts';
import { exampleId, idParams } from '../../shared/records.ts';
import { NdaRequestStatus, Slug } from './fields.ts';
import {
  Certification,
  CreateCertificationBody,
  CreateNdaDocumentBody,
  CreateNdaRequestBody,
  CreateSubProcessorBody,
  NdaDocument,
  NdaDocumentContent,
  NdaRequest,
  PublicTrustPage,
  PublishTrustBody,
  QuestionnaireAnswers,
  QuestionnaireBody,
  SubProcessor,
  TrustPosture,
  TrustStatus,
} from './schemas.ts';

/** The trust rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- certifications

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

// ---------------------------------------------------------------- NDA vault

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

/** The body of a route that takes none (`publish`'s siblings and the NDA transitions). */
const NO_BODY = z.strictObject({}).optional();

/**
 * The requests of external requesters to read the vault. Accepting one stays a route of its own:
 * its response carries the access token it mints, shown once and in no audit event or webhook.
 */
export const ndaRequests = resource({
  rail: 'trust',
  path: 'nda-vault/requests',
  name: 'nda_request',
  label: { one: 'NDA request', many: 'NDA requests' },
  idPrefix: 'ndr',
  record: NdaRequest,
  statusField: 'status',
  filters: { status: NdaRequestStatus.optional().meta({ description: 'Only NDA requests in this state.' }) },
  notes: { list: 'NDA requests of external requesters for the vault.' },
  create: {
    body: CreateNdaRequestBody,
    summary: 'Record an NDA request',
    description: 'Records the request of an external requester (email, name) for the NDA vault; `pending` until the NDA is accepted.',
    eventSummary: 'An external requester asked for the NDA vault.',
  },
  transitions: {
    revoke: {
      from: ['pending', 'accepted'],
      to: 'revoked',
      body: NO_BODY,
      summary: 'Revoke an NDA request',
      description: 'Withdraws access: documents are no longer released to this request.',
      eventSummary: 'An NDA request was revoked.',
    },
  },
});

// ---------------------------------------------------------------- router

const { read, write } = policyOf('trust');

const ByNdaRequest = { pathParams: idParams('ndr') };

export const trustRouter = railRouter('trust', {
  posture: get('/posture', {}, TrustPosture, read).doc(
    'Compute the trust posture',
    "Share of the controls of each activated framework that have unexpired evidence, with the parts (controls, evidenced) per framework and overall. Computed from the tenant's activations, the shipped dictionaries and its evidence at request time. Needs `trust:read`.",
  ),
  certifications: certifications.routes,
  subProcessors: subProcessors.routes,
  status: get('/status', {}, TrustStatus, read).doc(
    'Status of the trust page',
    'Whether the trust page is published, its slug and when it last changed. Needs `trust:read`.',
  ),
  publish: post('/publish', { body: PublishTrustBody }, TrustStatus, write('trust_page.published')).doc(
    'Publish the trust page',
    'Makes the trust page readable without a token at `/v1/trust/public/<slug>`. A slug is unique across tenants: 409 `conflict` when another tenant holds it. Audited (`trust_page.published`). Needs `trust:write`.',
  ),
  unpublish: post('/unpublish', { body: NO_BODY }, TrustStatus, write('trust_page.unpublished')).doc(
    'Unpublish the trust page',
    'Takes the public page down (404 from then on); the slug stays reserved for the tenant. Audited. Needs `trust:write`.',
  ),
  publicPage: get(
    '/public/:slug',
    { pathParams: z.object({ slug: Slug }) },
    PublicTrustPage,
    meta({ auth: 'public', mutating: false }),
  ).doc(
    'Read a published trust page (no token)',
    'The public trust page of the tenant that published this slug: posture, certifications and sub-processors. Needs no token. 404 `not_found` when no tenant has published the slug (never published, or unpublished).',
  ),
  questionnaires: post('/questionnaires', { body: QuestionnaireBody }, QuestionnaireAnswers, read).doc(
    'Answer a security questionnaire',
    "Answers each question from the tenant's controls and evidence: `yes` with the evidence ids when every cited control (or every control of the cited framework) has unexpired evidence; otherwise listed in `unanswerable` with why. Computes; stores nothing. Needs `trust:read`.",
  ),
  ndaRequests: {
    ...ndaRequests.routes,
    accept: post('/nda-vault/requests/:id/accept', { ...ByNdaRequest, body: NO_BODY }, NdaRequest, write('nda_request.accepted')).doc(
      'Record the acceptance of the NDA',
      'Records that the requester accepted the NDA (from `pending`; 409 `conflict` otherwise); from then on the vault documents are released to this request. Audited (`nda_request.accepted`). Needs `trust:write`.',
    ),
  },
  ndaDocumentContent: get(
    '/nda-vault/:id/content',
    {
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
    },
    NdaDocumentContent,
    meta({ auth: 'public', mutating: false }),
  ).doc(
    "Release a vault document's content to an accepted NDA",
    "For the external requester, without an API key: returns the document's content reference when the access token is the one issued for the NDA request, the request is `accepted` and the document is of the request's tenant. Every refusal is the same 403 `forbidden` (issue `not_released`), whether the token is wrong, the request is unknown, pending or revoked, or the document does not exist or belongs to another tenant, so the route does not tell which requests or documents exist.",
  ),
  ndaDocuments: ndaDocuments.routes,
});

/** Event types the trust rail emits. */
export const trustEvents = [
  ...certifications.events,
  ...subProcessors.events,
  ...ndaDocuments.events,
  ...ndaRequests.events,
  eventType('nda_request.accepted', 'An NDA was accepted; the vault documents are released to the request.', NdaRequest),
  eventType('trust_page.published', 'The trust page was published.', TrustStatus),
  eventType('trust_page.unpublished', 'The trust page was unpublished.', TrustStatus),
];
