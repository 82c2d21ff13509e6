import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The metadata rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { metadataEvents as events, metadataRouter as router } from './routes.ts';
export const key = 'metadata';

/** Kinds of the metadata rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'label',
    label: 'Metadata label',
    scope: 'tenant',
    source: 'metadata_labels',
    indexedFields: ['value', 'key', 'resourceId'],
    facets: ['type', 'category'],
  },
]);
