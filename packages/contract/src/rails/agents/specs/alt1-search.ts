import { searchFacade } from './shared.ts';

export const alt1Search = searchFacade(
  'alt1-search',
  'Search (evidence surface)',
  'Search facade of the evidence surface over the same engine: its preset favours the tenant’s evidence, findings and policies.',
  'Alt1Search',
  'access control evidence',
);
