import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The glossary rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { glossaryRouter as router } from './index.ts';
export const key = 'glossary';

/** Kinds of the glossary rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'glossary_term',
    label: 'Glossary term',
    scope: 'content',
    source: 'glossary_terms',
    indexedFields: ['term', 'synonyms', 'definition'],
    facets: ['framework', 'jurisdiction'],
  },
]);
