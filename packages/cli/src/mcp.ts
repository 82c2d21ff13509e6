/**
 * `svc mcp`: a Model Context Protocol server exposing the API's routes as tools.
 *
 * Every route of the contract is a tool, derived from it alone: the name from the router path
 * (`compliance.assessments.create` -> `compliance_assessments_create`), the description from the
 * summary and description, the input schema (JSON Schema, from the route's zod schemas) an object
 * `{ params, query, body, idempotencyKey }`. A new route is a new tool with no code here.
 * Operator routes are left out: an assistant holds a tenant's API key, never the operator
 * credential. Public routes are in (they work with a key too).
 *
 * Calling a tool sends the HTTP request to the service with the tenant's API key, so tiers,
 * permissions, rate limits and idempotency apply exactly as for any client. The result is the
 * JSON body; 4xx and 5xx answers are `isError` results carrying the error envelope.
 *
 * Transports: stdio (`svc mcp`, key from --key/--api-key, SVC_API_KEY or the credentials file) and
 * streamable HTTP (`svc mcp --http [--port N] [--host H]`, stateless), where each HTTP client sends
 * its own `Authorization: Bearer <key>` and the tools it calls use that key.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { contract, type FlatRoute, flattenRoutes } from '@svc/contract';
import { z } from 'zod';

type Json = Record<string, unknown>;

export const MCP_NAME_MAX = 64;

/** `compliance.assessments.create` -> `compliance_assessments_create`, at most 64 of [a-zA-Z0-9_-]. */
export function toolName(routeName: string): string {
  const name = routeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
  if (name.length <= MCP_NAME_MAX) return name;
  const hash = createHash('sha256').update(routeName).digest('hex').slice(0, 8);
  return `${name.slice(0, MCP_NAME_MAX - 9)}_${hash}`;
}

interface RouteTool {
  readonly tool: Tool;
  readonly route: FlatRoute;
}

const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);

/**
 * JSON Schema of one part (params, query or body); its named definitions are moved into `defs`,
 * which become the `$defs` of the whole input schema (where `#/$defs/...` references resolve).
 */
function toJsonSchema(schema: unknown, defs: Json): Json {
  const raw = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Json;
  const { $schema: _s, $defs, ...rest } = raw;
  for (const [k, v] of Object.entries(($defs ?? {}) as Json)) defs[k] ??= v;
  return rest;
}

/** The input schema of one route: `{ params, query, body, idempotencyKey }`, each present when the route has it. */
function inputSchemaOf(r: FlatRoute): Tool['inputSchema'] {
  const route = r.route;
  const properties: Json = {};
  const required: string[] = [];
  const defs: Json = {};
  const names = pathParamNames(route.path);
  if (names.length > 0) {
    const params = route.pathParams
      ? toJsonSchema(route.pathParams, defs)
      : {
          type: 'object',
          properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
          required: names,
        };
    properties.params = { ...params, description: `Path parameters of ${route.path}.` };
    required.push('params');
  }
  if (route.query) {
    const query = toJsonSchema(route.query, defs);
    properties.query = { ...query, description: 'Query parameters.' };
    if (Array.isArray(query.required) && query.required.length > 0) required.push('query');
  }
  // ts-rest marks a route without a body with a symbol (c.noBody()).
  if (route.method !== 'GET' && 'body' in route && route.body && typeof route.body !== 'symbol') {
    const body = toJsonSchema(route.body, defs);
    properties.body = { ...body, description: 'JSON request body.' };
    const optional = (route.body as z.ZodType).safeParse?.(undefined)?.success === true;
    if (!optional) required.push('body');
  }
  if (route.method === 'POST') {
    properties.idempotencyKey = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Idempotency-Key header: send the same key to retry this call safely (the first answer is replayed); omit it to send none.',
    };
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  } as Tool['inputSchema'];
}

let cached: RouteTool[] | undefined;

/** One tool per tenant or public route of the contract, in contract order. */
export function routeTools(): RouteTool[] {
  if (cached) return cached;
  const seen = new Set<string>();
  const out: RouteTool[] = [];
  for (const r of flattenRoutes(contract)) {
    if (r.meta.auth === 'operator') continue;
    let name = toolName(r.name);
    for (let i = 2; seen.has(name); i++) name = toolName(`${r.name}_${i}`);
    seen.add(name);
    const route = r.route;
    const description = [
      route.summary,
      route.description,
      `${route.method} ${route.path}.`,
      r.meta.permission ? `Needs permission ${r.meta.permission}.` : undefined,
      r.meta.auth === 'public' ? 'Public: no key needed.' : undefined,
    ]
      .filter((s): s is string => typeof s === 'string' && s.length > 0)
      .join('\n\n');
    out.push({
      route: r,
      tool: {
        name,
        title: route.summary,
        description,
        inputSchema: inputSchemaOf(r),
        annotations: {
          readOnlyHint: !r.meta.mutating,
          ...(route.method === 'DELETE' ? { destructiveHint: true } : r.meta.mutating ? { destructiveHint: false } : {}),
          idempotentHint: route.method === 'GET' || route.method === 'PUT' || route.method === 'DELETE',
          openWorldHint: false,
        },
      },
    });
  }
  cached = out;
  return out;
}

export interface CallTarget {
  /** Base URL of the service. */
  url: string;
  /** Tenant API key sent as the bearer token; undefined sends none (public routes only). */
  apiKey: string | undefined;
  fetch?: typeof fetch;
}

/** The URL of a call: path parameters filled in (encoded), query parameters appended. */
export function requestUrl(base: string, path: string, params: Json | undefined, query: Json | undefined): string {
  const filled = path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) search.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item));
    else search.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = search.toString();
  return `${base.replace(/\/+$/, '')}${filled}${qs ? `?${qs}` : ''}`;
}

const MAX_BINARY = 1024 * 1024;

const textResult = (value: unknown, isError: boolean): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  ...(value && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Json } : {}),
  ...(isError ? { isError: true } : {}),
});

/** Performs one tool call as an HTTP request and turns the answer into a tool result. */
export async function callRoute(r: FlatRoute, args: Json, target: CallTarget): Promise<CallToolResult> {
  const route = r.route;
  let url: string;
  try {
    url = requestUrl(target.url, route.path, args.params as Json | undefined, args.query as Json | undefined);
  } catch (err) {
    return textResult({ error: 'validation_failed', message: (err as Error).message }, true);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const hasBody = args.body !== undefined && route.method !== 'GET';
  if (hasBody) headers['content-type'] = 'application/json';
  if (typeof args.idempotencyKey === 'string' && args.idempotencyKey.length > 0) headers['idempotency-key'] = args.idempotencyKey;
  let res: Response;
  try {
    res = await (target.fetch ?? fetch)(url, { method: route.method, headers, ...(hasBody ? { body: JSON.stringify(args.body) } : {}) });
  } catch (err) {
    return textResult(
      { error: 'service_unavailable', message: `The service at ${target.url} could not be reached: ${(err as Error).message}` },
      true,
    );
  }
  const isError = res.status >= 400;
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 204) return textResult({ status: 204 }, false);
  if (/json/i.test(type)) {
    const text = await res.text();
    try {
      return textResult(text ? JSON.parse(text) : { status: res.status }, isError);
    } catch {
      return textResult(text, isError);
    }
  }
  if (/^text\//i.test(type)) return textResult(await res.text(), isError);
  // A download (zip, PDF): its type, size and, when small, its bytes in base64.
  const bytes = Buffer.from(await res.arrayBuffer());
  return textResult(
    {
      status: res.status,
      contentType: type,
      size: bytes.length,
      ...(bytes.length <= MAX_BINARY ? { base64: bytes.toString('base64') } : { note: 'larger than 1 MiB: fetch it with `svc call`' }),
    },
    isError,
  );
}

export const MCP_SERVER_INFO = { name: 'svc', version: '0.1.0' };

/** An MCP server whose tools call the service with the given key. */
export function createMcpServer(target: CallTarget): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Tools of the compliance platform API, one per route. Arguments: params (path), query, body, and idempotencyKey for POSTs. Errors come back as the API error envelope (error, message, details, documentation_url).',
  });
  const tools = routeTools();
  const byName = new Map(tools.map((t) => [t.tool.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const t = byName.get(req.params.name);
    if (!t) return textResult({ error: 'not_found', message: `No tool ${req.params.name}.` }, true);
    return callRoute(t.route, (req.params.arguments ?? {}) as Json, target);
  });
  return server;
}

/** `svc mcp`: serves on stdin/stdout until the client closes it. */
export async function serveStdio(target: CallTarget): Promise<number> {
  const server = createMcpServer(target);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
  return 0;
}

export interface HttpOptions {
  url: string;
  port: number;
  host: string;
  /** Called with the listening address (the CLI prints it on stderr). */
  onListening?: (address: string) => void;
}

const BODY_LIMIT = 4 * 1024 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * `svc mcp --http`: streamable HTTP at /mcp, stateless (a new server per request), each request
 * authenticated by its own bearer key, which the tools of that request use.
 */
export async function serveHttp(opts: HttpOptions): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return jsonRpcError(res, 404, 'The MCP endpoint is /mcp.');
    if (req.method !== 'POST') return jsonRpcError(res, 405, 'This MCP server is stateless: POST only.', { allow: 'POST' });
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!auth) {
      return jsonRpcError(res, 401, 'Send the tenant API key as `Authorization: Bearer svc_<env>_...`.', {
        'www-authenticate': 'Bearer',
      });
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (err) {
      return jsonRpcError(res, (err as { status?: number }).status ?? 400, `Bad request body: ${(err as Error).message}`);
    }
    const server = createMcpServer({ url: opts.url, apiKey: auth[1] });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) jsonRpcError(res, 500, `MCP request failed: ${(err as Error).message}`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${host}:${port}/mcp`;
  opts.onListening?.(url);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
