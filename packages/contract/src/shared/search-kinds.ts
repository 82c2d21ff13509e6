/**
 * The words a searchable kind of record is declared with. A rail whose records `/v1/search`
 * indexes declares their kinds (`searchKinds` of its rail.ts, written with `defineSearchKinds`);
 * the search rail is built from the kinds of every rail (rails/search/kinds.ts), and the server
 * indexes each kind from the source its rail names.
 */

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

/**
 * Where a kind's documents come from: reference content (every tenant), the tenant's own records,
 * the marketplace. The registry lists the kinds in this order of scopes.
 */
export const SEARCH_SCOPES = ['content', 'tenant', 'marketplace'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

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

/** A rail's searchable kinds, checked against `SearchKindSpec` with their literal ids and facets kept. */
export function defineSearchKinds<const K extends readonly SearchKindSpec[]>(kinds: K): K {
  return kinds;
}
