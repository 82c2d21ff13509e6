import { ApiError } from '../errors.ts';

type KeyValue = string | number;

/** Opaque cursor: base64url JSON of the last row's sort key. */
export function encodeCursor(key: KeyValue): string {
  return Buffer.from(JSON.stringify({ k: key })).toString('base64url');
}

/** The sort key a cursor points after; a cursor that is not ours is a 400. */
export function decodeCursor<K extends 'string' | 'number'>(
  cursor: string | undefined,
  type: K,
): (K extends 'string' ? string : number) | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof parsed?.k === type) return parsed.k as K extends 'string' ? string : number;
  } catch {}
  throw new ApiError('bad_request', 'The cursor is not valid for this list.', [{ field: 'cursor', issue: 'invalid_format' }]);
}

/** Cuts a `take: limit + 1` result into a page and the cursor of the next one. */
export function toPage<Row, Out>(
  rows: Row[],
  limit: number,
  key: (row: Row) => KeyValue,
  render: (row: Row) => Out,
): { data: Out[]; cursor: string | null } {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { data: pageRows.map(render), cursor: more && last !== undefined ? encodeCursor(key(last)) : null };
}

type Where = Record<string, unknown>;

export interface KeysetOptions<Row, Out> {
  /** Conditions every row of the list meets (scope, fixed state). */
  where?: Where;
  /** Query keys filtered by equality on the model field of the same name. */
  filters?: readonly string[];
  /** The where-clause of a filter whose model field differs from its key (`framework` -> `frameworkId`). */
  filterWhere?: Readonly<Record<string, ((value: string) => Where) | undefined>>;
  /** Sort key: `id` (time-sortable: newest first) unless the list has its own order (`seq`, `ord`). */
  key?: string;
  order?: 'asc' | 'desc';
  render: (row: Row) => Out;
}

/**
 * The keyset list of every collection: `limit + 1` rows after the cursor's key in the list's
 * order, the declared filters as equality, then the page and the next cursor. Newest first by id
 * unless told otherwise.
 */
export async function keysetList<Row extends Record<string, unknown>, Out>(
  delegate: { findMany(args: never): PromiseLike<unknown> },
  query: { limit: number; cursor?: string } & Record<string, unknown>,
  opts: KeysetOptions<Row, Out>,
): Promise<{ data: Out[]; cursor: string | null }> {
  const key = opts.key ?? 'id';
  const order = opts.order ?? 'desc';
  const after = decodeCursor(query.cursor, key === 'id' ? 'string' : 'number');
  const where: Where = { ...(opts.where ?? {}) };
  for (const name of opts.filters ?? []) {
    const value = query[name];
    if (value === undefined) continue;
    Object.assign(where, opts.filterWhere?.[name]?.(String(value)) ?? { [name]: value });
  }
  if (after !== undefined) where[key] = { [order === 'desc' ? 'lt' : 'gt']: after };
  const args = { where, orderBy: { [key]: order }, take: query.limit + 1 };
  const rows = (await delegate.findMany(args as never)) as Row[];
  return toPage(rows, query.limit, (r) => r[key] as KeyValue, opts.render);
}
