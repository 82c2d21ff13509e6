import { openDatabase } from '@svc/server';
import { describe, expect, it } from 'vitest';
import { tarEntries } from '../packages/server/src/db/pglite-dump.ts';

/** The WAL segment files of a dump (a tar of the cluster's folder). */
async function segmentsOf(dump: Blob): Promise<string[]> {
  const names = [...tarEntries(new Uint8Array(await dump.arrayBuffer()))].map((e) => e.name);
  return names.filter((n) => /pg_wal\/[0-9A-F]{24}$/.test(n)).map((n) => n.split('/').pop() as string);
}

// The embedded database's dump (Database.dump, packages/server/src/db/pglite-dump.ts), which the suite's snapshot is:
// independent of the database under the suite, run on the embedded pass.
describe('the embedded dump a new cluster starts from', () => {
  it('a cluster started from the dump writes past the one segment it carries, and starts again', async () => {
    const open = (snapshot?: Blob) => openDatabase({ databaseUrl: undefined, dataDir: 'memory://', poolSize: 1, snapshot });
    const first = await open();
    await first.sql.query('CREATE TABLE t (x text)');
    await first.sql.query("INSERT INTO t VALUES ('before')");
    const dump = await (first.dump as () => Promise<Blob>)();
    await first.close();
    const segments = await segmentsOf(dump);
    expect(segments).toHaveLength(1);

    const second = await open(dump);
    // About 24 MB of WAL: past the end of the segment the dump carried.
    await second.sql.query("INSERT INTO t SELECT repeat('x', 1000) FROM generate_series(1, 20000)");
    const [row] = await second.sql.query<{ wal: string; n: number }>(
      'SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal, (SELECT count(*)::int FROM t) AS n',
    );
    expect(row?.n).toBe(20_001);
    expect(row?.wal).not.toBe(segments[0]);
    const third = await open(await (second.dump as () => Promise<Blob>)());
    await second.close();
    expect(await third.sql.query<{ x: string }>("SELECT x FROM t WHERE x = 'before'")).toEqual([{ x: 'before' }]);
    await third.close();
  }, 60_000);
});
