import {
  collectionPathFor,
  contract,
  declaredResources,
  type FlatRoute,
  flattenRoutes,
  getRail,
  isRail,
  type Resource,
  railForPath,
  resourceOfMeta,
  TIERS,
  type Tier,
  tierAdmits,
  type ZodType,
} from '@svc/contract';
import { call, createTenant, type TenantFixture, type TenantOptions } from './api.ts';
import type { TestServer } from './server.ts';

/**
 * Fixtures derived from the contract's metadata, for the suites that walk every route: the
 * example bodies of the schemas, the setup calls a resource declares, and the records whose ids
 * fill a route's path. Nothing here names a rail; a route it cannot fill is an error, never a
 * dummy id.
 */

type Json = Record<string, unknown>;

export const allRoutes: readonly FlatRoute[] = flattenRoutes(contract);

/** The first example of a schema (`.meta({ examples })`). */
export function exampleOf(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || !('safeParse' in schema)) return undefined;
  let s = schema as ZodType & { unwrap?: () => ZodType };
  // `X.optional()` keeps the examples on X.
  while (s.meta()?.examples === undefined && typeof s.unwrap === 'function') s = s.unwrap();
  return (s.meta()?.examples as unknown[] | undefined)?.[0];
}

/** The body a route is called with: its schema's example, `{}` for an optional body without one. */
export function exampleBody(route: FlatRoute['route']): unknown {
  if (!('body' in route) || !route.body || typeof route.body !== 'object' || !('safeParse' in route.body)) return undefined;
  return exampleOf(route.body) ?? {};
}

/** Replaces the example's tenant ids by the caller's, so an example body names a real tenant. */
function forTenant(value: unknown, tenantId: string): unknown {
  if (typeof value === 'string') return /^ten_[0-9A-HJKMNP-TV-Z]{26}$/.test(value) ? tenantId : value;
  if (Array.isArray(value)) return value.map((v) => forTenant(v, tenantId));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forTenant(v, tenantId)]));
  }
  return value;
}

/** What a resource's setup produced: the responses of its named steps, and the record's unique token. */
export interface SetupContext {
  named: Record<string, Json>;
  unique: string;
}

let uniqueCounter = 0;
const freshToken = () => `${Date.now().toString(36)}${(uniqueCounter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * A fixture with its placeholders filled: a string that is exactly `{{<as>.<field>}}` becomes that
 * field of the named step's response (any type); `{{unique}}` inside a string becomes the token.
 */
export function fill(value: unknown, ctx: SetupContext): unknown {
  if (typeof value === 'string') {
    const ref = /^\{\{([a-zA-Z0-9_]+)\.([a-zA-Z0-9_]+)\}\}$/.exec(value);
    if (ref) {
      const step = ctx.named[ref[1] as string];
      if (!step) throw new Error(`fixture names setup step ${ref[1]}, which does not exist or has not run`);
      return step[ref[2] as string];
    }
    return value.replaceAll('{{unique}}', ctx.unique);
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, ctx));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, ctx)]));
  return value;
}

/** A setup step's path with each `{{<as>.<field>}}` replaced by that field of the named step's response. */
export function fillPathOf(path: string, ctx: SetupContext): string {
  return path.replace(/\{\{([a-zA-Z0-9_]+)\.([a-zA-Z0-9_]+)\}\}/g, (_m, as: string, field: string) => {
    const value = ctx.named[as]?.[field];
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`setup path ${path}: step ${as} gave no ${field}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Runs the calls a resource declares before its example is valid (activating a framework, ...);
 * with `until`, only up to the step of that name (a parent as it is first made).
 */
export async function runSetup(t: TenantFixture, resource: Resource, until?: string): Promise<SetupContext> {
  const ctx: SetupContext = { named: {}, unique: freshToken() };
  const peerSteps = (resource.spec.setup ?? []).filter((s) => s.tenant === 'peer');
  const peerTier = peerSteps.length > 0 ? tierFor(peerSteps.map((s) => railForPath(s.path)?.id ?? resource.spec.rail)) : undefined;
  for (const step of resource.spec.setup ?? []) {
    const path = fillPathOf(step.path, ctx);
    const by = step.tenant === 'peer' && peerTier ? await t.peer(peerTier) : t;
    const res = await by.call(step.method, path, { body: fill(step.body, ctx) });
    if (res.status >= 300) throw new Error(`setup ${step.method} ${path} of ${resource.object}: ${res.status} ${JSON.stringify(res.body)}`);
    if (step.as) ctx.named[step.as] = res.body as Json;
    if (until !== undefined && step.as === until) return ctx;
  }
  if (until !== undefined) throw new Error(`${resource.object}: no setup step is named ${until}`);
  return ctx;
}

/**
 * The id of the parent a nested collection's records are made under: the response of the setup
 * step the declaration names (`parent.step`).
 */
export function parentIdOf(resource: Resource, ctx: SetupContext): string | undefined {
  const parent = resource.spec.parent;
  if (!parent) return undefined;
  const id = ctx.named[parent.step]?.id;
  if (typeof id !== 'string') throw new Error(`${resource.object}: setup step ${parent.step} gave no parent id`);
  return id;
}

/** The collection's path for a setup: a nested collection's under the parent the setup made. */
export function collectionUnder(resource: Resource, ctx: SetupContext): string {
  const parentId = parentIdOf(resource, ctx);
  return parentId === undefined ? resource.collectionPath : resource.collectionPath.replace(':id', encodeURIComponent(parentId));
}

/**
 * How a new record is created: its path (a nested collection's under the parent of the setup) and
 * the resource's fixture (or its example), after a fresh setup unless `ctx` is one already run.
 */
export async function createCall(
  t: TenantFixture,
  resource: Resource,
  ctx?: SetupContext,
): Promise<{ path: string; body: unknown; token?: string }> {
  const setup = ctx ?? (await runSetup(t, resource));
  const parentId = parentIdOf(resource, setup);
  const path = parentId === undefined ? resource.createPath : resource.createPath.replace(':id', encodeURIComponent(parentId));
  // A create made by a person (a sign-off) is sent with a key bound to the person the setup made.
  const person = resource.spec.create?.person;
  return {
    path,
    body: fill(resource.spec.create?.fixture ?? exampleOf(resource.spec.create?.body), ctx ? { ...setup, unique: freshToken() } : setup),
    ...(person ? { token: await t.personKey(String(fill(person.fixture, setup))) } : {}),
  };
}

/** The collection that lists a record (a nested collection's under the record's parent). */
export const collectionOf = collectionPathFor;

/**
 * How a change of the resource (a transition or an edit) is called on the record `id`: its route's
 * method and path, and `body(sent)`: what to send, with the id put in the body for a change that
 * names its record there (`reportId` of `POST /triage`).
 */
export function transitionCall(
  resource: Resource,
  verb: string,
  id: string,
): { method: 'POST' | 'PATCH' | 'DELETE'; path: string; body: (sent: unknown) => unknown } {
  const route = (resource.routes as Record<string, { method: 'POST' | 'PATCH' | 'DELETE'; path: string }>)[verb];
  if (!route) throw new Error(`${resource.object} has no route ${verb}`);
  // The rail's base path: the collection's without its own segment (none for a rail's own records, `''`).
  const base = resource.spec.path ? resource.collectionPath.slice(0, -(resource.spec.path.length + 1)) : resource.collectionPath;
  const idField = resource.spec.transitions?.[verb]?.idField;
  return {
    method: route.method,
    // A group's routes (webhooks) are declared with their full paths.
    path: `${route.path.startsWith('/v1/') ? '' : base}${route.path.replace(':id', id)}`,
    body: (sent) => (idField ? { ...((sent as Record<string, unknown> | undefined) ?? {}), [idField]: id } : sent),
  };
}

/**
 * A new record of the resource: created from its fixture or example, or the newest one the setup
 * brought. With `ctx`, under that setup (several records of a nested collection under one parent).
 */
export async function makeRecord(
  t: TenantFixture,
  resource: Resource,
  headers: Record<string, string> = {},
  ctx?: SetupContext,
): Promise<Json> {
  if (resource.spec.create) {
    const { path, body, token } = await createCall(t, resource, ctx);
    const res = await t.call('POST', path, { body, headers, ...(token ? { token } : {}) });
    if (res.status !== 201) throw new Error(`create ${resource.object} from its fixture: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }
  const setup = ctx ?? (await runSetup(t, resource));
  const res = await t.call('GET', `${collectionUnder(resource, setup)}?limit=1`);
  const first = res.body?.data?.[0] as Json | undefined;
  if (!first) throw new Error(`${resource.object} has no create route and its setup brings no record`);
  return first;
}

const PREFIXED = /^([a-z]{2,5})_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The kit resource whose records have ids of `prefix`. Of variants sharing it (Slack and Teams
 * channels), only the one whose collection `near` is under: a route under the email channels,
 * declared by hand, takes a channel from the route that creates them.
 */
function resourceOfPrefix(prefix: string, near: string): Resource | undefined {
  return declaredResources().find(
    (r) => r.spec.idPrefix === prefix && (!r.spec.variant || near === r.collectionPath || near.startsWith(`${r.collectionPath}/`)),
  );
}

/**
 * The route that creates records with ids of `prefix` (its 201 example's id has it); of several
 * (Slack, Teams and email channels share one prefix), the one whose path shares the longest start
 * with `near`.
 */
function creatorOf(prefix: string, near = ''): FlatRoute | undefined {
  const shared = (p: string) => {
    let i = 0;
    while (i < p.length && i < near.length && p[i] === near[i]) i++;
    return i;
  };
  const creators = allRoutes.filter(({ route }) => {
    if (route.method !== 'POST') return false;
    const created = (route.responses as Record<number, { shape?: Record<string, unknown> } | undefined>)[201];
    const example = exampleOf(created?.shape?.id) ?? (exampleOf(created) as Json | undefined)?.id;
    return typeof example === 'string' && example.startsWith(`${prefix}_`);
  });
  return creators.reduce<FlatRoute | undefined>(
    (best, r) => (!best || shared(r.route.path) > shared(best.route.path) ? r : best),
    undefined,
  );
}

/** True when a path parameter of the route is a tenant's record (not a public catalogue id). */
export function takesRecordId({ route, meta }: FlatRoute): boolean {
  return Object.entries(paramSchemas(route)).some(([name, schema]) => {
    const example = exampleOf(schema);
    return (meta.resource !== undefined && name === 'id') || (typeof example === 'string' && PREFIXED.test(example));
  });
}

function paramSchemas(route: FlatRoute['route']): Record<string, unknown> {
  const params = (route as { pathParams?: { shape?: Record<string, unknown> } }).pathParams;
  return params?.shape ?? {};
}

/**
 * A concrete path for a route: each `:param` filled with a record of the owner tenant made for
 * this call (a kit route's resource, or whatever route creates ids of the param's prefix), or,
 * for catalogue ids that are not records (`eu-ai-act`), the parameter's example.
 */
export async function fillPath(ts: TestServer, owner: TenantFixture, { route, meta }: FlatRoute): Promise<FilledPath> {
  let path = route.path;
  let ownsRecord = false;
  let record: Json | undefined;
  for (const [name, schema] of Object.entries(paramSchemas(route))) {
    let value: string | undefined;
    const declared = meta.resource ? resourceOfMeta(meta.resource) : undefined;
    const example = exampleOf(schema);
    const prefix = typeof example === 'string' ? PREFIXED.exec(example)?.[1] : undefined;
    if (declared?.spec.parent && name === 'id') {
      // A nested collection's `:id` is its parent's: the one its setup makes.
      value = parentIdOf(declared, await runSetup(owner, declared));
    } else if (declared && name === 'id') {
      record = await makeRecord(owner, declared);
      value = String(record.id);
    } else if (prefix) {
      const resource = resourceOfPrefix(prefix, route.path);
      if (resource) value = String((await makeRecord(owner, resource)).id);
      else {
        const creator = creatorOf(prefix, route.path);
        if (!creator && route.method === 'GET') {
          // Records no route creates (notifications come from events): a read is asked with the
          // example id, which no tenant has, so every caller gets 404.
          path = path.replace(`:${name}`, encodeURIComponent(String(example)));
          continue;
        }
        if (!creator) throw new Error(`${route.path}: nothing in the contract creates a ${prefix}_ id for :${name}`);
        const token = creator.meta.auth === 'operator' ? ts.operatorToken : owner.token;
        const res = await call(ts.url, 'POST', creator.route.path, { token, body: forTenant(exampleBody(creator.route), owner.tenantId) });
        if (res.status !== 201) throw new Error(`${creator.name} for :${name}: ${res.status} ${JSON.stringify(res.body)}`);
        value = String(res.body.id);
      }
    } else if (typeof example === 'string') {
      value = example;
    }
    ownsRecord ||= value !== example;
    if (value === undefined) throw new Error(`${route.path}: cannot fill :${name} from the contract (no resource, creator or example)`);
    path = path.replace(`:${name}`, encodeURIComponent(value));
  }
  return { path, ownsRecord, ...(record ? { record } : {}) };
}

export interface FilledPath {
  path: string;
  /** True when a parameter is a record of the owner tenant (another tenant must get 404). */
  ownsRecord: boolean;
  /** The record made for the `id` of a kit route, as created. */
  record?: Json;
}

// ---------------------------------------------------------------- the tier a walk needs

/** The rails a resource's records need: its own and those of the calls its setup makes. */
export function railsOfResource(resource: Resource): Set<string> {
  const rails = new Set<string>([resource.spec.rail]);
  for (const step of resource.spec.setup ?? []) {
    // Another tenant's steps need nothing of this one's tier.
    if (step.tenant === 'peer') continue;
    const rail = railForPath(step.path);
    if (rail) rails.add(rail.id);
  }
  return rails;
}

/**
 * The rails a call of the route needs: its own, and those of the records that fill its path (a
 * kit resource with its setup, or the route that creates ids of the parameter's prefix).
 */
export function railsOfRoute({ route, meta }: FlatRoute): Set<string> {
  const rails = new Set<string>(meta.rail ? [meta.rail] : []);
  const add = (more: Iterable<string>) => {
    for (const r of more) rails.add(r);
  };
  for (const [name, schema] of Object.entries(paramSchemas(route))) {
    const declared = meta.resource ? resourceOfMeta(meta.resource) : undefined;
    const example = exampleOf(schema);
    const prefix = typeof example === 'string' ? PREFIXED.exec(example)?.[1] : undefined;
    if (declared && name === 'id') add(railsOfResource(declared));
    else if (prefix) {
      const resource = resourceOfPrefix(prefix, route.path);
      if (resource) add(railsOfResource(resource));
      else {
        const creator = creatorOf(prefix, route.path);
        if (creator?.meta.rail) rails.add(creator.meta.rail);
      }
    }
  }
  return rails;
}

/**
 * The tier to walk with: enterprise unless a rail needed is closed to it (the specialists rail is
 * for the specialist tier, the seed rail for sandbox); then the highest tier every rail admits.
 */
export function tierFor(rails: Iterable<string>): Tier {
  // A group outside the catalogue (webhooks) is open to every tier: it decides nothing.
  const needed = [...rails].filter(isRail).map((id) => getRail(id));
  const fits = (tier: Tier) => needed.every((r) => (r.onlyTiers ? r.onlyTiers.includes(tier) : tierAdmits(tier, r.minTier)));
  const tier = [...TIERS].reverse().find(fits);
  if (!tier) throw new Error(`no tier admits every rail of ${needed.map((r) => r.id).join(', ')}`);
  return tier;
}

/**
 * One tenant per tier, made on first use (or up front with `prepare`, for a suite whose later
 * calls rotate the operator credential that creates tenants).
 */
export function tenantsByTier(ts: TestServer, opts: Omit<TenantOptions, 'tier'> = {}) {
  const made = new Map<Tier, Promise<TenantFixture>>();
  const of = (tier: Tier): Promise<TenantFixture> => {
    let t = made.get(tier);
    if (!t) {
      t = createTenant(ts, { ...opts, tier });
      made.set(tier, t);
    }
    return t;
  };
  return {
    of,
    forRoute: (r: FlatRoute) => of(tierFor(railsOfRoute(r))),
    forResource: (r: Resource) => of(tierFor(railsOfResource(r))),
    prepare: async (routes: readonly FlatRoute[]) => {
      for (const tier of new Set(routes.map((r) => tierFor(railsOfRoute(r))))) await of(tier);
    },
  };
}
