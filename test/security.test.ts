import { permits, RAILS, type RailDefinition, ROLES, type Role, type RouteMeta } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { allRoutes, exampleBody, type FilledPath, fillPath, takesRecordId, tenantsByTier } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/server.ts';
import { seeded } from './support/validation-probe.ts';

/**
 * The shared security suite: every route of the contract, whatever rail it belongs to, is called
 * without a token (it is behind the authentication of the pipeline) and, where it takes a record
 * id, with another tenant's id (404: the handler's own tenant scope). The checks the pipeline
 * decides before any handler from the route's metadata alone (bad, malformed and revoked tokens,
 * another tenant's credential, an operator credential, a role or scopes without the route's
 * permission, a tier below the rail's) run on one route of each (rail, permission) pair, plus a
 * sample of the others that rotates with a printed seed (`SVC_TEST_SEED` repeats it,
 * `SVC_SECURITY_SAMPLE=1` walks them all). The credentials that play the stranger (a revoked key,
 * a sandbox tenant, a key per weak role) are made once and sent to every route.
 */
const SEED = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);
const SAMPLE = Number(process.env.SVC_SECURITY_SAMPLE ?? 0.1);

let ts: TestServer;
/**
 * Owners and intruders of the tier each route is walked with: enterprise, unless a rail the route
 * needs is closed to it (the specialists rail admits the specialist tier only).
 */
let owners: ReturnType<typeof tenantsByTier>;
let intruders: ReturnType<typeof tenantsByTier>;

const routes = allRoutes;
const tenantRoutes = routes.filter((r) => r.meta.auth === 'tenant');
const operatorRoutes = routes.filter((r) => r.meta.auth === 'operator');

/**
 * The tenant routes the pipeline checks are sent to: the first of each (rail, permission) pair, in
 * contract order, and a seeded sample of the rest.
 */
const pipelineWalked = (() => {
  const random = seeded(SEED);
  const groups = new Set<string>();
  const walked = new Set<string>();
  for (const r of tenantRoutes) {
    const group = `${(r.meta as RouteMeta).rail ?? '-'}|${r.meta.permission ?? ''}`;
    if (!groups.has(group)) {
      groups.add(group);
      walked.add(r.name);
    } else if (random() < SAMPLE) walked.add(r.name);
  }
  return walked;
})();

/**
 * The path of each route, its ids filled from the contract's metadata with records of the owner
 * tenant made for that route (a route that deletes or transitions has its own); a route that
 * cannot be filled fails the suite in beforeAll.
 */
const paths = new Map<string, FilledPath>();
const pathOf = (_route: unknown, name: string): string => {
  const filled = paths.get(name);
  if (filled === undefined) throw new Error(`no path for ${name}`);
  return filled.path;
};

/** A key of a tenant that the operator revoked, and a sandbox tenant, shared by every route. */
let revoked: string;
let sandbox: TenantFixture;
/** Keys of each owner with a given role or scopes, made once per (owner, role, scopes). */
const weakKeys = new Map<string, Promise<string>>();
function weakKey(owner: TenantFixture, role: Role, scopes?: string[]): Promise<string> {
  const id = `${owner.tenantId}|${role}|${scopes?.join(',') ?? ''}`;
  let k = weakKeys.get(id);
  if (!k) {
    k = owner.key(role, scopes);
    weakKeys.set(id, k);
  }
  return k;
}

beforeAll(async () => {
  ts = await startTestServer();
  owners = tenantsByTier(ts);
  intruders = tenantsByTier(ts);
  for (const r of routes) paths.set(r.name, await fillPath(ts, await owners.forRoute(r), r));
  const victim = await createTenant(ts);
  const keys = await call(ts.url, 'GET', `/v1/operator/keys?tenantId=${victim.tenantId}`, { token: ts.operatorToken });
  await call(ts.url, 'POST', `/v1/operator/keys/${keys.body.data[0].id}/revoke`, { token: ts.operatorToken });
  revoked = victim.token;
  sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000, monthlyQuota: 100_000_000 });
});
afterAll(() => {
  console.log(
    `security walk: seed ${SEED} (SVC_TEST_SEED), pipeline checks on ${pipelineWalked.size} of ${tenantRoutes.length} tenant routes ` +
      `(one per rail and permission, and ${SAMPLE} of the rest: SVC_SECURITY_SAMPLE)`,
  );
  return ts?.close();
});

describe.each(tenantRoutes.map((r) => [r.name, r] as const))('%s', (name, { route, meta }) => {
  let owner: TenantFixture;
  let intruder: TenantFixture;
  beforeAll(async () => {
    owner = await owners.forRoute({ name, route, meta });
    intruder = await intruders.forRoute({ name, route, meta });
  });
  const send = (token: string | null, headers: Record<string, string> = {}) =>
    call(ts.url, route.method, pathOf(route, name), { token, headers, body: exampleBody(route) });

  it('no token: 401', async () => {
    expectEnvelope(await send(null), 401, 'unauthorized');
  });

  // What the pipeline decides from the route's metadata alone: one route per (rail, permission) and a sample.
  const pipeline = (title: string, check: () => Promise<void>) => {
    if (pipelineWalked.has(name)) it(title, check);
  };

  pipeline('unknown, malformed and revoked tokens: 401', async () => {
    expectEnvelope(await send(`svc_test_${'a'.repeat(32)}`), 401, 'unauthorized');
    expectEnvelope(
      await call(ts.url, route.method, pathOf(route, name), { headers: { authorization: 'Basic Zm9vOmJhcg==' } }),
      401,
      'unauthorized',
    );
    const res = await call(ts.url, route.method, pathOf(route, name), { token: revoked, body: exampleBody(route) });
    expect(expectEnvelope(res, 401, 'unauthorized').message).toContain('revoked');
  });

  pipeline("another tenant's credential with this tenant's header: 403", async () => {
    expectEnvelope(await send(intruder.token, { 'x-iof-tenant': owner.tenantId }), 403, 'forbidden');
  });

  pipeline('an operator credential on a tenant route: 403', async () => {
    expectEnvelope(await send(ts.operatorToken), 403, 'forbidden');
  });

  // Catalogue ids (frameworks) are public; a record id is the owner's.
  if (takesRecordId({ name, route, meta })) {
    it("another tenant's id: 404, never 403", async () => {
      expectEnvelope(await send(intruder.token), 404, 'not_found');
      // A record no route makes (a notification) was asked by an id nobody has: 404 is all there is.
      if (!paths.get(name)?.ownsRecord) return;
      const mine = await send(owner.token);
      // A create under the owner's record (a team inside a workspace) answers 201. A transition
      // from a state a new record is not in may answer the owner 409; what matters here is the
      // intruder's 404.
      const ok = 200 in route.responses ? 200 : 201;
      const tr = meta.resource?.op === 'transition' || meta.resource?.op === 'edit' ? meta.resource : undefined;
      const initial = tr?.statusField ? paths.get(name)?.record?.[tr.statusField] : undefined;
      const may409 = meta.stateful === true || (tr !== undefined && !tr.from?.includes(String(initial)));
      // A stateful route's example may not fit the record's state or callers (the approver it
      // names is not a person of this tenant): 409 or 422, but never 403 or 404 for the owner.
      const allowed = meta.stateful === true ? [ok, 409, 422] : may409 ? [ok, 409] : [ok];
      expect(allowed, JSON.stringify(mine.body)).toContain(mine.status);
    });
  }

  const weakRole = ROLES.find((r) => !permits(r, [], meta.permission ?? ''));
  pipeline(`a role or scope without ${meta.permission}: 403 naming it`, async () => {
    const token = weakRole ? await weakKey(owner, weakRole as Role) : await weakKey(owner, 'owner', ['nothing:read']);
    const res = await send(token);
    const env = expectEnvelope(res, 403, 'forbidden');
    expect(env.details).toEqual([{ field: 'permission', issue: meta.permission }]);
  });

  // Routes outside the catalogue (the webhooks group) have no rail: every tier is admitted.
  pipeline('tier below the rail minimum: 403 (or admitted when the rail is open to every tier)', async () => {
    if (!(meta as RouteMeta).rail) {
      const res = await call(ts.url, route.method, pathOf(route, name), { token: sandbox.token, body: exampleBody(route) });
      expect(res.status).not.toBe(403);
      return;
    }
    const rail = RAILS.find((r) => r.id === (meta as RouteMeta).rail);
    expect(rail).toBeDefined();
    const res = await call(ts.url, route.method, pathOf(route, name), { token: sandbox.token, body: exampleBody(route) });
    if (rail?.minTier === 'sandbox') expect(res.status).not.toBe(403);
    else expectEnvelope(res, 403, 'forbidden');
  });
});

describe.each(operatorRoutes.map((r) => [r.name, r] as const))('%s', (name, { route }) => {
  it('no token: 401; a tenant key, even an owner one: 403', async () => {
    expectEnvelope(await call(ts.url, route.method, pathOf(route, name), { body: exampleBody(route) }), 401, 'unauthorized');
    expectEnvelope(
      await call(ts.url, route.method, pathOf(route, name), { token: (await owners.of('enterprise')).token, body: exampleBody(route) }),
      403,
      'forbidden',
    );
  });
});

describe('tier gate from the catalogue, for all 40 rails', () => {
  it('has 40 rails', () => {
    expect(RAILS).toHaveLength(40);
  });

  it.each(RAILS.map((r) => [r.id, r] as const))('%s', async (_id, rail) => {
    const path = `${rail.basePath}/${rail.subResources[0]}`;
    const enterprise = await owners.of('enterprise');
    const low = await call(ts.url, 'GET', path, { token: sandbox.token });
    const high = await call(ts.url, 'GET', path, { token: enterprise.token });
    if (rail.minTier === 'sandbox') expect(low.status).not.toBe(403);
    else expect(expectEnvelope(low, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: rail.minTier }]);
    if ((rail as RailDefinition).onlyTiers) expectEnvelope(high, 403, 'forbidden');
    else expect(high.status).not.toBe(403);
  });
});

describe('public routes', () => {
  it('health and the OpenAPI document need no token', async () => {
    expect((await call(ts.url, 'GET', '/v1/health')).status).toBe(200);
    expect((await call(ts.url, 'GET', '/v1/openapi.json')).status).toBe(200);
  });
});
