import type { SvcApi } from './api-types.ts';
import { ROUTE_TABLE } from './route-table.ts';
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
// shape (router-types.ts). At run time the client of the whole API is built from the generated
// route table (route-table.ts): importing the SDK does not build the contract's schemas, which only
// `validateResponses: true` loads, on the first response it checks.
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

/** A route's name, method and path; its response schemas, where the client has them. */
interface RouteEntry {
  name: string;
  method: string;
  path: string;
  route?: RouteLike;
}

/** The routes of a ts-rest router by their dotted names (its nested routers' keys, then the route's). */
function routesOf(router: object, prefix = ''): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const [key, value] of Object.entries(router)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (!isRecord(value)) continue;
    if (typeof value.method === 'string' && typeof value.path === 'string') {
      const route = value as unknown as RouteLike;
      out.push({ name, method: route.method, path: route.path, route });
    } else out.push(...routesOf(value, name));
  }
  return out;
}

let contractRoutes: Promise<Map<string, RouteLike>> | undefined;
/** The contract's routes by name, with their schemas: loaded once, the first time a response is validated. */
function contractRoute(name: string): Promise<RouteLike | undefined> {
  contractRoutes ??= import('@svc/contract').then(
    ({ contract, flattenRoutes }) => new Map(flattenRoutes(contract).map(({ name, route }) => [name, route as RouteLike])),
  );
  return contractRoutes.then((routes) => routes.get(name));
}

/** Builds the client's namespaces and methods from `routes`; `schemas` gives a route's responses when validating. */
function buildClient(
  routes: readonly RouteEntry[],
  options: SvcClientOptions,
  schemas: (entry: RouteEntry) => RouteLike | undefined | Promise<RouteLike | undefined>,
): Record<string, unknown> & ClientHelpers {
  const config: TransportConfig = resolveConfig(options);
  const validate = options.validateResponses === true;
  const root: Record<string, unknown> = {};

  for (const entry of routes) {
    const { name, method, path } = entry;
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
      const res = await send(config, method, fillPath(path, args.params), {
        ...callOptions,
        ...(args.query !== undefined ? { query: args.query } : {}),
        ...(args.body !== undefined ? { body: args.body } : {}),
      });
      if (validate) {
        const route = await schemas(entry);
        if (route) checkResponse(name, route, res.status, res.body);
      }
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

  return Object.assign(root, helpers);
}

/**
 * A client for any ts-rest router: walks it at run time and builds one method per route, typed
 * from the router's schemas (`validateResponses` checks 2xx bodies against them).
 */
export function createRouterClient<T extends object>(router: T, options: SvcClientOptions): RouterClient<T> & ClientHelpers {
  return buildClient(routesOf(router), options, (entry) => entry.route) as RouterClient<T> & ClientHelpers;
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
  // The route table and SvcApi are generated from the OpenAPI document, which is generated from the
  // contract (test/sdk.test.ts checks the client and the contract agree, operation by operation).
  const routes = ROUTE_TABLE.map(([name, method, path]) => ({ name, method, path }));
  return buildClient(routes, options, (entry) => contractRoute(entry.name)) as unknown as SvcClient;
}
