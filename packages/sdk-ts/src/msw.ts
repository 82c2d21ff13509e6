/**
 * `@svc/sdk/msw`: msw 2 request handlers generated from the contract, for QA and front-end work
 * without a server. One handler per route; each checks the bearer token, validates the request with
 * the route's own zod schemas and answers with the route's success status and a body built from
 * the schemas' registered examples.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockHandlers } from '@svc/sdk/msw';
 * const server = setupServer(...createMockHandlers({ baseUrl: 'http://mock.local' }));
 *
 * @packageDocumentation
 */
import {
  contract,
  DOCS_BASE_URL,
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorDetail,
  type ErrorEnvelope,
  flattenRoutes,
  HEADER_NAMES,
  type RouteMeta,
} from '@svc/contract';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { z } from 'zod';
import { exampleOf } from './examples.ts';

export { exampleOf } from './examples.ts';

/** Options of {@link createMockHandlers}. */
export interface MockHandlerOptions {
  /**
   * Origin the handlers answer for, e.g. `http://mock.local`. Default `*`: any origin, so the
   * handlers also serve relative URLs in a browser.
   */
  baseUrl?: string;
  /** The router to mock; the whole API contract by default. */
  router?: AppRouter;
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
function errorResponse(correlationId: string, code: ErrorCode, message: string, details?: ErrorDetail[]) {
  const body: ErrorEnvelope = {
    error: code,
    message,
    ...(details && details.length > 0 ? { details } : {}),
    correlation_id: correlationId,
    documentation_url: `${DOCS_BASE_URL}#${code}`,
  };
  return HttpResponse.json(body, { status: ERROR_STATUS[code], headers: { 'X-Correlation-Id': correlationId } });
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
 * The example, echoing what the request said where the response schema allows it: the `:id` of
 * the path, and the body's fields that the response also has (a created assessment keeps its
 * systemId). Falls back to the bare example when an echo would break the response schema.
 */
function personalise(example: unknown, schema: z.ZodType | undefined, params: Record<string, unknown>, body: unknown): unknown {
  if (!isRecord(example) || !schema) return example;
  const fromBody: Record<string, unknown> = {};
  if (isRecord(body)) for (const [key, value] of Object.entries(body)) if (key in example) fromBody[key] = value;
  const fromParams: Record<string, unknown> = typeof params.id === 'string' && 'id' in example ? { id: params.id } : {};
  const candidates = [
    { ...example, ...fromBody, ...fromParams },
    { ...example, ...fromBody },
    { ...example, ...fromParams },
  ];
  return candidates.find((candidate) => schema.safeParse(candidate).success) ?? example;
}

type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';

function handlerFor(baseUrl: string, route: AppRoute, meta: RouteMeta | undefined): HttpHandler {
  const status = successStatus(route);
  const responseSchema = asZod(route.responses[status]);
  const example = responseSchema ? exampleOf(responseSchema) : undefined;
  const paramsSchema = asZod(route.pathParams);
  const querySchema = asZod(route.query);
  const bodySchema = route.method !== 'GET' && 'body' in route ? asZod(route.body) : undefined;
  const verb = route.method.toLowerCase() as Verb;

  return http[verb](`${baseUrl}${route.path}`, async ({ request, params }) => {
    const correlationId = correlationIdOf(request);
    if (meta?.auth !== 'public' && !/^Bearer\s+\S+\s*$/i.test(request.headers.get('authorization') ?? '')) {
      return errorResponse(correlationId, 'unauthorized', 'A bearer token is required.');
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
    if (status === 204 || example === undefined) return new HttpResponse(null, { status, headers });
    const payload = personalise(example, responseSchema, params, body);
    return HttpResponse.json(payload as Record<string, unknown>, { status, headers });
  });
}

/**
 * msw 2 `http` handlers for every route of the contract, generated from it (nothing listed by
 * hand). Each handler:
 * - answers 401 `unauthorized` without an `Authorization: Bearer ...` header (except public routes);
 * - validates path params, query and JSON body with the route's zod schemas and answers 422
 *   `validation_failed` with `details` `{ field, issue }` (400 `bad_request` for malformed JSON);
 * - otherwise answers the route's success status with a body built from the schemas' examples
 *   (`{ data: [example], cursor: null }` for lists), echoing the request's id and body fields.
 * Every error body is the API's envelope: `error`, `message`, `correlation_id`, `documentation_url`.
 */
export function createMockHandlers(options: MockHandlerOptions = {}): HttpHandler[] {
  const baseUrl = (options.baseUrl ?? '*').replace(/\/+$/, '');
  return flattenRoutes(options.router ?? contract).map(({ route, meta }) => handlerFor(baseUrl, route, meta));
}
