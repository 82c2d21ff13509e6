import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The stakeholders rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { stakeholdersEvents as events, stakeholdersRouter as router } from './routes.ts';
export const key = 'stakeholders';

/** Kinds of the stakeholders rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'person',
    label: 'Stakeholder user',
    scope: 'tenant',
    source: 'stakeholder_users',
    indexedFields: ['name', 'email'],
    facets: ['status'],
  },
]);
