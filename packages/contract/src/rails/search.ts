import { z } from 'zod';
import { PaginationQuery } from '../common.ts';
import { meta } from '../meta.ts';
import { railRouter } from '../resource.ts';
import type { eventType } from '../webhook-events.ts';

/**
 * The search rail: BM25 full-text search with facet counts over 20 kinds of record. The kinds are
 * data, declared once here (`SEARCH_KINDS`): the server indexes each from its table or content
 * file, `GET /v1/search/kinds` lists them, and the routes accept their ids.
 */

// ---------------------------------------------------------------- the registry of kinds

/** Facets a kind can carry: the query parameter that filters on it and the key of its counts. */
export const SEARCH_FACETS = {
  kind: 'Kind of record (`control`, `clause`, ...), one of the ids of `GET /v1/search/kinds`.',
  framework: 'Framework dictionary the record belongs to or cites (`eu-ai-act`); a crosswalk edge has both of its ends.',
  jurisdiction: "Jurisdiction: a dictionary's (`EU`), an assessment's, a sub-processor's region, a specialist's.",
  category: "Category: a control's, a workflow's, the key of a metadata label.",
  type: "Type within the kind: a framework's kind (`regulation`), an evidence record's kind (`policy`), an assessment's type, a question's answer type, an attestation's subject type, a label's resource type.",
  status: 'Lifecycle state of the record (`open`, `draft`, `active`, ...).',
  severity: 'Severity of a finding: `low`, `medium`, `high` or `critical`.',
  relationship: 'Relationship of a crosswalk edge: `equal`, `subset`, `superset`, `intersect` or `not_related`.',
  rationale: 'Rationale of a crosswalk edge: `syntactic`, `semantic` or `functional`.',
  control: 'Control id the record cites (`AIA-RMS-01`).',
  expertise: 'Framework id a specialist lists as expertise.',
  firm: 'Id of the firm a specialist belongs to (`frm_...`).',
} as const;

export type SearchFacet = keyof typeof SEARCH_FACETS;

/** Where a kind's documents come from: reference content (every tenant), the tenant's own records, the marketplace. */
export type SearchScope = 'content' | 'tenant' | 'marketplace';

export interface SearchKindSpec {
  readonly id: string;
  readonly label: string;
  readonly scope: SearchScope;
  /** Table or content file the documents are read from. */
  readonly source: string;
  /** Fields whose text is indexed, the title field first. */
  readonly indexedFields: readonly string[];
  readonly facets: readonly SearchFacet[];
}

/** The 20 searchable kinds. */
export const SEARCH_KINDS = [
  {
    id: 'framework',
    label: 'Framework dictionary',
    scope: 'content',
    source: 'frameworks',
    indexedFields: ['title', 'shortTitle', 'description', 'publisher'],
    facets: ['framework', 'jurisdiction', 'type'],
  },
  {
    id: 'control',
    label: 'Control of a dictionary',
    scope: 'content',
    source: 'framework_controls',
    indexedFields: ['title', 'id', 'description', 'category'],
    facets: ['framework', 'jurisdiction', 'category'],
  },
  {
    id: 'clause',
    label: 'Clause of a dictionary',
    scope: 'content',
    source: 'framework_clauses',
    indexedFields: ['title', 'ref', 'summary'],
    facets: ['framework', 'jurisdiction'],
  },
  {
    id: 'requirement',
    label: 'Obligation of a dictionary',
    scope: 'content',
    source: 'framework_obligations',
    indexedFields: ['title', 'id', 'description', 'actor'],
    facets: ['framework', 'jurisdiction'],
  },
  {
    id: 'question',
    label: 'Assessment question of a dictionary',
    scope: 'content',
    source: 'framework_questions',
    indexedFields: ['text', 'id', 'controlId'],
    facets: ['framework', 'jurisdiction', 'type', 'control'],
  },
  {
    id: 'glossary_term',
    label: 'Glossary term',
    scope: 'content',
    source: 'glossary_terms',
    indexedFields: ['term', 'synonyms', 'definition'],
    facets: ['framework', 'jurisdiction'],
  },
  {
    id: 'crosswalk',
    label: 'Crosswalk edge between two dictionaries',
    scope: 'content',
    source: 'crosswalk_edges',
    indexedFields: ['endpoints', 'fromTitle', 'toTitle', 'note'],
    facets: ['framework', 'relationship', 'rationale'],
  },
  {
    id: 'profile',
    label: 'Industry profile',
    scope: 'content',
    source: 'content/profiles/industry-profiles.json',
    indexedFields: ['title', 'description', 'frameworks.why'],
    facets: ['framework'],
  },
  {
    id: 'workflow',
    label: 'Stock workflow of the registry',
    scope: 'content',
    source: 'content/workflows/stock-workflows.json',
    indexedFields: ['title', 'description', 'steps.title'],
    facets: ['framework', 'category'],
  },
  {
    id: 'evidence',
    label: 'Evidence record',
    scope: 'tenant',
    source: 'evidence',
    indexedFields: ['title', 'description', 'kind', 'controlIds', 'systemId'],
    facets: ['type', 'control'],
  },
  {
    id: 'assessment',
    label: 'Assessment',
    scope: 'tenant',
    source: 'assessments',
    indexedFields: ['title', 'type', 'systemId', 'jurisdiction'],
    facets: ['type', 'status', 'jurisdiction'],
  },
  {
    id: 'attestation',
    label: 'Attestation',
    scope: 'tenant',
    source: 'attestations',
    indexedFields: ['statement', 'attesterName', 'attesterTitle', 'subjectId'],
    facets: ['type'],
  },
  {
    id: 'obligation',
    label: 'Obligation of the tenant (from an activated framework)',
    scope: 'tenant',
    source: 'obligations',
    indexedFields: ['title', 'description', 'clauseRef', 'actor'],
    facets: ['framework', 'status'],
  },
  {
    id: 'finding',
    label: 'Self-audit finding',
    scope: 'tenant',
    source: 'self_audit_findings',
    indexedFields: ['title', 'description', 'controlId', 'systemId'],
    facets: ['severity', 'status', 'control'],
  },
  {
    id: 'policy',
    label: 'Policy',
    scope: 'tenant',
    source: 'policies',
    indexedFields: ['title', 'controlIds'],
    facets: ['status', 'control'],
  },
  {
    id: 'label',
    label: 'Metadata label',
    scope: 'tenant',
    source: 'metadata_labels',
    indexedFields: ['value', 'key', 'resourceId'],
    facets: ['type', 'category'],
  },
  {
    id: 'certification',
    label: 'Certification on the trust page',
    scope: 'tenant',
    source: 'trust_certifications',
    indexedFields: ['name', 'issuer', 'scope'],
    facets: [],
  },
  {
    id: 'sub_processor',
    label: 'Sub-processor on the trust page',
    scope: 'tenant',
    source: 'trust_sub_processors',
    indexedFields: ['name', 'purpose', 'region'],
    facets: ['jurisdiction'],
  },
  {
    id: 'person',
    label: 'Stakeholder user',
    scope: 'tenant',
    source: 'stakeholder_users',
    indexedFields: ['name', 'email'],
    facets: ['status'],
  },
  {
    id: 'specialist',
    label: "Specialist consultant (listed in the marketplace, or the caller's own)",
    scope: 'marketplace',
    source: 'specialist_consultants + specialist_firms',
    indexedFields: ['name', 'headline', 'firm.name', 'firm.description', 'expertise'],
    facets: ['expertise', 'jurisdiction', 'firm'],
  },
] as const satisfies readonly SearchKindSpec[];

export type SearchKindId = (typeof SEARCH_KINDS)[number]['id'];
export const SEARCH_KIND_IDS = SEARCH_KINDS.map((k) => k.id) as [SearchKindId, ...SearchKindId[]];

/** The search routes over a fixed set of kinds, and those kinds. */
export const SEARCH_ROUTE_KINDS = {
  frameworks: ['framework', 'control', 'clause', 'requirement', 'question', 'glossary_term'],
  evidence: ['evidence'],
  findings: ['finding'],
  specialists: ['specialist'],
  crosswalks: ['crosswalk'],
} as const satisfies Record<string, readonly SearchKindId[]>;

export type SearchRoute = keyof typeof SEARCH_ROUTE_KINDS;

/** Facets of a set of kinds: the union of theirs, with `kind` first when there are several. */
export function searchFacetsOf(kinds: readonly SearchKindId[]): SearchFacet[] {
  const out = new Set<SearchFacet>(kinds.length > 1 ? ['kind'] : []);
  for (const id of kinds) for (const f of SEARCH_KINDS.find((k) => k.id === id)?.facets ?? []) out.add(f);
  return [...out];
}

// ---------------------------------------------------------------- schemas

const objectDescription = 'Type of the object, constant for the schema (`svc.search.results`).';

/** A kind id of the registry; each use says what it is the kind of. */
const KindId = z.enum(SEARCH_KIND_IDS);

const Cursor = z.string().nullable().meta({ description: 'Cursor of the next page; null on the last page.' });

const kindExample = {
  object: 'svc.search.kind',
  id: 'control',
  label: 'Control of a dictionary',
  scope: 'content',
  source: 'framework_controls',
  indexedFields: ['title', 'id', 'description', 'category'],
  facetFields: ['framework', 'jurisdiction', 'category'],
  routes: ['frameworks'],
} as const;

export const SearchKind = z
  .object({
    object: z.literal('svc.search.kind').meta({ description: 'Type of the object, constant for the schema (`svc.search.kind`).' }),
    id: KindId.meta({ description: 'Kind id, as `kind` of a hit and in `kinds` of the multi-index search.' }),
    label: z.string().meta({ description: 'What the kind is, in words.' }),
    scope: z.enum(['content', 'tenant', 'marketplace']).meta({
      description:
        "`content`: reference content, the same for every tenant; `tenant`: the caller's own records; `marketplace`: specialists listed by any tenant, plus the caller's own.",
    }),
    source: z.string().meta({ description: 'Table or content file the documents are read from.' }),
    indexedFields: z
      .array(z.string())
      .meta({ description: 'Fields of the record whose text is indexed for BM25, the title field first (it weighs double).' }),
    facetFields: z
      .array(z.enum(Object.keys(SEARCH_FACETS) as [SearchFacet, ...SearchFacet[]]))
      .meta({ description: 'Facets counted and filterable for this kind (query parameters of the same names).' }),
    routes: z
      .array(z.string())
      .meta({ description: 'Search routes that cover the kind besides `multi-index` (`frameworks`, `evidence`, ...).' }),
  })
  .meta({ id: 'SearchKind', examples: [kindExample] });

export const SearchKindList = z
  .object({
    data: z.array(SearchKind).meta({ description: 'The searchable kinds, in registry order (content, tenant, marketplace).' }),
    cursor: Cursor,
  })
  .meta({ id: 'SearchKindList', examples: [{ data: [kindExample], cursor: null }] });

const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

export const SearchHit = z
  .object({
    kind: KindId.meta({ description: 'Kind of the record (see `GET /v1/search/kinds`).' }),
    id: z.string().meta({
      description:
        'Id of the record within its kind: the prefixed id of a tenant record, `<dictionary>@<version>/<id>` of a dictionary record, `<crosswalk>#<position>` of a crosswalk edge.',
    }),
    score: z.number().min(0).meta({ description: 'BM25 relevance of the record to `q` (higher is better); the order of `data`.' }),
    title: z.string().meta({ description: 'Title of the record (its name, term, question text, or the two ends of an edge).' }),
    snippet: z.string().nullable().meta({
      description:
        "Up to 200 characters of the record's other indexed text, around the first query word found in it (from its start when none is); null when the record has no other text.",
    }),
    fields: z.record(z.string(), FieldValue).meta({
      description: 'Facet values and a few identifying fields of the record, by facet or field name (`framework`, `severity`, ...).',
    }),
  })
  .meta({ description: 'One ranked hit.' });

const FacetCounts = z.record(z.string(), z.record(z.string(), z.int().min(0))).meta({
  description:
    "Per facet, the number of matching records with each value, over all matches (not only this page) after the filters. A record with several values (a crosswalk edge's two frameworks) counts under each.",
});

const resultFields = {
  object: z.literal('svc.search.results').meta({ description: objectDescription }),
  query: z.string().meta({ description: 'The query as searched (`q`, trimmed).' }),
  data: z.array(SearchHit).meta({ description: 'Hits of this page, best first (by `score`, then by kind and id).' }),
  facets: FacetCounts,
  total: z.int().min(0).meta({ description: 'Number of records matching `q` and the filters, over all pages.' }),
  cursor: Cursor,
};

const hitExample = {
  kind: 'control',
  id: 'eu-ai-act@1.0.0/AIA-RMS-01',
  score: 7.4312,
  title: 'Risk management system',
  snippet: 'Establish, implement, document and maintain a risk management system for each high-risk AI system.',
  fields: { framework: ['eu-ai-act'], jurisdiction: ['EU'], category: 'risk-management', controlId: 'AIA-RMS-01' },
};

export const SearchResults = z.object(resultFields).meta({
  id: 'SearchResults',
  examples: [
    {
      object: 'svc.search.results',
      query: 'risk management',
      data: [hitExample],
      facets: { kind: { control: 12, clause: 4 }, framework: { 'eu-ai-act': 9, 'iso-iec-42001': 7 }, jurisdiction: { EU: 9, INT: 7 } },
      total: 16,
      cursor: 'eyJvIjoyMCwiaCI6IjNhZjAifQ',
    },
  ],
});

export const MultiIndexResults = z
  .object({
    ...resultFields,
    object: z.literal('svc.search.multi_index_results').meta({ description: 'Type of the object (`svc.search.multi_index_results`).' }),
    kinds: z
      .array(
        z.object({
          kind: KindId.meta({ description: 'Kind searched.' }),
          total: z.int().min(0).meta({ description: 'Records of this kind matching `q` and the filters.' }),
          facets: FacetCounts,
        }),
      )
      .meta({ description: 'Per kind searched, in the order of `kinds`: its matches and its own facet counts.' }),
  })
  .meta({
    id: 'SearchMultiIndexResults',
    examples: [
      {
        object: 'svc.search.multi_index_results',
        query: 'risk',
        data: [hitExample],
        facets: { kind: { control: 12, evidence: 1 } },
        total: 13,
        cursor: null,
        kinds: [
          { kind: 'control', total: 12, facets: { framework: { 'eu-ai-act': 12 } } },
          { kind: 'evidence', total: 1, facets: { type: { policy: 1 }, control: { 'AIA-RMS-01': 1 } } },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- queries

const Q = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({
    description:
      'The text to search, 1 to 200 characters: words are matched against the indexed fields (case ignored; a word also matches longer words it begins); records are ranked by BM25 relevance, the title weighing double.',
    examples: ['risk management'],
  });

const facetParam = (facet: SearchFacet) =>
  z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({
      description: `Only records whose facet \`${facet}\` has this value, or one of these comma-separated values. ${SEARCH_FACETS[facet]} Filters on several facets combine with AND.`,
    });

function searchQuery<const F extends readonly SearchFacet[]>(facets: F) {
  const shape = Object.fromEntries(facets.map((f) => [f, facetParam(f)])) as { [K in F[number]]: ReturnType<typeof facetParam> };
  return PaginationQuery.extend({ q: Q, ...shape });
}

const ALL_FACETS = Object.keys(SEARCH_FACETS) as SearchFacet[];

export const SearchQueries = {
  frameworks: searchQuery(['kind', 'framework', 'jurisdiction', 'category', 'type', 'control']),
  evidence: searchQuery(['type', 'control']),
  findings: searchQuery(['severity', 'status', 'control']),
  specialists: searchQuery(['expertise', 'jurisdiction', 'firm']),
  crosswalks: searchQuery(['framework', 'relationship', 'rationale']),
} as const;

export const MultiIndexQuery = searchQuery(ALL_FACETS.filter((f) => f !== 'kind')).extend({
  kinds: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({
      description: `Comma-separated kinds to search (${SEARCH_KIND_IDS.map((k) => `\`${k}\``).join(', ')}); all 20 when absent. A filter on a facet a kind does not have leaves no record of that kind.`,
      examples: ['control,evidence,finding'],
    }),
});

// ---------------------------------------------------------------- router

const read = meta({ auth: 'tenant', rail: 'search', permission: 'search:read', mutating: false });

const freshness = 'The index follows writes: a record created or changed through any API process is found by the next search.';

const searchRoute = <R extends SearchRoute>(route: R, what: string) => ({
  method: 'GET' as const,
  path: `/${route}`,
  query: SearchQueries[route],
  responses: { 200: SearchResults },
  summary: `Search ${what}`,
  description: `BM25 full-text search over ${what} (kinds ${SEARCH_ROUTE_KINDS[route].map((k) => `\`${k}\``).join(', ')}), best first, with facet counts over every match: \`{ data: [{ kind, id, score, title, snippet, fields }], facets, total, cursor }\`. \`q\` is required (422 when empty); facet filters narrow the matches and their counts. ${freshness} Pages with \`limit\` and the opaque \`cursor\` of the previous page. Needs \`search:read\`.`,
  metadata: read,
});

export const searchRouter = railRouter('search', {
  kinds: {
    method: 'GET',
    path: '/kinds',
    query: PaginationQuery,
    responses: { 200: SearchKindList },
    summary: 'List the searchable kinds',
    description:
      'The 20 kinds of record behind `/v1/search`: id, label, scope, source, indexed fields and facet fields, in registry order. Needs `search:read`.',
    metadata: read,
  },
  frameworks: searchRoute(
    'frameworks',
    'the framework dictionaries: frameworks, their controls, clauses, obligations and questions, and the glossary',
  ),
  evidence: searchRoute('evidence', "the tenant's evidence records"),
  findings: searchRoute('findings', "the tenant's self-audit findings"),
  specialists: searchRoute('specialists', "specialist consultants listed in the marketplace (with their firm), and the tenant's own"),
  crosswalks: searchRoute('crosswalks', 'the crosswalk edges between dictionaries (ends titled from the dictionaries)'),
  multiIndex: {
    method: 'GET',
    path: '/multi-index',
    query: MultiIndexQuery,
    responses: { 200: MultiIndexResults },
    summary: 'Search several kinds at once',
    description: `BM25 full-text search over the kinds named in \`kinds\` (all 20 when absent), ranked together, with facet counts overall (\`facets\`) and per kind (\`kinds[]\`). Reference content, the tenant's records and the marketplace are three indexes; their scores are merged as they are. ${freshness} An unknown kind is 422 naming \`kinds\`. Needs \`search:read\`.`,
    metadata: read,
  },
});

/** Event types the search rail emits: none, it only reads. */
export const searchEvents: ReturnType<typeof eventType>[] = [];
