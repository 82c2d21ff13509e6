/**
 * `@svc/sdk/msw`: msw 2 request handlers generated from the contract, for QA and front-end work
 * without a server. One handler per route; each checks the bearer token, validates the request with
 * the route's own zod schemas and answers with the route's success status. The kit's resources
 * live in an in-memory store per handler set, with the routes nested under a record (an
 * assessment's questions and answers) kept per record; other routes answer the schemas' examples.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from '@svc/sdk/msw';
 * const mock = createHandlers({ baseUrl: 'http://mock.local' });
 * const server = setupServer(...mock.handlers);
 * afterEach(() => mock.store.reset());
 *
 * @packageDocumentation
 */
// The first statement carries the entry's documentation into its declaration file (tsc drops it
// with an import that the declarations do not need).
export { exampleOf } from './examples.ts';

import {
  type AnswerState,
  answerProblem,
  contract,
  DOCS_BASE_URL,
  declaredResources,
  declaredSettings,
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorEnvelope,
  flattenRoutes,
  gapResults,
  HEADER_NAMES,
  isAnswered,
  isRequired,
  keyField,
  openQuestions,
  PAGE_LIMIT_DEFAULT,
  progress,
  type QuestionDef,
  type RouteMeta,
  resourceOfMeta,
  settingOfMeta,
  unsetRecord,
} from '@svc/contract';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { type DefaultBodyType, type HttpHandler, HttpResponse, type HttpResponseResolver, http, type PathParams } from 'msw';
import { z } from 'zod';
import { exampleOf } from './examples.ts';
import { MOCK_RECIPES } from './generated/mock-recipes.ts';
import type { components } from './openapi-types.ts';

// The declarations of this entry name neither @svc/contract nor @ts-rest/core (a user's compiler
// would load the whole contract's types for them): the two contract types it shows are the OpenAPI
// document's (test/sdk.test.ts checks they agree), and `router` is any object.
type ErrorCode = components['schemas']['Error']['error'];
type ErrorDetail = components['schemas']['ErrorDetail'];

/** Options of {@link createMockHandlers}. */
export interface MockHandlerOptions {
  /**
   * Origin the handlers answer for, e.g. `http://mock.local`. Default `*`: any origin, so the
   * handlers also serve relative URLs in a browser.
   */
  baseUrl?: string;
  /** The ts-rest router to mock (the contract's, or a part of it); the whole API contract by default. */
  router?: object;
  /** Seeded records in each kit list before anything is created; default 3. */
  seed?: number;
  /** Items of every other list route (reference data, events, deliveries...), paged with `limit` and `cursor`; default 12. */
  listSize?: number;
  /** Resolvers that replace the generated behaviour of routes, by route name (`compliance.assessments.create`). */
  overrides?: Partial<Record<string, MockResolver>>;
  /**
   * The person (`usr_...`) each bearer token acts for, as an API key bound to a person does; `null`
   * makes a token a service key (it answers as itself and cannot approve). A token not listed acts
   * for a person of its own, derived from the token: two tokens are two people.
   */
  persons?: Record<string, string | null>;
}

const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function newCorrelationId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(26));
  return `cor_${Array.from(bytes, (b) => CROCKFORD[b % 32]).join('')}`;
}

function correlationIdOf(request: Request): string {
  const inbound = request.headers.get(HEADER_NAMES.correlationId);
  return inbound && CORRELATION_PATTERN.test(inbound) ? inbound : newCorrelationId();
}

/** The API's error envelope with its status and `X-Correlation-Id`, as the server renders it. */
function errorResponse(correlationId: string, code: ErrorCode, message: string, details?: ErrorDetail[], status?: number) {
  const body: ErrorEnvelope = {
    error: code,
    message,
    ...(details && details.length > 0 ? { details } : {}),
    correlation_id: correlationId,
    documentation_url: `${DOCS_BASE_URL}#${code}`,
  };
  return HttpResponse.json(body, { status: status ?? ERROR_STATUS[code], headers: { 'X-Correlation-Id': correlationId } });
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** zod issues in the stable vocabulary of `details[].issue`, with the server's field naming. */
function detailsFrom(issues: readonly Issue[], input: unknown, fallbackField: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
      for (const key of issue.keys)
        out.push({ field: base ? `${base}.${key}` : key, issue: 'unknown_field', message: `unknown field ${key}` });
      continue;
    }
    let word: string;
    switch (issue.code) {
      case 'invalid_type':
        word = valueAt(input, issue.path) === undefined ? 'missing' : 'invalid_type';
        break;
      case 'too_small':
      case 'too_big':
      case 'invalid_format':
      case 'invalid_value':
        word = issue.code;
        break;
      default:
        word = 'invalid_value';
    }
    out.push({ field: base || fallbackField, issue: word, message: issue.message });
  }
  return out;
}

function asZod(schema: unknown): z.ZodType | undefined {
  return schema instanceof z.ZodType ? schema : undefined;
}

function validate(schema: z.ZodType | undefined, input: unknown, fallbackField: string): ErrorDetail[] {
  if (!schema) return [];
  const result = schema.safeParse(input);
  return result.success ? [] : detailsFrom(result.error.issues as Issue[], input, fallbackField);
}

function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    out[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

function successStatus(route: AppRoute): number {
  const statuses = Object.keys(route.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  // A stateless mock creates on every call, so a POST answers as the first call would (201).
  if (route.method === 'POST' && statuses.includes(201)) return 201;
  return statuses[0] ?? 200;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The example, echoing what the request said where the response schema allows it: each path param
 * where the example carried that param's own example value (`/frameworks/gdpr/activate` answers
 * `framework: 'gdpr'`), and the body's fields the response also has. Falls back to fewer echoes,
 * then to the bare example, when an echo would break the response schema.
 */
function personalise(
  example: unknown,
  schema: z.ZodType | undefined,
  params: Record<string, unknown>,
  paramExamples: Record<string, unknown>,
  body: unknown,
): unknown {
  if (!schema) return example;
  const echo = (partial: boolean) => {
    let out = example;
    for (const [key, value] of Object.entries(params)) {
      const was = paramExamples[key];
      if (typeof value === 'string' && typeof was === 'string' && was !== '') out = substitute(out, was, value, partial);
    }
    if (isRecord(out) && typeof params.id === 'string' && 'id' in out && paramExamples.id === undefined) out = { ...out, id: params.id };
    return out;
  };
  const fromBody: Record<string, unknown> = {};
  if (isRecord(example) && isRecord(body)) for (const [key, value] of Object.entries(body)) if (key in example) fromBody[key] = value;
  const withBody = (value: unknown) => (isRecord(value) ? { ...value, ...fromBody } : value);
  const candidates = [withBody(echo(true)), withBody(echo(false)), echo(true), echo(false), withBody(example)];
  return candidates.find((candidate) => schema.safeParse(candidate).success) ?? example;
}

interface HandlerContext {
  baseUrl: string;
  name: string;
  route: AppRoute;
  meta: RouteMeta | undefined;
  override: MockResolver | undefined;
  errors: Map<string, SimulatedError>;
  table: (object: string) => Json[];
  store: MockStore;
  nextId: (prefix: string, at: number) => string;
  listSize: number;
  /** The kit resource (object) whose record this route is nested under (`/assessments/:id/...`). */
  parent: string | undefined;
  workflows: ReadonlyMap<string, Workflow>;
  nested: <T>(object: string, id: string) => T | undefined;
  setNested: (object: string, id: string, state: unknown) => void;
  personOf: (token: string) => string | null;
}

const resources = new Map(declaredResources().map((r) => [r.object, r]));

function handlerFor(ctx: HandlerContext): HttpHandler {
  const { route, meta } = ctx;
  const status = successStatus(route);
  const responseSchema = asZod(route.responses[status]);
  const example = responseSchema ? exampleOf(responseSchema) : undefined;
  const paramsSchema = asZod(route.pathParams);
  const querySchema = asZod(route.query);
  const bodySchema = route.method !== 'GET' && 'body' in route ? asZod(route.body) : undefined;
  const verb = route.method.toLowerCase() as Verb;
  const kit = meta?.resource;
  const resource = kit ? resourceOfMeta(kit) : undefined;
  const paramExamples: Record<string, unknown> = {};
  if (paramsSchema instanceof z.ZodObject)
    for (const [key, field] of Object.entries(paramsSchema.shape as Record<string, z.ZodType>)) paramExamples[key] = exampleOf(field);

  return http[verb](`${ctx.baseUrl}${route.path}`, async (info) => {
    const { request, params } = info;
    const correlationId = correlationIdOf(request);
    if (ctx.override) return ctx.override(info);
    if (meta?.auth !== 'public' && !/^Bearer\s+\S+\s*$/i.test(request.headers.get('authorization') ?? '')) {
      return errorResponse(correlationId, 'unauthorized', 'A bearer token is required.');
    }
    const simulated = ctx.errors.get(ctx.name);
    if (simulated) {
      if (simulated.once) ctx.errors.delete(ctx.name);
      return errorResponse(
        correlationId,
        simulated.code,
        simulated.message ?? ERROR_DESCRIPTIONS[simulated.code],
        simulated.details,
        simulated.status,
      );
    }

    let body: unknown;
    if (bodySchema) {
      const text = await request.text();
      if (text.trim()) {
        try {
          body = JSON.parse(text);
        } catch {
          return errorResponse(correlationId, 'bad_request', 'The request body is not valid JSON.', [
            { field: 'body', issue: 'invalid_format' },
          ]);
        }
      }
    }

    const query = queryObject(new URL(request.url));
    const details = [
      ...validate(paramsSchema, params, 'params'),
      ...validate(querySchema, query, 'query'),
      ...validate(bodySchema, body, 'body'),
    ];
    if (details.length > 0) return errorResponse(correlationId, 'validation_failed', ERROR_DESCRIPTIONS.validation_failed, details);

    const headers = { 'X-Correlation-Id': correlationId };
    const json = (payload: unknown, code = status) => HttpResponse.json(payload as Json, { status: code, headers });
    const work = (object: string, record: Json): WorkContext => {
      const token = /^Bearer\s+(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
      const person = ctx.personOf(token);
      return {
        record,
        params: params as Record<string, string>,
        query: (querySchema?.safeParse(query).data ?? {}) as Json,
        body,
        actor: person ?? keyIdOf(token),
        person,
        now: new Date().toISOString(),
        state: <T>() => ctx.nested<T>(object, String(record.id)) as T,
        setState: (state: unknown, id = String(record.id)) => ctx.setNested(object, id, state),
        table: ctx.table,
        nextId: ctx.nextId,
        fail: (code, message, details, failStatus) => errorResponse(correlationId, code, message, details, failStatus),
        ok: json,
      };
    };
    const workflow = kit ? ctx.workflows.get(kit.object) : ctx.parent ? ctx.workflows.get(ctx.parent) : undefined;
    const step = ctx.name.slice(ctx.name.lastIndexOf('.') + 1);

    if (kit && resource) {
      const table = ctx.table(kit.object);
      // Variants of one record type (the public-disclosure documents) share a table: the rows of this kind.
      const variant = resource.spec.variant;
      const rows = variant ? table.filter((row) => row[variant.field] === variant.value) : table;
      // A change named in its body (`reportId` of `POST /triage`) reads the id there.
      const named = kit.idField && isRecord(body) ? body[kit.idField] : params.id;
      const id = typeof named === 'string' ? named : undefined;
      const label = resource.spec.label.one;
      // A nested collection (`/board-meetings/:id/decisions`): `:id` is the parent's, which must be stored.
      const nest = resource.spec.parent;
      if (nest) {
        const parentObject = declaredResources().find((r) => r.spec.idPrefix === nest.idPrefix)?.object;
        const parentRow = parentObject ? ctx.table(parentObject).find((row) => row.id === id) : undefined;
        if (parentObject && !parentRow) return errorResponse(correlationId, 'not_found', `No ${nest.label} ${id ?? ''} in this tenant.`);
        const state = nest.createIn && parentRow ? String(parentRow[nest.createIn.field]) : undefined;
        if (kit.op === 'create' && nest.createIn && state !== undefined && !nest.createIn.states.includes(state)) {
          return errorResponse(
            correlationId,
            'conflict',
            `The ${nest.label} is ${state}; adding ${label} needs ${nest.createIn.states.join(' or ')}.`,
            [{ field: nest.createIn.field, issue: state }],
          );
        }
      }
      if (kit.op === 'create') {
        const base = exampleOf(resource.spec.record) as Json;
        const now = Date.now();
        const fresh: Json = { ...base, id: ctx.nextId(kit.idPrefix, now) };
        if (nest && id) fresh[nest.field] = id;
        const stamp = new Date(now).toISOString();
        if ('createdAt' in fresh) fresh.createdAt = stamp;
        if ('updatedAt' in fresh) fresh.updatedAt = stamp;
        const merged: Json = { ...fresh };
        if (isRecord(body)) for (const [key, value] of Object.entries(body)) if (key in fresh) merged[key] = value;
        const record = resource.spec.record.safeParse(merged).success ? merged : fresh;
        if (workflow) {
          const refused = workflow.init(work(kit.object, record), body);
          if (refused) return refused;
        }
        if (variant) record[variant.field] = variant.value;
        table.push(record);
        return json(record);
      }
      if (kit.op === 'list') {
        const parsed = (querySchema?.parse(query) ?? {}) as Json;
        const limit = typeof parsed.limit === 'number' ? parsed.limit : PAGE_LIMIT_DEFAULT;
        const where = (resource.spec.filterFields ?? {}) as Record<string, string | undefined>;
        // Newest first, or oldest first where the resource reads like a thread.
        const oldest = resource.spec.order === 'oldest';
        let items = ctx.store.records(kit.object);
        if (variant) items = items.filter((row) => row[variant.field] === variant.value);
        if (oldest) items = [...items].reverse();
        if (nest) items = items.filter((row) => row[nest.field] === id);
        for (const key of Object.keys(resource.spec.filters ?? {})) {
          if (parsed[key] !== undefined) items = items.filter((row) => matchesFilter(row, where[key] ?? key, parsed[key]));
        }
        if (typeof parsed.cursor === 'string') {
          const after = cursorField(parsed.cursor, 'after');
          if (typeof after !== 'string') {
            return errorResponse(correlationId, 'bad_request', 'The cursor is not one this API gave.', [
              { field: 'cursor', issue: 'invalid_value' },
            ]);
          }
          items = items.filter((row) => (oldest ? String(row.id) > after : String(row.id) < after));
        }
        const page = items.slice(0, limit);
        const last = page[page.length - 1];
        const cursor = items.length > limit && last ? toBase64Url(JSON.stringify({ after: last.id })) : null;
        return json({ data: page, cursor });
      }
      const record = rows.find((row) => row.id === id);
      if (!record) return errorResponse(correlationId, 'not_found', `No ${label} ${id ?? ''} in this tenant.`);
      if (kit.op === 'get') return json(record);
      if ((kit.op === 'transition' || kit.op === 'edit') && kit.statusField) {
        const current = record[kit.statusField];
        if (!kit.from?.includes(String(current))) {
          return errorResponse(
            correlationId,
            'conflict',
            `The ${label} is ${String(current)}; ${kit.verb ?? 'this transition'} needs ${kit.from?.join(' or ')}.`,
            [{ field: kit.statusField, issue: String(current) }],
          );
        }
        const guard = workflow?.guards[step];
        if (guard) {
          const refused = await guard(work(kit.object, record));
          if (refused) return refused;
        }
        if (kit.to !== undefined) record[kit.statusField] = kit.to;
        else if (isRecord(body)) {
          // An edit: the body's fields the record has, where the result still fits the record's schema.
          const edited: Json = { ...record };
          for (const [key, value] of Object.entries(body))
            if (key in record && key !== 'id' && key !== kit.statusField) edited[key] = value;
          if (resource.spec.record.safeParse(edited).success) Object.assign(record, edited);
        }
        if ('updatedAt' in record) record.updatedAt = new Date().toISOString();
        return json(record);
      }
    }

    const held = meta?.setting;
    const declaredSetting = held ? settingOfMeta(held) : undefined;
    if (held && declaredSetting) {
      // A setting: one record per tenant, per calling key or per path parameter, which a PUT replaces.
      const spec = declaredSetting.spec;
      const token = /^Bearer\s+(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
      const key = held.key === undefined ? '' : held.key === 'caller' ? keyIdOf(token) : String(params[held.key]);
      const field = keyField(spec);
      const rows = ctx.table(held.object);
      const stored = ctx.nested<Json>(held.object, key);
      if (held.op === 'list') return pageOfRows([...rows].reverse(), querySchema, query, correlationId, json);
      if (held.op === 'get') {
        if (stored) return json(stored);
        if (spec.unset === 'not_found')
          return errorResponse(correlationId, 'not_found', `No ${spec.label} is set${key ? ` for ${key}` : ''}.`);
        return json(unsetRecord(held.object, spec, key));
      }
      const base: Json = stored ?? (spec.unset === 'not_found' ? { ...(example as Json) } : (unsetRecord(held.object, spec, key) as Json));
      const merged: Json = { ...base, ...(field ? { [field]: key } : {}), updatedAt: new Date().toISOString() };
      if (isRecord(body)) for (const [name, value] of Object.entries(body)) if (name in merged && name !== field) merged[name] = value;
      const record = spec.record.safeParse(merged).success ? merged : { ...base, updatedAt: merged.updatedAt };
      if (stored) Object.assign(stored, record);
      else {
        rows.push(record);
        ctx.setNested(held.object, key, record);
      }
      return json(record);
    }

    if (ctx.parent) {
      // A route nested under a stored record: 404 for an unknown record, as the server answers.
      const parent = resources.get(ctx.parent);
      const record = ctx.table(ctx.parent).find((row) => row.id === params.id);
      if (!record)
        return errorResponse(correlationId, 'not_found', `No ${parent?.spec.label.one ?? 'record'} ${String(params.id)} in this tenant.`);
      const route = workflow?.routes[step];
      if (route) return await route(work(ctx.parent, record));
    }

    if (status === 204 || example === undefined) return new HttpResponse(null, { status, headers });
    const listed = ctx.listSize > 0 ? listItems(responseSchema, example, ctx.listSize) : undefined;
    if (route.method === 'GET' && listed) {
      const items = listed.items.map((item) => personalise(item, listed.itemSchema, params, paramExamples, undefined)) as Json[];
      // A page with more than `data` and `cursor` (counts, the moment it was computed) keeps the
      // example's other fields, so it still satisfies its own schema.
      return pageOfRows(items, querySchema, query, correlationId, (page) => json({ ...(example as Json), ...(page as Json) }));
    }
    return json(personalise(example, responseSchema, params, paramExamples, body));
  });
}

/** A field of a cursor the mock gave (base64url JSON); undefined for one it did not. */
function cursorField(cursor: string, field: 'after' | 'offset'): unknown {
  try {
    return (JSON.parse(fromBase64Url(cursor)) as Json)[field];
  } catch {
    return undefined;
  }
}

/**
 * A page of `items` in their order, as `{ data, cursor }`: `limit` of the query (the default page
 * size otherwise) from the offset its `cursor` names; 400 for a cursor the mock did not give.
 */
function pageOfRows(
  items: readonly Json[],
  querySchema: z.ZodType | undefined,
  query: Record<string, string | string[]>,
  correlationId: string,
  json: (payload: unknown) => Response,
): Response {
  const parsed = (querySchema?.safeParse(query).data ?? {}) as Json;
  const limit = typeof parsed.limit === 'number' ? parsed.limit : PAGE_LIMIT_DEFAULT;
  let offset = 0;
  if (typeof parsed.cursor === 'string') {
    const at = cursorField(parsed.cursor, 'offset');
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0) {
      return errorResponse(correlationId, 'bad_request', 'The cursor is not one this API gave.', [
        { field: 'cursor', issue: 'invalid_value' },
      ]);
    }
    offset = at;
  }
  const next = offset + limit < items.length ? toBase64Url(JSON.stringify({ offset: offset + limit })) : null;
  return json({ data: items.slice(offset, offset + limit), cursor: next });
}

/**
 * The items of a list route that is not a kit resource: `size` variants of the item example, each
 * with its own id (a fresh prefixed id, or the example's id numbered) and sequence number, kept only
 * when they still satisfy the item schema. Undefined when the route does not answer a list.
 */
function listItems(schema: z.ZodType | undefined, example: unknown, size: number): { items: Json[]; itemSchema: z.ZodType } | undefined {
  if (!(schema instanceof z.ZodObject) || !isRecord(example)) return undefined;
  const shape = schema.shape as Record<string, z.ZodType>;
  const data = shape.data;
  if (!(data instanceof z.ZodArray) || !('cursor' in shape)) return undefined;
  const itemSchema = data.element as z.ZodType;
  const first = Array.isArray(example.data) ? example.data[0] : undefined;
  const base = isRecord(first) ? first : exampleOf(itemSchema);
  if (!isRecord(base)) return undefined;
  const start = Date.UTC(2026, 10, 22, 9, 30);
  const items: Json[] = [];
  for (let i = 0; i < size; i++) {
    const item: Json = { ...base };
    if (typeof base.id === 'string') {
      const prefixed = /^([a-z]{2,8})_[0-9A-HJKMNP-TV-Z]{26}$/.exec(base.id);
      item.id = prefixed ? `${prefixed[1]}_${encodeTime(start - i * 60_000)}${randomPart()}` : i === 0 ? base.id : `${base.id}-${i + 1}`;
    }
    if (typeof base.seq === 'number') item.seq = base.seq + i;
    items.push(itemSchema.safeParse(item).success ? item : { ...base });
  }
  return { items, itemSchema };
}

type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Json = Record<string, unknown>;

/** A resolver that replaces the generated behaviour of one route (see {@link MockHandlerOptions.overrides}). */
export type MockResolver = HttpResponseResolver<PathParams, DefaultBodyType, undefined>;

/** Options of {@link simulateError}. */
export interface SimulatedErrorOptions {
  /** Status to answer with; the contract's `ERROR_STATUS[code]` by default. */
  status?: number;
  details?: ErrorDetail[];
  message?: string;
  /** Answer the error for the next call only, then behave normally again. */
  once?: boolean;
}

interface SimulatedError extends SimulatedErrorOptions {
  code: ErrorCode;
}

/** In-memory records of the kit resources, per handler set. */
export interface MockStore {
  /** Records of a resource (by object, `svc.compliance.assessment`), newest first, seeded on first use. */
  records(object: string): Json[];
  /** Forgets created records, state changes and simulated errors; lists are seeded again on next use. */
  reset(): void;
}

/** What {@link createHandlers} returns. */
export interface MockHandlerSet {
  handlers: HttpHandler[];
  store: MockStore;
  /** Makes a route (by name, `compliance.assessments.create`) answer the contract's error envelope for `code`. */
  simulateError(routeName: string, code: ErrorCode, options?: SimulatedErrorOptions): void;
  /** Removes simulated errors, of one route or of all. */
  clearErrors(routeName?: string): void;
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function randomPart(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => CROCKFORD[b % 32]).join('');
}

function toBase64Url(text: string): string {
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  return atob(text.replaceAll('-', '+').replaceAll('_', '/'));
}

/** Every string of the example equal to (or containing) the param's example value gets the request's value. */
function substitute(value: unknown, from: string, to: string, partial: boolean): unknown {
  if (typeof value === 'string') return partial ? value.replaceAll(from, to) : value === from ? to : value;
  if (Array.isArray(value)) return value.map((item) => substitute(item, from, to, partial));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, from, to, partial)]));
  return value;
}

function pathValue(record: Json, where: string): unknown {
  return valueAt(record, where.split('.'));
}

function matchesFilter(record: Json, where: string, wanted: unknown): boolean {
  if (where.endsWith('[]')) {
    const list = pathValue(record, where.slice(0, -2));
    return Array.isArray(list) && list.includes(wanted);
  }
  return pathValue(record, where) === wanted;
}

/**
 * msw 2 `http` handlers for every route of the contract, generated from it (nothing listed by
 * hand), over an in-memory store of the kit's resources. Each handler:
 * - answers 401 `unauthorized` without an `Authorization: Bearer ...` header (except public routes);
 * - validates path params, query and JSON body with the route's zod schemas and answers 422
 *   `validation_failed` with `details` `{ field, issue }` (400 `bad_request` for malformed JSON);
 * - for kit resources: create stores a record, get reads it (404 when unknown), list pages the
 *   stored and seeded records newest first with `limit`, `cursor` and the declared filters, and
 *   transitions move the status field from an allowed state (409 `conflict` otherwise);
 * - for other list routes pages `listSize` schema-valid variants of the item example with `limit`
 *   and `cursor`;
 * - for other routes answers the example of the success response, with the path's params echoed
 *   where the example carried the param's own example value.
 * Every error body is the API's envelope: `error`, `message`, `correlation_id`, `documentation_url`.
 */
export function createHandlers(options: MockHandlerOptions = {}): MockHandlerSet {
  const baseUrl = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const seedCount = Math.max(0, options.seed ?? 3);
  const listSize = Math.max(0, options.listSize ?? 12);
  const routes = flattenRoutes((options.router ?? contract) as AppRouter);
  const names = new Set(routes.map((r) => r.name));
  const tables = new Map<string, Json[]>();
  const nestedState = new Map<string, unknown>();
  const workflows = new Map(WORKFLOWS.map((w) => [w.object, w]));
  const personOf = (token: string): string | null => {
    const listed = options.persons?.[token];
    return listed !== undefined ? listed : derivedId('usr', token);
  };
  // Routes under a kit record's path (`/v1/compliance/assessments/:id/questions`) belong to that record.
  const recordPaths = routes
    .filter((r) => r.meta?.resource?.op === 'get')
    .map((r) => ({ path: r.route.path, object: r.meta?.resource?.object as string }));
  const parentOf = (route: AppRoute, meta: RouteMeta | undefined): string | undefined =>
    meta?.resource ? undefined : recordPaths.find((p) => route.path.startsWith(`${p.path}/`))?.object;
  const errors = new Map<string, SimulatedError>();
  let lastTime = 0;

  // Ids sort by creation even within one millisecond, as the server's ULIDs do.
  const nextId = (prefix: string, at: number): string => {
    lastTime = Math.max(at, lastTime + 1);
    return `${prefix}_${encodeTime(lastTime)}${randomPart()}`;
  };

  const table = (object: string): Json[] => {
    let rows = tables.get(object);
    if (rows) return rows;
    rows = [];
    const res = resources.get(object);
    const example = res ? exampleOf(res.spec.record) : undefined;
    if (res && isRecord(example)) {
      const base = typeof example.createdAt === 'string' ? Date.parse(example.createdAt) : Date.UTC(2026, 10, 22, 9, 30);
      // Variants sharing the record type (the document kinds) are seeded each with its own rows.
      const kinds = declaredResources().flatMap((r) => (r.object === object && r.spec.variant ? [r.spec.variant] : []));
      for (const kind of kinds.length > 1 ? kinds : [undefined]) {
        for (let i = seedCount - 1; i >= 0; i--) {
          const at = base - i * 3_600_000;
          const stamp = new Date(at).toISOString();
          const row: Json = { ...example, id: `${res.spec.idPrefix}_${encodeTime(at)}${randomPart()}` };
          if (kind) row[kind.field] = kind.value;
          if ('createdAt' in row) row.createdAt = stamp;
          if ('updatedAt' in row) row.updatedAt = stamp;
          rows.push(row);
        }
      }
    }
    // A keyed setting's list (the system profiles) is seeded too: the example under keys of its own,
    // each readable by its key.
    const listed = declaredSettings().find((d) => d.object === object && d.spec.list);
    const field = listed ? keyField(listed.spec) : undefined;
    const sample = listed ? exampleOf(listed.spec.record) : undefined;
    if (listed && field && isRecord(sample)) {
      const base = typeof sample.updatedAt === 'string' ? Date.parse(sample.updatedAt) : Date.UTC(2026, 10, 22, 9, 30);
      for (let i = seedCount - 1; i >= 0; i--) {
        const key = i === 0 ? String(sample[field]) : `${String(sample[field])}-${i + 1}`;
        const row: Json = { ...sample, [field]: key, updatedAt: new Date(base - i * 3_600_000).toISOString() };
        rows.push(row);
        nestedState.set(`${object}:${key}`, row);
      }
    }
    tables.set(object, rows);
    const workflow = workflows.get(object);
    if (workflow) {
      // Seeded records get their nested state as created ones do (an assessment its questions).
      for (const row of rows) workflow.init(seedContext(row, object), undefined);
    }
    return rows;
  };
  const seedContext = (record: Json, object: string): WorkContext => ({
    record,
    params: {},
    query: {},
    body: undefined,
    actor: 'seed',
    person: null,
    now: String(record.createdAt ?? new Date().toISOString()),
    state: <T>() => nestedState.get(`${object}:${String(record.id)}`) as T,
    setState: (state, id = String(record.id)) => nestedState.set(`${object}:${id}`, state),
    table,
    nextId,
    fail: () => {
      throw new Error(`seeding ${object}: its example does not initialise`);
    },
    ok: (payload) => HttpResponse.json(payload as Json),
  });

  const store: MockStore = {
    records: (object) => [...table(object)].sort((a, b) => String(b.id).localeCompare(String(a.id))),
    reset: () => {
      tables.clear();
      nestedState.clear();
      errors.clear();
    },
  };

  const simulateError: MockHandlerSet['simulateError'] = (routeName, code, opts = {}) => {
    if (!names.has(routeName)) throw new Error(`simulateError: no route named ${routeName}`);
    errors.set(routeName, { code, ...opts });
  };
  const clearErrors = (routeName?: string) => (routeName === undefined ? errors.clear() : errors.delete(routeName));

  const handlers = routes.map(({ name, route, meta }) =>
    handlerFor({
      baseUrl,
      name,
      route,
      meta,
      override: options.overrides?.[name],
      errors,
      table,
      store,
      nextId,
      listSize,
      parent: parentOf(route, meta),
      workflows,
      nested: <T>(object: string, id: string) => nestedState.get(`${object}:${id}`) as T | undefined,
      setNested: (object, id, state) => nestedState.set(`${object}:${id}`, state),
      personOf,
    }),
  );
  return { handlers, store, simulateError, clearErrors };
}

/**
 * The handlers of {@link createHandlers} alone, for `setupServer(...createMockHandlers())`.
 * Each call has its own store.
 */
export function createMockHandlers(options: MockHandlerOptions = {}): HttpHandler[] {
  return createHandlers(options).handlers;
}

// ---------------------------------------------------------------- workflows of records

/** What a workflow's hook sees: the record, the request and the means to answer. */
interface WorkContext {
  record: Json;
  params: Record<string, string>;
  /** The query after the route's schema (limits as numbers). */
  query: Json;
  body: unknown;
  /** Who acts: the person the token acts for, else the token as a key id. */
  actor: string;
  /** The person the token acts for; null for a service key. */
  person: string | null;
  now: string;
  /** The record's nested state (an assessment's questions and answers). */
  state: <T>() => T;
  setState: (state: unknown, id?: string) => void;
  table: (object: string) => Json[];
  nextId: (prefix: string, at: number) => string;
  fail: (code: ErrorCode, message: string, details?: ErrorDetail[], status?: number) => Response;
  ok: (payload: unknown, status?: number) => Response;
}

type Answerable = Response | undefined;

/**
 * The behaviour of a kit resource beyond its generic store: state set up when a record is created
 * (or seeded), guards the kit's transitions pass before the status moves, and the routes nested
 * under the record's path, by the last segment of their route name.
 */
interface Workflow {
  object: string;
  init(w: WorkContext, body: unknown): Answerable;
  guards: Record<string, (w: WorkContext) => Answerable | Promise<Answerable>>;
  routes: Record<string, (w: WorkContext) => Response | Promise<Response>>;
}

/** A stable id of the given prefix derived from a token (the mock's person of a token, its key id). */
function derivedId(prefix: string, token: string): string {
  let h = 2166136261;
  let out = '';
  for (let i = 0; i < 26; i++) {
    for (const ch of `${token}:${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    // The high bits: the low five of FNV-1a depend only on the low five of each character, so
    // tokens that differ elsewhere (`svc_test_bbb…` and `svc_test_rrr…`) would be one person.
    out += CROCKFORD[h >>> 27];
  }
  return `${prefix}_${out}`;
}

const keyIdOf = (token: string) => derivedId('key', token);

type Value = string | number | null;

type MockQuestion = QuestionDef;

interface MockAnswer {
  value: Value;
  notes: string | null;
  evidenceIds: string[];
  answeredBy: string;
  answeredAt: string;
  version: number;
}

interface MockItem {
  answer: MockAnswer | null;
  versions: Json[];
  assignment: Json | null;
  review: Json | null;
}

interface AssessmentState {
  stages: { key: string; title: string; citation: string | null }[];
  questions: MockQuestion[];
  items: Record<string, MockItem>;
}

/** The two controls of the contract's examples, assessed by a mock gap analysis. */
const MOCK_GAP_CONTROLS: [string, string][] = [
  ['AIA-CLS-01', 'AI system inventory'],
  ['AIA-CLS-02', 'Risk classification'],
];

function questionSet(type: string, framework: string | undefined): AssessmentState | undefined {
  if (type === 'gap-analysis') {
    if (!framework) return undefined;
    return {
      stages: [{ key: 'conformity', title: 'Conformity', citation: null }],
      questions: MOCK_GAP_CONTROLS.map(([control, title]) => ({
        key: `req.${control}`,
        stage: 'conformity',
        text: `${control} ${title}: is the requirement met?`,
        kind: 'requirement',
        options: null,
        required: true,
        requiredWhen: null,
        control,
        source: { framework, clause: null, citation: `${control} ${title}` },
        guidance: 'Compliant, partially compliant, non-compliant or not applicable; justify any status other than compliant in the notes.',
      })),
      items: {},
    };
  }
  const recipe = MOCK_RECIPES[type];
  if (!recipe) return undefined;
  return { stages: recipe.stages, questions: recipe.questions, items: {} };
}

/** The question's item, made on first use. */
function itemOf(s: AssessmentState, key: string): MockItem {
  const item = s.items[key] ?? { answer: null, versions: [], assignment: null, review: null };
  s.items[key] = item;
  return item;
}

/** The current answers in the shape of the shared rules (@svc/contract's assessment-rules.ts). */
function answersOf(s: AssessmentState): Map<string, AnswerState> {
  const out = new Map<string, AnswerState>();
  for (const [key, item] of Object.entries(s.items)) {
    if (item.answer) out.set(key, { value: item.answer.value, notes: item.answer.notes, evidenceIds: item.answer.evidenceIds });
  }
  return out;
}

/** The stages' progress and the completion, by the rules the server applies. */
const progressOf = (s: AssessmentState) => progress(s, answersOf(s));
const openOf = (s: AssessmentState) => openQuestions(s, answersOf(s));

function renderQuestion(assessmentId: string, s: AssessmentState, q: MockQuestion): Json {
  const item = s.items[q.key];
  return {
    object: 'svc.compliance.assessment_question',
    assessmentId,
    key: q.key,
    stage: q.stage,
    position: s.questions.indexOf(q),
    text: q.text,
    kind: q.kind,
    options: q.options,
    required: isRequired(q, answersOf(s)),
    control: q.control,
    source: q.source,
    guidance: q.guidance,
    answer: item?.answer ?? null,
    assignment: item?.assignment ?? null,
    review: item?.review ?? null,
  };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Stages and completion onto the record after a change of answers. */
function refresh(w: WorkContext, s: AssessmentState): void {
  const p = progressOf(s);
  w.record.stages = p.stages;
  w.record.completion = p.completion;
  w.record.updatedAt = w.now;
}

function frozenConflict(w: WorkContext): Response {
  const status = String(w.record.status);
  const id = String(w.record.id);
  return w.fail(
    'conflict',
    status === 'approved'
      ? `Assessment ${id} is approved and frozen; POST /v1/compliance/assessments/${id}/revisions starts a new revision.`
      : `Assessment ${id} is in review; its answers change only after it is returned.`,
    [{ field: 'status', issue: 'invalid_value', message: `current state: ${status}` }],
  );
}

/** The question a route names, or its 404. */
function questionFor(w: WorkContext): { s: AssessmentState; q: MockQuestion } | Response {
  const s = w.state<AssessmentState>();
  const q = s.questions.find((x) => x.key === w.params.key);
  return q ? { s, q } : w.fail('not_found', `No question ${w.params.key} in assessment ${String(w.record.id)}.`);
}

/** A page of `items` after the position `cursor` names, `limit` long. */
function pageOf<T>(items: T[], w: WorkContext, keyOf: (item: T) => number, render: (item: T) => Json, descending = false): Response {
  const limit = typeof w.query.limit === 'number' ? w.query.limit : PAGE_LIMIT_DEFAULT;
  let rest = items;
  if (typeof w.query.cursor === 'string') {
    let at: unknown;
    try {
      at = (JSON.parse(fromBase64Url(w.query.cursor)) as Json).at;
    } catch {
      at = undefined;
    }
    if (typeof at !== 'number')
      return w.fail('bad_request', 'The cursor is not one this API gave.', [{ field: 'cursor', issue: 'invalid_value' }]);
    rest = items.filter((item) => (descending ? keyOf(item) < at : keyOf(item) > at));
  }
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  const cursor = rest.length > limit && last !== undefined ? toBase64Url(JSON.stringify({ at: keyOf(last) })) : null;
  return w.ok({ data: page.map(render), cursor }, 200);
}

/** A gap analysis's scores and gaps by the server's rules, over the mock's example controls. */
const gapsOf = (s: AssessmentState) =>
  gapResults(s, answersOf(s), new Map(MOCK_GAP_CONTROLS.map(([id, title]) => [id, { id, title, category: 'conformity', clauseRefs: [] }])));

/**
 * Assessments: created with the questions of their type, answered one version at a time (a
 * `draft` moves to `in_progress`), submitted only with every required question answered (422),
 * returned with comments per question, approved under four eyes (403 for a service key or a
 * person who answered), frozen once approved (409), revised into a new revision.
 */
const assessmentWorkflow: Workflow = {
  object: 'svc.compliance.assessment',
  init: (w, body) => {
    const type = String(w.record.type);
    const framework = isRecord(body) && typeof body.framework === 'string' ? body.framework : undefined;
    if (type === 'gap-analysis' && !framework)
      return w.fail('validation_failed', 'A gap analysis names the framework it assesses.', [{ field: 'framework', issue: 'missing' }]);
    if (type !== 'gap-analysis' && framework !== undefined)
      return w.fail('validation_failed', `framework is given only for a gap analysis; a ${type} draws its questions from its recipe.`, [
        { field: 'framework', issue: 'invalid_value' },
      ]);
    const s = questionSet(type, framework);
    if (!s) return undefined;
    w.setState(s);
    Object.assign(w.record, {
      status: 'draft',
      framework: framework ?? MOCK_RECIPES[type]?.framework ?? null,
      // The mock pins no dictionary version: it holds no dictionaries.
      dictionaryVersion: null,
      recipeVersion: type === 'gap-analysis' ? null : (w.record.recipeVersion ?? null),
      revision: 1,
      previousId: null,
      submittedAt: null,
      submittedBy: null,
      approvedAt: null,
      approvedBy: null,
      answersHash: null,
      ...progressOf(s),
    });
    return undefined;
  },
  guards: {
    submit: (w) => {
      const open = openOf(w.state<AssessmentState>());
      if (open.length > 0) {
        return w.fail(
          'validation_failed',
          `Assessment ${String(w.record.id)} has ${open.length} required question(s) without an answer; answer them before submitting.`,
          open.map((q) => ({ field: `questions.${q.key}`, issue: 'missing', message: q.text.slice(0, 200) })),
        );
      }
      w.record.submittedAt = w.now;
      w.record.submittedBy = w.actor;
      return undefined;
    },
    send_back: (w) => {
      const s = w.state<AssessmentState>();
      const comments = (w.body as { comments: { question: string; comment: string }[] }).comments;
      const unknown = comments.findIndex((c) => !s.questions.some((q) => q.key === c.question));
      if (unknown >= 0) {
        return w.fail(
          'validation_failed',
          `Question ${comments[unknown]?.question} is not a question of assessment ${String(w.record.id)}.`,
          [{ field: `comments.${unknown}.question`, issue: 'invalid_value' }],
        );
      }
      for (const c of comments) {
        const item = itemOf(s, c.question);
        item.review = { comment: c.comment, by: w.actor, at: w.now };
      }
      return undefined;
    },
    approve: async (w) => {
      if (!w.person) {
        return w.fail('forbidden', 'An approval is a person’s act: this API key is a service key bound to no person.', [
          { field: 'authorization', issue: 'service_key' },
        ]);
      }
      const s = w.state<AssessmentState>();
      const authors = new Set(Object.values(s.items).flatMap((i) => i.versions.map((v) => v.by)));
      if (authors.has(w.person) || authors.has(w.actor)) {
        return w.fail(
          'forbidden',
          `Four eyes: ${w.person} answered questions of assessment ${String(w.record.id)} and cannot approve it; another person approves.`,
          [{ field: 'authorization', issue: 'four_eyes', message: 'the approver answered questions of this assessment' }],
        );
      }
      const answers = Object.entries(s.items)
        .filter(([, i]) => i.answer)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([key, i]) => ({ key, value: i.answer?.value, notes: i.answer?.notes, evidence: [...(i.answer?.evidenceIds ?? [])].sort() }));
      w.record.approvedAt = w.now;
      w.record.approvedBy = w.person;
      w.record.answersHash = await sha256Hex(JSON.stringify(answers));
      return undefined;
    },
  },
  routes: {
    questions: (w) => {
      const s = w.state<AssessmentState>();
      const q = w.query;
      const answers = answersOf(s);
      const rows = s.questions.filter(
        (x) =>
          (q.stage === undefined || x.stage === q.stage) &&
          (q.answered === undefined || isAnswered(x, answers.get(x.key)) === (q.answered === 'true')) &&
          (q.required === undefined || isRequired(x, answers) === (q.required === 'true')) &&
          (q.personId === undefined || s.items[x.key]?.assignment?.personId === q.personId),
      );
      return pageOf(
        rows,
        w,
        (x) => s.questions.indexOf(x),
        (x) => renderQuestion(String(w.record.id), s, x),
      );
    },
    question: (w) => {
      const found = questionFor(w);
      return found instanceof Response ? found : w.ok(renderQuestion(String(w.record.id), found.s, found.q), 200);
    },
    answer: (w) => answerRoute(w, w.body as { value?: string | number; notes?: string; evidenceIds?: string[] }),
    clearAnswer: (w) => answerRoute(w, null),
    assign: (w) => {
      if (w.record.status === 'approved') return frozenConflict(w);
      const found = questionFor(w);
      if (found instanceof Response) return found;
      const body = w.body as { personId: string | null; dueDate?: string | null };
      if (body.personId === null && body.dueDate)
        return w.fail('validation_failed', 'A due date needs a person to assign the question to.', [
          { field: 'dueDate', issue: 'invalid_value' },
        ]);
      const item = itemOf(found.s, found.q.key);
      item.assignment =
        body.personId === null ? null : { personId: body.personId, dueDate: body.dueDate ?? null, assignedBy: w.actor, assignedAt: w.now };
      return w.ok(renderQuestion(String(w.record.id), found.s, found.q), 200);
    },
    answerHistory: (w) => {
      const found = questionFor(w);
      if (found instanceof Response) return found;
      const versions = [...(found.s.items[found.q.key]?.versions ?? [])].reverse();
      return pageOf(
        versions,
        w,
        (v) => Number(v.version),
        (v) => v,
        true,
      );
    },
    results: (w) => {
      const s = w.state<AssessmentState>();
      const p = progressOf(s);
      const gap = w.record.type === 'gap-analysis' ? gapsOf(s) : undefined;
      return w.ok(
        {
          object: 'svc.compliance.assessment_results',
          assessmentId: w.record.id,
          type: w.record.type,
          status: w.record.status,
          dictionaryVersion: w.record.dictionaryVersion ?? null,
          completion: p.completion,
          stages: p.stages.map(({ key, title, required, answered, completion }) => ({ key, title, required, answered, completion })),
          open: openOf(s).map((q) => ({ question: q.key, stage: q.stage, text: q.text })),
          score: gap?.score ?? null,
          frameworks: gap
            ? [{ framework: String(w.record.framework), dictionaryVersion: w.record.dictionaryVersion ?? null, ...gap.framework }]
            : [],
          controls: gap?.controls ?? [],
          clauses: gap?.clauses ?? [],
          gaps: gap?.gaps ?? [],
          answersHash: w.record.answersHash ?? null,
        },
        200,
      );
    },
    remediate: (w) => {
      if (w.record.type !== 'gap-analysis' || w.record.status !== 'approved') {
        return w.fail(
          'conflict',
          `Assessment ${String(w.record.id)} is not an approved gap analysis; only those turn gaps into remediations.`,
          [{ field: 'status', issue: 'invalid_value', message: `current state: ${String(w.record.status)}` }],
        );
      }
      const s = w.state<AssessmentState & { remediated?: string[] }>();
      const wanted = (w.body as { controls?: string[] } | undefined)?.controls;
      const gaps = gapsOf(s).gaps.filter((g) => !wanted || wanted.includes(g.control));
      const done = new Set(s.remediated ?? []);
      const at = Date.now();
      const created = gaps
        .filter((g) => !done.has(g.control))
        .map((g) => ({
          control: g.control,
          findingId: w.nextId('fnd', at),
          remediationId: w.nextId('rem', at),
          severity: g.status === 'non_compliant' ? 'high' : 'medium',
        }));
      s.remediated = [...done, ...created.map((c) => c.control)];
      return w.ok(
        {
          object: 'svc.compliance.assessment_remediation',
          assessmentId: w.record.id,
          created,
          skipped: gaps
            .filter((g) => done.has(g.control))
            .map((g) => ({ control: g.control, findingId: 'fnd_00000000000000000000000000' })),
        },
        201,
      );
    },
    revise: (w) => {
      const rows = w.table(assessmentWorkflow.object);
      if (w.record.status !== 'approved' || rows.some((r) => r.previousId === w.record.id)) {
        return w.fail('conflict', `Assessment ${String(w.record.id)} is not an approved assessment without a later revision.`, [
          { field: 'status', issue: 'invalid_value', message: `current state: ${String(w.record.status)}` },
        ]);
      }
      const s = w.state<AssessmentState>();
      const id = w.nextId('asm', Date.now());
      const items: Record<string, MockItem> = {};
      for (const [key, item] of Object.entries(s.items)) {
        if (!item.answer) continue;
        const answer = { ...item.answer, version: 1, answeredAt: w.now };
        items[key] = {
          answer,
          versions: [
            {
              object: 'svc.compliance.answer_version',
              assessmentId: id,
              question: key,
              version: 1,
              action: 'carried',
              value: answer.value,
              notes: answer.notes,
              evidenceIds: answer.evidenceIds,
              by: w.actor,
              at: w.now,
            },
          ],
          assignment: null,
          review: null,
        };
      }
      const next: AssessmentState = { stages: s.stages, questions: s.questions, items };
      const record: Json = {
        ...w.record,
        id,
        status: 'in_progress',
        revision: Number(w.record.revision ?? 1) + 1,
        previousId: w.record.id,
        submittedAt: null,
        submittedBy: null,
        approvedAt: null,
        approvedBy: null,
        answersHash: null,
        createdAt: w.now,
        updatedAt: w.now,
        ...progressOf(next),
      };
      w.setState(next, id);
      rows.push(record);
      return w.ok(record, 201);
    },
  },
};

/** Answers (or, with `body` null, clears) a question: a new version, the stages and completion, draft to in progress. */
function answerRoute(w: WorkContext, body: { value?: string | number; notes?: string; evidenceIds?: string[] } | null): Response {
  if (w.record.status !== 'draft' && w.record.status !== 'in_progress') return frozenConflict(w);
  const found = questionFor(w);
  if (found instanceof Response) return found;
  const { s, q } = found;
  const evidenceIds = body ? [...new Set(body.evidenceIds ?? [])] : [];
  if (body) {
    const problem = answerProblem(q, { ...body, evidenceIds });
    if (problem) return w.fail('validation_failed', problem.message ?? ERROR_DESCRIPTIONS.validation_failed, [problem]);
    const evidence = w.table('svc.compliance.evidence');
    const known = new Set(evidence.map((e) => e.id));
    const missing = evidenceIds.findIndex((id) => !known.has(id));
    if (missing >= 0) {
      return w.fail('validation_failed', `Evidence ${evidenceIds[missing]} does not exist in this tenant.`, [
        { field: `evidenceIds.${missing}`, issue: 'invalid_value' },
      ]);
    }
  }
  const item = itemOf(s, q.key);
  if (!body && !item.answer) return w.fail('conflict', `Question ${q.key} of assessment ${String(w.record.id)} has no answer to clear.`);
  const version = (item.versions.at(-1)?.version as number | undefined) ?? 0;
  const value: Value = body ? (body.value ?? null) : null;
  const notes = body?.notes ?? null;
  item.versions.push({
    object: 'svc.compliance.answer_version',
    assessmentId: w.record.id,
    question: q.key,
    version: version + 1,
    action: !body ? 'cleared' : item.answer ? 'changed' : 'answered',
    value,
    notes,
    evidenceIds,
    by: w.actor,
    at: w.now,
  });
  item.answer = body ? { value, notes, evidenceIds, answeredBy: w.actor, answeredAt: w.now, version: version + 1 } : null;
  if (body) item.review = null;
  if (body && w.record.status === 'draft') w.record.status = 'in_progress';
  refresh(w, s);
  return w.ok(renderQuestion(String(w.record.id), s, q), 200);
}

const WORKFLOWS: readonly Workflow[] = [assessmentWorkflow];
