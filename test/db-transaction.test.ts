import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../packages/server/src/db/client.ts';
import { createIsolatedDatabase, snapshot } from './support/server.ts';

/**
 * Database.transaction with a last statement marked `commit` (db/sql.ts): on PostgreSQL its BEGIN
 * is written with its first statement and its COMMIT behind its last, on the pipelined connection.
 * Whatever the database, the transaction is still all or nothing.
 */
let db: Database;
let drop: (() => Promise<void>) | undefined;
const onPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  const isolated = await createIsolatedDatabase('dbtx');
  drop = isolated?.drop;
  db = await openDatabase({ databaseUrl: isolated?.url, dataDir: 'memory://', poolSize: 3, snapshot: isolated ? undefined : snapshot() });
  await db.sql.query('CREATE TABLE tx_probe (id text PRIMARY KEY, n int NOT NULL CHECK (n >= 0))');
});

afterAll(async () => {
  await db?.close();
  await drop?.();
});

const ids = async () => (await db.sql.query<{ id: string }>('SELECT id FROM tx_probe ORDER BY id')).map((r) => r.id);
const insert = 'INSERT INTO tx_probe (id, n) VALUES ($1, $2)';

describe('a transaction whose last statement carries its commit', () => {
  it('commits every statement of the transaction', async () => {
    const out = await db.transaction(async (sql) => {
      await sql.query(insert, ['a1', 1]);
      return sql.query<{ id: string }>(`${insert} RETURNING id`, ['a2', 2], { prepare: true, commit: true });
    });
    expect(out).toEqual([{ id: 'a2' }]);
    expect(await ids()).toEqual(['a1', 'a2']);
  });

  it('rolls the whole transaction back when that statement fails, and reports its error', async () => {
    const failed = db.transaction(async (sql) => {
      await sql.query(insert, ['b1', 1]);
      await sql.query(insert, ['b2', -1], { commit: true });
    });
    await expect(failed).rejects.toMatchObject({ code: '23514' });
    expect(await ids()).toEqual(['a1', 'a2']);
    // The connection went back to the pool usable: the next transactions on it commit.
    for (const id of ['b3', 'b4', 'b5', 'b6']) await db.transaction((sql) => sql.query(insert, [id, 0], { commit: true }));
    expect(await ids()).toEqual(['a1', 'a2', 'b3', 'b4', 'b5', 'b6']);
  });

  it('runs the statement given to precede it first, in the same transaction, committed or rolled back with it', async () => {
    await db.transaction((sql) => sql.query(insert, ['p2', 2], { commit: true, precededBy: { text: insert, values: ['p1', 1] } }));
    expect(await ids()).toEqual(expect.arrayContaining(['p1', 'p2']));
    const failed = db.transaction((sql) =>
      sql.query(insert, ['p4', -1], { commit: true, precededBy: { text: insert, values: ['p3', 1] } }),
    );
    await expect(failed).rejects.toMatchObject({ code: '23514' });
    expect(await ids()).not.toContain('p3');
    // When it fails, the statement after it does not run.
    const first = db.transaction((sql) => sql.query(insert, ['p6', 1], { commit: true, precededBy: { text: insert, values: ['p5', -1] } }));
    await expect(first).rejects.toThrow();
    expect(await ids()).not.toContain('p6');
  });

  it.runIf(onPostgres)('refuses a statement after it: it would run outside the transaction', async () => {
    const late = db.transaction(async (sql) => {
      await sql.query(insert, ['c1', 1], { commit: true });
      await sql.query(insert, ['c2', 1]);
    });
    await expect(late).rejects.toThrow(/after its transaction committed/);
    expect(await ids()).toContain('c1');
    expect(await ids()).not.toContain('c2');
  });

  it('serialises writers on a locked row as before (the lock is held until the commit)', async () => {
    await db.sql.query(insert, ['d', 0]);
    const bump = () =>
      db.transaction(async (sql) => {
        const [row] = await sql.query<{ n: number }>('SELECT n FROM tx_probe WHERE id = $1 FOR UPDATE', ['d']);
        await sql.query('UPDATE tx_probe SET n = $2 WHERE id = $1', ['d', (row?.n ?? 0) + 1], { commit: true });
      });
    await Promise.all(Array.from({ length: 12 }, bump));
    expect(await db.sql.query('SELECT n FROM tx_probe WHERE id = $1', ['d'])).toEqual([{ n: 12 }]);
  });
});

describe('a transaction whose BEGIN leaves with its first statement', () => {
  it('rolls back what its first statement wrote when the function fails after it', async () => {
    const failed = db.transaction(async (sql) => {
      await sql.query(insert, ['e1', 1]);
      throw new Error('refused after the first statement');
    });
    await expect(failed).rejects.toThrow('refused after the first statement');
    expect(await ids()).not.toContain('e1');
  });

  it('rolls back when its first statement fails, and the connection serves the next transactions', async () => {
    const failed = db.transaction((sql) => sql.query(insert, ['e2', -1]));
    await expect(failed).rejects.toMatchObject({ code: '23514' });
    for (const id of ['e3', 'e4', 'e5', 'e6']) {
      await db.transaction(async (sql) => {
        await sql.query(insert, [id, 0]);
        await sql.query('SELECT 1');
      });
    }
    expect((await ids()).filter((id) => id.startsWith('e'))).toEqual(['e3', 'e4', 'e5', 'e6']);
  });

  it('sends nothing for a function that runs no statement', async () => {
    expect(await db.transaction(async () => 'nothing to write')).toBe('nothing to write');
  });

  it.runIf(onPostgres)(
    'writes a transaction of two statements to the socket twice: BEGIN with the first, COMMIT behind the last',
    async () => {
      const port = Number(new URL(process.env.DATABASE_URL ?? '').port || 5432);
      const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
      const original = { _write: proto._write, _writev: proto._writev };
      let writes = 0;
      for (const name of ['_write', '_writev'] as const) {
        proto[name] = function counted(this: Socket, ...args: unknown[]) {
          if (this.remotePort === port) writes++;
          return original[name].apply(this, args);
        };
      }
      try {
        await db.transaction(async (sql) => {
          await sql.query(insert, ['f1', 1], { prepare: true });
          await sql.query(insert, ['f2', 2], { prepare: true, commit: true });
        });
      } finally {
        Object.assign(proto, original);
      }
      expect(writes).toBe(2);
      expect(await ids()).toEqual(expect.arrayContaining(['f1', 'f2']));
    },
  );
});
