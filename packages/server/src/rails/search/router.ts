import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { searchIndexesFor } from '../../search/indexes.ts';
import { listKinds, searchMultiIndex, searchRoute } from '../../search/service.ts';
import { type RailDeps, tenantOf } from '../deps.ts';

export function searchHandlers({ db }: RailDeps) {
  // The indexes of this process's database client (shared with the agents that search), kept fresh by watermarks.
  const indexes = searchIndexesFor(db);
  const route =
    (name: 'frameworks' | 'evidence' | 'findings' | 'specialists' | 'crosswalks') =>
    async ({ query, res }: { query: Parameters<typeof searchRoute>[3]; res: Parameters<typeof tenantOf>[0] }) => ({
      status: 200 as const,
      body: await searchRoute(indexes, tenantOf(res).tenantId, name, query),
    });
  return initServer().router(contract.search, {
    kinds: async ({ query }) => ({ status: 200, body: listKinds(query) }),
    frameworks: route('frameworks'),
    evidence: route('evidence'),
    findings: route('findings'),
    specialists: route('specialists'),
    crosswalks: route('crosswalks'),
    multiIndex: async ({ query, res }) => ({ status: 200, body: await searchMultiIndex(indexes, tenantOf(res).tenantId, query) }),
  });
}
