/**
 * The search rail (`/v1/search`): BM25 full-text search with facet counts over the kinds of record
 * the other rails declare (kinds.ts collects them from the rails index). Built after the list of
 * rails, from their kinds: the contract's router adds it last (platform/router.ts).
 */

export * from './kinds.ts';
export * from './routes.ts';
export * from './schemas.ts';
