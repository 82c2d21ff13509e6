import { isAppRouteNoBody } from '@ts-rest/core';
import { z } from 'zod';
import { getRail, RAILS } from './catalogue.ts';
import { HEADER_NAMES, IDEMPOTENCY_KEY_MAX } from './common.ts';
import { DOCS_BASE_URL, ERROR_DESCRIPTIONS, ERROR_STATUS, statusToCode } from './errors.ts';
import { contract } from './router.ts';
import { flattenRoutes } from './routes.ts';
import { WEBHOOKS_TAG, webhookOpenApi } from './webhook-events.ts';

type Json = Record<string, unknown>;

export const API_VERSION = '0.1.0';

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
export function generateOpenApiDocument(): Json {
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

    if (route.method !== 'GET' && 'body' in route && route.body && !isAppRouteNoBody(route.body)) {
      const optional = (route.body as z.ZodType).safeParse(undefined).success;
      op.requestBody = {
        required: !optional,
        content: { 'application/json': { schema: convert(route.body, 'input') } },
      };
    }

    const responses: Json = {};
    for (const [status, schema] of Object.entries(route.responses as Record<string, unknown>)) {
      const code = Number(status);
      if (code >= 400) {
        const errorCode = statusToCode(code);
        convert(schema, 'output');
        responses[status] = { $ref: `#/components/responses/${errorCode}` };
      } else {
        responses[status] = {
          description: code === 201 ? 'Created' : 'OK',
          headers: rateLimitHeaders,
          content: { 'application/json': { schema: convert(schema, 'output') } },
        };
      }
    }
    op.responses = responses;
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    (paths[path] as Record<string, Json>)[route.method.toLowerCase()] = op;
  }

  const errorResponses: Json = {};
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    errorResponses[code] = {
      description: `${status} ${code}: ${ERROR_DESCRIPTIONS[code as keyof typeof ERROR_DESCRIPTIONS]}`,
      headers: {
        ...rateLimitHeaders,
        ...(code === 'rate_limited' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
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
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance Platform Service API',
      version: API_VERSION,
      description:
        'Multi-tenant compliance-management API. Errors use one envelope (`error`, `message`, `details`, `correlation_id`, `documentation_url`); lists return `{ data, cursor }`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: 'Local service' }],
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
          description: `1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (an empty or longer key is a 400 on every POST). On a POST that changes state, a repeat within 24 h returns the first response with \`Idempotent-Replayed: true\`; on one that only reads (queries, exports) the key is checked and has no further effect.`,
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per second on the plan.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix epoch seconds when the window resets.', schema: { type: 'integer' } },
        'X-Correlation-Id': { description: 'Correlation id of the request.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      },
      responses: errorResponses,
    },
    externalDocs: { url: DOCS_BASE_URL, description: 'Error codes' },
    'x-svc-headers': HEADER_NAMES,
  };
}
