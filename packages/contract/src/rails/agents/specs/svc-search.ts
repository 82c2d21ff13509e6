import { searchFacade } from './shared.ts';

export const svcSearch = searchFacade(
  'svc-search',
  'Search',
  'Cross-rail search: translates a natural-language query into BM25 terms and facet filters, runs it on the search engine over dictionaries and the tenant’s records and returns ranked hits with the parsed query.',
  'SvcSearch',
  'risk management controls of the ai act',
);
