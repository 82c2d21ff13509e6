/**
 * Static checks of what every rail is built on, with no per-rail code: the Prisma models agree with
 * the SQL migrations (tables, columns, types, nullability, indexes), every tenant record can be
 * found by (tenant, id) through an index, every route sits under its rail's catalogue base path,
 * and every id the server mints uses a registered prefix.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract, flattenRoutes, getRail, idPrefixes, RAILS, type RailId, type RouteMeta, railForPath } from '@svc/contract';
import { migrate, openDatabase } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SCHEMA_DIR = join(ROOT, 'prisma/schema');

interface Field {
  name: string;
  column: string;
  type: string;
  list: boolean;
  optional: boolean;
}
interface Model {
  name: string;
  table: string;
  fields: Field[];
  /** Column lists of @id/@@id, @unique/@@unique and @@index, in order. */
  indexes: string[][];
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime', 'Json', 'Bytes']);

/** The models of prisma/schema/*.prisma, read the way this project writes them (one field per line). */
function parseSchema(): Model[] {
  const text = readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.prisma'))
    .map((f) => readFileSync(join(SCHEMA_DIR, f), 'utf8'))
    .join('\n');
  const models: Model[] = [];
  for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const [, name, body] = m as unknown as [string, string, string];
    const fields: Field[] = [];
    const indexes: string[][] = [];
    let table = name;
    const pending: string[][] = [];
    for (const raw of body.split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (!line) continue;
      if (line.startsWith('@@')) {
        const map = /^@@map\("([^"]+)"\)/.exec(line);
        if (map) table = map[1] as string;
        const idx = /^@@(id|unique|index)\(\[([^\]]+)\]/.exec(line);
        if (idx) pending.push((idx[2] as string).split(',').map((s) => s.trim().replace(/\(.*\)$/, '')));
        continue;
      }
      const f = /^(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!f) continue;
      const [, fname, type, list, optional, attrs] = f as unknown as [
        string,
        string,
        string,
        string | undefined,
        string | undefined,
        string,
      ];
      if (!SCALARS.has(type)) continue; // a relation field: no column of its own
      const column = /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? fname;
      fields.push({ name: fname, column, type, list: list !== undefined, optional: optional !== undefined });
      if (/@id\b/.test(attrs) || /@unique\b/.test(attrs)) indexes.push([column]);
    }
    const columnOf = (field: string) => fields.find((x) => x.name === field)?.column ?? `?${field}`;
    for (const cols of pending) indexes.push(cols.map(columnOf));
    models.push({ name, table, fields, indexes });
  }
  return models;
}

const PG_TYPE: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

const models = parseSchema();

describe('the Prisma models and the SQL migrations agree', () => {
  let db: Awaited<ReturnType<typeof openDatabase>>;
  let columns: { table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string }[];
  let indexes: { tablename: string; indexname: string; indexdef: string }[];

  beforeAll(async () => {
    // A fresh embedded database with only the migrations applied: what a new install gets.
    db = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://', poolSize: 1 });
    await migrate(db);
    columns = await db.session((s) =>
      s.query(
        `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      ),
    );
    indexes = await db.session((s) => s.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`));
  }, 60_000);
  afterAll(() => db?.close());

  it('parses the schema (the check is not vacuous)', () => {
    expect(models.length).toBeGreaterThan(20);
    expect(models.find((m) => m.name === 'Assessment')?.fields.find((f) => f.name === 'tenantId')?.column).toBe('tenant_id');
  });

  it('every model has its table and no migration creates a table without a model', () => {
    const tables = new Set(columns.map((c) => c.table_name));
    expect([...tables].sort()).toEqual(models.map((m) => m.table).sort());
  });

  it('every field has its column, with the type and nullability the model declares, and no column is left over', () => {
    const problems: string[] = [];
    for (const m of models) {
      const cols = columns.filter((c) => c.table_name === m.table);
      for (const f of m.fields) {
        const col = cols.find((c) => c.column_name === f.column);
        if (!col) {
          problems.push(`${m.name}.${f.name}: no column ${m.table}.${f.column}`);
          continue;
        }
        const type = col.data_type === 'ARRAY' ? `${PG_TYPE[col.udt_name.replace(/^_/, '')] ?? col.udt_name}[]` : col.data_type;
        const expected = f.list ? `${PG_TYPE[f.type]}[]` : PG_TYPE[f.type];
        if (f.list && col.data_type === 'ARRAY') {
          const elem = { text: 'String', int4: 'Int', int8: 'BigInt', float8: 'Float', bool: 'Boolean' }[col.udt_name.replace(/^_/, '')];
          if (elem !== f.type) problems.push(`${m.name}.${f.name}: ${type} in SQL, ${f.type}[] in the model`);
        } else if (type !== expected) problems.push(`${m.name}.${f.name}: ${type} in SQL, ${expected} in the model`);
        const nullable = col.is_nullable === 'YES';
        // Prisma writes scalar lists as nullable arrays and never stores NULL in them.
        if (!f.list && nullable !== f.optional)
          problems.push(`${m.name}.${f.name}: ${nullable ? 'nullable' : 'NOT NULL'} in SQL, not in the model`);
      }
      for (const c of cols) {
        if (!m.fields.some((f) => f.column === c.column_name)) problems.push(`${m.table}.${c.column_name}: a column no model field maps`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the indexes of the models and of the migrations are the same', () => {
    const dbIndexes = indexes.map((i) => ({
      table: i.tablename,
      name: i.indexname,
      // Partial indexes (WHERE ...) cannot be declared in a Prisma model; they live in the SQL only.
      partial: / WHERE /.test(i.indexdef),
      cols: (/USING \w+ \(([^)]*)\)/.exec(i.indexdef)?.[1] ?? '').split(',').map((s) => s.trim().replace(/^"|"$/g, '')),
    }));
    const problems: string[] = [];
    for (const m of models) {
      for (const cols of m.indexes) {
        if (!dbIndexes.some((d) => d.table === m.table && d.cols.join(',') === cols.join(','))) {
          problems.push(`${m.name}: index (${cols.join(', ')}) declared, not in the migrations`);
        }
      }
    }
    for (const d of dbIndexes) {
      const m = models.find((x) => x.table === d.table);
      if (m && !d.partial && !m.indexes.some((cols) => cols.join(',') === d.cols.join(','))) {
        problems.push(`${d.table}: index ${d.name} (${d.cols.join(', ')}) in the migrations, not in the model`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('platform rules', () => {
  it('every tenant record with an id is found by (tenant_id, id) through an index', () => {
    const missing = models
      .filter((m) => m.fields.some((f) => f.name === 'tenantId') && m.fields.some((f) => f.name === 'id'))
      .filter((m) => !m.indexes.some((cols) => cols[0] === 'tenant_id' && cols[1] === 'id'))
      .map((m) => m.name);
    expect(missing).toEqual([]);
  });

  it("every route's path starts with its rail's catalogue base path; platform routes stay outside every rail's", () => {
    const wrong: string[] = [];
    let checked = 0;
    const railIds = new Set<string>(RAILS.map((r) => r.id));
    for (const [group, routes] of Object.entries(contract)) {
      for (const { route } of flattenRoutes(routes as never)) {
        const rail = (route.metadata as RouteMeta | undefined)?.rail ?? (railIds.has(group) ? (group as RailId) : undefined);
        checked++;
        if (rail) {
          const base = getRail(rail).basePath;
          if (route.path !== base && !route.path.startsWith(`${base}/`))
            wrong.push(`${route.method} ${route.path} (rail ${rail}, ${base})`);
        } else {
          const owner = railForPath(route.path);
          if (owner) wrong.push(`${route.method} ${route.path} (${group}) lies under rail ${owner.id}'s ${owner.basePath}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });

  it('every id the server mints uses a registered prefix', () => {
    const registered = idPrefixes();
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory() && e.name !== 'generated') walk(join(dir, e.name));
        else if (e.name.endsWith('.ts')) files.push(join(dir, e.name));
      }
    };
    walk(join(ROOT, 'packages/server/src'));
    const used = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/newId\('([^']*)'\)/g)) used.add(m[1] as string);
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((p) => !registered.has(p))).toEqual([]);
  });
});
