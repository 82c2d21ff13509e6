import { ERROR_CODES, type FlatRoute } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, type TenantFixture } from './support/api.ts';
import { allRoutes, exampleBody, type FilledPath, fillPath, tenantsByTier } from './support/fixtures.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';
import { probe, seeded } from './support/validation-probe.ts';

const SEED = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);
// Requests refused before the handler never reach the database: their sample is sent on the
// embedded pass only; on PostgreSQL every request that reaches a handler is sent, as on both.
const SAMPLE = Number(process.env.SVC_HOSTILE_SAMPLE ?? (process.env.DATABASE_URL ? 0 : 0.02));
const sampled = seeded(SEED);
const counts = { reaching: 0, sampledSent: 0, notSent: 0 };

/**
 * Hostile values through every operation of the contract: each body field, query parameter and
 * path parameter in turn gets values a fuzzer would send (NUL, lone surrogates, 100 kB strings,
 * integers past 32 and 53 bits, -1, 1e308, empty arrays, deep objects), and each body is also
 * replaced by JSON that is not an object. Any 5xx, and any error outside the envelope, fails the
 * route. Nothing here names a rail: a route added to the contract is walked the day it exists.
 *
 * Every hostile request is first put through the checks the server runs before a handler (the
 * input guard and the route's schemas, in process): each one they let through, which is what can
 * reach a handler and the database, is sent over HTTP; of those they refuse, a sample that
 * rotates with a printed seed (`SVC_TEST_SEED` repeats it, `SVC_HOSTILE_SAMPLE=1` sends them all)
 * is sent on the embedded pass, to keep checking that a refusal is rendered in the envelope.
 */
let ts: TestServer;
let owner: TenantFixture;
/**
 * The tenant each route is called as: the owner (enterprise) unless a rail the route needs is closed
 * to it (seed: sandbox, specialists: specialist); all made before the operator routes rotate the
 * credential that creates tenants.
 */
const callers = new Map<string, TenantFixture>();
const paths = new Map<string, FilledPath>();

beforeAll(async () => {
  // It calls every operator route, some of which reach every tenant of the database.
  ts = await startIsolatedTestServer();
  const tenants = tenantsByTier(ts, { rateLimitPerSecond: 100_000, monthlyQuota: 100_000_000 });
  owner = await tenants.of('enterprise');
  for (const r of allRoutes) {
    const caller = await tenants.forRoute(r);
    callers.set(r.name, caller);
    paths.set(r.name, await fillPath(ts, caller, r));
  }
});
afterAll(async () => {
  console.log(
    `hostile walk: seed ${SEED} (SVC_TEST_SEED), ${counts.reaching} requests that give a handler new input sent; ` +
      `of ${counts.sampledSent + counts.notSent} refused before the handler or equal to the plain request once validated, ` +
      `${counts.sampledSent} sent (sample ${SAMPLE})`,
  );
  await ts?.close();
});

function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** Values for a JSON body field (any type: a schema must refuse the wrong ones cleanly). */
const BODY_VALUES: readonly [string, unknown][] = [
  ['NUL', 'a\u0000b'],
  ['lone surrogate', 'a\ud800b'],
  ['100 kB string', 'x'.repeat(100_000)],
  ['2^31', 2 ** 31],
  ['2^53', 2 ** 53],
  ['-1', -1],
  ['1e308', 1e308],
  ['empty array', []],
  ['array of NUL', ['\u0000']],
  ['deep object', deep(40)],
  ['null', null],
  ['empty string', ''],
];

/** Whole bodies that are valid JSON but not the object a route takes. */
const WHOLE_BODIES: readonly [string, string][] = [
  ['a bare string', '"AAA"'],
  ['null', 'null'],
  ['a number', '12'],
  ['an array', '[]'],
  ['true', 'true'],
  ['deep nesting', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
];

/**
 * Values for a query or path parameter, already percent-encoded as they travel. A URL is bounded
 * by the server's header limit, so the long value here is 8 kB rather than 100.
 */
const URL_VALUES: readonly [string, string][] = [
  ['NUL', 'a%00b'],
  ['lone surrogate (CESU-8 bytes)', 'a%ED%A0%80b'],
  ['invalid UTF-8', '%FF%FE'],
  ['broken escape', '%E0%A4%A'],
  ['8 kB string', 'x'.repeat(8_000)],
  ['2^31', String(2 ** 31)],
  ['2^53', String(2 ** 53)],
  ['-1', '-1'],
  ['1e308', '1e308'],
  ['empty', ''],
];

function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix.length ? [prefix] : [];
  const entries = Object.entries(value as Record<string, unknown>);
  const own = prefix.length ? [prefix] : [];
  return [...own, ...entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]))];
}

function withValue(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[path[path.length - 1] as string] = value;
  return copy;
}

function tokenFor({ name, meta }: FlatRoute): string | null {
  if (meta.auth === 'operator') return ts.operatorToken;
  if (meta.auth === 'tenant') return (callers.get(name) ?? owner).token;
  return null;
}

const CODES = new Set<string>(ERROR_CODES);

/** Why a response is a defect, or undefined when it is not. */
function defect(res: CallResult): string | undefined {
  if (res.status >= 500) return `status ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`;
  if (res.status < 400) return undefined;
  const b = res.body;
  if (!b || typeof b !== 'object' || !CODES.has(b.error) || typeof b.message !== 'string' || typeof b.correlation_id !== 'string') {
    return `status ${res.status} outside the error envelope: ${JSON.stringify(b).slice(0, 300)}`;
  }
  return undefined;
}

const UNPARSABLE = Symbol('unparsable');
/** A body as the server parses it from the wire: a raw string is JSON text, anything else is serialised. */
function wireOf(body: unknown): unknown {
  return typeof body === 'string' ? safeJson(body) : body === undefined ? undefined : JSON.parse(JSON.stringify(body));
}
function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return UNPARSABLE;
  }
}

/** The path parameters of a filled path, by the route's pattern. */
function paramsOf(pattern: string, filled: string): Record<string, string> {
  const names = pattern.match(/:[A-Za-z]+/g) ?? [];
  const re = new RegExp(`^${pattern.split('?')[0]?.replace(/:[A-Za-z]+/g, '([^/?]+)')}(?:\\?|$)`);
  const m = re.exec(filled);
  return Object.fromEntries(names.map((n, i) => [n.slice(1), decodeURIComponent(m?.[i + 1] ?? '')]));
}

function querySchemaKeys(route: FlatRoute['route']): string[] {
  const query = (route as { query?: { shape?: Record<string, unknown> } }).query;
  return Object.keys(query?.shape ?? {});
}

describe.each(allRoutes.map((r) => [r.name, r] as const))('%s', (name, r) => {
  it('answers every hostile value in a body field, query or path parameter with a 2xx or an enveloped 4xx', async () => {
    const { route } = r;
    const filled = paths.get(name);
    if (!filled) throw new Error(`no path for ${name}`);
    const token = tokenFor(r);
    const failures: string[] = [];
    const filledParams = paramsOf(route.path, filled.path);
    // `params` undefined: a path segment that does not decode, which the router refuses for any route.
    const plain = { params: filledParams, url: filled.path, body: wireOf(exampleBody(route)) };
    const send = async (label: string, path: string, body?: unknown, params: Record<string, string> | undefined = filledParams) => {
      const wire = wireOf(body);
      const known = wire === UNPARSABLE || params === undefined || probe(route, { params, url: path, body: wire }, plain) !== 'reaches';
      if (known && sampled() >= SAMPLE) {
        counts.notSent++;
        return;
      }
      if (known) counts.sampledSent++;
      else {
        counts.reaching++;
        if (process.env.SVC_HOSTILE_DEBUG) console.log(`sent ${name} ${label}`);
      }
      const res = await call(ts.url, route.method, path, { token, body });
      const why = defect(res);
      if (why) failures.push(`${label}: ${why}`);
    };

    const example = exampleBody(route);
    const takesBody = example !== undefined;
    if (takesBody) {
      for (const field of leafPaths(example)) {
        for (const [label, value] of BODY_VALUES) {
          await send(`body ${field.join('.')} = ${label}`, filled.path, withValue(example, field, value));
        }
      }
      for (const [label, value] of BODY_VALUES) await send(`body field "x" = ${label}`, filled.path, { x: value });
      for (const [label, raw] of WHOLE_BODIES) await send(`whole body ${label}`, filled.path, raw);
    }

    const sep = filled.path.includes('?') ? '&' : '?';
    for (const key of querySchemaKeys(route)) {
      for (const [label, value] of URL_VALUES) {
        await send(`query ${key} = ${label}`, `${filled.path}${sep}${key}=${value}`, example);
      }
      await send(`query ${key} twice`, `${filled.path}${sep}${key}=1&${key}=2`, example);
    }
    for (const [label, value] of URL_VALUES) await send(`unknown query = ${label}`, `${filled.path}${sep}zz=${value}`, example);

    for (const param of route.path.match(/:[A-Za-z]+/g) ?? []) {
      for (const [label, value] of URL_VALUES) {
        if (value === '') continue; // an empty segment is another route (or none)
        const params = Object.fromEntries((route.path.match(/:[A-Za-z]+/g) ?? []).map((p) => [p.slice(1), 'x']));
        let decoded: string | undefined;
        try {
          decoded = decodeURIComponent(value);
        } catch {}
        const path = route.path.replace(param, value).replace(/:[A-Za-z]+/g, 'x');
        await send(`path ${param} = ${label}`, path, example, decoded === undefined ? undefined : { ...params, [param.slice(1)]: decoded });
      }
    }

    expect(failures).toEqual([]);
  });
});

describe('the probes that once reached the database', () => {
  const POSTS = allRoutes.filter((r) => r.route.method === 'POST' && r.meta.auth === 'tenant');

  it('an Idempotency-Key that is empty, too long or not visible ASCII is a 400 on every POST, mutating or not', async () => {
    for (const r of POSTS) {
      const path = paths.get(r.name)?.path as string;
      const caller = callers.get(r.name) ?? owner;
      for (const key of ['', 'k'.repeat(256), 'tab\there']) {
        const res = await call(ts.url, 'POST', path, {
          token: caller.token,
          headers: { 'idempotency-key': key },
          body: exampleBody(r.route),
        });
        expect([r.name, res.status, res.body?.error, res.body?.details?.[0]?.field]).toEqual([
          r.name,
          400,
          'bad_request',
          'Idempotency-Key',
        ]);
      }
    }
  });

  it('valid JSON that is not an object is named as such; malformed JSON as malformed', async () => {
    const bare = await owner.call('POST', '/v1/compliance/assessments', { body: '"AAA"' });
    expect([bare.status, bare.body.message, bare.body.details]).toEqual([
      400,
      'The request body must be a JSON object.',
      [{ field: 'body', issue: 'invalid_type' }],
    ]);
    const broken = await owner.call('POST', '/v1/compliance/assessments', { body: '{"type":' });
    expect([broken.status, broken.body.message]).toEqual([400, 'The request body is not valid JSON.']);
  });

  it('a NUL in a stored string is a 422 naming the field, and nothing is written', async () => {
    const before = await owner.call('GET', '/v1/compliance/evidence?limit=200');
    const res = await owner.call('POST', '/v1/compliance/evidence', { body: { title: 'a\u0000b', kind: 'policy' } });
    expect([res.status, res.body.error, res.body.details?.[0]?.field]).toEqual([422, 'validation_failed', 'title']);
    const after = await owner.call('GET', '/v1/compliance/evidence?limit=200');
    expect(after.body.data.length).toBe(before.body.data.length);
    const path = await owner.call('GET', '/v1/compliance/assessments/asm_%00x');
    expect([path.status, path.body.details?.[0]?.field]).toEqual([422, 'id']);
  });

  it('evidence sizes past 2^31 are stored and read back exactly', async () => {
    const create = allRoutes.find((r) => r.name === 'compliance.evidence.create') as FlatRoute;
    const body = { ...(exampleBody(create.route) as object), sizeBytes: 6_227_020_799 };
    const res = await owner.call('POST', '/v1/compliance/evidence', { body });
    expect([res.status, res.body.sizeBytes]).toEqual([201, 6_227_020_799]);
    const got = await owner.call('GET', `/v1/compliance/evidence/${res.body.id}`);
    expect(got.body.sizeBytes).toBe(6_227_020_799);
  });

  it('audit sequence bounds past the column are a 422, not an overflow', async () => {
    for (const path of ['/v1/audit-trail/export', '/v1/audit-trail/replay']) {
      const res = await owner.call('POST', path, { body: { fromSeq: 1, toSeq: 2_147_483_649 } });
      expect([path, res.status, res.body.details?.[0]?.field]).toEqual([path, 422, 'toSeq']);
    }
  });

  it('a URL longer than the header limit is answered in the envelope', async () => {
    const res = await owner.call('GET', `/v1/compliance/obligations?framework=${'x'.repeat(100_000)}`);
    expect(res.status).toBeLessThan(500);
    expect(defect(res)).toBeUndefined();
  });
});
