import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The compliance rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { complianceEvents as events, complianceRouter as router } from './routes.ts';
export const key = 'compliance';

/** Kinds of the compliance rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'evidence',
    label: 'Evidence record',
    scope: 'tenant',
    source: 'evidence',
    indexedFields: ['title', 'description', 'kind', 'controlIds', 'systemId'],
    facets: ['type', 'control'],
  },
  {
    id: 'assessment',
    label: 'Assessment',
    scope: 'tenant',
    source: 'assessments',
    indexedFields: ['title', 'type', 'systemId', 'jurisdiction'],
    facets: ['type', 'status', 'jurisdiction'],
  },
  {
    id: 'attestation',
    label: 'Attestation',
    scope: 'tenant',
    source: 'attestations',
    indexedFields: ['statement', 'attesterName', 'attesterTitle', 'subjectId'],
    facets: ['type'],
  },
  {
    id: 'obligation',
    label: 'Obligation of the tenant (from an activated framework)',
    scope: 'tenant',
    source: 'obligations',
    indexedFields: ['title', 'description', 'clauseRef', 'actor'],
    facets: ['framework', 'status'],
  },
]);
