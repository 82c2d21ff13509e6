import type * as OramaModule from '@orama/orama';
import type { SearchFacet, SearchKindId } from '@svc/contract';
import { nextTurn } from '../platform/next-turn.ts';

/**
 * The full-text engine: one Orama index (BM25) per set of documents. Every kind shares one
 * schema, so records of several kinds are ranked together in one index: `title` and `text` are
 * the indexed text (the title weighs double), the facets are enums (one value) or enum arrays
 * (several), filtered exactly and counted by Orama.
 */

/** Orama, loaded by the first index built, not at every start (80 ms of it). */
let oramaModule: Promise<typeof OramaModule> | undefined;
const oramaLib = () => {
  oramaModule ??= import('@orama/orama');
  return oramaModule;
};

/** Facets holding several values per record; the others hold at most one. */
export const ARRAY_FACETS = new Set<SearchFacet>(['framework', 'jurisdiction', 'control', 'expertise']);

export type FieldValue = string | number | boolean | string[] | null;

/** One record as indexed. */
export interface SearchDoc {
  kind: SearchKindId;
  /** Id of the record within its kind. */
  ref: string;
  title: string;
  /** The kind's other indexed fields, joined. */
  text: string;
  facets: Partial<Record<SearchFacet, string | string[]>>;
  /** Shown in the hit: facet values and identifying fields. */
  fields: Record<string, FieldValue>;
  /** Marketplace documents: the owning tenant and whether the record is listed for every tenant. */
  owner?: string;
  listed?: boolean;
}

const SCHEMA = {
  kind: 'enum',
  title: 'string',
  text: 'string',
  framework: 'enum[]',
  jurisdiction: 'enum[]',
  control: 'enum[]',
  expertise: 'enum[]',
  category: 'enum',
  type: 'enum',
  status: 'enum',
  severity: 'enum',
  relationship: 'enum',
  rationale: 'enum',
  firm: 'enum',
  owner: 'enum',
  listed: 'boolean',
} as const;

/** Words too common to tell records apart; left out of the index and the query. */
const STOP_WORDS = [
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'with',
];

function newOrama({ create }: typeof OramaModule) {
  return create({
    schema: SCHEMA,
    components: { tokenizer: { stemming: true, stopWords: STOP_WORDS } },
    sort: { enabled: false },
  });
}

type Orama = ReturnType<typeof newOrama>;

export interface SearchIndex {
  readonly orama: Orama;
}

/** Documents inserted between two yields to the event loop. */
const BUILD_SLICE = 250;

type Row = Record<string, unknown> & { id: string; doc: SearchDoc };

const keyOf = (kind: string, ref: string) => `${kind}:${ref}`;

function rowOf(d: SearchDoc): Row {
  // `doc` is kept beside the indexed fields, not indexed; Orama validates the rest against the schema.
  const row: Row = { id: keyOf(d.kind, d.ref), kind: d.kind, title: d.title, text: d.text, doc: d };
  for (const f of ARRAY_FACETS) row[f] = (d.facets[f] as string[] | undefined) ?? [];
  for (const [f, v] of Object.entries(d.facets)) if (!ARRAY_FACETS.has(f as SearchFacet) && v !== undefined && v !== '') row[f] = v;
  if (d.owner !== undefined) row.owner = d.owner;
  if (d.listed !== undefined) row.listed = d.listed;
  return row;
}

/**
 * Inserting is synchronous work: done in slices, yielding to the event loop between them, so a
 * large build (the reference content) does not hold up the process's other requests.
 */
async function insertRows(orama: Orama, rows: Row[]): Promise<void> {
  const { insertMultiple } = await oramaLib();
  for (let i = 0; i < rows.length; i += BUILD_SLICE) {
    await insertMultiple(orama, rows.slice(i, i + BUILD_SLICE) as never, BUILD_SLICE);
    if (i + BUILD_SLICE < rows.length) await nextTurn();
  }
}

/** Builds an index of the documents, in the order given (ties of score keep that order). */
export async function buildIndex(docs: readonly SearchDoc[]): Promise<SearchIndex> {
  const orama = newOrama(await oramaLib());
  await insertRows(orama, docs.map(rowOf));
  return { orama };
}

/**
 * Brings an index up to date for some records: drops their documents (`kind` and `ref` of each)
 * and inserts their current ones (none for a record that is gone).
 */
export async function replaceDocuments(
  index: SearchIndex,
  records: readonly { kind: string; ref: string }[],
  docs: readonly SearchDoc[],
): Promise<void> {
  const { getByID, remove } = await oramaLib();
  for (const r of records) {
    const key = keyOf(r.kind, r.ref);
    if (getByID(index.orama, key)) await remove(index.orama, key);
  }
  await insertRows(index.orama, docs.map(rowOf));
}

export interface EngineQuery {
  term: string;
  kinds: readonly SearchKindId[];
  /** Facet -> accepted values (any of them). */
  filters: Partial<Record<SearchFacet, string[]>>;
  /** Facets to count. */
  facets: readonly SearchFacet[];
  offset: number;
  limit: number;
  /** Marketplace: records listed for everyone, or owned by this tenant. */
  visibleTo?: string;
}

export interface EngineResult {
  hits: { doc: SearchDoc; score: number }[];
  total: number;
  facets: Partial<Record<SearchFacet, Record<string, number>>>;
}

function whereOf(q: EngineQuery): Record<string, unknown> {
  const and: Record<string, unknown>[] = [{ kind: { in: [...q.kinds] } }];
  for (const [facet, values] of Object.entries(q.filters) as [SearchFacet, string[]][]) {
    if (facet === 'kind') continue; // applied through `kinds`
    and.push({ [facet]: ARRAY_FACETS.has(facet) ? { containsAny: values } : { in: values } });
  }
  if (q.visibleTo !== undefined) and.push({ or: [{ listed: true }, { owner: { in: [q.visibleTo] } }] });
  return { and };
}

/** Ranked hits of one page, the number of matches and the facet counts over all matches. */
export async function searchIndex(index: SearchIndex, q: EngineQuery): Promise<EngineResult> {
  const { count, search } = await oramaLib();
  if (count(index.orama) === 0 || q.kinds.length === 0) return { hits: [], total: 0, facets: emptyFacets(q.facets) };
  const res = await search(index.orama, {
    term: q.term,
    properties: ['title', 'text'],
    boost: { title: 2 },
    where: whereOf(q) as never,
    facets: Object.fromEntries(q.facets.map((f) => [f, { limit: 10_000 }])) as never,
    offset: q.offset,
    limit: q.limit,
  });
  const facets: EngineResult['facets'] = {};
  for (const f of q.facets) {
    const values = (res.facets?.[f]?.values ?? {}) as Record<string, number>;
    facets[f] = Object.fromEntries(
      Object.entries(values)
        .filter(([v, n]) => v !== '' && n > 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    );
  }
  return {
    hits: res.hits.map((h) => ({ doc: (h.document as unknown as Row).doc, score: h.score })),
    total: res.count,
    facets,
  };
}

function emptyFacets(facets: readonly SearchFacet[]): EngineResult['facets'] {
  return Object.fromEntries(facets.map((f) => [f, {}]));
}
