import { isAppRouteNoBody } from '@ts-rest/core';
import { z } from 'zod';
import { HEADER_NAMES, IDEMPOTENCY_KEY_MAX } from '../shared/common.ts';
import { getRail, RAILS } from './catalogue.ts';
import { DOCS_BASE_URL, ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode, statusToCode } from './errors.ts';
import { contract } from './router.ts';
import { flattenRoutes } from './routes.ts';
import { PLANS, TIER_PLAN, TIERS } from './tiers.ts';
import { WEBHOOKS_TAG, webhookOpenApi } from './webhook-events.ts';

type Json = Record<string, unknown>;

export const API_VERSION = '0.1.0';

/** The `servers` entry of the committed document; a running server states its own public URL instead. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';

export interface OpenApiOptions {
  /** Public origin of the API (`SVC_PUBLIC_URL`, else the listening URL); the committed document uses the local default. */
  readonly serverUrl?: string;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Tier -> plan -> limits, derived from tiers.ts so the document cannot drift from what the server enforces. */
function rateLimitTable(): string {
  const rows = TIERS.map((tier) => {
    const plan = TIER_PLAN[tier];
    const limits = PLANS[plan];
    const note = tier === 'enterprise' ? ' (custom per tenant; these by default)' : '';
    return `| ${tier} | ${plan}${note} | ${fmt(limits.perSecond)} | ${fmt(limits.perMonth)} |`;
  });
  return ['| Tier | Plan | Requests per second | Requests per month |', '| --- | --- | ---: | ---: |', ...rows].join('\n');
}

const RATE_LIMIT_TEXT = `Every tenant request counts against the rate limit of the tenant's plan, per second, and against its monthly quota (calendar month, UTC):

${rateLimitTable()}

Every response carries \`X-RateLimit-Limit\` (requests per second of the plan), \`X-RateLimit-Remaining\` (requests left in the current one-second window) and \`X-RateLimit-Reset\` (Unix epoch seconds when the window resets). A request over either limit is answered \`429 rate_limited\` with \`Retry-After\` in seconds: the next second for the per-second limit, the start of the next month for an exhausted quota. Nothing is done for a 429, so the request can be retried unchanged (with the same \`Idempotency-Key\`).`;

/**
 * A value that satisfies a JSON Schema: its own example when it has one, else one built from its
 * type, so every schema, body and response gets an example without a hand-written list.
 */
function exampleFrom(schema: unknown, components: Record<string, Json>, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    const target = components[s.$ref.replace('#/components/schemas/', '')];
    return exampleFrom(target, components, depth + 1);
  }
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if ('default' in s && s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) {
      const first = options.find((o: Json) => o.type !== 'null') ?? options[0];
      return exampleFrom(first, components, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      const required = new Set((s.required ?? []) as string[]);
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        const value = exampleFrom(v, components, depth + 1);
        if (value !== undefined && (required.has(k) || value !== null)) out[k] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleFrom(s.items, components, depth + 1);
      return item === undefined || item === null ? [] : [item];
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      if (s.format === 'date-time') return '2026-11-22T09:30:00.000Z';
      if (s.format === 'date') return '2026-11-22';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/resource';
      if (s.format === 'email') return 'ada@example.com';
      if (s.format === 'uuid') return '0b9d2f6e-3c1a-4f5e-9a7b-2d8c6e4f1a3b';
      return typeof s.minLength === 'number' && s.minLength > 7 ? 'x'.repeat(s.minLength) : 'example';
    default:
      return {};
  }
}

const EXAMPLE_CORRELATION_ID = 'cor_01JD3Z8W2M6Q4X9V7K5T1B0N3R';

/** A realistic envelope per error code; the message and details are what the server sends for a typical case. */
const ERROR_EXAMPLES: Record<ErrorCode, { message: string; details?: { field: string; issue: string; message?: string }[] }> = {
  bad_request: {
    message: 'The request body is not valid JSON.',
    details: [{ field: 'body', issue: 'invalid_format', message: 'Unexpected token } in JSON at position 41.' }],
  },
  unauthorized: { message: 'The bearer token is missing, unknown, expired or revoked.' },
  forbidden: {
    message: 'Permission compliance:write is required: role viewer does not grant it.',
    details: [{ field: 'permission', issue: 'compliance:write' }],
  },
  not_found: { message: 'Assessment asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R was not found.' },
  conflict: {
    message: 'Assessment asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R is completed; start is allowed from draft.',
    details: [{ field: 'status', issue: 'invalid_value', message: 'current state: completed' }],
  },
  validation_failed: {
    message: 'The request body does not match the schema.',
    details: [
      { field: 'systemId', issue: 'missing', message: 'Required.' },
      { field: 'type', issue: 'invalid_value', message: 'Expected one of the assessment types.' },
    ],
  },
  rate_limited: { message: 'Rate limit of 5 requests per second exceeded.' },
  internal_error: { message: 'The server failed; quote the correlation id to support.' },
  service_unavailable: { message: 'The database is unavailable; retry with backoff.' },
};

function errorExample(code: ErrorCode, docsUrl: string): Json {
  const { message, details } = ERROR_EXAMPLES[code];
  return {
    error: code,
    message,
    ...(details ? { details } : {}),
    correlation_id: EXAMPLE_CORRELATION_ID,
    documentation_url: `${docsUrl}#${code}`,
  };
}

const fillExamplePath = (path: string, params: Json[]) =>
  path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const p = params.find((x) => x.name === name);
    return p && p.example !== undefined ? String(p.example) : `<${name}>`;
  });

/** curl and SDK samples built from the route's examples, so every operation has runnable calls. */
function codeSamples(opts: {
  name: string;
  method: string;
  path: string;
  auth: string;
  params: Json[];
  body: unknown;
  serverUrl: string;
}): Json[] {
  const { name, method, path, auth, params, body, serverUrl } = opts;
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query' && p.required && p.example !== undefined);
  const query = queryParams.map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`).join('&');
  const url = `${serverUrl}${fillExamplePath(path, pathParams)}${query ? `?${query}` : ''}`;
  const token = auth === 'operator' ? '$SVC_OPERATOR_TOKEN' : '$SVC_API_KEY';
  const curl = [`curl -X ${method} '${url}'`];
  if (auth !== 'public') curl.push(`  -H "Authorization: Bearer ${token}"`);
  if (method === 'POST') curl.push(`  -H "Idempotency-Key: $(uuidgen)"`);
  if (body !== undefined) {
    curl.push(`  -H 'Content-Type: application/json'`);
    curl.push(`  -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`);
  }
  const args: Json = {};
  if (pathParams.length > 0) args.params = Object.fromEntries(pathParams.map((p) => [p.name, p.example]));
  if (queryParams.length > 0) args.query = Object.fromEntries(queryParams.map((p) => [p.name, p.example]));
  if (body !== undefined) args.body = body;
  // Identifier keys unquoted, as a TypeScript author writes them.
  const argText = Object.keys(args).length > 0 ? JSON.stringify(args, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:') : '';
  const sdk = [
    "import { createSvcClient } from '@svc/sdk';",
    '',
    `const svc = createSvcClient({ baseUrl: '${serverUrl}', apiKey: process.env.${token.slice(1)}! });`,
    `const result = await svc.${name}(${argText});`,
    'console.log(result);',
  ];
  return [
    { lang: 'Shell', label: 'curl', source: curl.join(' \\\n') },
    { lang: 'TypeScript', label: 'SDK', source: sdk.join('\n') },
  ];
}

/** Converts a zod schema to JSON Schema 2020-12, lifting named schemas into components. */
function makeConverter(components: Record<string, Json>) {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/$defs/', '#/components/schemas/');
        else out[k] = rewrite(v);
      }
      return out;
    }
    return node;
  };
  return (schema: unknown, io: 'input' | 'output'): Json => {
    const raw = z.toJSONSchema(schema as z.ZodType, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const { $schema: _s, $defs, ...rest } = raw;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      components[name] ??= rewrite(def) as Json;
    }
    return rewrite(rest) as Json;
  };
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parametersFrom(schema: Json, location: 'query' | 'path'): Json[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, examples, ...rest } = s;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
    };
  });
}

const rateLimitHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'X-Correlation-Id': { $ref: '#/components/headers/X-Correlation-Id' },
};

/** The OpenAPI 3.1 document of the whole contract. Deterministic: same contract, same bytes. */
export function generateOpenApiDocument(options: OpenApiOptions = {}): Json {
  const serverUrl = (options.serverUrl ?? DEFAULT_SERVER_URL).replace(/\/+$/, '');
  const docsUrl = options.serverUrl ? `${serverUrl}/docs/errors` : DOCS_BASE_URL;
  const schemas: Record<string, Json> = {};
  const convert = makeConverter(schemas);
  const paths: Record<string, Record<string, Json>> = {};

  for (const { name, route, meta } of flattenRoutes(contract)) {
    const op: Json = {
      operationId: name,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [meta.rail ?? meta.group ?? (meta.auth === 'operator' ? 'operator' : 'system')],
    };
    if (meta.rail) {
      const rail = getRail(meta.rail);
      op['x-svc-rail'] = rail.id;
      op['x-svc-min-tier'] = rail.minTier;
      op['x-svc-lifecycle'] = rail.lifecycle;
    }
    if (meta.permission) op['x-svc-permission'] = meta.permission;
    if (meta.audit) op['x-svc-audit-action'] = meta.audit;
    op.security = meta.auth === 'public' ? [] : meta.auth === 'operator' ? [{ operatorToken: [] }] : [{ bearerAuth: [] }];

    const parameters: Json[] = [];
    if (route.pathParams) parameters.push(...parametersFrom(convert(route.pathParams, 'input'), 'path'));
    if (route.query) parameters.push(...parametersFrom(convert(route.query, 'input'), 'query'));
    if (meta.auth === 'tenant') parameters.push({ $ref: '#/components/parameters/TenantHeader' });
    if (route.method === 'POST') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (parameters.length > 0) op.parameters = parameters;
    let requestExample: unknown;

    if (route.method !== 'GET' && 'body' in route && route.body && !isAppRouteNoBody(route.body)) {
      const optional = (route.body as z.ZodType).safeParse(undefined).success;
      const schema = convert(route.body, 'input');
      requestExample = exampleFrom(schema, schemas);
      op.requestBody = {
        required: !optional,
        content: { 'application/json': { schema, examples: { example: { summary: 'Example request', value: requestExample } } } },
      };
    }

    const responses: Json = {};
    for (const [status, schema] of Object.entries(route.responses as Record<string, unknown>)) {
      const code = Number(status);
      if (code >= 400) {
        const errorCode = statusToCode(code);
        convert(schema, 'output');
        responses[status] = { $ref: `#/components/responses/${errorCode}` };
      } else if (typeof (schema as z.ZodType).meta?.()?.contentType === 'string') {
        // A file (a PDF, a zip): its bytes under its own media type, no JSON schema.
        const m = (schema as z.ZodType).meta() as { contentType: string; description?: string };
        responses[status] = {
          description: m.description ?? 'The file',
          headers: rateLimitHeaders,
          content: { [m.contentType]: { schema: { type: 'string', contentMediaType: m.contentType } } },
        };
      } else {
        const converted = convert(schema, 'output');
        responses[status] = {
          description: code === 201 ? 'Created' : 'OK',
          headers: rateLimitHeaders,
          content: {
            'application/json': {
              schema: converted,
              examples: { example: { summary: 'Example response', value: exampleFrom(converted, schemas) } },
            },
          },
        };
      }
    }
    op.responses = responses;
    const path = toOpenApiPath(route.path);
    op['x-codeSamples'] = codeSamples({
      name,
      method: route.method,
      path,
      auth: meta.auth,
      params: parameters.filter((p) => typeof p.name === 'string'),
      body: requestExample,
      serverUrl,
    });
    paths[path] ??= {};
    (paths[path] as Record<string, Json>)[route.method.toLowerCase()] = op;
  }

  const errorResponses: Json = {};
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    errorResponses[code] = {
      description: `${status} ${code}: ${ERROR_DESCRIPTIONS[code as ErrorCode]}${
        code === 'rate_limited'
          ? ` Limits per tier: ${TIERS.map((t) => `${t} ${fmt(PLANS[TIER_PLAN[t]].perSecond)}/s and ${fmt(PLANS[TIER_PLAN[t]].perMonth)}/month`).join('; ')} (enterprise: custom, Scale by default). Retry-After gives the seconds to wait.`
          : ''
      }`,
      headers: {
        ...rateLimitHeaders,
        ...(code === 'rate_limited' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: { [code]: { summary: `${status} ${code}`, value: errorExample(code as ErrorCode, docsUrl) } },
        },
      },
    };
  }

  const usedTags = new Set<string>();
  for (const methods of Object.values(paths)) for (const op of Object.values(methods)) for (const t of op.tags as string[]) usedTags.add(t);
  const tags = [
    ...RAILS.filter((r) => usedTags.has(r.id)).map((r) => ({
      name: r.id,
      description: `Rail \`${r.id}\` at \`${r.basePath}\`; minimum tier ${r.minTier}; lifecycle ${r.lifecycle}.`,
    })),
    { name: 'operator', description: 'Operator endpoints: tenants and API keys. Operator credential required.' },
    { name: 'system', description: 'Health.' },
    WEBHOOKS_TAG,
  ].filter((t) => usedTags.has(t.name));

  const webhooks = webhookOpenApi(convert);
  for (const schema of Object.values(schemas)) {
    if (!Array.isArray(schema.examples) || schema.examples.length === 0) schema.examples = [exampleFrom(schema, schemas)];
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance Platform Service API',
      version: API_VERSION,
      description: `Multi-tenant compliance-management API. Errors use one envelope (\`error\`, \`message\`, \`details\`, \`correlation_id\`, \`documentation_url\`); lists return \`{ data, cursor }\`.\n\n## Rate limits\n\n${RATE_LIMIT_TEXT}`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: serverUrl,
        description:
          serverUrl === DEFAULT_SERVER_URL
            ? 'Local service (default). A running server serves this document at /v1/openapi.json with its public URL (SVC_PUBLIC_URL) here.'
            : 'This deployment (SVC_PUBLIC_URL).',
      },
    ],
    tags,
    'x-svc-rails': RAILS,
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key `svc_<env>_<random>`, scoped to one tenant.',
        },
        operatorToken: { type: 'http', scheme: 'bearer', description: 'Operator credential `svc_op_<random>`.' },
      },
      parameters: {
        TenantHeader: {
          name: 'X-IOF-Tenant',
          in: 'header',
          required: false,
          description: "Tenant id; when present it must equal the token's tenant.",
          schema: { type: 'string' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: `1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (an empty or longer key is a 400 on every POST). On every POST, those that change state, those that only read (queries, exports, plans) and the public ones alike, a repeat within 24 h with the same method, path and body returns the first response (status and body) with \`Idempotent-Replayed: true\` without running again; another method, path or body under the key is a 409. Keys are scoped to the tenant (without a credential: to the client address, and the stored answer can be opened only with the key). A read-only answer larger than 1 MiB is not stored: its repeat runs again.`,
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      headers: {
        'X-RateLimit-Limit': {
          description: `Requests allowed per second on the tenant's plan (${Object.entries(PLANS)
            .map(([plan, l]) => `${plan} ${l.perSecond}`)
            .join(', ')}).`,
          schema: { type: 'integer' },
        },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix epoch seconds when the window resets.', schema: { type: 'integer' } },
        'X-Correlation-Id': { description: 'Correlation id of the request.', schema: { type: 'string' } },
        'Retry-After': {
          description:
            'Seconds to wait before retrying: until the next one-second window, or until the month turns when the monthly quota is spent.',
          schema: { type: 'integer' },
        },
      },
      responses: errorResponses,
    },
    externalDocs: { url: docsUrl, description: 'Error codes' },
    'x-svc-headers': HEADER_NAMES,
  };
}
