import pg from 'pg';

/** Runs one statement on its own connection to `url`; its rows. */
export async function adminRows<T extends Record<string, unknown> = Record<string, unknown>>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, values)).rows;
  } finally {
    await c.end();
  }
}

/** Runs one statement on its own connection to `url` (CREATE and DROP DATABASE cannot share a transaction). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  await adminRows(url, sql);
}
