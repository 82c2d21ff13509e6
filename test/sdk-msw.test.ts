import { Assessment, contract, Framework, flattenRoutes, Obligation } from '@svc/contract';
import { BadRequestError, createSvcClient, UnauthorizedError, ValidationFailedError } from '@svc/sdk';
import { createMockHandlers, exampleOf } from '@svc/sdk/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BASE = 'http://mock.local';
const server = setupServer(...createMockHandlers({ baseUrl: BASE }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/** The first example registered on a contract schema. */
function firstExample(schema: { meta: () => unknown }): unknown {
  const examples = (schema.meta() as { examples?: unknown } | undefined)?.examples;
  return Array.isArray(examples) ? examples[0] : undefined;
}

// Created before server.listen(): the client must look the global fetch up per call for msw to see it.
const svc = createSvcClient({ baseUrl: BASE, apiKey: `svc_test_${'b'.repeat(32)}`, maxRetries: 0 });

describe('msw handlers generated from the contract', () => {
  it('has one handler per route', () => {
    expect(createMockHandlers({ baseUrl: BASE })).toHaveLength(flattenRoutes(contract).length);
  });

  it('answers a list with the example item wrapped in { data, cursor: null }', async () => {
    const page = await svc.frameworks.list();
    expect(page).toEqual({ data: [firstExample(Framework)], cursor: null });
    expect(Framework.safeParse(page.data[0]).success).toBe(true);

    const obligations = await svc.compliance.obligations.list({ query: { limit: 25, status: 'open' } });
    expect(obligations.cursor).toBeNull();
    expect(obligations.data).toHaveLength(1);
    expect(Obligation.parse(obligations.data[0]).object).toBe('svc.compliance.obligation');
  });

  it('answers a create with its success status and a schema-valid body echoing the request', async () => {
    const res = await svc.request('POST', '/v1/compliance/assessments', {
      body: { type: 'dpia', systemId: 'sys_mock', jurisdiction: 'eu/fr' },
    });
    expect(res.status).toBe(201);
    const asm = Assessment.parse(res.body);
    expect(asm).toMatchObject({ type: 'dpia', systemId: 'sys_mock', jurisdiction: 'eu/fr', status: 'draft' });
    expect(res.headers.get('x-correlation-id')).toMatch(/^cor_/);

    const got = await svc.compliance.assessments.get({ params: { id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3A' } });
    expect(got.id).toBe('asm_01JD3Z8W2M6Q4X9V7K5T1B0N3A');
  });

  it('rejects a create without systemId with ValidationFailedError', async () => {
    const err = await svc.compliance.assessments
      .create({ body: { type: 'fria', jurisdiction: 'eu/de', colour: 'red' } as any })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationFailedError);
    const e = err as ValidationFailedError;
    expect(e.status).toBe(422);
    expect(e.details).toContainEqual(expect.objectContaining({ field: 'systemId', issue: 'missing' }));
    expect(e.details).toContainEqual(expect.objectContaining({ field: 'colour', issue: 'unknown_field' }));
    expect(e.correlationId).toMatch(/^cor_/);
    expect(e.raw).toMatchObject({ error: 'validation_failed', documentation_url: expect.any(String), correlation_id: e.correlationId });
  });

  it('validates query and path parameters too', async () => {
    const err = await svc.compliance.obligations.list({ query: { limit: 500 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationFailedError);
    expect((err as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'limit', issue: 'too_big' }));

    const bad = await svc.frameworks.get({ params: { id: 'Not A Framework!' } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationFailedError);
    expect((bad as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'id', issue: 'invalid_format' }));
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const raw = createSvcClient({
      baseUrl: BASE,
      apiKey: 'svc_test_x',
      maxRetries: 0,
      fetch: (input, init) => fetch(input, { ...init, body: '{not json' }),
    });
    await expect(
      raw.compliance.assessments.create({ body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } }),
    ).rejects.toBeInstanceOf(BadRequestError);
  });

  it('answers 401 without a bearer token, except on public routes', async () => {
    const anonymous = createSvcClient({
      baseUrl: BASE,
      apiKey: 'svc_test_whatever',
      maxRetries: 0,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.delete('authorization');
        return fetch(input, { ...init, headers });
      },
    });
    const err = await anonymous.frameworks.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).raw).toMatchObject({
      error: 'unauthorized',
      message: expect.any(String),
      correlation_id: expect.any(String),
      documentation_url: expect.any(String),
    });
    await expect(anonymous.system.health()).resolves.toMatchObject({ status: 'ok' });
  });

  it('builds examples for schemas without registered ones', async () => {
    const created = await svc.operator.createTenant({ body: { name: 'Acme', tier: 'growth' } });
    expect(created.tenant.object).toBe('svc.operator.tenant');
    expect(created.apiKey).toMatchObject({ object: 'svc.operator.api_key', revokedAt: null });
    expect(exampleOf(Assessment)).toEqual(firstExample(Assessment));
  });
});
