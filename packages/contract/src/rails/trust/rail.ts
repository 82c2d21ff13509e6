import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The trust rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { trustEvents as events, trustRouter as router } from './routes.ts';
export const key = 'trust';

/** Kinds of the trust rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
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
]);
