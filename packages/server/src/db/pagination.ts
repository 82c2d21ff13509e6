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
