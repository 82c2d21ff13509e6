import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';
import { EXAMPLE_POLICY, EXAMPLE_RISK_SENTENCE, EXAMPLE_TITLE } from './fields.ts';

/** The context rail's records, request bodies and their examples (index.ts describes the rail). */

/** `object` of a record of the rail; every one's description names the document as its example. */
function contextObject<const T extends string>(name: T) {
  return objectField(name, 'svc.context.document');
}

/** Largest document text accepted by `upload`: 1 MiB of UTF-8. */
export const CONTEXT_TEXT_MAX_BYTES = 1_048_576;

/** Largest PDF or DOCX file accepted by `upload` (decoded from `contentBase64`): 4 MiB. */
export const CONTEXT_FILE_MAX_BYTES = 4_194_304;

/** The file formats `upload` extracts text from, by the `mediaType` that declares them. */
export const CONTEXT_FILE_MEDIA_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;
const FILE_MEDIA_TYPES: readonly string[] = Object.values(CONTEXT_FILE_MEDIA_TYPES);

/** Document types `classify` can assign, as data. */
export const DOCUMENT_TYPES = [
  'policy',
  'contract',
  'data_processing_agreement',
  'procedure',
  'risk_assessment',
  'dpia',
  'fria',
  'technical_documentation',
  'incident_report',
  'audit_report',
  'privacy_notice',
  'training_material',
] as const;

const DOC_EXAMPLE_ID = exampleId('doc');
const DocumentId = prefixedId('doc', DOC_EXAMPLE_ID);

const EXAMPLE_SHA256 = '5c1f3c6e0d4a2a1f7f5b1a0e2f9c8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d';

const FrameworkId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a framework dictionary (`eu-ai-act`, `gdpr`).', examples: ['eu-ai-act'] });

const DocumentType = z.enum(DOCUMENT_TYPES).meta({ description: `Kind of document, one of ${DOCUMENT_TYPES.join(', ')}.` });

const Span = z
  .object({
    start: z.int().min(0).meta({ description: 'Offset of the first character in the document text (UTF-16 code units, from 0).' }),
    end: z.int().min(0).meta({ description: 'Offset just past the last character (exclusive).' }),
    text: z.string().meta({ description: 'The text between `start` and `end`.' }),
  })
  .meta({ description: 'A span of the document text.' });

// ---------------------------------------------------------------- documents

export const ContextDocument = z
  .object({
    object: contextObject('svc.context.document'),
    id: DocumentId,
    title: z.string().meta({ description: 'Title of the document.' }),
    mediaType: z.string().meta({ description: 'IANA media type of the text as uploaded (`text/plain`, `text/markdown`).' }),
    source: z.string().nullable().meta({ description: 'Where the document came from (file name or URI); null when not given.' }),
    metadata: z.record(z.string(), z.string()).meta({ description: 'Free key/value metadata given at upload.' }),
    sha256: z.string().meta({ description: 'Lowercase hex SHA-256 of the UTF-8 bytes of the stored text.' }),
    sizeBytes: z.int().min(1).meta({ description: 'Size of the stored text in UTF-8 bytes (at most 1 MiB).' }),
    characters: z.int().min(1).meta({ description: 'Length of the text in UTF-16 code units: the unit of every offset the rail returns.' }),
    preview: z.string().meta({ description: 'The first 200 characters of the text.' }),
    documentType: DocumentType.nullable().meta({
      description: 'Type assigned by the last stored classification; null until classified or when no rule matched.',
    }),
    frameworks: z.array(z.string()).meta({ description: 'Framework ids the last stored classification found the document concerns.' }),
    classifiedAt: Timestamp.nullable().meta({ description: 'When the classification was last stored; null until then.' }),
    createdBy: z.string().meta({ description: 'Id of the API key whose request uploaded the document.' }),
    createdAt: Timestamp.meta({ description: 'When the document was uploaded (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'ContextDocument',
    examples: [
      {
        object: 'svc.context.document',
        id: DOC_EXAMPLE_ID,
        title: EXAMPLE_TITLE,
        mediaType: 'text/plain',
        source: 'risk-policy.txt',
        metadata: { owner: 'compliance' },
        sha256: EXAMPLE_SHA256,
        sizeBytes: 176,
        characters: 176,
        preview: EXAMPLE_POLICY,
        documentType: null,
        frameworks: [],
        classifiedAt: null,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const UploadDocumentBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Title of the document, 1 to 200 characters.' }),
    text: z.string().min(1).optional().meta({
      description: 'The document text. Give `text` or `contentBase64`, not both. At most 1 MiB of UTF-8: larger is 400 `bad_request`.',
    }),
    contentBase64: z.base64().min(4).optional().meta({
      description:
        'The document as base64: of UTF-8 text (bytes that are not UTF-8 are 422; at most 1 MiB decoded, larger is 400 `bad_request`), or, when `mediaType` is `application/pdf` or `application/vnd.openxmlformats-officedocument.wordprocessingml.document`, of the PDF or DOCX file itself, whose text is extracted and stored (at most 4 MiB of file and 1 MiB of text: larger is 422).',
    }),
    mediaType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .max(127)
      .optional()
      .meta({
        description:
          'IANA media type of the document; `text/plain` when absent. `application/pdf` or `application/vnd.openxmlformats-officedocument.wordprocessingml.document` (DOCX) declare that `contentBase64` is that file: its text is extracted and stored, and the media type is kept on the document.',
      }),
    source: z.string().min(1).max(500).optional().meta({ description: 'Where the document came from: file name or URI.' }),
    metadata: z
      .record(z.string().min(1).max(64), z.string().max(500))
      .refine((m) => Object.keys(m).length <= 20, { message: 'at most 20 keys' })
      .optional()
      .meta({ description: 'Free key/value metadata, at most 20 keys of up to 64 characters, values up to 500.' }),
  })
  .refine((b) => (b.text === undefined) !== (b.contentBase64 === undefined), {
    path: ['text'],
    message: 'give exactly one of text and contentBase64',
  })
  .refine((b) => b.text === undefined || !FILE_MEDIA_TYPES.includes(b.mediaType?.toLowerCase() ?? ''), {
    path: ['text'],
    message: 'a PDF or DOCX file is sent as contentBase64 (the file itself, base64-encoded), not as text',
  })
  .meta({
    id: 'UploadContextDocumentRequest',
    examples: [
      {
        title: EXAMPLE_TITLE,
        text: `${EXAMPLE_POLICY}\n\nTechnical documentation is kept per Annex IV.`,
        source: 'risk-policy.txt',
        metadata: { owner: 'compliance' },
      },
    ],
  });

export const DocumentText = z
  .object({
    object: contextObject('svc.context.document_text'),
    id: z.string().meta({ description: 'Id of the document.' }),
    sha256: z.string().meta({ description: 'Lowercase hex SHA-256 of the UTF-8 bytes of the text.' }),
    text: z.string().meta({ description: 'The stored text; every offset of the rail indexes into it.' }),
  })
  .meta({
    id: 'ContextDocumentText',
    examples: [
      {
        object: 'svc.context.document_text',
        id: DOC_EXAMPLE_ID,
        sha256: EXAMPLE_SHA256,
        text: 'Policy. The provider shall establish a risk management system.',
      },
    ],
  });

// ---------------------------------------------------------------- subject of a computation

const subjectShape = {
  documentId: DocumentId.optional().meta({ description: 'Id of an uploaded document. Give `documentId` or `text`.' }),
  text: z
    .string()
    .min(1)
    .max(200_000)
    .optional()
    .meta({ description: 'Inline text to work on instead of a document, up to 200,000 characters; nothing is stored for it.' }),
};
const oneSubject = (b: { documentId?: string | undefined; text?: string | undefined }) =>
  (b.documentId === undefined) !== (b.text === undefined);
const oneSubjectIssue = { path: ['documentId'], message: 'give exactly one of documentId and text' };

// ---------------------------------------------------------------- classify

const RuleEvidence = z
  .object({
    rule: z.string().meta({ description: 'Id of the rule that fired (`type.dpia.keyword`, `framework.gdpr.citation`).' }),
    kind: z.enum(['keyword', 'citation']).meta({ description: 'What the rule looks for: a keyword or term, or a legal citation or name.' }),
    weight: z.number().meta({ description: 'Points the rule adds per match; a rule counts at most 3 matches.' }),
    matches: z.array(Span).meta({ description: 'Where it matched, at most 5 spans shown.' }),
    matchCount: z.int().min(1).meta({ description: 'How many times it matched in all.' }),
  })
  .meta({ description: 'One rule that fired, with where.' });

const TypeCandidate = z.object({
  documentType: DocumentType,
  score: z.number().min(0).max(1).meta({ description: 'Points / (points + 3): 0 to 1, higher with more and stronger matches.' }),
  points: z.number().min(0).meta({ description: 'Sum of the rule weights matched (each rule counted at most 3 times).' }),
  evidence: z.array(RuleEvidence).meta({ description: 'The rules that fired for this type.' }),
});

const FrameworkCandidate = z.object({
  framework: z.string().meta({ description: 'Id of the framework dictionary.' }),
  score: z.number().min(0).max(1).meta({ description: 'Points / (points + 3), as for types.' }),
  points: z.number().min(0).meta({ description: 'Sum of the rule weights matched.' }),
  evidence: z.array(RuleEvidence).meta({ description: 'The rules that fired for this framework.' }),
});

export const ClassifyBody = z
  .strictObject(subjectShape)
  .refine(oneSubject, oneSubjectIssue)
  .meta({ id: 'ClassifyContextRequest', examples: [{ text: 'Data Protection Impact Assessment under Article 35 GDPR.' }] });

export const Classification = z
  .object({
    object: contextObject('svc.context.classification'),
    documentId: z.string().nullable().meta({ description: 'The document classified; null for inline text.' }),
    documentType: DocumentType.nullable().meta({ description: 'The best-scoring type; null when no type rule matched.' }),
    score: z.number().min(0).max(1).meta({ description: 'Score of `documentType` (0 when null).' }),
    candidates: z.array(TypeCandidate).meta({ description: 'Every type with a matching rule, best first.' }),
    frameworks: z
      .array(FrameworkCandidate)
      .meta({ description: 'Frameworks the text concerns (score at least 0.4, that is 2 points), best first.' }),
    stored: z.boolean().meta({ description: 'True when the classification was stored on the document (a `documentId` was given).' }),
    classifiedAt: Timestamp.meta({ description: 'When it was computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'ContextClassification',
    examples: [
      {
        object: 'svc.context.classification',
        documentId: null,
        documentType: 'dpia',
        score: 0.7273,
        candidates: [
          {
            documentType: 'dpia',
            score: 0.7273,
            points: 8,
            evidence: [
              {
                rule: 'type.dpia.keyword',
                kind: 'keyword',
                weight: 4,
                matches: [{ start: 0, end: 31, text: 'Data Protection Impact Assessment' }],
                matchCount: 1,
              },
            ],
          },
        ],
        frameworks: [
          {
            framework: 'gdpr',
            score: 0.5714,
            points: 4,
            evidence: [
              { rule: 'framework.gdpr.name', kind: 'citation', weight: 3, matches: [{ start: 52, end: 56, text: 'GDPR' }], matchCount: 1 },
            ],
          },
        ],
        stored: false,
        classifiedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- clause-extract

export const ClauseExtractBody = z
  .strictObject({
    ...subjectShape,
    framework: FrameworkId.optional().meta({
      description:
        'Resolve references against this dictionary only. When absent: the framework a reference names next to it, else the frameworks the text cites, else the tenant’s activated frameworks.',
    }),
  })
  .refine(oneSubject, oneSubjectIssue)
  .meta({
    id: 'ClauseExtractRequest',
    examples: [{ text: 'Providers shall meet Article 10(2)(f) and keep the documentation of Annex IV of Regulation (EU) 2024/1689.' }],
  });

const ResolvedClause = z.object({
  framework: z.string().meta({ description: 'Id of the dictionary holding the clause.' }),
  dictionaryVersion: z.string().meta({ description: '`<dictionary>@<version>` of the clause.' }),
  ref: z.string().meta({ description: 'Ref of the clause in the dictionary (`art-10-2-f`).' }),
  title: z.string().meta({ description: 'Title of the clause.' }),
  exact: z.boolean().meta({ description: 'False when only a parent of the cited ref exists (`art-10` for `Article 10(2)(x)`).' }),
});

const ClauseReference = z.object({
  ...Span.shape,
  kind: z
    .enum(['article', 'annex', 'recital', 'section', 'clause'])
    .meta({ description: 'What is cited: an article, annex, recital, section (`§`), or a standard clause (`A.5.1`, `Clause 6.1.2`).' }),
  ref: z
    .string()
    .meta({ description: 'The citation in dictionary form (`art-10-2-f`, `annex-iii`, `sec-1798-100`, `A.5.1`, `recital-47`).' }),
  namedFramework: z.string().nullable().meta({ description: 'Framework named right after the reference (`of the GDPR`); null when none.' }),
  resolved: z.array(ResolvedClause).meta({ description: 'Dictionary clauses the reference resolves to; empty when none exists.' }),
});

const ObligationSentence = z.object({
  ...Span.shape,
  modal: z.string().meta({ description: 'The obligation phrase found (`shall`, `must`, `is required to`, ...), in lower case.' }),
  negated: z.boolean().meta({ description: 'True for a prohibition (`shall not`, `must not`).' }),
  references: z.array(z.string()).meta({ description: 'Refs (`art-9`) of the references inside the sentence.' }),
});

export const ClauseExtraction = z
  .object({
    object: contextObject('svc.context.clause_extraction'),
    documentId: z.string().nullable().meta({ description: 'The document read; null for inline text.' }),
    frameworksConsidered: z
      .array(z.string())
      .meta({ description: 'Dictionaries references without a named framework were resolved against.' }),
    references: z.array(ClauseReference).meta({ description: 'References in order of appearance (at most 1,000).' }),
    obligations: z.array(ObligationSentence).meta({ description: 'Obligation sentences in order of appearance (at most 1,000).' }),
  })
  .meta({
    id: 'ContextClauseExtraction',
    examples: [
      {
        object: 'svc.context.clause_extraction',
        documentId: null,
        frameworksConsidered: ['eu-ai-act'],
        references: [
          {
            start: 22,
            end: 37,
            text: 'Article 10(2)(f)',
            kind: 'article',
            ref: 'art-10-2-f',
            namedFramework: null,
            resolved: [
              {
                framework: 'eu-ai-act',
                dictionaryVersion: 'eu-ai-act@1.0.0',
                ref: 'art-10-2',
                title: 'Data governance and management practices',
                exact: false,
              },
            ],
          },
        ],
        obligations: [
          {
            start: 0,
            end: 105,
            text: 'Providers shall meet Article 10(2)(f) and keep the documentation of Annex IV of Regulation (EU) 2024/1689.',
            modal: 'shall',
            negated: false,
            references: ['art-10-2-f', 'annex-iv'],
          },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- map

export const MapBody = z
  .strictObject({
    documentId: DocumentId.meta({ description: 'Id of the uploaded document to map.' }),
    framework: FrameworkId.optional().meta({
      description: "Map to this dictionary's controls (its latest version) only; when absent, to each framework the tenant has activated.",
    }),
  })
  .meta({ id: 'MapContextRequest', examples: [{ documentId: DOC_EXAMPLE_ID, framework: 'eu-ai-act' }] });

const ControlMapping = z.object({
  passage: Span,
  control: z.string().meta({ description: 'Id of the control (`AIA-RMS-01`).' }),
  controlTitle: z.string().meta({ description: 'Title of the control.' }),
  framework: z.string().meta({ description: 'Id of the dictionary of the control.' }),
  score: z.number().min(0).max(1).meta({
    description:
      '0.5 × cites + 0.5 × (0.7 × share of the title terms found in the passage + 0.3 × share of the description terms), 0 to 1; cites is 1 when the passage cites a clause of the control or a sub-clause of one, 0.5 when it cites a parent of one, else 0. Mappings under 0.3 are dropped.',
  }),
  reason: z.string().meta({ description: 'Why, in words: the clauses cited and the terms matched.' }),
});

export const MappingResult = z
  .object({
    object: contextObject('svc.context.mapping'),
    documentId: z.string().meta({ description: 'The document mapped.' }),
    frameworks: z
      .array(
        z.object({
          framework: z.string().meta({ description: 'Id of the dictionary.' }),
          dictionaryVersion: z.string().meta({ description: '`<dictionary>@<version>` whose controls were scored.' }),
          mappingId: z
            .string()
            .meta({ description: 'Id (`cxm_`) of the stored mapping of this document and framework; a new map replaces it.' }),
          controls: z.int().min(0).meta({ description: 'Distinct controls the document maps to under it.' }),
        }),
      )
      .meta({ description: 'The frameworks mapped, by id.' }),
    mappings: z
      .array(ControlMapping)
      .meta({ description: 'Passage-to-control links, by passage then score (best 3 per passage and framework).' }),
    mappedAt: Timestamp.meta({ description: 'When the mapping was computed and stored (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'ContextMapping',
    examples: [
      {
        object: 'svc.context.mapping',
        documentId: DOC_EXAMPLE_ID,
        frameworks: [{ framework: 'eu-ai-act', dictionaryVersion: 'eu-ai-act@1.0.0', mappingId: exampleId('cxm'), controls: 1 }],
        mappings: [
          {
            passage: { start: 8, end: 121, text: EXAMPLE_RISK_SENTENCE },
            control: 'AIA-RMS-01',
            controlTitle: 'Risk management system',
            framework: 'eu-ai-act',
            score: 0.85,
            reason: 'cites art-9 (a clause of the control); title terms 3/3 (risk, management, system); description terms 4/21',
          },
        ],
        mappedAt: EXAMPLE_AT,
      },
    ],
  });

claimIdPrefix('cxm', 'svc.context.mapping');

// ---------------------------------------------------------------- gap-analysis and recommendations

const Missing = z
  .array(z.enum(['evidence', 'document']))
  .meta({ description: 'What the control lacks: unexpired `evidence` citing it, a `document` passage mapped to it, or both.' });

export const GapAnalysisBody = z
  .strictObject({ framework: FrameworkId.meta({ description: 'Id of a framework the tenant has activated.' }) })
  .meta({ id: 'GapAnalysisRequest', examples: [{ framework: 'eu-ai-act' }] });

export const GapAnalysis = z
  .object({
    object: contextObject('svc.context.gap_analysis'),
    framework: z.string().meta({ description: 'Id of the dictionary analysed.' }),
    dictionaryVersion: z.string().meta({ description: 'Activated `<dictionary>@<version>` whose controls are counted.' }),
    controls: z.int().min(0).meta({ description: 'Controls of that version.' }),
    covered: z.int().min(0).meta({ description: 'Of those, controls with both unexpired evidence and a mapped document passage.' }),
    gaps: z
      .array(
        z.object({
          control: z.string().meta({ description: 'Id of the control.' }),
          title: z.string().meta({ description: 'Title of the control.' }),
          missing: Missing,
          evidenceIds: z
            .array(z.string())
            .meta({ description: 'Unexpired evidence citing the control (empty when `evidence` is missing).' }),
          documentIds: z
            .array(z.string())
            .meta({ description: 'Documents with a passage mapped to the control (empty when `document` is missing).' }),
        }),
      )
      .meta({ description: 'Controls lacking evidence, a document, or both, in dictionary order.' }),
    computedAt: Timestamp.meta({ description: 'When it was computed (ISO 8601 UTC); evidence expiring after it counts.' }),
  })
  .meta({
    id: 'ContextGapAnalysis',
    examples: [
      {
        object: 'svc.context.gap_analysis',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        controls: 71,
        covered: 1,
        gaps: [
          {
            control: 'AIA-CLS-01',
            title: 'AI system inventory and role determination',
            missing: ['evidence', 'document'],
            evidenceIds: [],
            documentIds: [],
          },
        ],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

const PriorityPart = z.object({
  name: z
    .enum(['missing', 'obligations_in_force', 'crosswalk_reach'])
    .meta({ description: 'Which part: what is missing, obligations applicable now, or crosswalk reach.' }),
  value: z.number().min(0).meta({ description: 'The measured value (before the cap).' }),
  weight: z.number().min(0).meta({ description: 'Points per unit.' }),
  cap: z.number().min(0).meta({ description: 'Largest value counted.' }),
  points: z.number().min(0).meta({ description: '`min(value, cap) × weight`.' }),
});

export const RecommendationsQuery = z.object({
  framework: FrameworkId.optional().meta({ description: 'Only gaps of this activated framework; all activated frameworks when absent.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .meta({ description: 'How many recommendations to return, 1 to 200.', examples: [50] }),
});

export const Recommendations = z
  .object({
    object: contextObject('svc.context.recommendations'),
    frameworks: z.array(z.string()).meta({ description: 'The activated frameworks considered.' }),
    method: z.string().meta({ description: 'The priority formula, in words.' }),
    total: z.int().min(0).meta({ description: 'Gaps ranked in all (the list holds the first `limit`).' }),
    recommendations: z
      .array(
        z.object({
          rank: z.int().min(1).meta({ description: 'Position, from 1.' }),
          framework: z.string().meta({ description: 'Id of the dictionary of the control.' }),
          control: z.string().meta({ description: 'Id of the control.' }),
          title: z.string().meta({ description: 'Title of the control.' }),
          missing: Missing,
          priority: z.number().min(0).meta({ description: 'Sum of the parts’ points: higher closes first.' }),
          parts: z.array(PriorityPart).meta({ description: 'The parts the priority is computed from.' }),
          action: z.string().meta({ description: 'What to do, in words.' }),
        }),
      )
      .meta({ description: 'Gaps by priority, highest first; ties by framework then control id.' }),
    computedAt: Timestamp.meta({ description: 'When it was computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'ContextRecommendations',
    examples: [
      {
        object: 'svc.context.recommendations',
        frameworks: ['eu-ai-act'],
        method:
          'priority = 1.0 × missing (2 when evidence and document are missing, 1 when one is) + 0.4 × obligations in force (open or in progress, due date passed, on a clause of the control; at most 5) + 0.1 × crosswalk reach (requirements of other dictionaries linked to the control or its clauses; at most 10)',
        total: 1,
        recommendations: [
          {
            rank: 1,
            framework: 'eu-ai-act',
            control: 'AIA-RMS-01',
            title: 'Risk management system',
            missing: ['evidence', 'document'],
            priority: 3.4,
            parts: [
              { name: 'missing', value: 2, weight: 1, cap: 2, points: 2 },
              { name: 'obligations_in_force', value: 2, weight: 0.4, cap: 5, points: 0.8 },
              { name: 'crosswalk_reach', value: 6, weight: 0.1, cap: 10, points: 0.6 },
            ],
            action: 'Record evidence for AIA-RMS-01 and upload and map a document that covers it.',
          },
        ],
        computedAt: EXAMPLE_AT,
      },
    ],
  });
