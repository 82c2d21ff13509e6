/**
 * Named prepared statements on the embedded database. PGlite's `query` sends every statement as an
 * unnamed one (Parse, Describe, Bind, Describe, Execute, Sync, each a separate call into the
 * WebAssembly), so PostgreSQL parses and plans it again each time; in WebAssembly that is most of a
 * hot statement's cost (the tenant framework list: 1.5 ms a call, 0.6 ms prepared, measured on the
 * same data one after the other). The service's fixed hot statements (`prepare: true`, sql.ts) are
 * parsed once per database under the name PostgreSQL gets them on a server too (statementName), and
 * then run as one batch of Bind, Describe, Execute and Sync. Values are serialized and rows parsed
 * with PGlite's own serializers and parsers, as its `query` does, so both give the same rows.
 */
import type { PGlite, QueryOptions } from '@electric-sql/pglite';
import { statementName } from './sql.ts';

/** The parts of the PGlite module this uses (loaded only for the embedded database). */
export type PgliteProtocol = Pick<typeof import('@electric-sql/pglite'), 'protocol' | 'parse'>;

export interface PreparedStatements {
  /** Outside a transaction: waits for a running transaction, as PGlite's own `query` does. */
  query<T>(text: string, values: readonly unknown[]): Promise<T[]>;
  /** Inside `client.transaction`'s callback, which already holds the transaction lock. */
  queryInTransaction<T>(text: string, values: readonly unknown[]): Promise<T[]>;
}

/** The messages of one batch, as one buffer (a Buffer is a Uint8Array). */
const concat = (parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

export function preparedStatements(client: PGlite, { protocol, parse }: PgliteProtocol, options: QueryOptions): PreparedStatements {
  const { serialize } = protocol;
  // PGlite's parseResults merges the options' parsers into its own with a spread at every call (a
  // tenth of a GET's CPU in a profile): merged here once instead.
  const { parsers: own, ...rest } = options;
  const parsers = { ...client.parsers, ...own };
  /** Parameter type OIDs of each statement prepared on this database, by name. */
  const prepared = new Map<string, number[]>();

  async function run<T>(text: string, values: readonly unknown[]): Promise<T[]> {
    const name = statementName(text);
    let types = prepared.get(name);
    if (!types) {
      // Sync in the same batch: after an error PostgreSQL skips to it, and the session is whole again.
      const described = await client.execProtocol(
        concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
        { syncToFs: false },
      );
      types = parse.parseDescribeStatementResults(described.messages);
      prepared.set(name, types);
    }
    const params = values.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = client.serializers[types[i] ?? 0];
      return serializer ? serializer(v) : String(v);
    });
    const { messages } = await client.execProtocol(
      concat([
        serialize.bind({ statement: name, values: params }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return (parse.parseResults(messages, parsers, rest)[0]?.rows ?? []) as T[];
  }

  return {
    query: (text, values) =>
      client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          const rows = await run<never>(text, values);
          await client.syncToFs();
          return rows;
        }),
      ),
    queryInTransaction: (text, values) => client._runExclusiveQuery(() => run(text, values)),
  };
}
