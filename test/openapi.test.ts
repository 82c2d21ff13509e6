import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract, DEFAULT_SERVER_URL, flattenRoutes, generateOpenApiDocument, PLANS, RAILS, TIER_PLAN, TIERS } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

type Json = Record<string, unknown>;

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

describe('OpenAPI document', () => {
  const committed = JSON.parse(readFileSync(join(import.meta.dirname, '../packages/contract/openapi.json'), 'utf8'));

  it('the committed document is what the contract generates', () => {
    expect(committed).toEqual(generateOpenApiDocument());
  });

  it('is served at GET /v1/openapi.json without a token, with the listening URL as its server', async () => {
    const res = await call(ts.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(generateOpenApiDocument({ serverUrl: ts.url }));
    expect((res.body as { servers: { url: string }[] }).servers[0]?.url).toBe(ts.url);
    expect(committed.servers[0].url).toBe(DEFAULT_SERVER_URL);
    // The error codes' page is the one this service serves, and it answers.
    const docsUrl = (res.body as { externalDocs: { url: string } }).externalDocs.url;
    expect(docsUrl).toBe(`${ts.url}/docs/errors`);
    expect((await fetch(docsUrl)).status).toBe(200);
    expect(committed.externalDocs.url).toBe(`${DEFAULT_SERVER_URL}/docs/errors`);
  });

  it('states SVC_PUBLIC_URL as servers[0].url when it is set', async () => {
    const pub = await startTestServer({ SVC_PUBLIC_URL: 'https://api.example.com' });
    try {
      const res = await call(pub.url, 'GET', '/v1/openapi.json');
      const doc = res.body as { servers: { url: string }[]; paths: Record<string, Record<string, Json>> };
      expect(doc.servers[0]?.url).toBe('https://api.example.com');
      const sample = (doc.paths['/v1/health']?.get?.['x-codeSamples'] as { source: string }[] | undefined)?.[0]?.source;
      expect(sample).toContain('https://api.example.com/v1/health');
    } finally {
      await pub.close();
    }
  });

  it('is OpenAPI 3.1 with every route, its rail, tier, lifecycle and permission', () => {
    expect(committed.openapi).toBe('3.1.0');
    for (const { name, route, meta } of flattenRoutes(contract)) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = committed.paths[path]?.[route.method.toLowerCase()];
      expect(op, name).toBeDefined();
      expect(op.operationId).toBe(name);
      if (meta.rail) {
        const rail = RAILS.find((r) => r.id === meta.rail);
        expect(op['x-svc-rail']).toBe(rail?.id);
        expect(op['x-svc-min-tier']).toBe(rail?.minTier);
        expect(op['x-svc-lifecycle']).toBe(rail?.lifecycle);
        expect(op['x-svc-permission']).toBe(meta.permission);
        expect(op.responses['401']).toEqual({ $ref: '#/components/responses/unauthorized' });
      }
    }
    expect(committed['x-svc-rails']).toHaveLength(40);
    expect(Object.keys(committed.components.responses)).toHaveLength(9);
  });

  /** Follows a local `$ref` of the document. */
  const deref = (node: Json): Json => {
    let n = node;
    while (typeof n.$ref === 'string') {
      n = (n.$ref as string)
        .slice(2)
        .split('/')
        .reduce<Json>((acc, key) => acc[key] as Json, committed);
    }
    return n;
  };
  const operations = (): [string, Json][] =>
    Object.entries(committed.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]): [string, Json] => [`${method.toUpperCase()} ${path}`, op]),
    );
  const hasExample = (media: Json | undefined) =>
    !!media && (media.example !== undefined || Object.keys((media.examples as Json | undefined) ?? {}).length > 0);

  it('documents every operation: description, examples of body, success and error responses, code samples', () => {
    const missing: Record<string, string[]> = {
      description: [],
      requestExample: [],
      successExample: [],
      errorExample: [],
      codeSamples: [],
    };
    const ops = operations();
    for (const [id, op] of ops) {
      if (typeof op.description !== 'string' || op.description.length < 20) missing.description?.push(id);
      const body = op.requestBody as Json | undefined;
      if (body && !hasExample((body.content as Json)['application/json'] as Json)) missing.requestExample?.push(id);
      for (const [status, raw] of Object.entries(op.responses as Record<string, Json>)) {
        const res = deref(raw);
        const content = (res.content as Json | undefined) ?? {};
        const media = content['application/json'] as Json | undefined;
        // A file (a PDF, a zip) is bytes under its own media type: there is no JSON example to give.
        const file = !media && Object.values(content).some((m) => (m as Json).schema && ((m as Json).schema as Json).contentMediaType);
        if (!file && !hasExample(media)) (Number(status) >= 400 ? missing.errorExample : missing.successExample)?.push(`${id} ${status}`);
        if (Number(status) >= 400) {
          const value = Object.values((media?.examples as Record<string, Json>) ?? {})[0]?.value as Json | undefined;
          expect(value?.error, `${id} ${status}`).toBeDefined();
        }
      }
      const samples = (op['x-codeSamples'] ?? []) as { lang: string; source: string }[];
      const curl = samples.find((x) => x.lang === 'Shell')?.source ?? '';
      const sdk = samples.find((x) => x.lang === 'TypeScript')?.source ?? '';
      if (!curl.startsWith('curl -X ') || !sdk.includes(`svc.${op.operationId}(`)) missing.codeSamples?.push(id);
      if (op.requestBody && !curl.includes(' -d ')) missing.codeSamples?.push(`${id} body`);
      if (id.startsWith('POST') && !curl.includes('Idempotency-Key')) missing.codeSamples?.push(`${id} idempotency`);
      if (id.includes('{') && /<[a-zA-Z]+>/.test(curl)) missing.codeSamples?.push(`${id} path example`);
    }
    expect(ops.length).toBeGreaterThanOrEqual(50);
    expect(missing).toEqual({ description: [], requestExample: [], successExample: [], errorExample: [], codeSamples: [] });
  });

  it('has a realistic example for each error code, 403 naming the permission and 422 with details', () => {
    const responses = committed.components.responses as Record<string, Json>;
    const value = (code: string) =>
      Object.values(((responses[code] as Json).content as Record<string, Json>)['application/json']?.examples as Record<string, Json>)[0]
        ?.value as Json;
    for (const code of Object.keys(responses)) expect(value(code).error).toBe(code);
    expect((value('forbidden').details as Json[])[0]?.field).toBe('permission');
    expect((value('validation_failed').details as Json[]).length).toBeGreaterThan(0);
  });

  it('gives every component schema an example', () => {
    const schemas = committed.components.schemas as Record<string, Json>;
    const without = Object.entries(schemas)
      .filter(([, s]) => !(Array.isArray(s.examples) && s.examples.length > 0) && s.example === undefined)
      .map(([name]) => name);
    expect(Object.keys(schemas).length).toBeGreaterThan(20);
    expect(without).toEqual([]);
  });

  it('describes every parameter and schema property', () => {
    const undocumented: string[] = [];
    let counted = 0;
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const s = node as Json;
      for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        counted++;
        if (typeof prop.$ref !== 'string' && !(typeof prop.description === 'string' && prop.description.length > 0))
          undocumented.push(`${where}.${key}`);
        walk(prop, `${where}.${key}`);
      }
      for (const k of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
        const v = s[k];
        if (Array.isArray(v)) {
          for (const [i, x] of v.entries()) walk(x, `${where}[${i}]`);
        } else walk(v, where);
      }
    };
    for (const [name, schema] of Object.entries(committed.components.schemas as Record<string, Json>)) walk(schema, name);
    for (const [id, op] of operations()) {
      for (const p of (op.parameters ?? []) as Json[]) {
        if (typeof p.$ref === 'string') continue;
        counted++;
        if (!p.description) undocumented.push(`${id} ?${String(p.name)}`);
      }
      const body = op.requestBody as Json | undefined;
      if (body) walk(((body.content as Json)['application/json'] as Json).schema, `${id} body`);
      for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
        const media = (r.content as Json | undefined)?.['application/json'] as Json | undefined;
        if (media) walk(media.schema, `${id} ${status}`);
      }
    }
    expect(counted).toBeGreaterThan(400);
    expect(undocumented).toEqual([]);
  });

  it('states the rate limits of every tier, from the contract, in info and on the 429 response', () => {
    const info = committed.info.description as string;
    const tooMany = committed.components.responses.rate_limited.description as string;
    for (const tier of TIERS) {
      const limits = PLANS[TIER_PLAN[tier]];
      expect(info).toContain(`| ${tier} | ${TIER_PLAN[tier]}`);
      expect(info).toContain(`| ${limits.perSecond.toLocaleString('en-US')} | ${limits.perMonth.toLocaleString('en-US')} |`);
      expect(tooMany).toContain(`${tier} ${limits.perSecond.toLocaleString('en-US')}/s`);
    }
    for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) expect(info).toContain(h);
    expect(tooMany).toContain('Retry-After');
  });
});
