/**
 * Queries the hand-written routes of many rails share: the look-up of one record that answers 404
 * when the tenant has none of that id.
 */
import { notFound } from '../errors.ts';

/**
 * The row a look-up found, or the 404 `${what} ${id} was not found.`: pass the query itself, e.g.
 * `await orNotFound(db.redTeamTarget.findFirst({ where: { id } }), 'Target', id)`.
 */
export async function orNotFound<Row>(lookup: PromiseLike<Row | null>, what: string, id: string): Promise<Row> {
  const row = await lookup;
  if (!row) throw notFound(what, id);
  return row;
}
