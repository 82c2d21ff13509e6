import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The policy authoring rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { policyAuthoringEvents as events, policyAuthoringRouter as router } from './routes.ts';
export const key = 'policy_authoring';

/** Kinds of the policy authoring rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'policy',
    label: 'Policy',
    scope: 'tenant',
    source: 'policies',
    indexedFields: ['title', 'controlIds'],
    facets: ['status', 'control'],
  },
]);
