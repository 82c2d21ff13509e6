import { searchFacade } from './shared.ts';

export const alt2Search = searchFacade(
  'alt2-search',
  'Search (dictionary surface)',
  'Search facade of the dictionary surface over the same engine: its preset favours clauses, controls and glossary terms.',
  'Alt2Search',
  'human oversight',
);
