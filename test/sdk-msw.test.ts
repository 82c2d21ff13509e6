import { Assessment, AssessmentQuestion, contract, Framework, flattenRoutes, Obligation, PutSystemProfileBody } from '@svc/contract';
import {
  BadRequestError,
  ConflictError,
  createSvcClient,
  ForbiddenError,
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
import { MOCK_RECIPES } from '../packages/sdk-ts/src/generated/mock-recipes.ts';
import { RECIPES } from '../packages/server/src/rails/compliance/recipes.ts';

const BASE = 'http://mock.local';
const TOKEN = `svc_test_${'b'.repeat(32)}`;
const REVIEWER_TOKEN = `svc_test_${'r'.repeat(32)}`;
const SERVICE_TOKEN = `svc_test_${'s'.repeat(32)}`;
const REVIEWER = 'usr_01JD3Z9A4D2H8K6M0P3R5T7V9X';
const mock = createHandlers({
  baseUrl: BASE,
  // The reviewer's key acts for a named person, the service key for none; other tokens for a person of their own.
  persons: { [REVIEWER_TOKEN]: REVIEWER, [SERVICE_TOKEN]: null },
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
const svc = createSvcClient({ baseUrl: BASE, apiKey: TOKEN, maxRetries: 0 });
const reviewer = createSvcClient({ baseUrl: BASE, apiKey: REVIEWER_TOKEN, maxRetries: 0 });
const service = createSvcClient({ baseUrl: BASE, apiKey: SERVICE_TOKEN, maxRetries: 0 });

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
    const err = await svc.compliance.assessments.start({ params: { id: asm.id } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toContain('in_progress');
    expect((err as ConflictError).status).toBe(409);
    const approve = await reviewer.compliance.assessments.approve({ params: { id: asm.id } }).catch((e: unknown) => e);
    expect(approve).toBeInstanceOf(ConflictError);
    expect((approve as ConflictError).message).toMatch(/in_progress; .* needs in_review/);
    await expect(svc.compliance.assessments.get({ params: { id: asm.id } })).resolves.toMatchObject({ status: 'in_progress' });
  });

  it('keeps a setting per tenant, per calling key and per path parameter: defaults or 404 until a PUT replaces it', async () => {
    // The calling key's own preferences: the defaults, then what it set; another key still has the defaults.
    expect(await svc.notifications.preferences.get()).toMatchObject({ mutedEventTypes: [], minimumSeverity: 'debug', updatedAt: null });
    const set = await svc.notifications.preferences.put({
      body: { mutedEventTypes: ['risk.*'], minimumSeverity: 'warning', channels: ['inbox'] },
    });
    expect(set).toMatchObject({ mutedEventTypes: ['risk.*'], minimumSeverity: 'warning', channels: ['inbox'] });
    expect(set.updatedAt).not.toBeNull();
    await expect(svc.notifications.preferences.get()).resolves.toEqual(set);
    await expect(reviewer.notifications.preferences.get()).resolves.toMatchObject({ minimumSeverity: 'debug', updatedAt: null });
    // The tenant's intake.
    await expect(svc.whistleblower.getIntake()).resolves.toMatchObject({ slug: null, enabled: false });
    await svc.whistleblower.setIntake({ body: { slug: 'mock-speak-up', enabled: true } });
    await expect(svc.whistleblower.getIntake()).resolves.toMatchObject({ slug: 'mock-speak-up', enabled: true });
    // A system's profile: 404 until declared, then listed first among the seeded ones.
    const missing = await svc.public_disclosure.getSystem({ params: { systemId: 'sys_mock' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    const seeded = (await svc.public_disclosure.listSystems()).data;
    expect(seeded).toHaveLength(3);
    await expect(svc.public_disclosure.getSystem({ params: { systemId: seeded[1]?.systemId as string } })).resolves.toEqual(seeded[1]);
    const body = { ...(firstExample(PutSystemProfileBody) as object), name: 'Mock triage assistant' } as never;
    const declared = await svc.public_disclosure.putSystem({ params: { systemId: 'sys_mock' }, body });
    expect(declared).toMatchObject({ systemId: 'sys_mock', name: 'Mock triage assistant' });
    await expect(svc.public_disclosure.getSystem({ params: { systemId: 'sys_mock' } })).resolves.toEqual(declared);
    expect((await svc.public_disclosure.listSystems()).data[0]).toEqual(declared);
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

describe('the assessment workflow, stateful', () => {
  const answer = (id: string, key: string, body: { value?: string | number; notes?: string; evidenceIds?: string[] }, as = svc) =>
    as.compliance.assessments.answer({ params: { id, key }, body });

  async function evidence(): Promise<string> {
    const e = await svc.compliance.evidence.create({
      body: { title: 'Record of processing', kind: 'document', controlIds: ['GDPR-PRN-01'] },
    });
    return e.id;
  }

  /** Answers every required question still open, by its kind, until none is (an answer can require another). */
  async function answerTheRest(id: string, evd: string): Promise<void> {
    for (;;) {
      const open = await svc.compliance.assessments.questions({
        params: { id },
        query: { answered: 'false', required: 'true', limit: 100 },
      });
      if (open.data.length === 0) return;
      for (const q of open.data) {
        const value = { choice: q.options?.[0]?.value, yes_no: 'no', scale: 3, text: 'Described in the record.' }[q.kind as string];
        await answer(id, q.key, q.kind === 'evidence' ? { evidenceIds: [evd] } : { value });
      }
    }
  }

  it('creates an assessment with the questions of its type; an answer updates the question, the completion and the status', async () => {
    const asm = await svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_dpia', jurisdiction: 'eu/de' } });
    expect(asm).toMatchObject({ status: 'draft', completion: 0, framework: 'gdpr', revision: 1 });
    // The server's recipe of the type, as the generated mock holds it (stale: pnpm sdk:generate).
    const recipe = RECIPES.current().recipes.find((r) => r.type === 'dpia');
    expect(MOCK_RECIPES.dpia?.stages.map((s) => s.key)).toEqual(recipe?.stages.map((s) => s.key));
    expect(asm.stages.map((s) => s.key)).toEqual(recipe?.stages.map((s) => s.key));
    const questions = await svc.compliance.assessments.questions({ params: { id: asm.id }, query: { limit: 100 } });
    expect(questions.data.map((q) => q.key)).toEqual(recipe?.stages.flatMap((s) => s.questions.map((q) => q.key)));
    for (const q of questions.data) expect(AssessmentQuestion.parse(q).answer).toBeNull();
    const required = questions.data.filter((q) => q.required).length;

    // Of its kind: a scale question takes an integer 1-5.
    const wrong = await answer(asm.id, 'risk-likelihood', { value: 'high' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ValidationFailedError);
    expect((wrong as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'value' }));
    const answered = await answer(asm.id, 'risk-likelihood', { value: 3 });
    expect(answered.answer).toMatchObject({ value: 3, version: 1 });
    const after = await svc.compliance.assessments.get({ params: { id: asm.id } });
    expect(after.status).toBe('in_progress');
    expect(after.completion).toBeCloseTo(1 / required, 3);
    expect(after.stages.find((s) => s.key === 'risks')).toMatchObject({ status: 'in_progress', answered: 1, required: 3 });

    // A change is a new version; the history lists them newest first, and a clear is one too.
    await answer(asm.id, 'risk-likelihood', { value: 4, notes: 'After the pilot.' });
    await svc.compliance.assessments.clearAnswer({ params: { id: asm.id, key: 'risk-likelihood' } });
    const history = await svc.compliance.assessments.answerHistory({ params: { id: asm.id, key: 'risk-likelihood' } });
    expect(history.data.map((v) => [v.version, v.action, v.value])).toEqual([
      [3, 'cleared', null],
      [2, 'changed', 4],
      [1, 'answered', 3],
    ]);
    await expect(svc.compliance.assessments.get({ params: { id: asm.id } })).resolves.toMatchObject({ completion: 0 });
    const nothing = await svc.compliance.assessments
      .clearAnswer({ params: { id: asm.id, key: 'risk-likelihood' } })
      .catch((e: unknown) => e);
    expect(nothing).toBeInstanceOf(ConflictError);
  });

  it('asks a question only given another answer, and attaches evidence that exists', async () => {
    const asm = await svc.compliance.assessments.create({ body: { type: 'dpia', systemId: 'sys_dpo', jurisdiction: 'eu/fr' } });
    const advice = () => svc.compliance.assessments.question({ params: { id: asm.id, key: 'dpo-advice' } });
    expect((await advice()).required).toBe(false);
    await answer(asm.id, 'dpo-designated', { value: 'yes' });
    expect((await advice()).required).toBe(true);
    const unanswered = await svc.compliance.assessments.questions({
      params: { id: asm.id },
      query: { answered: 'false', required: 'true' },
    });
    expect(unanswered.data.map((q) => q.key)).toContain('dpo-advice');

    const none = await answer(asm.id, 'processing-record', { evidenceIds: ['evd_01JD3Z8W2M6Q4X9V7K5T1B0N3A'] }).catch((e: unknown) => e);
    expect((none as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'evidenceIds.0' }));
    const empty = await answer(asm.id, 'processing-record', {}).catch((e: unknown) => e);
    expect((empty as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'evidenceIds', issue: 'missing' }));
    const id = await evidence();
    await expect(answer(asm.id, 'processing-record', { evidenceIds: [id] })).resolves.toMatchObject({ answer: { evidenceIds: [id] } });

    const missing = await svc.compliance.assessments
      .questions({ params: { id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3A' } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    const noKey = await svc.compliance.assessments.question({ params: { id: asm.id, key: 'no-such-question' } }).catch((e: unknown) => e);
    expect(noKey).toBeInstanceOf(NotFoundError);
  });

  it('submits only with every required question answered, returns with comments, approves under four eyes and freezes', async () => {
    const asm = await svc.compliance.assessments.create({ body: { type: 'fria', systemId: 'sys_fria', jurisdiction: 'eu/de' } });
    await answer(asm.id, 'process-description', { value: 'Credit decisions for consumer loans.' });
    const refused = await svc.compliance.assessments.submit({ params: { id: asm.id }, body: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationFailedError);
    expect((refused as ValidationFailedError).details).toContainEqual(
      expect.objectContaining({ field: 'questions.risk-severity', issue: 'missing' }),
    );
    expect((refused as ValidationFailedError).details.map((d) => d.field)).not.toContain('questions.process-description');

    const evd = await evidence();
    await answer(asm.id, 'deployer-category', { value: 'annex-iii-5b' });
    await answer(asm.id, 'risk-severity', { value: 4 });
    await answer(asm.id, 'provider-information', { evidenceIds: [evd] });
    await answer(asm.id, 'authority-notified', { value: 'no' });
    await answerTheRest(asm.id, evd);
    const results = await svc.compliance.assessments.results({ params: { id: asm.id } });
    expect(results).toMatchObject({ completion: 1, open: [], gaps: [] });
    const submitted = await svc.compliance.assessments.submit({ params: { id: asm.id }, body: {} });
    expect(submitted).toMatchObject({ status: 'in_review', submittedBy: expect.stringMatching(/^usr_/) });
    const locked = await answer(asm.id, 'risk-severity', { value: 2 }).catch((e: unknown) => e);
    expect(locked).toBeInstanceOf(ConflictError);

    // Returned with a comment on a question; the next answer clears the comment.
    const badComment = await reviewer.compliance.assessments
      .send_back({ params: { id: asm.id }, body: { comments: [{ question: 'nope', comment: 'x' }] } })
      .catch((e: unknown) => e);
    expect((badComment as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'comments.0.question' }));
    const back = await reviewer.compliance.assessments.send_back({
      params: { id: asm.id },
      body: { comments: [{ question: 'process-description', comment: 'Name the loan products concerned.' }] },
    });
    expect(back.status).toBe('in_progress');
    const commented = await svc.compliance.assessments.question({ params: { id: asm.id, key: 'process-description' } });
    expect(commented.review).toMatchObject({ comment: 'Name the loan products concerned.', by: REVIEWER });
    expect((await answer(asm.id, 'process-description', { value: 'Consumer loans up to EUR 50,000.' })).review).toBeNull();
    await svc.compliance.assessments.submit({ params: { id: asm.id }, body: {} });

    // Four eyes: the answerer cannot approve, nor can a service key; another person can.
    const own = await svc.compliance.assessments.approve({ params: { id: asm.id } }).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(ForbiddenError);
    expect((own as ForbiddenError).details).toContainEqual(expect.objectContaining({ issue: 'four_eyes' }));
    const bot = await service.compliance.assessments.approve({ params: { id: asm.id } }).catch((e: unknown) => e);
    expect(bot).toBeInstanceOf(ForbiddenError);
    expect((bot as ForbiddenError).details).toContainEqual(expect.objectContaining({ issue: 'service_key' }));
    const approved = await reviewer.compliance.assessments.approve({ params: { id: asm.id } });
    expect(approved).toMatchObject({ status: 'approved', approvedBy: REVIEWER, answersHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Assessment.parse(approved).id).toBe(asm.id);
    const frozen = await answer(asm.id, 'risk-severity', { value: 1 }).catch((e: unknown) => e);
    expect(frozen).toBeInstanceOf(ConflictError);
    expect((frozen as ConflictError).message).toMatch(/approved and frozen/);

    // A revision carries the answers into a new assessment in progress.
    const next = await svc.compliance.assessments.revise({ params: { id: asm.id }, body: {} });
    expect(next).toMatchObject({ revision: 2, previousId: asm.id, status: 'in_progress', completion: 1 });
    const carried = await svc.compliance.assessments.answerHistory({ params: { id: next.id, key: 'risk-severity' } });
    expect(carried.data).toEqual([expect.objectContaining({ action: 'carried', value: 4, version: 1 })]);
    await expect(svc.compliance.assessments.revise({ params: { id: asm.id }, body: {} })).rejects.toBeInstanceOf(ConflictError);
  });

  it('scores a gap analysis of a named framework and turns its gaps into remediations once approved', async () => {
    const bare = await svc.compliance.assessments
      .create({ body: { type: 'gap-analysis', systemId: 'sys_gap', jurisdiction: 'eu/de' } })
      .catch((e: unknown) => e);
    expect((bare as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'framework', issue: 'missing' }));
    const asm = await svc.compliance.assessments.create({
      body: { type: 'gap-analysis', systemId: 'sys_gap', jurisdiction: 'eu/de', framework: 'eu-ai-act' },
    });
    const [first, second] = (await svc.compliance.assessments.questions({ params: { id: asm.id } })).data;
    expect(first?.kind).toBe('requirement');
    const unjustified = await answer(asm.id, String(second?.key), { value: 'non_compliant' }).catch((e: unknown) => e);
    expect((unjustified as ValidationFailedError).details).toContainEqual(expect.objectContaining({ field: 'notes', issue: 'missing' }));
    await answer(asm.id, String(first?.key), { value: 'compliant' });
    await answer(asm.id, String(second?.key), { value: 'non_compliant', notes: 'No classification record yet.' });
    const results = await svc.compliance.assessments.results({ params: { id: asm.id } });
    expect(results.score).toBe(0.5);
    expect(results.gaps).toEqual([expect.objectContaining({ control: second?.control, status: 'non_compliant' })]);
    await expect(svc.compliance.assessments.remediate({ params: { id: asm.id }, body: {} })).rejects.toBeInstanceOf(ConflictError);
    await svc.compliance.assessments.submit({ params: { id: asm.id }, body: {} });
    await reviewer.compliance.assessments.approve({ params: { id: asm.id } });
    const remediation = await svc.compliance.assessments.remediate({ params: { id: asm.id }, body: {} });
    expect(remediation.created).toEqual([expect.objectContaining({ control: second?.control, severity: 'high' })]);
  });

  it('gives seeded assessments their questions too, and forgets the answers on reset', async () => {
    const seeded = mock.store.records('svc.compliance.assessment')[0];
    const id = String(seeded?.id);
    const page = await svc.compliance.assessments.questions({ params: { id } });
    expect(page.data.length).toBeGreaterThan(0);
    const key = page.data.find((q) => q.kind === 'text')?.key as string;
    await answer(id, key, { value: 'Answered in the mock.' });
    expect((await svc.compliance.assessments.get({ params: { id } })).status).toBe('in_progress');
    mock.store.reset();
    const fresh = String(mock.store.records('svc.compliance.assessment')[0]?.id);
    const again = await svc.compliance.assessments.questions({ params: { id: fresh }, query: { answered: 'true' } });
    expect(again.data).toEqual([]);
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
