import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The specialists rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { specialistsEvents as events, specialistsRouter as router } from './routes.ts';
export const key = 'specialists';

/** Kinds of the specialists rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'specialist',
    label: "Specialist consultant (listed in the marketplace, or the caller's own)",
    scope: 'marketplace',
    source: 'specialist_consultants + specialist_firms',
    indexedFields: ['name', 'headline', 'firm.name', 'firm.description', 'expertise'],
    facets: ['expertise', 'jurisdiction', 'firm'],
  },
]);
