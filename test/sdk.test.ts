import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { type Contract, contract, type ErrorCode, type ErrorDetail, flattenRoutes, type WebhookEnvelope } from '@svc/contract';
import {
  type ComplianceAssessmentsCreateArgs,
  type ComplianceAssessmentsCreateBody,
  type ComplianceAssessmentsCreateResult,
  type components,
  createRouterClient,
  createSvcClient,
  type ERROR_CLASSES,
  ForbiddenError,
  isSvcError,
  NotFoundError,
  type operations,
  RateLimitedError,
  type RouterClient,
  ServiceUnavailableError,
  type SvcClient,
  SvcConnectionError,
  SvcError,
  UnauthorizedError,
  ValidationFailedError,
  type webhooks,
} from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ROUTE_TABLE } from '../packages/sdk-ts/src/route-table.ts';
import { createTenant } from './support/api.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;

// The SDK's types (src/api-types.ts, generated from the OpenAPI document's operations) and the
// document's (from openapi-typescript) must agree on every operation's request body, query and
// success body. A mismatch names the operation in a type error; after a contract change run `pnpm generate`.
type At<T, N> = N extends `${infer H}.${infer Rest}` ? (H extends keyof T ? At<T[H], Rest> : never) : N extends keyof T ? T[N] : never;
type MethodAt<N> = At<SvcClient, N>;
type ArgsAt<N> = MethodAt<N> extends (...args: any[]) => unknown ? NonNullable<Parameters<MethodAt<N>>[0]> : never;
type SdkBody<N> = 'body' extends keyof ArgsAt<N> ? NonNullable<ArgsAt<N>['body' & keyof ArgsAt<N>]> : never;
type SdkQuery<N> = 'query' extends keyof ArgsAt<N> ? NonNullable<ArgsAt<N>['query' & keyof ArgsAt<N>]> : never;
type SdkResult<N> = MethodAt<N> extends (...args: any[]) => Promise<infer B> ? B : never;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type DocBody<O> = O extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
type DocQuery<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? never : NonNullable<Q>) : never;
type DocResult<O> = O extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202 | 204>]> : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Webhook deliveries are operations of the receiver, not of the SDK; files (PDF, zip) have no JSON body to compare.
type FileOperation = {
  [N in keyof operations]: operations[N] extends {
    responses: { 200: { content: { 'application/pdf': unknown } | { 'application/zip': unknown } } };
  }
    ? N
    : never;
}[keyof operations];
type ApiOperation = Exclude<keyof operations, `webhook.${string}` | FileOperation>;
type Agreement = {
  [N in ApiOperation]: [
    Same<SdkBody<N>, DocBody<operations[N]>>,
    Same<SdkQuery<N>, DocQuery<operations[N]>>,
    Same<SdkResult<N>, DocResult<operations[N]>>,
  ];
};
type Disagreements = { [N in keyof Agreement as Agreement[N] extends [true, true, true] ? never : N]: Agreement[N] };
const sdkAgreesWithOpenApi: Disagreements = {};

// The client's types are generated from the OpenAPI document (src/api-types.ts), its requests are
// built from the contract at run time: the two must agree on every operation. `Inferred` is what
// ts-rest's router and the zod schemas give for the same client (the SDK's declarations never load
// it); each operation's whole first argument (optional keys, and whether it may be left out) and its
// result must be the same type both ways. Files (PDF, zip) are excluded: the contract types their
// bytes, the document and the client's reading of the response a string.
type Inferred = RouterClient<Contract>;
type InferredAt<N> = At<Inferred, N>;
type FirstArg<M> = M extends (...args: infer A) => unknown ? A[0] : never;
type Result<M> = M extends (...args: any[]) => Promise<infer B> ? B : never;
type ContractAgreement = {
  [N in ApiOperation]: [
    Same<FirstArg<MethodAt<N>>, FirstArg<InferredAt<N>>>,
    Same<undefined extends FirstArg<MethodAt<N>> ? true : false, undefined extends FirstArg<InferredAt<N>> ? true : false>,
    Same<Result<MethodAt<N>>, Result<InferredAt<N>>>,
  ];
};
type ContractDisagreements = {
  [N in keyof ContractAgreement as ContractAgreement[N] extends [true, true, true] ? never : N]: ContractAgreement[N];
};
const generatedAgreesWithContract: ContractDisagreements = {};
// The SDK's own copies of two contract types (its declarations do not import the contract).
const errorCodesAgree: [Same<components['schemas']['Error']['error'], ErrorCode>, Same<keyof typeof ERROR_CLASSES, ErrorCode>] = [
  true,
  true,
];
const webhookEnvelopesAgree: Same<ReturnType<typeof webhooks.verify>, WebhookEnvelope> = true;
// The msw entry's error details (`simulateError`'s option) are the document's.
const errorDetailsAgree: Same<components['schemas']['ErrorDetail'], ErrorDetail> = true;

beforeAll(async () => {
  ts = await startTestServer();
});

afterAll(async () => {
  await ts?.close();
});

const UNKNOWN_ASSESSMENT = 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
const validAssessment = { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' } as const;

async function tenantClient(
  opts: Parameters<typeof createTenant>[1] = {},
  clientOpts: Partial<Parameters<typeof createSvcClient>[0]> = {},
) {
  const tenant = await createTenant(ts, opts);
  const svc = createSvcClient({ baseUrl: ts.url, apiKey: tenant.token, ...clientOpts });
  return { tenant, svc };
}

/** A fetch that records every request's method, URL and headers before passing it on. */
function recordingFetch(intercept?: (call: { method: string; url: string; headers: Headers; n: number }) => Response | undefined) {
  const calls: { method: string; url: string; headers: Headers }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const call = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    const synthetic = intercept?.({ ...call, n: calls.length });
    if (synthetic) return synthetic;
    return fetch(input, init);
  };
  return { calls, fetch: wrapped };
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describe('sdk against the real server', () => {
  it('types every route from the contract', () => {
    expectTypeOf<Awaited<ReturnType<SvcClient['compliance']['assessments']['create']>>['status']>().toEqualTypeOf<
      'draft' | 'in_progress' | 'in_review' | 'approved'
    >();
    expectTypeOf<Parameters<SvcClient['frameworks']['controls']>[0]['params']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<Parameters<SvcClient['compliance']['assessments']['create']>[0]['body']['systemId']>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<SvcClient['system']['health']>>>().toEqualTypeOf<{
      status: 'ok';
      version: string;
      database: 'pglite' | 'postgresql';
    }>();
  });

  it('agrees with the OpenAPI document on every operation (checked by tsc)', () => {
    expect(sdkAgreesWithOpenApi).toEqual({});
  });

  it('has generated types that agree with the contract on every operation (checked by tsc)', () => {
    expect(generatedAgreesWithContract).toEqual({});
    // What the comparison sees on the contract's side is inferred, not `any`.
    expectTypeOf<Result<InferredAt<'compliance.assessments.create'>>['status']>().toEqualTypeOf<
      'draft' | 'in_progress' | 'in_review' | 'approved'
    >();
    expectTypeOf<FirstArg<InferredAt<'frameworks.get'>>>().toEqualTypeOf<{ params: { id: string } }>();
    expect([...errorCodesAgree, webhookEnvelopesAgree, errorDetailsAgree]).toEqual([true, true, true, true]);
    // Named per operation, for users who keep a request or a result in a variable.
    const body: ComplianceAssessmentsCreateBody = { ...validAssessment };
    const args: ComplianceAssessmentsCreateArgs = { body };
    expectTypeOf<Parameters<SvcClient['compliance']['assessments']['create']>[0]>().toEqualTypeOf<ComplianceAssessmentsCreateArgs>();
    expectTypeOf<
      Awaited<ReturnType<SvcClient['compliance']['assessments']['create']>>
    >().toEqualTypeOf<ComplianceAssessmentsCreateResult>();
    expect(args.body.type).toBe('fria');
  });

  it('has a method for every route of the contract and src/api-types.ts up to date with openapi.json', () => {
    const svc = createSvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    const missing = flattenRoutes(contract)
      .map((r) => r.name)
      .filter((name) => typeof name.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], svc) !== 'function');
    expect(missing).toEqual([]);
    // The generic client over the same router gives the same methods (the generated client is one).
    expect(Object.keys(createRouterClient(contract, { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' })).sort()).toEqual(
      Object.keys(svc).sort(),
    );
    const generator = new URL('../packages/sdk-ts/scripts/generate-api-types.mjs', import.meta.url).pathname;
    expect(() => execFileSync(process.execPath, [generator, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it("builds its methods from a route table that is the contract's routes, name, method and path", () => {
    const fromContract = flattenRoutes(contract)
      .map(({ name, route }) => [name, route.method, route.path])
      .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    expect(ROUTE_TABLE).toEqual(fromContract);
  });

  it('rejects wrong arguments at compile time', () => {
    // Never called: tsc checks the @ts-expect-error lines (a line that stops failing fails typecheck).
    const typeChecks = async (svc: SvcClient) => {
      // @ts-expect-error the body is required
      await svc.compliance.assessments.create();
      // @ts-expect-error `limit` is a number (a coerced query value)
      await svc.compliance.obligations.list({ query: { limit: 'ten' } });
      // @ts-expect-error `type` is an enum
      await svc.compliance.assessments.create({ body: { type: 'nope', systemId: 's', jurisdiction: 'eu/de' } });
      // @ts-expect-error path params are required
      await svc.frameworks.get({});
      // @ts-expect-error listKeys needs query.tenantId
      await svc.operator.listKeys();
      // @ts-expect-error not a list route
      svc.paginate(svc.compliance.assessments.get, { params: { id: 'x' } });
      const asm = await svc.compliance.assessments.get({ params: { id: 'x' } });
      // @ts-expect-error no such field
      asm.nonexistent;
      // Optional everything: no argument needed.
      await svc.frameworks.list();
      await svc.frameworks.activate({ params: { id: 'eu-ai-act' } });
      await svc.operator.revokeKey({ params: { id: 'key_x' } });
      for await (const control of svc.paginate(svc.frameworks.controls, { params: { id: 'eu-ai-act' } })) {
        expectTypeOf(control.clauseRefs).toEqualTypeOf<string[]>();
      }
    };
    expect(typeof typeChecks).toBe('function');
  });

  it('lists frameworks', async () => {
    const { svc } = await tenantClient();
    const page = await svc.frameworks.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.map((f) => f.id)).toContain('eu-ai-act');
    expect(page.data[0]?.object).toBe('svc.frameworks.framework');
    const controls = await svc.frameworks.controls({ params: { id: 'eu-ai-act' }, query: { limit: 10 } });
    expect(controls.data).toHaveLength(10);
    expect(controls.cursor).toEqual(expect.any(String));
  });

  it('activates a framework and creates an assessment', async () => {
    const { svc } = await tenantClient();
    const activation = await svc.frameworks.activate({ params: { id: 'eu-ai-act' } });
    expect(activation.framework).toBe('eu-ai-act');
    const asm = await svc.compliance.assessments.create({ body: { ...validAssessment } });
    expect(asm).toMatchObject({ object: 'svc.compliance.assessment', status: 'draft', completion: 0, systemId: validAssessment.systemId });
    const again = await svc.compliance.assessments.get({ params: { id: asm.id } });
    expect(again.id).toBe(asm.id);
  });

  it('throws ValidationFailedError with details and a correlation id', async () => {
    const { svc } = await tenantClient();
    const err = await catchError(svc.compliance.assessments.create({ body: { type: 'fria', jurisdiction: 'eu/de' } as any }));
    expect(err).toBeInstanceOf(ValidationFailedError);
    expect(err).toBeInstanceOf(SvcError);
    expect(isSvcError(err)).toBe(true);
    const e = err as ValidationFailedError;
    expect(e.status).toBe(422);
    expect(e.code).toBe('validation_failed');
    expect(e.details).toContainEqual(expect.objectContaining({ field: 'systemId', issue: 'missing' }));
    expect(e.correlationId).toMatch(/\S/);
    expect(e.correlationId).toBe(e.headers.get('x-correlation-id'));
    expect(e.documentationUrl).toContain('validation_failed');
  });

  it('throws NotFoundError for an unknown assessment, without retrying', async () => {
    const rec = recordingFetch();
    const { svc } = await tenantClient({}, { fetch: rec.fetch });
    const err = await catchError(svc.compliance.assessments.get({ params: { id: UNKNOWN_ASSESSMENT } }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).status).toBe(404);
    expect(rec.calls).toHaveLength(1);
  });

  it('throws UnauthorizedError with a bad key', async () => {
    const svc = createSvcClient({ baseUrl: ts.url, apiKey: `svc_test_${'a'.repeat(32)}` });
    const err = await catchError(svc.frameworks.list());
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).code).toBe('unauthorized');
  });

  it('sends X-IOF-Tenant and surfaces a mismatch as ForbiddenError', async () => {
    const { tenant } = await tenantClient();
    const ok = createSvcClient({ baseUrl: ts.url, apiKey: tenant.token, tenantId: tenant.tenantId });
    await expect(ok.frameworks.list()).resolves.toBeDefined();
    const wrong = createSvcClient({ baseUrl: ts.url, apiKey: tenant.token, tenantId: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R' });
    await expect(wrong.frameworks.list()).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('paginates over every obligation', async () => {
    const { svc } = await tenantClient();
    await svc.frameworks.activate({ params: { id: 'eu-ai-act' } });
    const ids: string[] = [];
    for await (const obligation of svc.paginate(svc.compliance.obligations.list, { query: { limit: 25 } })) {
      expectTypeOf(obligation.sourceRef).toEqualTypeOf<string>();
      ids.push(obligation.id);
    }
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
    const first = await svc.compliance.obligations.list({ query: { limit: 200 } });
    expect(ids.length).toBeGreaterThanOrEqual(first.data.length);
  });

  it('surfaces RateLimitedError without retries and rides it out with retries', async () => {
    const { svc: noRetry } = await tenantClient({ tier: 'sandbox', rateLimitPerSecond: 'tier' }, { maxRetries: 0 });
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => noRetry.frameworks.list({ query: { limit: 1 } })));
    const limited = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(limited.length).toBeGreaterThan(0);
    for (const err of limited) {
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }

    // A second sandbox tenant, so that the window the first burst used up does not count against it.
    const { svc: withRetry } = await tenantClient({ tier: 'sandbox', rateLimitPerSecond: 'tier' }, { maxRetries: 3 });
    const pages = await Promise.all(Array.from({ length: 12 }, () => withRetry.frameworks.list({ query: { limit: 1 } })));
    expect(pages).toHaveLength(12);
    for (const page of pages) expect(page.data).toHaveLength(1);
  });

  it('reuses one Idempotency-Key across the retries of a POST', async () => {
    const rec = recordingFetch(({ method, n }) =>
      method === 'POST' && n === 1
        ? new Response(JSON.stringify({ error: 'service_unavailable', message: 'x', correlation_id: 'c', documentation_url: 'd' }), {
            status: 503,
            headers: { 'retry-after': '0', 'content-type': 'application/json' },
          })
        : undefined,
    );
    const { svc } = await tenantClient({}, { fetch: rec.fetch });
    const asm = await svc.compliance.assessments.create({ body: { ...validAssessment } });
    expect(asm.status).toBe('draft');
    const posts = rec.calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(2);
    const keys = posts.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^idk_[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const list = await svc.compliance.assessments.list();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]?.id).toBe(asm.id);
  });

  it('gives each POST call its own key, honours a caller key, and replays it', async () => {
    const rec = recordingFetch();
    const { svc } = await tenantClient({}, { fetch: rec.fetch });
    await svc.compliance.assessments.create({ body: { ...validAssessment } });
    await svc.compliance.assessments.create({ body: { ...validAssessment } });
    const [k1, k2] = rec.calls.map((c) => c.headers.get('idempotency-key'));
    expect(k1).not.toBe(k2);

    const first = await svc.compliance.assessments.create({ body: { ...validAssessment } }, { idempotencyKey: 'idk_caller_1' });
    const replay = await svc.request<{ id: string }>('POST', '/v1/compliance/assessments', {
      body: { ...validAssessment },
      idempotencyKey: 'idk_caller_1',
    });
    expect(rec.calls.at(-1)?.headers.get('idempotency-key')).toBe('idk_caller_1');
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const list = await svc.compliance.assessments.list();
    expect(list.data).toHaveLength(3);
  });

  it('gives up on a persistent 503 after maxRetries and throws ServiceUnavailableError', async () => {
    const rec = recordingFetch(
      () =>
        new Response(JSON.stringify({ error: 'service_unavailable', message: 'down', correlation_id: 'cor_x', documentation_url: 'd' }), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const svc = createSvcClient({ baseUrl: ts.url, apiKey: 'k', fetch: rec.fetch, maxRetries: 2, maxRetryDelayMs: 5 });
    const err = await catchError(svc.system.health());
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).correlationId).toBe('cor_x');
    expect(rec.calls).toHaveLength(3);
  });

  it('retries network failures and reports SvcConnectionError, timeouts included', async () => {
    let attempts = 0;
    const refused: typeof fetch = async () => {
      attempts++;
      throw new TypeError('fetch failed');
    };
    const svc = createSvcClient({ baseUrl: ts.url, apiKey: 'k', fetch: refused, maxRetries: 2, maxRetryDelayMs: 5 });
    const err = await catchError(svc.system.health());
    expect(err).toBeInstanceOf(SvcConnectionError);
    expect(isSvcError(err)).toBe(false);
    expect(attempts).toBe(3);

    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const slow = createSvcClient({ baseUrl: ts.url, apiKey: 'k', fetch: hanging, maxRetries: 0, timeoutMs: 50 });
    const timeout = await catchError(slow.system.health());
    expect(timeout).toBeInstanceOf(SvcConnectionError);
    expect((timeout as SvcConnectionError).timedOut).toBe(true);
  });

  it('stops waiting for a retry when the caller aborts', async () => {
    const busy: typeof fetch = async () =>
      new Response(JSON.stringify({ error: 'rate_limited', message: 'slow down', correlation_id: 'c', documentation_url: 'd' }), {
        status: 429,
        headers: { 'retry-after': '10', 'content-type': 'application/json' },
      });
    const svc = createSvcClient({ baseUrl: ts.url, apiKey: 'k', fetch: busy });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const err = await catchError(svc.system.health(undefined, { signal: controller.signal }));
    expect((err as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('calls any route with svc.request', async () => {
    const svc = createSvcClient({ baseUrl: ts.url, apiKey: 'unused' });
    const res = await svc.request<{ status: string }>('GET', '/v1/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.headers.get('x-correlation-id')).toBeTruthy();

    const { svc: tenantSvc } = await tenantClient();
    const page = await tenantSvc.request<{ data: unknown[]; cursor: string | null }>('GET', '/v1/frameworks?limit=2', {
      query: { cursor: undefined },
    });
    expect(page.body.data).toHaveLength(2);
    const missing = await catchError(tenantSvc.request('GET', '/v1/no-such-route'));
    expect(missing).toBeInstanceOf(NotFoundError);
  });

  it("downloads a report's PDF as its bytes", async () => {
    // A server that runs the background jobs, which render the report; a database of its own on
    // PostgreSQL, so that it claims no other file's jobs.
    const jobs = await startIsolatedTestServer({ SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '100' });
    try {
      const tenant = await createTenant(jobs);
      await downloadsPdf(createSvcClient({ baseUrl: jobs.url, apiKey: tenant.token }));
    } finally {
      await jobs.close();
    }
  });
});

/** Renders a report on `svc`'s server and checks that its PDF comes back as the bytes the server stored. */
async function downloadsPdf(svc: SvcClient): Promise<void> {
  const template = (await svc.reporting.types()).data.find((t) => t.requiredInputs.length === 0)?.id;
  expect(template).toBeDefined();
  let report = await svc.reporting.generate({ body: { template: template as string } });
  for (let i = 0; report.status === 'rendering' && i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    report = await svc.reporting.get({ params: { id: report.id } });
  }
  expect(report.status).toBe('ready');
  const pdf = await svc.reporting.export({ params: { id: report.id } });
  if (!(pdf instanceof Uint8Array)) throw new Error(`expected the PDF's bytes, got ${JSON.stringify(pdf)}`);
  // Byte for byte what the server rendered: decoded as text, a PDF's binary part would change.
  expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
  expect(pdf.byteLength).toBe(report.sizeBytes);
  expect(createHash('sha256').update(pdf).digest('hex')).toBe(report.sha256);
}
