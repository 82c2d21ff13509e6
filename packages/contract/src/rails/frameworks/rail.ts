import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The frameworks rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { frameworksEvents as events, frameworksRouter as router } from './index.ts';
export const key = 'frameworks';

/** Kinds of the frameworks rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
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
]);
