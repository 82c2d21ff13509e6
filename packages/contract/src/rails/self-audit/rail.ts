import { defineSearchKinds } from '../../shared/search-kinds.ts';

/** The self audit rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { selfAuditEvents as events, selfAuditRouter as router } from './routes.ts';
export const key = 'self_audit';

/** Kinds of the self audit rail's records that `/v1/search` indexes. */
export const searchKinds = defineSearchKinds([
  {
    id: 'finding',
    label: 'Self-audit finding',
    scope: 'tenant',
    source: 'self_audit_findings',
    indexedFields: ['title', 'description', 'controlId', 'systemId'],
    facets: ['severity', 'status', 'control'],
  },
]);
