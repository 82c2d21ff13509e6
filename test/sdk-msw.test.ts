import { Assessment, contract, Framework, flattenRoutes, Obligation } from '@svc/contract';
import {
  BadRequestError,
  ConflictError,
  createSvcClient,
  NotFoundError,
  ResponseValidationError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationFailedError,
} from '@svc/sdk';
import { createHandlers, createMockHandlers, exampleOf } from '@svc/sdk/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const BASE = 'http://mock.local';
const mock = createHandlers({
  baseUrl: BASE,
  overrides: {
    'compliance.evidence.list': () => HttpResponse.json({ data: [], cursor: null }, { status: 200 }),
  },
});
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.store.reset());
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

  it('answers a non-kit list with 12 distinct, schema-valid items that page with limit and cursor', async () => {
    const page = await svc.frameworks.list();
    expect(page.data).toHaveLength(12);
    expect(page.cursor).toBeNull();
    expect(page.data[0]).toEqual(firstExample(Framework));
    for (const f of page.data) expect(Framework.safeParse(f).success).toBe(true);
    expect(new Set(page.data.map((f) => f.id)).size).toBe(12);
    // The SDK's auto-pagination walks the mock page by page and sees every item once.
    const walked: string[] = [];
    for await (const f of svc.paginate(svc.frameworks.list, { query: { limit: 5 } })) walked.push(f.id);
    expect(walked).toEqual(page.data.map((f) => f.id));
    const first = await svc.frameworks.list({ query: { limit: 5 } });
    expect(first.cursor).toEqual(expect.any(String));
    await expect(svc.frameworks.list({ query: { cursor: 'bm90LW91cnM' } })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('echoes path ids into the items of a non-kit list, and sizes lists as asked', async () => {
    const controls = await svc.frameworks.controls({ params: { id: 'gdpr' }, query: { limit: 200 } });
    expect(controls.data.every((c) => c.framework === 'gdpr')).toBe(true);
    const small = createHandlers({ baseUrl: BASE, listSize: 2 });
    const s2 = setupServer(...small.handlers);
    server.close();
    s2.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await svc.frameworks.list()).data).toHaveLength(2);
    } finally {
      s2.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
  });

  it('seeds each kit list with distinct, schema-valid records, newest first', async () => {
    const obligations = await svc.compliance.obligations.list({ query: { limit: 25, status: 'open' } });
    expect(obligations.cursor).toBeNull();
    expect(obligations.data).toHaveLength(3);
    for (const o of obligations.data) expect(Obligation.parse(o).object).toBe('svc.compliance.obligation');
    const ids = obligations.data.map((o) => o.id);
    expect(new Set(ids).size).toBe(3);
    expect([...ids].sort().reverse()).toEqual(ids);

    const few = createHandlers({ baseUrl: BASE, seed: 1 });
    expect(few.store.records('svc.compliance.obligation')).toHaveLength(1);
  });

  it('answers a create with its success status and a schema-valid body echoing the request', async () => {
    const res = await svc.request('POST', '/v1/compliance/assessments', {
      body: { type: 'dpia', systemId: 'sys_mock', jurisdiction: 'eu/fr' },
    });
    expect(res.status).toBe(201);
    const asm = Assessment.parse(res.body);
    expect(asm).toMatchObject({ type: 'dpia', systemId: 'sys_mock', jurisdiction: 'eu/fr', status: 'draft' });
    expect(asm.id).toMatch(/^asm_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(asm.id).not.toBe((firstExample(Assessment) as { id: string }).id);
    expect(res.headers.get('x-correlation-id')).toMatch(/^cor_/);
  });

  it('stores a create: get and list return it', async () => {
    const created = await svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_store', jurisdiction: 'eu/fr' } });
    await expect(svc.compliance.assessments.get({ params: { id: created.id } })).resolves.toEqual(created);
    const page = await svc.compliance.assessments.list();
    expect(page.data[0]).toEqual(created);
    expect(page.data).toHaveLength(4);

    const unknown = await svc.compliance.assessments.get({ params: { id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3A' } }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect((unknown as NotFoundError).raw).toMatchObject({ error: 'not_found', correlation_id: expect.stringMatching(/^cor_/) });
  });

  it('walks seeded and created records across pages with limit=2, each once', async () => {
    const created = [];
    for (const systemId of ['sys_a', 'sys_b']) {
      created.push(await svc.compliance.assessments.create({ body: { type: 'fria', systemId, jurisdiction: 'eu/de' } }));
    }
    const first = await svc.compliance.assessments.list({ query: { limit: 2 } });
    expect(first.data.map((a) => a.id)).toEqual([created[1]?.id, created[0]?.id]);
    expect(first.cursor).toEqual(expect.any(String));

    const seen: string[] = [];
    for await (const asm of svc.paginate(svc.compliance.assessments.list, { query: { limit: 2 } })) seen.push(asm.id);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen.slice(0, 2)).toEqual([created[1]?.id, created[0]?.id]);

    await expect(svc.compliance.assessments.list({ query: { cursor: 'not-a-cursor' } })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('honours the declared equality filters', async () => {
    const dpia = await svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_filter', jurisdiction: 'eu/fr' } });
    const bySystem = await svc.compliance.assessments.list({ query: { systemId: 'sys_filter' } });
    expect(bySystem.data).toEqual([dpia]);
    const byType = await svc.compliance.assessments.list({ query: { type: 'dpia' } });
    expect(byType.data.every((a) => a.type === 'dpia')).toBe(true);
    expect(byType.data.map((a) => a.id)).toContain(dpia.id);
  });

  it('moves state along the declared transitions and refuses the others with a conflict', async () => {
    const asm = await svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_flow', jurisdiction: 'eu/fr' } });
    await expect(svc.compliance.assessments.start({ params: { id: asm.id } })).resolves.toMatchObject({ status: 'in_progress' });
    await expect(svc.compliance.assessments.complete({ params: { id: asm.id } })).resolves.toMatchObject({ status: 'completed' });
    const err = await svc.compliance.assessments.start({ params: { id: asm.id } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toContain('completed');
    expect((err as ConflictError).status).toBe(409);
    await expect(svc.compliance.assessments.get({ params: { id: asm.id } })).resolves.toMatchObject({ status: 'completed' });
  });

  it('echoes path params into non-kit responses', async () => {
    const activation = await svc.frameworks.activate({ params: { id: 'gdpr' } });
    expect(activation.framework).toBe('gdpr');
  });

  it('lets a test override a route and simulate errors', async () => {
    await expect(svc.compliance.evidence.list()).resolves.toEqual({ data: [], cursor: null });

    mock.simulateError('compliance.assessments.create', 'service_unavailable', { once: true });
    const err = await svc.compliance.assessments
      .create({ body: { type: 'dpia', systemId: 'sys_err', jurisdiction: 'eu/fr' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).status).toBe(503);
    expect((err as ServiceUnavailableError).correlationId).toMatch(/^cor_/);
    await expect(
      svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_err', jurisdiction: 'eu/fr' } }),
    ).resolves.toMatchObject({ systemId: 'sys_err' });

    mock.simulateError('compliance.assessments.list', 'conflict', { details: [{ field: 'status', issue: 'locked' }] });
    const sticky = await svc.compliance.assessments.list().catch((e: unknown) => e);
    expect(sticky).toBeInstanceOf(ConflictError);
    expect((sticky as ConflictError).details).toContainEqual(expect.objectContaining({ field: 'status', issue: 'locked' }));
    expect(() => mock.simulateError('compliance.nope', 'conflict')).toThrow(/no route/);
  });

  it('forgets created records and simulated errors on store.reset()', async () => {
    await svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_reset', jurisdiction: 'eu/fr' } });
    mock.simulateError('compliance.assessments.get', 'internal_error');
    expect(mock.store.records('svc.compliance.assessment')).toHaveLength(4);
    mock.store.reset();
    expect(mock.store.records('svc.compliance.assessment')).toHaveLength(3);
    const page = await svc.compliance.assessments.list({ query: { systemId: 'sys_reset' } });
    expect(page.data).toEqual([]);
    const seeded = mock.store.records('svc.compliance.assessment')[0];
    await expect(svc.compliance.assessments.get({ params: { id: String(seeded?.id) } })).resolves.toMatchObject({ id: seeded?.id });
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

describe('validateResponses (development mode)', () => {
  afterEach(() => server.resetHandlers());

  it('throws a ResponseValidationError naming the route and the field when a body departs from the contract', async () => {
    const id = 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
    server.use(http.get(`${BASE}/v1/compliance/assessments/:id`, () => HttpResponse.json({ object: 'svc.compliance.assessment', id: 42 })));
    const checked = createSvcClient({ baseUrl: BASE, apiKey: 'svc_test_x', validateResponses: true, maxRetries: 0 });
    const err = await checked.compliance.assessments.get({ params: { id } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect((err as ResponseValidationError).route).toBe('compliance.assessments.get');
    expect((err as ResponseValidationError).issues.map((i) => i.path)).toContain('id');
    // Off by default: the same body passes through unchecked.
    const plain = createSvcClient({ baseUrl: BASE, apiKey: 'svc_test_x', maxRetries: 0 });
    expect(await plain.compliance.assessments.get({ params: { id } })).toMatchObject({ id: 42 });
  });

  it("passes the stateful mock's own answers, which conform", async () => {
    const ok = createSvcClient({ baseUrl: BASE, apiKey: 'svc_test_x', validateResponses: true, maxRetries: 0 });
    const created = await ok.compliance.assessments.create({ body: { type: 'fria', systemId: 'sys_1', jurisdiction: 'eu/de' } });
    expect(await ok.compliance.assessments.get({ params: { id: created.id } })).toMatchObject({ id: created.id });
    expect((await ok.compliance.assessments.list({ query: { limit: 2 } })).data).toHaveLength(2);
    expect((await ok.frameworks.list()).data).toHaveLength(12);
  });

  it('answers every list route of the contract with a page its own response schema accepts', async () => {
    let lists = 0;
    for (const { route } of flattenRoutes(contract)) {
      const schema = route.responses[200] as { safeParse?: (v: unknown) => { success: boolean } } | undefined;
      if (route.method !== 'GET' || !schema?.safeParse || route.path.includes(':')) continue;
      const probe = await fetch(`${BASE}${route.path}?limit=3`, { headers: { authorization: 'Bearer svc_test_x' } });
      const body = (await probe.json()) as { data?: unknown[]; cursor?: unknown };
      // compliance.evidence.list is overridden at the top of this file to answer an empty page.
      if (!Array.isArray(body?.data) || !('cursor' in body) || route.path === '/v1/compliance/evidence') continue;
      lists++;
      expect(probe.status, route.path).toBe(200);
      expect(schema.safeParse(body).success, route.path).toBe(true);
      expect(body.data?.length, route.path).toBe(3);
    }
    expect(lists).toBeGreaterThan(8);
  });
});
