import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { idParams } from '../../shared/records.ts';
import { EXAMPLE_POLICY, EXAMPLE_TITLE } from './fields.ts';
import {
  Classification,
  ClassifyBody,
  ClauseExtractBody,
  ClauseExtraction,
  ContextDocument,
  DocumentText,
  GapAnalysis,
  GapAnalysisBody,
  MapBody,
  MappingResult,
  Recommendations,
  RecommendationsQuery,
  UploadDocumentBody,
} from './schemas.ts';

/** The context rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- documents

export const documents = resource({
  rail: 'context',
  path: 'upload',
  name: 'document',
  label: { one: 'document', many: 'documents' },
  idPrefix: 'doc',
  record: ContextDocument,
  filters: {
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional()
      .meta({ description: 'Lowercase hex SHA-256 of the text: finds uploads of the same text.' }),
  },
  setup: [
    {
      method: 'POST',
      path: '/v1/context/upload',
      body: { title: EXAMPLE_TITLE, text: EXAMPLE_POLICY },
    },
  ],
});

// ---------------------------------------------------------------- router

const { read, write } = policyOf('context');

export const contextRouter = railRouter('context', {
  upload: post('/upload', { body: UploadDocumentBody }, { 201: ContextDocument }, write('document.uploaded')).doc(
    'Upload a document',
    'Stores a document’s text (`text`, or `contentBase64` decoded as UTF-8) with its metadata and the SHA-256 of the text; returns 201 with the document, id `doc_<ULID>`, without its text (read it at `/upload/{id}/text`). More than 1 MiB of text is 400 `bad_request` (`details[0].field` names `text` or `contentBase64`, issue `too_big`); a body over the server’s body limit is 400 too. PDF and DOCX files: send the file base64-encoded in `contentBase64` with `mediaType` `application/pdf` or `application/vnd.openxmlformats-officedocument.wordprocessingml.document`; the text of the file is extracted (PDF text layer, DOCX paragraphs) and stored, and the document keeps that media type. A file over 4 MiB (4,194,304 bytes decoded), a DOCX whose zip parts expand past 64 MiB, or a file whose text is over 1 MiB is 422 `validation_failed` with `details[0]` `{ field: contentBase64, issue: too_big }`; the JSON body must also fit the server’s body limit (`SVC_BODY_LIMIT`, 1 MB by default: about 5.6 MB holds a 4 MiB file). A password-protected file is 422 with issue `encrypted`, a file that cannot be read as the declared type 422 `corrupt`, and a file with no text (a scan: images or drawings only) 422 `no_text`; nothing is stored. `text` with a PDF or DOCX media type is 422. Needs `context:write`; recorded in the audit trail as `document.uploaded` and emitted as that webhook event. Send an `Idempotency-Key` so that a retry does not store a second document.',
  ),
  documents: documents.routes,
  documentText: get('/upload/:id/text', { pathParams: idParams('doc') }, DocumentText, read).doc(
    'Read the text of a document',
    "The stored text of a document; offsets returned by the rail index into it. 404 for an unknown id or another tenant's. Needs `context:read`.",
  ),
  classify: post('/classify', { body: ClassifyBody }, Classification, write('document.classified')).doc(
    'Classify a document',
    'Assigns a document type and the frameworks the text concerns by rules over the text: keywords and legal citations (`Regulation (EU) 2024/1689`, `GDPR`, `Article 35`, `ISO/IEC 42001`), each rule with its weight and the spans it matched. With `documentId` the result is stored on the document (`documentType`, `frameworks`), audited as `document.classified` and emitted as that webhook event; with inline `text` nothing is stored. Needs `context:write`.',
  ),
  clauseExtract: post('/clause-extract', { body: ClauseExtractBody }, ClauseExtraction, read).doc(
    'Extract clause references and obligations',
    'Finds references (`Article 9`, `Art. 6(3)`, `Article 10(2)(f)`, `Annex III`, `Recital 47`, `§ 1798.100`, `A.5.1`, `Clause 6.1.2`) with their offsets, each resolved to the dictionary clauses it names (the exact clause, else its nearest parent), and obligation sentences (`shall`, `must`, `is required to`, `is obliged to`, `has to`, their negations) with their offsets. Computes; stores nothing. Needs `context:read`.',
  ),
  map: post('/map', { body: MapBody }, MappingResult, write('document.mapped')).doc(
    'Map a document to controls',
    'Splits the document into passages (paragraphs; the sentences of paragraphs over 500 characters; the first 2,000 passages) and scores each against the controls of the framework given, or of each activated framework: clause references the passage cites that belong to the control, and the control’s title and description terms found in it. Keeps the best 3 controls per passage and framework with a score of at least 0.3, and stores the mapping per document and framework (replacing the previous one) for `gap-analysis`. Audited as `document.mapped`, emitted as that webhook event. 422 for an unknown framework, or when none is given and none is activated. Needs `context:write`.',
  ),
  gapAnalysis: post('/gap-analysis', { body: GapAnalysisBody }, GapAnalysis, read).doc(
    'Find the gaps of a framework',
    'For each control of the activated framework: whether unexpired evidence cites it (`evidence.controlIds`) and whether a stored document mapping links a passage to it; returns `{ gaps }`, the controls missing `evidence`, `document` or both. 422 `validation_failed` for a framework in no dictionary; 409 `conflict` for one the tenant has not activated. Computes; stores nothing. Needs `context:read`.',
  ),
  recommendations: get('/recommendations', { query: RecommendationsQuery }, Recommendations, read).doc(
    'Rank what to close first',
    'The gaps of the activated frameworks (or of `framework`) ranked by a priority computed from the data: what is missing (both before one), obligations of the tenant in force now on the control’s clauses, and crosswalk reach (requirements of other dictionaries linked to the control or its clauses); each with its parts. 422 / 409 for `framework` as in `gap-analysis`. Computes; stores nothing. Needs `context:read`.',
  ),
});

/** Event types the context rail emits. */
export const contextEvents = [
  eventType('document.uploaded', 'A document was uploaded to the context rail.', ContextDocument),
  eventType('document.classified', 'A classification was stored on a document.', ContextDocument),
  eventType('document.mapped', "A document's passages were mapped to controls.", MappingResult),
];
