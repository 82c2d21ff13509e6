import { z } from 'zod';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery, prefixedId } from '../../shared/common.ts';
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
