import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract, flattenRoutes, generateOpenApiDocument, RAILS } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

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

  it('is served at GET /v1/openapi.json without a token', async () => {
    const res = await call(ts.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(committed);
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
});
