import type { Prisma } from './client.ts';
import { parseUtcTimestamp, type Sql } from './sql.ts';

/**
 * Rows of a Prisma model read and written with plain SQL (sql.ts), in the shapes Prisma itself
 * returns, so the same `render` serves both. The table and column names, and each field's type,
 * come from the data model Prisma generates from `prisma/schema` (one source: a field renamed
 * there is renamed here).
 */

export type Row = { id: string } & Record<string, unknown>;

interface Field {
  name: string;
  column: string;
  type: string;
}

export interface Table {
  model: string;
  name: string;
  fields: Field[];
  byName: Map<string, Field>;
  /** `"col" AS "field"` for every scalar field: rows come back keyed by field name. */
  select: string;
}

type RuntimeModel = { dbName: string | null; fields: { name: string; kind: string; type: string; dbName?: string | null }[] };

const tables = new WeakMap<object, Map<string, Table>>();

const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/** The table behind a model delegate name (`assessment`), read from the client's data model. */
export function tableOf(prisma: Prisma, delegate: string): Table {
  let known = tables.get(prisma);
  if (!known) {
    known = new Map();
    tables.set(prisma, known);
  }
  const hit = known.get(delegate);
  if (hit) return hit;
  const models = (prisma as unknown as { _runtimeDataModel?: { models: Record<string, RuntimeModel> } })._runtimeDataModel?.models;
  const model = delegate.charAt(0).toUpperCase() + delegate.slice(1);
  const m = models?.[model];
  if (!m) throw new Error(`no Prisma model ${model} (delegate ${delegate}) in the generated client`);
  const fields = m.fields
    .filter((f) => f.kind === 'scalar' || f.kind === 'enum')
    .map((f) => ({ name: f.name, column: f.dbName ?? f.name, type: f.kind === 'enum' ? 'String' : f.type }));
  const table: Table = {
    model,
    name: m.dbName ?? model,
    fields,
    byName: new Map(fields.map((f) => [f.name, f])),
    select: fields.map((f) => `${quote(f.column)} AS ${quote(f.name)}`).join(', '),
  };
  known.set(delegate, table);
  return table;
}

function fieldOf(table: Table, name: string): Field {
  const f = table.byName.get(name);
  if (!f) throw new Error(`${table.model} has no field ${name}`);
  return f;
}

/** A value as a statement parameter, with the cast its column needs. */
function param(f: Field, value: unknown, values: unknown[]): string {
  if (value === null || value === undefined) {
    values.push(null);
    return `$${values.length}`;
  }
  switch (f.type) {
    case 'Json':
      values.push(JSON.stringify(value));
      return `$${values.length}::jsonb`;
    case 'DateTime':
      values.push(value instanceof Date ? value.toISOString() : value);
      return `($${values.length}::timestamptz AT TIME ZONE 'UTC')`;
    case 'BigInt':
      values.push(String(value));
      return `$${values.length}`;
    default:
      values.push(value);
      return `$${values.length}`;
  }
}

/** Prisma's shapes for what the drivers return differently (BigInt, Decimal as string). */
function fromDb(table: Table, raw: Record<string, unknown>): Row {
  for (const f of table.fields) {
    const v = raw[f.name];
    if (f.type === 'BigInt' && v !== null && v !== undefined && typeof v !== 'bigint') raw[f.name] = BigInt(v as string);
  }
  return raw as Row;
}

/**
 * The INSERT of one row with RETURNING, as a statement to fold into another (its placeholders
 * start after `offset`); rowFromJson reads what it returns through row_to_json.
 */
export function insertStatement(table: Table, data: Record<string, unknown>, offset: number): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const cols: string[] = [];
  const params: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const f = fieldOf(table, name);
    cols.push(quote(f.column));
    params.push(param(f, value, values));
  }
  const text = `INSERT INTO ${quote(table.name)} (${cols.join(', ')}) VALUES (${params.join(', ')}) RETURNING ${table.select}`;
  return { text: offset === 0 ? text : text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`), values };
}

/**
 * Many rows in one statement per shape: the rows go in as one JSON parameter that PostgreSQL
 * expands with `jsonb_populate_recordset` against the table's own row type, so each value gets its
 * column's type (arrays, timestamps as ISO strings, JSON) without a parameter per value. For bulk
 * loads (the content dictionaries), where an ORM's multi-row INSERT costs more CPU building the
 * statement than the database spends running it. Rows that leave out the same fields share a
 * statement, so a left-out field takes its column's default.
 */
export async function insertMany(sql: Sql, table: Table, rows: readonly object[]): Promise<void> {
  const shapes = new Map<string, { columns: string[]; rows: Record<string, unknown>[] }>();
  for (const row of rows) {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) {
      if (value === undefined) continue;
      const f = fieldOf(table, name);
      out[f.column] = f.type === 'BigInt' && value !== null ? String(value) : value;
    }
    const columns = Object.keys(out);
    const key = columns.join('\u0000');
    const shape = shapes.get(key) ?? { columns, rows: [] };
    shape.rows.push(out);
    shapes.set(key, shape);
  }
  for (const { columns, rows: batch } of shapes.values()) {
    const cols = columns.map(quote).join(', ');
    await sql.query(
      `INSERT INTO ${quote(table.name)} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${quote(table.name)}, $1::jsonb)`,
      [JSON.stringify(batch)],
    );
  }
}

/** A row read through row_to_json, in Prisma's shapes (timestamps as Dates). */
export function rowFromJson(table: Table, json: Record<string, unknown>): Row {
  for (const f of table.fields) {
    const v = json[f.name];
    if (v === null || v === undefined) continue;
    if (f.type === 'DateTime') json[f.name] = parseUtcTimestamp(v as string);
    else if (f.type === 'BigInt') json[f.name] = BigInt(v as string | number);
  }
  return json as Row;
}

/** One row of the tenant by id (the same answer for another tenant's id: none). */
export async function findRow(
  sql: Sql,
  table: Table,
  tenantId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<Row | undefined> {
  const [row] = await sql.query<Record<string, unknown>>(
    `SELECT ${table.select} FROM ${quote(table.name)} WHERE "tenant_id" = $1 AND "id" = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [tenantId, id],
    { prepare: true },
  );
  return row ? fromDb(table, row) : undefined;
}

/**
 * Updates the tenant's row `id` when `field` holds one of `allowed`; returns the updated row, or
 * undefined when no row matched (absent, another tenant's, or in another state).
 */
export async function updateRowIf(
  sql: Sql,
  table: Table,
  key: { tenantId: string; id: string; field: string; allowed: readonly string[] },
  data: Record<string, unknown>,
): Promise<Row | undefined> {
  const values: unknown[] = [key.tenantId, key.id, [...key.allowed]];
  const sets: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const f = fieldOf(table, name);
    sets.push(`${quote(f.column)} = ${param(f, value, values)}`);
  }
  const [row] = await sql.query<Record<string, unknown>>(
    `UPDATE ${quote(table.name)} SET ${sets.join(', ')}
     WHERE "tenant_id" = $1 AND "id" = $2 AND ${quote(fieldOf(table, key.field).column)} = ANY($3::text[])
     RETURNING ${table.select}`,
    values,
    { prepare: true },
  );
  return row ? fromDb(table, row) : undefined;
}
