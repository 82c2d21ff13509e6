import { createHash } from 'node:crypto';
import {
  type MultiIndexResults,
  SEARCH_FACETS,
  SEARCH_KIND_IDS,
  SEARCH_KINDS,
  SEARCH_ROUTE_KINDS,
  type SearchFacet,
  type SearchKind,
  type SearchKindId,
  type SearchResults,
  type SearchRoute,
  type SearchScope,
  searchFacetsOf,
} from '@svc/contract';
import type { z } from 'zod';
import { ApiError } from '../errors.ts';
import type { EngineResult, SearchDoc } from './engine.ts';
import { searchIndex } from './engine.ts';
import type { SearchIndexes, Watermarks } from './indexes.ts';

type Results = z.infer<typeof SearchResults>;
type MultiResults = z.infer<typeof MultiIndexResults>;
type Hit = Results['data'][number];

const KIND = new Map<SearchKindId, (typeof SEARCH_KINDS)[number]>(SEARCH_KINDS.map((k) => [k.id, k]));
const scopeOf = (kind: SearchKindId): SearchScope => (KIND.get(kind) as { scope: SearchScope }).scope;
const facetsOfKind = (kind: SearchKindId): readonly SearchFacet[] => (KIND.get(kind) as { facets: readonly SearchFacet[] }).facets;
const FACET_NAMES = new Set(Object.keys(SEARCH_FACETS));
const SCOPES: SearchScope[] = ['content', 'tenant', 'marketplace'];

// ---------------------------------------------------------------- the list of kinds

export function listKinds(query: { limit: number; cursor?: string | undefined }): {
  data: z.infer<typeof SearchKind>[];
  cursor: string | null;
} {
  const all = SEARCH_KINDS.map((k) => ({
    object: 'svc.search.kind' as const,
    id: k.id,
    label: k.label,
    scope: k.scope,
    source: k.source,
    indexedFields: [...k.indexedFields],
    facetFields: [...k.facets],
    routes: Object.entries(SEARCH_ROUTE_KINDS)
      .filter(([, kinds]) => (kinds as readonly string[]).includes(k.id))
      .map(([route]) => route),
  }));
  const offset = readCursor(query.cursor, 'kinds');
  const data = all.slice(offset, offset + query.limit);
  return { data, cursor: offset + query.limit < all.length ? writeCursor(offset + query.limit, 'kinds') : null };
}

// ---------------------------------------------------------------- cursors

/** An offset into the ranked result, bound to the query it pages through. */
function writeCursor(offset: number, signature: string): string {
  return Buffer.from(JSON.stringify({ o: offset, h: hashOf(signature) })).toString('base64url');
}

function readCursor(cursor: string | undefined, signature: string): number {
  if (cursor === undefined) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const c = parsed as { o?: unknown; h?: unknown } | undefined;
  if (!c || typeof c.o !== 'number' || !Number.isInteger(c.o) || c.o < 0 || c.o > 100_000 || c.h !== hashOf(signature)) {
    throw new ApiError('bad_request', 'The cursor is malformed or belongs to another query; pass the cursor of the previous page.', [
      { field: 'cursor', issue: 'invalid_value' },
    ]);
  }
  return c.o;
}

const hashOf = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 12);

// ---------------------------------------------------------------- query parsing

type Query = Record<string, unknown> & { q: string; limit: number; cursor?: string | undefined };

function splitValues(field: string, value: string): string[] {
  const values = [...new Set(value.split(',').map((v) => v.trim()))];
  if (values.some((v) => v.length === 0) || values.length > 50) {
    throw new ApiError('validation_failed', `${field} must be one value or up to 50 comma-separated values, none empty.`, [
      { field, issue: 'invalid_value' },
    ]);
  }
  return values;
}

/** The facet filters of the query: facet -> accepted values. */
function filtersOf(query: Query): Partial<Record<SearchFacet, string[]>> {
  const out: Partial<Record<SearchFacet, string[]>> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!FACET_NAMES.has(key) || typeof value !== 'string') continue;
    out[key as SearchFacet] = splitValues(key, value);
  }
  return out;
}

function signatureOf(route: string, query: Query, kinds: readonly string[]): string {
  const filters = Object.entries(filtersOf(query))
    .map(([k, v]) => `${k}=${[...v].sort().join(',')}`)
    .sort();
  return JSON.stringify([route, query.q, kinds, filters]);
}

// ---------------------------------------------------------------- hits

const WORD = /[\p{L}\p{N}]+/gu;

function snippetOf(doc: SearchDoc, term: string): string | null {
  const text = doc.text.replace(/\s+/g, ' ').trim();
  if (text.length === 0) return null;
  const lower = text.toLowerCase();
  let at = -1;
  for (const w of term.toLowerCase().match(WORD) ?? []) {
    if (w.length < 2) continue;
    const i = lower.search(new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u'));
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (text.length <= 200) return text;
  const start = at < 0 ? 0 : Math.max(0, Math.min(at - 60, text.length - 200));
  const cut = text.slice(start, start + 200);
  return `${start > 0 ? '...' : ''}${cut}${start + 200 < text.length ? '...' : ''}`;
}

function hitOf(doc: SearchDoc, score: number, term: string): Hit {
  return {
    kind: doc.kind,
    id: doc.ref,
    score: Math.round(score * 10_000) / 10_000,
    title: doc.title,
    snippet: snippetOf(doc, term),
    fields: doc.fields,
  };
}

// ---------------------------------------------------------------- searching

async function indexFor(indexes: SearchIndexes, scope: SearchScope, tenantId: string, w: Watermarks) {
  if (scope === 'content') return indexes.contentIndex(w);
  if (scope === 'marketplace') return indexes.marketplaceIndex(w);
  return indexes.tenantIndex(tenantId, w);
}

/** A search over one route's kinds (all of one scope). */
export async function searchRoute(indexes: SearchIndexes, tenantId: string, route: SearchRoute, query: Query): Promise<Results> {
  const routeKinds = SEARCH_ROUTE_KINDS[route] as readonly SearchKindId[];
  const filters = filtersOf(query);
  let kinds = routeKinds;
  if (filters.kind) {
    const unknown = filters.kind.filter((k) => !routeKinds.includes(k as SearchKindId));
    if (unknown.length > 0) {
      throw new ApiError('validation_failed', `kind must be among ${routeKinds.join(', ')}; got ${unknown.join(', ')}.`, [
        { field: 'kind', issue: 'invalid_value' },
      ]);
    }
    kinds = routeKinds.filter((k) => filters.kind?.includes(k));
  }
  const scope = scopeOf(routeKinds[0] as SearchKindId);
  const offset = readCursor(query.cursor, signatureOf(route, query, kinds));
  const w = await indexes.watermarks(tenantId);
  const index = await indexFor(indexes, scope, tenantId, w);
  const res = await searchIndex(index, {
    term: query.q,
    kinds,
    filters,
    facets: searchFacetsOf(routeKinds),
    offset,
    limit: query.limit,
    ...(scope === 'marketplace' ? { visibleTo: tenantId } : {}),
  });
  const next = offset + query.limit;
  return {
    object: 'svc.search.results',
    query: query.q,
    data: res.hits.map((h) => hitOf(h.doc, h.score, query.q)),
    facets: res.facets as Results['facets'],
    total: res.total,
    cursor: next < res.total ? writeCursor(next, signatureOf(route, query, kinds)) : null,
  };
}

function kindsOf(param: unknown): SearchKindId[] {
  if (typeof param !== 'string') return [...SEARCH_KIND_IDS];
  const values = splitValues('kinds', param);
  const unknown = values.filter((k) => !KIND.has(k as SearchKindId));
  if (unknown.length > 0) {
    throw new ApiError('validation_failed', `Unknown kinds: ${unknown.join(', ')}; see GET /v1/search/kinds.`, [
      { field: 'kinds', issue: 'invalid_value', message: `one of ${SEARCH_KIND_IDS.join(', ')}` },
    ]);
  }
  return values as SearchKindId[];
}

/** A search over several kinds, possibly in several indexes: ranked together by score, counted per kind. */
export async function searchMultiIndex(indexes: SearchIndexes, tenantId: string, query: Query): Promise<MultiResults> {
  const kinds = kindsOf(query.kinds);
  const filters = filtersOf(query);
  const signature = signatureOf('multi-index', query, kinds);
  const offset = readCursor(query.cursor, signature);
  const w = await indexes.watermarks(tenantId);
  // A filter on a facet a kind does not have leaves none of its records.
  const searchable = kinds.filter((k) => Object.keys(filters).every((f) => facetsOfKind(k).includes(f as SearchFacet)));

  const perKind = new Map<SearchKindId, EngineResult>();
  const ranked: { hit: Hit; scope: number; position: number }[] = [];
  for (const [s, scope] of SCOPES.entries()) {
    const inScope = searchable.filter((k) => scopeOf(k) === scope);
    if (inScope.length === 0) continue;
    const index = await indexFor(indexes, scope, tenantId, w);
    const base = {
      term: query.q,
      filters,
      ...(scope === 'marketplace' ? { visibleTo: tenantId } : {}),
    };
    const top = await searchIndex(index, { ...base, kinds: inScope, facets: [], offset: 0, limit: offset + query.limit });
    top.hits.forEach((h, position) => {
      ranked.push({ hit: hitOf(h.doc, h.score, query.q), scope: s, position });
    });
    for (const k of inScope) {
      perKind.set(k, await searchIndex(index, { ...base, kinds: [k], facets: facetsOfKind(k), offset: 0, limit: 0 }));
    }
  }
  ranked.sort((a, b) => b.hit.score - a.hit.score || a.scope - b.scope || a.position - b.position);

  const byKind = kinds.map((k) => ({
    kind: k,
    total: perKind.get(k)?.total ?? 0,
    facets: (perKind.get(k)?.facets ?? {}) as Results['facets'],
  }));
  const facets: Results['facets'] = { kind: Object.fromEntries(byKind.filter((k) => k.total > 0).map((k) => [k.kind, k.total])) };
  for (const k of byKind) {
    for (const [facet, counts] of Object.entries(k.facets)) {
      const into = facets[facet] ?? {};
      facets[facet] = into;
      for (const [value, n] of Object.entries(counts)) into[value] = (into[value] ?? 0) + n;
    }
  }
  const total = byKind.reduce((n, k) => n + k.total, 0);
  const next = offset + query.limit;
  return {
    object: 'svc.search.multi_index_results',
    query: query.q,
    data: ranked.slice(offset, next).map((r) => r.hit),
    facets,
    total,
    cursor: next < total ? writeCursor(next, signature) : null,
    kinds: byKind,
  };
}
