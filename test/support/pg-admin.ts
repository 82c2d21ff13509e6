import pg from 'pg';

/** Runs one statement on its own connection to `url` (CREATE and DROP DATABASE cannot share a transaction). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}
