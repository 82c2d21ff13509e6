import { railSearchKinds } from '../../platform/rail.ts';
import type { SearchFacet } from '../../shared/search-kinds.ts';
import { RAILS } from '../index.ts';

/**
 * The registry of searchable kinds: the kinds every rail of the list declares (`searchKinds` of
 * its rail.ts), content first, then the tenant's records, then the marketplace. The server indexes
 * each from the source it names, `GET /v1/search/kinds` lists them, and the routes accept their ids.
 */
export const SEARCH_KINDS = railSearchKinds(RAILS);

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
