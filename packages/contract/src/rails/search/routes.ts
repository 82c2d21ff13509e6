import { get, policyOf } from '../../platform/declare.ts';
import { railRouter } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { PaginationQuery } from '../../shared/common.ts';
import { SEARCH_KINDS, SEARCH_ROUTE_KINDS, type SearchRoute } from './kinds.ts';
import { MultiIndexQuery, MultiIndexResults, SearchKindList, SearchQueries, SearchResults } from './schemas.ts';

/** The search rail's routes, its router and the event types it emits (none). */

const { read } = policyOf('search');

const freshness = 'The index follows writes: a record created or changed through any API process is found by the next search.';

const searchRoute = <R extends SearchRoute>(route: R, what: string) =>
  get(`/${route}`, { query: SearchQueries[route] }, SearchResults, read).doc(
    `Search ${what}`,
    `BM25 full-text search over ${what} (kinds ${SEARCH_ROUTE_KINDS[route].map((k) => `\`${k}\``).join(', ')}), best first, with facet counts over every match: \`{ data: [{ kind, id, score, title, snippet, fields }], facets, total, cursor }\`. \`q\` is required (422 when empty); facet filters narrow the matches and their counts. ${freshness} Pages with \`limit\` and the opaque \`cursor\` of the previous page. Needs \`search:read\`.`,
  );

export const searchRouter = railRouter('search', {
  kinds: get('/kinds', { query: PaginationQuery }, SearchKindList, read).doc(
    'List the searchable kinds',
    `The ${SEARCH_KINDS.length} kinds of record behind \`/v1/search\`: id, label, scope, source, indexed fields and facet fields, in registry order. Needs \`search:read\`.`,
  ),
  frameworks: searchRoute(
    'frameworks',
    'the framework dictionaries: frameworks, their controls, clauses, obligations and questions, and the glossary',
  ),
  evidence: searchRoute('evidence', "the tenant's evidence records"),
  findings: searchRoute('findings', "the tenant's self-audit findings"),
  specialists: searchRoute('specialists', "specialist consultants listed in the marketplace (with their firm), and the tenant's own"),
  crosswalks: searchRoute('crosswalks', 'the crosswalk edges between dictionaries (ends titled from the dictionaries)'),
  multiIndex: get('/multi-index', { query: MultiIndexQuery }, MultiIndexResults, read).doc(
    'Search several kinds at once',
    `BM25 full-text search over the kinds named in \`kinds\` (all ${SEARCH_KINDS.length} when absent), ranked together, with facet counts overall (\`facets\`) and per kind (\`kinds[]\`). Reference content, the tenant's records and the marketplace are three indexes; their scores are merged as they are. ${freshness} An unknown kind is 422 naming \`kinds\`. Needs \`search:read\`.`,
  ),
});

/** Event types the search rail emits: none, it only reads. */
export const searchEvents: ReturnType<typeof eventType>[] = [];
