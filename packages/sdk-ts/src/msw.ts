/**
 * `@svc/sdk/msw`: msw 2 request handlers generated from the contract, for QA and front-end work
 * without a server. One handler per route; each checks the bearer token, validates the request with
 * the route's own zod schemas and answers with the route's success status. The kit's resources
 * live in an in-memory store per handler set; other routes answer the schemas' examples.
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
  contract,
  DOCS_BASE_URL,
  declaredResources,
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorEnvelope,
  flattenRoutes,
  HEADER_NAMES,
  PAGE_LIMIT_DEFAULT,
  type RouteMeta,
} from '@svc/contract';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { type DefaultBodyType, type HttpHandler, HttpResponse, type HttpResponseResolver, http, type PathParams } from 'msw';
import { z } from 'zod';
import { exampleOf } from './examples.ts';
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
}

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
  const resource = kit ? declaredResources().find((r) => r.object === kit.object) : undefined;
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

    if (kit && resource) {
      const rows = ctx.table(kit.object);
      const id = typeof params.id === 'string' ? params.id : undefined;
      const label = resource.spec.label.one;
      if (kit.op === 'create') {
        const base = exampleOf(resource.spec.record) as Json;
        const now = Date.now();
        const fresh: Json = { ...base, id: ctx.nextId(kit.idPrefix, now) };
        const stamp = new Date(now).toISOString();
        if ('createdAt' in fresh) fresh.createdAt = stamp;
        if ('updatedAt' in fresh) fresh.updatedAt = stamp;
        const merged: Json = { ...fresh };
        if (isRecord(body)) for (const [key, value] of Object.entries(body)) if (key in fresh) merged[key] = value;
        const record = resource.spec.record.safeParse(merged).success ? merged : fresh;
        rows.push(record);
        return json(record);
      }
      if (kit.op === 'list') {
        const parsed = (querySchema?.parse(query) ?? {}) as Json;
        const limit = typeof parsed.limit === 'number' ? parsed.limit : PAGE_LIMIT_DEFAULT;
        const where = (resource.spec.filterFields ?? {}) as Record<string, string | undefined>;
        let items = ctx.store.records(kit.object);
        for (const key of Object.keys(resource.spec.filters ?? {})) {
          if (parsed[key] !== undefined) items = items.filter((row) => matchesFilter(row, where[key] ?? key, parsed[key]));
        }
        if (typeof parsed.cursor === 'string') {
          let after: unknown;
          try {
            after = (JSON.parse(fromBase64Url(parsed.cursor)) as Json).after;
          } catch {
            after = undefined;
          }
          if (typeof after !== 'string') {
            return errorResponse(correlationId, 'bad_request', 'The cursor is not one this API gave.', [
              { field: 'cursor', issue: 'invalid_value' },
            ]);
          }
          items = items.filter((row) => String(row.id) < after);
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

    if (status === 204 || example === undefined) return new HttpResponse(null, { status, headers });
    const listed = ctx.listSize > 0 ? listItems(responseSchema, example, ctx.listSize) : undefined;
    if (route.method === 'GET' && listed) {
      const parsed = (querySchema?.safeParse(query).data ?? {}) as Json;
      const limit = typeof parsed.limit === 'number' ? parsed.limit : PAGE_LIMIT_DEFAULT;
      let offset = 0;
      if (typeof parsed.cursor === 'string') {
        let at: unknown;
        try {
          at = (JSON.parse(fromBase64Url(parsed.cursor)) as Json).offset;
        } catch {
          at = undefined;
        }
        if (typeof at !== 'number' || !Number.isInteger(at) || at < 0) {
          return errorResponse(correlationId, 'bad_request', 'The cursor is not one this API gave.', [
            { field: 'cursor', issue: 'invalid_value' },
          ]);
        }
        offset = at;
      }
      const page = listed.items
        .slice(offset, offset + limit)
        .map((item) => personalise(item, listed.itemSchema, params, paramExamples, undefined));
      const next = offset + limit < listed.items.length ? toBase64Url(JSON.stringify({ offset: offset + limit })) : null;
      // A page with more than `data` and `cursor` (counts, the moment it was computed) keeps the
      // example's other fields, so it still satisfies its own schema.
      return json({ ...(example as Json), data: page, cursor: next });
    }
    return json(personalise(example, responseSchema, params, paramExamples, body));
  });
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
  const resources = new Map(declaredResources().map((r) => [r.object, r]));
  const tables = new Map<string, Json[]>();
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
      for (let i = seedCount - 1; i >= 0; i--) {
        const at = base - i * 3_600_000;
        const stamp = new Date(at).toISOString();
        const row: Json = { ...example, id: `${res.spec.idPrefix}_${encodeTime(at)}${randomPart()}` };
        if ('createdAt' in row) row.createdAt = stamp;
        if ('updatedAt' in row) row.updatedAt = stamp;
        rows.push(row);
      }
    }
    tables.set(object, rows);
    return rows;
  };

  const store: MockStore = {
    records: (object) => [...table(object)].sort((a, b) => String(b.id).localeCompare(String(a.id))),
    reset: () => {
      tables.clear();
      errors.clear();
    },
  };

  const simulateError: MockHandlerSet['simulateError'] = (routeName, code, opts = {}) => {
    if (!names.has(routeName)) throw new Error(`simulateError: no route named ${routeName}`);
    errors.set(routeName, { code, ...opts });
  };
  const clearErrors = (routeName?: string) => (routeName === undefined ? errors.clear() : errors.delete(routeName));

  const handlers = routes.map(({ name, route, meta }) =>
    handlerFor({ baseUrl, name, route, meta, override: options.overrides?.[name], errors, table, store, nextId, listSize }),
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
