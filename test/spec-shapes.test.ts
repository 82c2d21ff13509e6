/**
 * The specification's table "Shapes seen in requests and responses", read at run time, against
 * the OpenAPI document and the live service: where the table names a field with a type, the
 * operation's schema has that field with that type, and a real answer of the service has it too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

type Json = Record<string, unknown>;

const root = join(import.meta.dirname, '..');
const SPEC = join(root, '..', 'shared', 'spec', 'api-specification.md');
const doc = JSON.parse(readFileSync(join(root, 'packages/contract/openapi.json'), 'utf8')) as Json;

// ------------------------------------------------------------------ the table

/** What the table says of a field's type; `any` when it names the field only. */
export type Shape =
  | { kind: 'any' }
  | { kind: 'string' | 'integer' | 'number' | 'array'; nullable?: boolean }
  | { kind: 'array-of-strings' }
  | { kind: 'array-of-objects'; fields: Field[] }
  | { kind: 'object'; fields: Field[] };
export interface Field {
  name: string;
  shape: Shape;
}
export interface Row {
  resource: string;
  /** The whole resource is an array of objects with these fields (the RACI row). */
  rootArray: boolean;
  fields: Field[];
  text: string;
}

/** Splits on a separator outside backticks, braces and parentheses. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let tick = false;
  let cur = '';
  for (const ch of s) {
    if (ch === '`') tick = !tick;
    else if (!tick && (ch === '{' || ch === '(')) depth++;
    else if (!tick && (ch === '}' || ch === ')')) depth--;
    if (ch === sep && depth === 0 && !tick) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x.length > 0);
}

/** The type a text opens with (`string or null`, `array of strings`, `array of \`{ a: integer }\``, ...). */
export function parseType(text: string): Shape {
  const t = text
    .replace(/\([^)]*\)/g, '')
    .replace(/^:\s*/, '')
    .trim();
  const objectList = /^array of `?\{(.*)\}`?/.exec(t);
  if (objectList) return { kind: 'array-of-objects', fields: parseInlineFields(objectList[1] as string) };
  if (/^array of (strings|framework ids|[a-z -]*ids?\b)/.test(t)) return { kind: 'array-of-strings' };
  if (/^array\b/.test(t)) return { kind: 'array' };
  if (/^strings?\b/.test(t)) return { kind: 'string', nullable: /^string or null\b/.test(t) };
  if (/^integer\b/.test(t)) return { kind: 'integer' };
  if (/^number\b/.test(t)) return { kind: 'number' };
  if (/^ISO 8601 timestamp\b/.test(t)) return { kind: 'string' };
  return { kind: 'any' };
}

/** `{ week: integer, tasks: array }` inner text: names without backticks. */
function parseInlineFields(inner: string): Field[] {
  return splitTop(inner, ',').map((piece) => {
    const m = /^([A-Za-z][A-Za-z0-9]*)\s*:?\s*(.*)$/.exec(piece) as RegExpExecArray;
    return { name: m[1] as string, shape: parseType(m[2] as string) };
  });
}

/** `` `a` string, `b` array of strings `` or `` `aiSystem` object: `name` string, ...; `x` string ``. */
function parseFieldList(text: string): Field[] {
  const groups = text.includes(';') ? splitTop(text, ';') : [text];
  const fields: Field[] = [];
  for (const g of groups) {
    const obj = /^`([A-Za-z][A-Za-z0-9]*)`\s+object:\s*(.*)$/.exec(g);
    if (obj) {
      fields.push({ name: obj[1] as string, shape: { kind: 'object', fields: parseFieldList((obj[2] as string).replace(/;/g, ',')) } });
      continue;
    }
    for (const piece of splitTop(g, ',')) {
      const m = /^`([A-Za-z][A-Za-z0-9]*)`(.*)$/.exec(piece);
      if (m) fields.push({ name: m[1] as string, shape: parseType(m[2] as string) });
    }
  }
  return fields;
}

/** The rows of the shapes table, continuation rows (empty first cell) folded into their resource. */
export function readShapeTable(markdown: string): Row[] {
  const start = markdown.indexOf('### Shapes seen in requests and responses');
  if (start < 0) throw new Error('the specification has no shapes table');
  const lines = markdown.slice(start).split('\n');
  const rows: Row[] = [];
  let inTable = false;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells[0] === 'Resource / operation' || /^-+$/.test(cells[0] ?? '')) continue;
    const [resource, second = '', third] = cells;
    let fields: Field[];
    let rootArray = false;
    if (third !== undefined) {
      // `| resource | field(s) | type |`: every backticked name of the second cell has the third cell's type.
      const names = [...second.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)].map((m) => m[1] as string);
      const shape = parseType(third);
      fields = names.map((name) => ({ name, shape }));
    } else {
      const rootList = /^array of items with (.*)$/.exec(second);
      rootArray = rootList !== null;
      fields = parseFieldList(rootList ? (rootList[1] as string) : second);
    }
    if (resource) rows.push({ resource, rootArray, fields, text: line });
    else {
      const last = rows[rows.length - 1];
      if (!last) throw new Error(`continuation row without a resource: ${line}`);
      last.fields.push(...fields);
      last.text += `\n${line}`;
    }
  }
  return rows;
}

// ------------------------------------------------------------------ rows -> operations

interface Target {
  operationId: string;
  side: 'request' | 'response';
  /** `data[]`: the list's items. */
  items?: boolean;
  /** Request variant the row describes, when the body is one of several forms. */
  variant?: 'A' | 'B';
}
const TARGETS: Record<string, Target> = {
  'Assessment create request': { operationId: 'compliance.assessments.create', side: 'request' },
  Assessment: { operationId: 'compliance.assessments.create', side: 'response' },
  'Report generate request': { operationId: 'reporting.generate', side: 'request' },
  Report: { operationId: 'reporting.generate', side: 'response' },
  'Blast-radius request': { operationId: 'graph.blastRadius', side: 'request' },
  'Blast-radius response': { operationId: 'graph.blastRadius', side: 'response' },
  'Framework control (list item)': { operationId: 'frameworks.controls', side: 'response', items: true },
  'RACI response': { operationId: 'stakeholders.raci', side: 'response' },
  'Drift item': { operationId: 'self_audit.drift', side: 'response', items: true },
  'Trust sub-processor item': { operationId: 'trust.subProcessors.list', side: 'response', items: true },
  'Client engagement item': { operationId: 'specialists.clientEngagements', side: 'response', items: true },
  'Seed reset response': { operationId: 'seed.reset', side: 'response' },
  'Profile response': { operationId: 'profiles.get', side: 'response' },
  'Onboarding plan request': { operationId: 'onboarding.plan', side: 'request' },
  'Onboarding plan response': { operationId: 'onboarding.plan', side: 'response' },
  'Gap-analysis request': { operationId: 'context.gapAnalysis', side: 'request' },
  'Gap-analysis response': { operationId: 'context.gapAnalysis', side: 'response' },
  'Audit-trail event': { operationId: 'audit_trail.events', side: 'response', items: true },
  'Audit-engine run request': { operationId: 'audit_engine.run', side: 'request' },
  'Audit-engine run response': { operationId: 'audit_engine.run', side: 'response' },
  'Classifier request (form A)': { operationId: 'agents.invoke.classifier', side: 'request', variant: 'A' },
  'Classifier request (form B)': { operationId: 'agents.invoke.classifier', side: 'request', variant: 'B' },
  'Classifier response': { operationId: 'agents.invoke.classifier', side: 'response' },
};
/** Rows that name no field of an operation, with why. */
const SKIPPED: Record<string, string> = {
  'Webhook event envelope': 'the row points to the Events section and names no field here; the envelope is checked by the webhook tests',
};

// ------------------------------------------------------------------ the document

const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
function deref(s: Json): Json {
  let cur = s;
  for (let i = 0; i < 20 && typeof cur.$ref === 'string'; i++) cur = schemas[(cur.$ref as string).split('/').pop() as string] as Json;
  return cur;
}

/** The alternatives a schema allows: its anyOf/oneOf members (refs followed), else itself. */
function alternatives(s: Json): Json[] {
  const d = deref(s);
  const alts = (d.anyOf ?? d.oneOf) as Json[] | undefined;
  if (alts) return alts.flatMap(alternatives);
  if (d.allOf) {
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const part of (d.allOf as Json[]).map(deref)) {
      Object.assign(merged.properties as Json, part.properties ?? {});
      (merged.required as string[]).push(...((part.required as string[]) ?? []));
    }
    return [merged];
  }
  return [d];
}
function typesOf(s: Json): Set<string> {
  const out = new Set<string>();
  for (const a of alternatives(s)) {
    if (Array.isArray(a.type)) for (const t of a.type) out.add(t);
    else if (typeof a.type === 'string') out.add(a.type);
    else if ('const' in a) out.add(a.const === null ? 'null' : typeof a.const === 'number' ? 'number' : typeof a.const);
    else if (Array.isArray(a.enum)) for (const v of a.enum) out.add(v === null ? 'null' : typeof v);
    else out.add('any');
  }
  return out;
}
function objectAlternative(s: Json): Json | undefined {
  return alternatives(s).find((a) => a.type === 'object' || a.properties !== undefined);
}

/** Problems of `schema` against the table's field, as text; empty when it matches. */
function checkSchema(schema: Json | undefined, f: Field, where: string): string[] {
  const at = `${where}.${f.name}`;
  if (!schema) return [`${at}: missing`];
  const types = typesOf(schema);
  const only = (...allowed: string[]) =>
    [...types].every((t) => allowed.includes(t))
      ? []
      : [`${at}: type ${[...types].join('|')}, the specification says ${allowed.join(' or ')}`];
  const s = f.shape;
  switch (s.kind) {
    case 'any':
      return [];
    case 'string':
      return only('string', ...(s.nullable ? ['null'] : []));
    case 'integer':
      return only('integer');
    case 'number':
      return only('number', 'integer');
    case 'array':
      return only('array');
    case 'array-of-strings':
    case 'array-of-objects': {
      const bad = only('array');
      if (bad.length) return bad;
      const arr = alternatives(schema).find((a) => a.type === 'array') as Json;
      const items = (arr.items ?? {}) as Json;
      if (s.kind === 'array-of-strings') {
        const it = typesOf(items);
        return [...it].every((t) => t === 'string') ? [] : [`${at}[]: items ${[...it].join('|')}, the specification says string`];
      }
      return checkObject(items, s.fields, `${at}[]`);
    }
    case 'object':
      return checkObject(schema, s.fields, at);
  }
}
function checkObject(schema: Json, fields: Field[], where: string): string[] {
  const obj = objectAlternative(schema);
  if (!obj) return [`${where}: not an object, the specification names its fields ${fields.map((f) => f.name).join(', ')}`];
  const props = (obj.properties ?? {}) as Record<string, Json>;
  return fields.flatMap((f) => checkSchema(props[f.name], f, where));
}

function operation(id: string): Json {
  for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) if (op && typeof op === 'object' && op.operationId === id) return op;
  }
  throw new Error(`no operation ${id} in the OpenAPI document`);
}

/** The schema the row's fields live in. */
function targetSchema(t: Target, fields: Field[]): Json {
  const op = operation(t.operationId);
  const content = (s: Json | undefined) => ((s?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json;
  let schema: Json;
  if (t.side === 'request') schema = content(op.requestBody as Json);
  else {
    const responses = op.responses as Record<string, Json>;
    const ok = Object.keys(responses).find((c) => c.startsWith('2')) as string;
    schema = content(deref(responses[ok] as Json));
  }
  if (t.items) {
    const list = objectAlternative(schema);
    if (!list) throw new Error(`${t.operationId}: the answer is not a list object`);
    schema = ((list.properties as Json).data as Json).items as Json;
  }
  if (t.variant) {
    // The form whose properties hold the row's fields.
    const forms = alternatives(schema).filter((a) => a.properties);
    const form = forms.find((a) => fields.every((f) => f.name in (a.properties as Json)));
    if (form) schema = form;
  }
  return schema;
}

/** Problems of the document's schema for a row. */
export function documentProblems(row: Row): string[] {
  const t = TARGETS[row.resource] as Target;
  const schema = targetSchema(t, row.fields);
  if (row.rootArray) {
    const types = typesOf(schema);
    if (!(types.size === 1 && types.has('array'))) return [`${row.resource}: the response is ${[...types].join('|')}, not an array`];
    return checkObject((alternatives(schema)[0] as Json).items as Json, row.fields, `${row.resource}[]`);
  }
  return checkObject(schema, row.fields, row.resource);
}

// ------------------------------------------------------------------ live values

/** Problems of a live value against the table's field. */
function checkValue(value: unknown, f: Field, where: string): string[] {
  const at = `${where}.${f.name}`;
  if (value === undefined) return [`${at}: missing in the answer`];
  const s = f.shape;
  const bad = (what: string) => [`${at}: ${JSON.stringify(value)?.slice(0, 120)} is not ${what}`];
  switch (s.kind) {
    case 'any':
      return [];
    case 'string':
      return typeof value === 'string' || (s.nullable && value === null) ? [] : bad(s.nullable ? 'a string or null' : 'a string');
    case 'integer':
      return Number.isInteger(value) ? [] : bad('an integer');
    case 'number':
      return typeof value === 'number' ? [] : bad('a number');
    case 'array':
      return Array.isArray(value) ? [] : bad('an array');
    case 'array-of-strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [] : bad('an array of strings');
    case 'array-of-objects':
      if (!Array.isArray(value)) return bad('an array');
      return value.flatMap((v, i) => checkLiveObject(v, s.fields, `${at}[${i}]`));
    case 'object':
      return checkLiveObject(value, s.fields, at);
  }
}
function checkLiveObject(value: unknown, fields: Field[], where: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${where}: not an object`];
  return fields.flatMap((f) => checkValue((value as Json)[f.name], f, where));
}

// ------------------------------------------------------------------ tests

const haveSpec = existsSync(SPEC);
if (!haveSpec && process.env.CI === 'true') throw new Error(`${SPEC} is missing: CI must have ../shared beside the repository`);
const rows = haveSpec ? readShapeTable(readFileSync(SPEC, 'utf8')) : [];
const MISSING = ' (skipped: ../shared/spec/api-specification.md is not beside the repository)';

describe.skipIf(!haveSpec)(`the specification shapes table${haveSpec ? '' : MISSING}`, () => {
  it('is read: every row maps to an operation or is skipped with a reason, and the typed rows parse', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    for (const r of rows) expect(r.resource in TARGETS || r.resource in SKIPPED, `unmapped row: ${r.text}`).toBe(true);
    const byName = Object.fromEntries(rows.map((r) => [r.resource, r]));
    // The parser reads the forms the table uses; a few anchors prove it.
    expect(byName['Blast-radius response']?.fields).toEqual([
      { name: 'affectedFrameworks', shape: { kind: 'array-of-strings' } },
      { name: 'affectedSystems', shape: { kind: 'integer' } },
    ]);
    expect(byName['RACI response']).toMatchObject({
      rootArray: true,
      fields: [{ name: 'control' }, { name: 'responsible' }, { name: 'accountable' }],
    });
    expect(byName['Profile response']?.fields).toEqual([
      { name: 'frameworks', shape: { kind: 'array-of-strings' } },
      { name: 'controlBaseline', shape: { kind: 'any' } },
    ]);
    expect(byName.Report?.fields.find((f) => f.name === 'downloadUrl')?.shape).toEqual({ kind: 'string', nullable: true });
    expect(byName['Onboarding plan response']?.fields[0]?.shape).toEqual({
      kind: 'array-of-objects',
      fields: [
        { name: 'week', shape: { kind: 'integer' } },
        { name: 'tasks', shape: { kind: 'array' } },
      ],
    });
    expect(byName['Classifier request (form A)']?.fields.map((f) => f.name)).toEqual(['aiSystem', 'jurisdiction', 'applicableFrameworks']);
  });

  for (const row of rows.filter((r) => r.resource in TARGETS)) {
    it(`the OpenAPI document gives ${row.resource} (${TARGETS[row.resource]?.operationId}) the fields and types of the table`, () => {
      expect(documentProblems(row)).toEqual([]);
    });
  }
});

// The live answers of the operations whose shapes this round fixed, and of the others a fresh tenant can call.
let ts: TestServer;
let t: TenantFixture;
describe.skipIf(!haveSpec)(`the live service answers with the table’s types${haveSpec ? '' : MISSING}`, () => {
  beforeAll(async () => {
    ts = await startTestServer();
    t = await createTenant(ts);
  });
  afterAll(() => ts?.close());
  const row = (name: string) => rows.find((r) => r.resource === name) as Row;

  it('blast radius', async () => {
    expect([200, 201]).toContain((await t.call('POST', '/v1/frameworks/gdpr/activate', { body: {} })).status);
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Security policy', kind: 'policy', controlIds: ['GDPR-SEC-01'], systemId: 'sys_live' },
    });
    expect(ev.status).toBe(201);
    const res = await t.call('POST', '/v1/graph/blast-radius', { body: { control: 'GDPR-SEC-01' } });
    expect(res.status).toBe(200);
    expect(checkLiveObject(res.body, row('Blast-radius response').fields, 'blast radius')).toEqual([]);
  });

  it('profile', async () => {
    const res = await t.call('GET', '/v1/profiles/banking');
    expect(res.status).toBe(200);
    expect(checkLiveObject(res.body, row('Profile response').fields, 'profile')).toEqual([]);
  });

  it('RACI', async () => {
    // An activated framework gives the chart its controls; a system-wide assignment makes Ada accountable for each.
    expect([200, 201]).toContain((await t.call('POST', '/v1/frameworks/gdpr/activate', { body: {} })).status);
    const person = await t.call('POST', '/v1/stakeholders/users', { body: { name: 'Ada Live', email: 'ada.live@example.com' } });
    const role = await t.call('POST', '/v1/stakeholders/roles', { body: { name: 'Risk owner' } });
    expect([person.status, role.status]).toEqual([201, 201]);
    const asg = await t.call('POST', '/v1/stakeholders/assignments', {
      body: { personId: person.body.id, roleId: role.body.id, raci: 'accountable', systemId: 'sys_live' },
    });
    expect(asg.status).toBe(201);
    const res = await t.call('GET', '/v1/stakeholders/raci?systemId=sys_live');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.length).toBeGreaterThan(0);
    for (const [i, item] of (res.body as unknown[]).entries())
      expect(checkLiveObject(item, row('RACI response').fields, `raci[${i}]`)).toEqual([]);
    // The table names the fields; what they hold is who, in words: a name, or null when nobody holds the part.
    for (const item of res.body as { control: string; responsible: unknown; accountable: unknown }[]) {
      expect(typeof item.control).toBe('string');
      expect(item.accountable).toBe('Ada Live');
      expect(item.responsible).toBeNull();
    }
  });

  it('assessment, drift item and onboarding plan', async () => {
    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 'sys_live', jurisdiction: 'eu/de' } });
    expect(asm.status).toBe(201);
    expect(checkLiveObject(asm.body, row('Assessment').fields, 'assessment')).toEqual([]);
    const drift = await t.call('GET', '/v1/self-audit/drift?profile=banking');
    expect(drift.status).toBe(200);
    expect(drift.body.data.length).toBeGreaterThan(0);
    for (const [i, item] of (drift.body.data as unknown[]).entries())
      expect(checkLiveObject(item, row('Drift item').fields, `drift[${i}]`)).toEqual([]);
    const plan = await t.call('POST', '/v1/onboarding/plan', { body: { profile: 'banking' } });
    expect(plan.status).toBe(200);
    expect(checkLiveObject(plan.body, row('Onboarding plan response').fields, 'plan')).toEqual([]);
  });

  it('framework control list items', async () => {
    const res = await t.call('GET', '/v1/frameworks/gdpr/controls');
    expect(res.status).toBe(200);
    for (const [i, item] of (res.body.data as unknown[]).entries())
      expect(checkLiveObject(item, row('Framework control (list item)').fields, `control[${i}]`)).toEqual([]);
  });
});
