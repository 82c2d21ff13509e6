import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The workflows registry rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { workflowsRegistryEvents as events, workflowsRegistryRouter as router } from './index.ts';
export const key = 'workflows_registry';

/** Kinds of the workflows registry rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'workflow',
    label: 'Stock workflow of the registry',
    scope: 'content',
    source: 'content/workflows/stock-workflows.json',
    indexedFields: ['title', 'description', 'steps.title'],
    facets: ['framework', 'category'],
  },
]);
