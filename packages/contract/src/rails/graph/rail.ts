import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The graph rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { graphRouter as router } from './index.ts';
export const key = 'graph';

/** Kinds of the graph rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'crosswalk',
    label: 'Crosswalk edge between two dictionaries',
    scope: 'content',
    source: 'crosswalk_edges',
    indexedFields: ['endpoints', 'fromTitle', 'toTitle', 'note'],
    facets: ['framework', 'relationship', 'rationale'],
  },
]);
