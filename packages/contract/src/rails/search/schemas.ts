import { z } from 'zod';
import { PaginationQuery } from '../../shared/common.ts';
import { SEARCH_FACETS, SEARCH_SCOPES, type SearchFacet } from '../../shared/search-kinds.ts';
import { SEARCH_KIND_IDS } from './kinds.ts';

/** The search rail's results, the list of kinds and the queries of its routes. */

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
    scope: z.enum(SEARCH_SCOPES).meta({
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
      description: `Comma-separated kinds to search (${SEARCH_KIND_IDS.map((k) => `\`${k}\``).join(', ')}); all ${SEARCH_KIND_IDS.length} when absent. A filter on a facet a kind does not have leaves no record of that kind.`,
      examples: ['control,evidence,finding'],
    }),
});
