import * as pglite from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatements } from './pglite-prepared.ts';
import { parseUtcTimestamp, TIMESTAMP_OID } from './sql.ts';

const OPTIONS = { parsers: { [TIMESTAMP_OID]: parseUtcTimestamp } };
let client: pglite.PGlite;
let statements: ReturnType<typeof preparedStatements>;

beforeAll(async () => {
  client = await pglite.PGlite.create('memory://');
  await client.exec(`CREATE TABLE t (id text PRIMARY KEY, n int, tags text[], doc jsonb, at timestamp(3), ok boolean)`);
  statements = preparedStatements(client, pglite, OPTIONS);
});
afterAll(() => client.close());

const INSERT =
  "INSERT INTO t (id, n, tags, doc, at, ok) VALUES ($1, $2, $3, $4::jsonb, ($5::timestamptz AT TIME ZONE 'UTC'), $6) RETURNING *";
const SELECT = 'SELECT * FROM t WHERE id = $1';

describe('statements on PGlite, prepared', () => {
  it('gives the rows PGlite’s query gives, for every kind of value', async () => {
    const values = ['a', 7, ['x', 'y'], JSON.stringify({ k: [1, 2] }), '2026-01-02T03:04:05.678Z', true];
    const inserted = await statements.query(INSERT, values);
    expect(inserted).toEqual([{ id: 'a', n: 7, tags: ['x', 'y'], doc: { k: [1, 2] }, at: new Date('2026-01-02T03:04:05.678Z'), ok: true }]);
    // The second call runs the statement prepared by the first; both agree with the unnamed path.
    for (let i = 0; i < 2; i++) expect(await statements.query(SELECT, ['a'])).toEqual((await client.query(SELECT, ['a'], OPTIONS)).rows);
    expect(await statements.query(SELECT, ['none'])).toEqual([]);
    expect(await statements.query(INSERT, ['b', null, null, null, null, null])).toEqual([
      { id: 'b', n: null, tags: null, doc: null, at: null, ok: null },
    ]);
  });

  it('throws the database’s error and leaves the session usable', async () => {
    await expect(statements.query(INSERT, ['a', 1, [], '{}', null, false])).rejects.toMatchObject({ code: '23505' });
    await expect(statements.query('SELECT 1 / $1::int AS q', [0])).rejects.toMatchObject({ code: '22012' });
    expect(await statements.query('SELECT 1 / $1::int AS q', [1])).toEqual([{ q: 1 }]);
    // A statement that does not parse is not kept as prepared: it fails the same way again.
    await expect(statements.query('SELEC 1', [])).rejects.toMatchObject({ code: '42601' });
    await expect(statements.query('SELEC 1', [])).rejects.toMatchObject({ code: '42601' });
    expect((await client.query('SELECT 2 AS x')).rows).toEqual([{ x: 2 }]);
  });

  it('runs inside a transaction, and one outside waits for it to end', async () => {
    let outside: Promise<unknown[]> | undefined;
    await client
      .transaction(async () => {
        await statements.queryInTransaction(INSERT, ['c', 3, [], '{}', null, true]);
        // Issued while the transaction is open: it must not run inside it (and see the uncommitted row).
        outside = statements.query(SELECT, ['c']);
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await outside).toEqual([]);
  });

  it('commits a transaction, rolls it back when its callback throws, and reports one that aborted', async () => {
    const tx = statements.transaction;
    expect(await tx(async () => statements.queryInTransaction(INSERT, ['t1', 1, [], '{}', null, true]))).toHaveLength(1);
    expect(await statements.query(SELECT, ['t1'])).toHaveLength(1);
    await expect(
      tx(async () => {
        await statements.queryInTransaction(INSERT, ['t2', 1, [], '{}', null, true]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await statements.query(SELECT, ['t2'])).toEqual([]);
    // A statement's error caught inside: PostgreSQL aborted the transaction, so its COMMIT rolls
    // back; the caller hears of it, and the row written before the error is not kept.
    await expect(
      tx(async () => {
        await statements.queryInTransaction(INSERT, ['t3', 1, [], '{}', null, true]);
        await statements.queryInTransaction(INSERT, ['t1', 1, [], '{}', null, true]).catch(() => null);
      }),
    ).rejects.toThrow(/aborted/);
    expect(await statements.query(SELECT, ['t3'])).toEqual([]);
    // The session is whole after each of them, and a statement outside waits for a transaction to end.
    let during: Promise<unknown[]> | undefined;
    await tx(async () => {
      await statements.queryInTransaction(INSERT, ['t4', 1, [], '{}', null, true]);
      during = statements.query(SELECT, ['t4']);
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(await during).toHaveLength(1);
    expect((await client.query<{ s: string }>("SELECT current_setting('transaction_isolation') AS s")).rows).toHaveLength(1);
  });

  it('keeps the most recently used statements, and closes the others in PostgreSQL', async () => {
    const few = preparedStatements(client, pglite, OPTIONS, 2);
    const kept = async () =>
      (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'pgl%'`)).rows[0]?.n ?? 0;
    const before = await kept();
    expect(await few.query('SELECT 1 AS a', [])).toEqual([{ a: 1 }]);
    expect(await few.query('SELECT 2 AS b', [])).toEqual([{ b: 2 }]);
    expect(await few.query('SELECT 1 AS a', [])).toEqual([{ a: 1 }]);
    // The third falls out the least recently used one ('SELECT 2'), closed with the next Parse.
    expect(await few.query('SELECT 3 AS c', [])).toEqual([{ c: 3 }]);
    expect(await few.query('SELECT 4 AS d', [])).toEqual([{ d: 4 }]);
    expect((await kept()) - before).toBe(2);
    expect(await few.query('SELECT 2 AS b', [])).toEqual([{ b: 2 }]);
  });

  it('prepares a statement again when a table it reads changed shape', async () => {
    await client.exec('CREATE TABLE shape (id int)');
    await client.exec('INSERT INTO shape VALUES (1)');
    expect(await statements.query('SELECT * FROM shape', [])).toEqual([{ id: 1 }]);
    await client.exec('ALTER TABLE shape ADD COLUMN label text');
    await expect(statements.query('SELECT * FROM shape', [])).rejects.toMatchObject({ code: '0A000' });
    expect(await statements.query('SELECT * FROM shape', [])).toEqual([{ id: 1, label: null }]);
  });

  it('serves Prisma’s adapter: its options, the whole result, its transactions', async () => {
    const adapter = statements.forAdapter;
    // The adapter's own parsers, with rows as arrays (what pglite-prisma-adapter passes).
    const opts = { rowMode: 'array' as const, parsers: { 1114: (s: string) => `ts:${s}`, 3802: (s: string) => `json:${s}` } };
    const sql = 'SELECT id, n, doc, at FROM t WHERE id = $1';
    expect(await adapter.query(sql, ['a'], opts)).toEqual(await client.query(sql, ['a'], opts));
    expect(await adapter.query('UPDATE t SET n = n + 1 WHERE id = $1', ['a'])).toMatchObject({ affectedRows: 1, rows: [] });
    await adapter.transaction(async (tx) => {
      await tx.query(INSERT, ['p', 1, [], '{}', null, true]);
    });
    expect(await statements.query(SELECT, ['p'])).toHaveLength(1);
    let closedTx: { query: (s: string) => Promise<unknown> } | undefined;
    await adapter.transaction(async (tx) => {
      await tx.query(INSERT, ['q', 1, [], '{}', null, true]);
      await tx.rollback();
      closedTx = tx;
    });
    expect(await statements.query(SELECT, ['q'])).toEqual([]);
    await expect(closedTx?.query('SELECT 1')).rejects.toThrow(/closed/);
  });
});
