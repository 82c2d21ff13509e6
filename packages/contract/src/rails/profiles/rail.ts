import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The profiles rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { profilesEvents as events, profilesRouter as router } from './index.ts';
export const key = 'profiles';

/** Kinds of the profiles rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'profile',
    label: 'Industry profile',
    scope: 'content',
    source: 'content/profiles/industry-profiles.json',
    indexedFields: ['title', 'description', 'frameworks.why'],
    facets: ['framework'],
  },
]);
