import { contract, flattenRoutes } from '@svc/contract';
import type { SvcApi } from './api-types.ts';
import type { RouteLike, RouterClient } from './router-types.ts';
import {
  fillPath,
  type RawRequestOptions,
  type RawResponse,
  type RequestOptions,
  resolveConfig,
  type SvcClientOptions,
  send,
  type TransportConfig,
} from './transport.ts';

// The declarations of this module (and of everything the package's main entry exports) import
// neither @svc/contract nor @ts-rest/core nor zod: `SvcClient` is the generated `SvcApi`
// (api-types.ts, from the OpenAPI document), and `createRouterClient` describes a router by its
// shape (router-types.ts). The contract is used at run time only, to build the requests.
export type { RouteArgs, RouteBody, RouteMethod, RouteParams, RouteQuery, RouteResponse, RouterClient } from './router-types.ts';

/** A page of a list route: `{ data, cursor }`, cursor null on the last page. */
export interface ListPage<TItem> {
  data: TItem[];
  cursor: string | null;
}

/** Shared by every client: pagination and the untyped escape hatch. */
export interface ClientHelpers {
  /**
   * Every item of every page of a list route, following `cursor` until it is null.
   *
   * @example
   * for await (const o of svc.paginate(svc.compliance.obligations.list, { query: { limit: 100 } })) console.log(o.id);
   */
  paginate<TArgs, TItem>(
    method: (args: TArgs, options?: RequestOptions) => Promise<ListPage<TItem>>,
    args?: TArgs,
    options?: RequestOptions,
  ): AsyncIterable<TItem>;
  /**
   * Calls any path with the client's auth, typed errors and retries, untyped: for routes the SDK
   * does not know yet and for the CLI's "call any route". Resolves for 2xx, throws an `SvcError` otherwise.
   */
  request<TBody = unknown>(method: string, path: string, options?: RawRequestOptions): Promise<RawResponse<TBody>>;
}

/**
 * The client of the whole API: `svc.compliance.assessments.create(...)`, `svc.paginate(...)`,
 * `svc.request(...)`. Its methods' types are named per operation (`ComplianceAssessmentsCreateArgs`,
 * `ComplianceAssessmentsCreateResult`, ...), generated from the OpenAPI document.
 */
export interface SvcClient extends SvcApi, ClientHelpers {}

interface RouteCallArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** A 2xx body that does not match the contract's schema for its route and status (`validateResponses`). */
export class ResponseValidationError extends Error {
  constructor(
    /** The route's name in the contract, e.g. `compliance.assessments.create`. */
    readonly route: string,
    readonly status: number,
    /** Where the body departs from the schema: a dotted path and what is wrong there. */
    readonly issues: { path: string; message: string }[],
  ) {
    super(
      `${route}: the ${status} response does not match the contract (${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')})`,
    );
    this.name = 'ResponseValidationError';
  }
}

type SafeParser = { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };

function checkResponse(name: string, route: RouteLike, status: number, body: unknown): void {
  const schema = (route.responses as Record<number, unknown>)[status];
  // c.noBody() and responses declared without a schema have nothing to check against.
  if (!schema || typeof schema !== 'object' || typeof (schema as Partial<SafeParser>).safeParse !== 'function') return;
  const result = (schema as SafeParser).safeParse(body);
  if (result.success) return;
  const issues = (result.error?.issues ?? []).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  throw new ResponseValidationError(name, status, issues);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isListPage(value: unknown): value is ListPage<unknown> {
  return isRecord(value) && Array.isArray(value.data) && (value.cursor === null || typeof value.cursor === 'string');
}

/**
 * A client for any ts-rest router: walks it at run time and builds one method per route. The
 * namespaces of {@link createSvcClient} come from here, so a route added to the contract is a
 * method of the SDK without a line of SDK code.
 */
export function createRouterClient<T extends object>(router: T, options: SvcClientOptions): RouterClient<T> & ClientHelpers {
  const config: TransportConfig = resolveConfig(options);
  const validate = options.validateResponses === true;
  const root: Record<string, unknown> = {};

  for (const { name, route } of flattenRoutes(router as Parameters<typeof flattenRoutes>[0])) {
    const keys = name.split('.');
    const last = keys.pop() as string;
    let target = root;
    for (const key of keys) {
      const next = target[key];
      if (next !== undefined && !isRecord(next)) throw new Error(`Contract key ${name} clashes with a route`);
      if (next === undefined) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    target[last] = async (args: RouteCallArgs = {}, callOptions: RequestOptions = {}) => {
      const res = await send(config, route.method, fillPath(route.path, args.params), {
        ...callOptions,
        ...(args.query !== undefined ? { query: args.query } : {}),
        ...(args.body !== undefined ? { body: args.body } : {}),
      });
      if (validate) checkResponse(name, route, res.status, res.body);
      return res.body;
    };
  }

  for (const reserved of ['paginate', 'request'] as const) {
    if (reserved in root) throw new Error(`Contract namespace "${reserved}" clashes with a client helper`);
  }

  const helpers: ClientHelpers = {
    paginate<TArgs, TItem>(
      method: (args: TArgs, options?: RequestOptions) => Promise<ListPage<TItem>>,
      args?: TArgs,
      callOptions?: RequestOptions,
    ): AsyncIterable<TItem> {
      return {
        async *[Symbol.asyncIterator]() {
          const base: RouteCallArgs = isRecord(args) ? (args as RouteCallArgs) : {};
          let cursor: string | undefined = typeof base.query?.cursor === 'string' ? base.query.cursor : undefined;
          const seen = new Set<string>();
          for (;;) {
            const pageArgs = { ...base, query: { ...(base.query ?? {}), cursor } } as TArgs;
            const page: unknown = await method(pageArgs, callOptions);
            if (!isListPage(page)) throw new TypeError('paginate: the method did not return a { data, cursor } page');
            for (const item of page.data) yield item as TItem;
            if (page.cursor === null) return;
            // A server that hands back a cursor it already gave would loop for ever.
            if (seen.has(page.cursor)) throw new Error(`paginate: cursor ${page.cursor} repeated`);
            seen.add(page.cursor);
            cursor = page.cursor;
          }
        },
      };
    },
    request<TBody = unknown>(method: string, path: string, requestOptions: RawRequestOptions = {}) {
      return send(config, method, path, requestOptions) as Promise<RawResponse<TBody>>;
    },
  };

  return Object.assign(root, helpers) as RouterClient<T> & ClientHelpers;
}

/**
 * The typed client of the API: one namespace per rail of the contract (`compliance`, `frameworks`,
 * `operator`, `system`), one async method per route resolving to the 2xx body. Errors are thrown
 * as {@link SvcError} subclasses; 429, 503 and network failures are retried; every POST carries an
 * `Idempotency-Key` that its retries reuse.
 *
 * @example
 * const svc = createSvcClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.SVC_API_KEY! });
 * await svc.frameworks.activate({ params: { id: 'eu-ai-act' } });
 * const asm = await svc.compliance.assessments.create({ body: { type: 'fria', systemId: 'sys_1', jurisdiction: 'eu/de' } });
 */
export function createSvcClient(options: SvcClientOptions): SvcClient {
  // The contract's routes are the operations of the document SvcApi is generated from
  // (test/sdk.test.ts checks the two agree, operation by operation).
  return createRouterClient(contract, options) as unknown as SvcClient;
}
