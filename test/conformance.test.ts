import {
  declaredResources,
  declaredSettings,
  getWebhookEventType,
  keyField,
  type Resource,
  type Tier,
  type TransitionSpec,
  type ZodType,
} from '@svc/contract';
import { verifyChain } from '@svc/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import {
  collectionOf,
  createCall,
  exampleOf,
  fill,
  makeRecord,
  railsOfResource,
  runSetup,
  tierFor,
  transitionCall,
} from './support/fixtures.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';
import { seeded } from './support/validation-probe.ts';

/**
 * The conformance suite: every resource declared with the kit, walked from its declaration with
 * no per-rail code. A new resource is covered the day it is declared.
 *
 * The embedded pass walks every resource. The PostgreSQL pass runs the same engine under another
 * driver and adapter: it walks the first resource of each rail and a sample of the others that
 * rotates with a printed seed (`SVC_TEST_SEED` repeats it, `SVC_CONFORMANCE_SAMPLE=1` walks all).
 */
const SEED = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);
const SAMPLE = process.env.DATABASE_URL ? Number(process.env.SVC_CONFORMANCE_SAMPLE ?? 0.2) : 1;
let ts: TestServer;
beforeAll(async () => {
  // A database of its own: its tenants subscribe to every event type, and the pending deliveries
  // they leave would otherwise queue ahead of another suite's on a shared PostgreSQL.
  ts = await startIsolatedTestServer();
});
afterAll(() => ts?.close());

type Json = Record<string, any>;

/** The value a filter selects in a record: a dotted path, `field[]` for "the array contains". */
function filterValue(record: Json, field: string): unknown {
  const path = field.endsWith('[]') ? field.slice(0, -2) : field;
  const value = path.split('.').reduce<any>((v, k) => v?.[k], record);
  return field.endsWith('[]') ? (value as unknown[])[0] : value;
}
function matchesFilter(record: Json, field: string, wanted: unknown): boolean {
  const path = field.endsWith('[]') ? field.slice(0, -2) : field;
  const value = path.split('.').reduce<any>((v, k) => v?.[k], record);
  return field.endsWith('[]') ? (value as unknown[]).includes(wanted) : value === wanted;
}

/** The first example of a transition's body schema, through an `.optional()` around it. */
function bodyExample(schema: ZodType): unknown {
  const inner = (schema as ZodType & { unwrap?: () => ZodType }).unwrap?.() ?? schema;
  return (inner.meta() as { examples?: unknown[] } | undefined)?.examples?.[0];
}

/** Every row of a collection, walked by cursor: `r`'s own, or the one at `path` (a nested collection under a parent). */
async function listAll(t: TenantFixture, r: Resource | string, query = '', limit = 2): Promise<Json[]> {
  const path = typeof r === 'string' ? r : r.collectionPath;
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 500; pages++) {
    const q = new URLSearchParams(query);
    q.set('limit', String(limit));
    if (cursor) q.set('cursor', cursor);
    const res = await t.call('GET', `${path}?${q}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.cursor;
    if (!cursor) return out;
  }
  throw new Error('cursor walk did not end');
}

/** The record as it stands: its get, or for a resource without one, its row of the list. */
async function readBack(t: TenantFixture, r: Resource, rec: Json): Promise<unknown> {
  if (r.spec.get !== false) return (await t.call('GET', `${r.collectionPath}/${rec.id}`)).body;
  return (await listAll(t, collectionOf(r, rec), '', 200)).find((x) => x.id === rec.id);
}

async function auditEventsOf(t: TenantFixture, resourceId: string): Promise<Json[]> {
  const res = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 200 } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The whole chain of the tenant verifies with its published keys. */
async function expectChainVerifies(t: TenantFixture) {
  const res = await t.call('GET', '/v1/audit-trail/events?limit=200');
  const events = [...res.body.data].reverse();
  const keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data;
  expect(verifyChain(events, keys, { tenantId: t.tenantId }).valid).toBe(true);
}

/** The outbox row of the event the change emitted, for a tenant subscribed to every type. */
async function emittedEvent(t: TenantFixture, subject: string, type: string) {
  const rows = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, subject, type } });
  expect(rows, `${type} for ${subject}`).toHaveLength(1);
  return rows[0] as { data: unknown };
}

async function subscribedTenant(tier: Tier): Promise<TenantFixture> {
  const t = await createTenant(ts, { tier });
  const sub = await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/svc', eventTypes: ['*'] } });
  expect(sub.status).toBe(201);
  return t;
}

const declared = declaredResources();
const resources = (() => {
  const random = seeded(SEED);
  const rails = new Set<string>();
  return declared.filter((r) => {
    const rail = r.spec.rail as string;
    const first = !rails.has(rail);
    rails.add(rail);
    return first || SAMPLE >= 1 || random() < SAMPLE;
  });
})();
afterAll(() => {
  if (resources.length < declared.length) {
    console.log(
      `conformance walk: seed ${SEED} (SVC_TEST_SEED), ${resources.length} of ${declared.length} resources ` +
        `(the first of each rail, and ${SAMPLE} of the rest: SVC_CONFORMANCE_SAMPLE)`,
    );
  }
});

it('declares resources', () => {
  expect(resources.length).toBeGreaterThan(0);
});

describe.each(resources.map((r) => [r.object, r] as const))('%s', (_object, r) => {
  const { spec } = r;
  const filterKeys = Object.keys(spec.filters ?? {});
  const fieldOf = (key: string) => (spec.filterFields as Record<string, string> | undefined)?.[key] ?? key;
  let t: TenantFixture;
  let other: TenantFixture;
  const made: Json[] = [];
  // The collection that lists the records made: a nested collection's under their one parent.
  let listed = r.collectionPath;

  beforeAll(async () => {
    // Enterprise, unless a rail the records need is closed to it (specialists: specialist only).
    const tier = tierFor(railsOfResource(r));
    t = await subscribedTenant(tier);
    other = await createTenant(ts, { tier });
    await runSetup(other, r);
    // A nested collection's records are made under one parent, which its list then shows.
    const ctx = spec.parent ? await runSetup(t, r) : undefined;
    for (let i = 0; i < 3 && (spec.create || i === 0); i++) made.push(await makeRecord(t, r, {}, ctx));
    listed = collectionOf(r, made[0] as Json);
  });

  it('records have the declared shape, object and id prefix', () => {
    for (const rec of made) {
      expect(spec.record.safeParse(rec).success, JSON.stringify(spec.record.safeParse(rec).error?.issues)).toBe(true);
      expect(rec.object).toBe(r.object);
      expect(rec.id).toMatch(new RegExp(`^${spec.idPrefix}_[0-9A-HJKMNP-TV-Z]{26}$`));
    }
  });

  if (spec.get !== false) {
    it('get returns what create (or the list) returned; an id of another prefix is a 422', async () => {
      const rec = made[0] as Json;
      const res = await t.call('GET', `${r.collectionPath}/${rec.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(rec);
      const wrong = await t.call('GET', `${r.collectionPath}/zz_${String(rec.id).split('_')[1]}`);
      expectEnvelope(wrong, 422, 'validation_failed');
      // A variant's id (a Slack channel's) is 404 on the routes of the other variants of its family.
      for (const sibling of declared.filter((o) => o !== r && o.spec.variant && o.spec.variant.family === spec.variant?.family)) {
        if (sibling.spec.get !== false) expectEnvelope(await t.call('GET', `${sibling.collectionPath}/${rec.id}`), 404, 'not_found');
      }
    });
  }

  it(`list: ${spec.order ?? 'newest'} first, a cursor walk returns every row once`, async () => {
    const all = await listAll(t, listed);
    const ids = all.map((x) => x.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(spec.order === 'oldest' ? sorted : sorted.reverse()).toEqual(ids);
    for (const rec of made) expect(ids).toContain(rec.id);
    const onePage = await t.call('GET', `${listed}?limit=200`);
    expect(onePage.body.data.map((x: Json) => x.id)).toEqual(ids.slice(0, 200));
  });

  it.runIf(filterKeys.length > 0)('list: each declared filter selects only matching rows', async () => {
    const rec = made[0] as Json;
    for (const key of filterKeys) {
      const own = filterValue(rec, fieldOf(key));
      // A field the record leaves null (a run no schedule started): filtered by the filter's example, it is not listed.
      const wanted = own ?? exampleOf((spec.filters as Record<string, ZodType>)[key]);
      expect(
        wanted ?? undefined,
        `filter ${key}: neither the record nor the filter's example has a value at ${fieldOf(key)}`,
      ).toBeDefined();
      const rows = await listAll(t, listed, new URLSearchParams({ [key]: String(wanted) }).toString(), 50);
      if (own === null || own === undefined) expect(rows.map((x) => x.id)).not.toContain(rec.id);
      else expect(rows.map((x) => x.id)).toContain(rec.id);
      for (const row of rows) expect(matchesFilter(row, fieldOf(key), wanted), `${key}=${String(wanted)}`).toBe(true);
    }
  });

  it('another tenant: 404 on the id, and its list never shows the row', async () => {
    const rec = made[0] as Json;
    if (spec.get !== false) expectEnvelope(await other.call('GET', `${r.collectionPath}/${rec.id}`), 404, 'not_found');
    if (spec.parent) {
      // The parent is not theirs: its collection is 404 to them, and a create under it too.
      expectEnvelope(await other.call('GET', listed), 404, 'not_found');
      if (spec.create) {
        const before = (await listAll(t, listed, '', 200)).length;
        const { body } = await createCall(other, r);
        expectEnvelope(await other.call('POST', listed, { body }), 404, 'not_found');
        expect(await listAll(t, listed, '', 200)).toHaveLength(before);
      }
      return;
    }
    const theirs = await listAll(other, r, '', 200);
    expect(theirs.map((x) => x.id)).not.toContain(rec.id);
  });

  const parent = spec.parent;
  if (parent && spec.create) {
    it('nested: a parent that does not exist is 404; one outside the states that admit a create is 409, and nothing is written', async () => {
      const absent = r.collectionPath.replace(':id', `${parent.idPrefix}_01JD3Z8W2M6Q4X9V7K5T1B0N3R`);
      const { body } = await createCall(t, r);
      expectEnvelope(await t.call('GET', absent), 404, 'not_found');
      expectEnvelope(await t.call('POST', absent, { body }), 404, 'not_found');
      const createIn = parent.createIn;
      if (!createIn) return;
      // The parent as its setup step made it, before the steps that bring it into an admitting state.
      const early = await runSetup(t, r, parent.step);
      const made = early.named[parent.step] as Json;
      const state = String(made[createIn.field]);
      // A parent made in an admitting state (a workspace is active from its create) is refused
      // only after a move of its own (archived), which the rail's own tests walk.
      if (createIn.states.includes(state)) return;
      const path = r.collectionPath.replace(':id', String(made.id));
      const refused = expectEnvelope(await t.call('POST', path, { body }), 409, 'conflict');
      expect(refused.message).toContain(state);
      expect((await t.call('GET', path)).body.data).toEqual([]);
    });
  }

  if (spec.create) {
    const action = r.actions.create as string;
    const eventType = (spec.create as { event?: string }).event ?? action;

    it(`create appends exactly one ${action} audit event, and the chain verifies`, async () => {
      const rec = made[0] as Json;
      const events = await auditEventsOf(t, rec.id);
      expect(events.map((e) => e.action)).toEqual([action]);
      expect(events[0]).toMatchObject({ resourceType: r.object, resourceId: rec.id });
      await expectChainVerifies(t);
    });

    it(`create emits ${eventType} with data that validates against the registry`, async () => {
      const def = getWebhookEventType(eventType);
      expect(def, `${eventType} is registered`).toBeDefined();
      const row = await emittedEvent(t, (made[0] as Json).id, eventType);
      expect(def?.data.safeParse(row.data).success).toBe(true);
      const record = made[0] as Json;
      const data = row.data as Json;
      // Data with fields beyond the record (a completion's `principal`, its registered type's) carries
      // the record's fields it names as the record has them; any other data is the record.
      if (Object.keys(data).every((k) => k in record)) expect(data).toEqual(record);
      else
        expect(data).toEqual(
          expect.objectContaining(
            Object.fromEntries(
              Object.keys(record)
                .filter((k) => k in data)
                .map((k) => [k, record[k]]),
            ),
          ),
        );
    });

    it('the same create sent twice at once: each is created or refused in the envelope, never a 500', async () => {
      const { path, body, token } = await createCall(t, r);
      const as = token ? { token } : {};
      const both = await Promise.all([t.call('POST', path, { body, ...as }), t.call('POST', path, { body, ...as })]);
      for (const res of both) {
        if (res.status === 201) expect(spec.record.safeParse(res.body).success).toBe(true);
        else expectEnvelope(res, res.status, res.status === 422 ? 'validation_failed' : 'conflict');
      }
      expect(both.map((x) => x.status).filter((x) => ![201, 409, 422].includes(x))).toEqual([]);
      expect(
        both.some((x) => x.status === 201),
        JSON.stringify(both.map((x) => x.body)),
      ).toBe(true);
    });

    it('an Idempotency-Key replay returns the same response and creates nothing', async () => {
      const key = `conf-${r.object}-${Date.now()}`;
      const { path, body, token } = await createCall(t, r);
      const as = token ? { token } : {};
      const first = await t.call('POST', path, { body, ...as, headers: { 'idempotency-key': key } });
      expect(first.status).toBe(201);
      const collection = collectionOf(r, first.body);
      const before = (await listAll(t, collection, '', 200)).length;
      const again = await t.call('POST', path, { body, ...as, headers: { 'idempotency-key': key } });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await listAll(t, collection, '', 200)).length).toBe(before);
      expect(await auditEventsOf(t, first.body.id)).toHaveLength(1);
    });
  }

  const transitions = Object.entries((spec.transitions ?? {}) as Record<string, TransitionSpec>);
  describe.runIf(transitions.length > 0)('transitions', () => {
    const statusField = spec.statusField as string;
    it.each(transitions)(
      '%s changes the record only in its allowed states (409 naming the state otherwise, nothing changed)',
      async (verb, tr) => {
        const rec = await makeRecord(t, r);
        const id = String(rec.id);
        const { method, path, body: withId } = transitionCall(r, verb, id);
        const action = r.actions[verb] as string;
        let current = rec;
        // A transition with a body of its own is sent its example; the others the optional reason; a DELETE nothing.
        const own = tr.body ? (bodyExample(tr.body) ?? {}) : undefined;
        const deletes = method === 'DELETE';
        const sent = deletes ? undefined : (own ?? { reason: 'conformance' });
        const empty = deletes ? undefined : (own ?? {});
        const edit = tr.to === undefined;
        if (tr.from.includes(String(rec[statusField]))) {
          const auditBefore = (await auditEventsOf(t, id)).length;
          const moved = await t.call(method, path, { body: withId(sent) });
          if (moved.status !== 200 && tr.stateful) {
            // The example names a stage, a caller or a value this record does not fit: refused in
            // the envelope, and nothing changed.
            expectEnvelope(moved, moved.status === 422 ? 422 : 409, moved.status === 422 ? 'validation_failed' : 'conflict');
            expect(await readBack(t, r, rec)).toEqual(rec);
            expect(await auditEventsOf(t, id)).toHaveLength(auditBefore);
            return;
          }
          expect(moved.status, JSON.stringify(moved.body)).toBe(200);
          expect(moved.body[statusField]).toBe(edit ? rec[statusField] : tr.to);
          expect(spec.record.safeParse(moved.body).success).toBe(true);
          const events = await auditEventsOf(t, id);
          expect(events).toHaveLength(auditBefore + 1);
          expect(events.at(0)).toMatchObject({
            action,
            data: edit ? {} : { from: rec[statusField], to: tr.to, ...(own || deletes ? {} : { reason: 'conformance' }) },
          });
          const def = getWebhookEventType(action);
          expect(def, `${action} is registered`).toBeDefined();
          const row = await emittedEvent(t, id, action);
          expect(def?.data.safeParse(row.data).success).toBe(true);
          current = moved.body;
        }
        if (edit && tr.from.includes(String(current[statusField]))) {
          // An edit keeps the state: move the record out of the edit's states by another
          // transition of the resource (a disclosure closed), when one leads there.
          const away = transitions.find(
            ([, o]) => o.to !== undefined && !o.stateful && o.from.includes(String(current[statusField])) && !tr.from.includes(o.to),
          );
          if (away) {
            const call = transitionCall(r, away[0], id);
            const example = away[1].body ? bodyExample(away[1].body) : undefined;
            const moved = await t.call(call.method, call.path, { body: call.method === 'DELETE' ? undefined : call.body(example ?? {}) });
            if (moved.status === 200) current = moved.body;
          }
        }
        if (!tr.from.includes(String(current[statusField]))) {
          const auditBefore = (await auditEventsOf(t, id)).length;
          const refused = await t.call(method, path, { body: withId(empty) });
          const env = expectEnvelope(refused, 409, 'conflict');
          expect(env.message).toContain(String(current[statusField]));
          expect(await readBack(t, r, rec)).toEqual(current);
          expect(await auditEventsOf(t, id)).toHaveLength(auditBefore);
        }
        expectEnvelope(await other.call(method, path, { body: withId(empty) }), 404, 'not_found');
        const absent = transitionCall(r, verb, `${spec.idPrefix}_01JD3Z8W2M6Q4X9V7K5T1B0N3R`);
        expectEnvelope(await t.call(absent.method, absent.path, { body: absent.body(empty) }), 404, 'not_found');
      },
    );
  });
});

/**
 * The setting kit's records (platform/setting.ts), walked from their declarations: one per tenant,
 * per calling key or per path parameter, read before and after a `PUT`, audited and emitted, and
 * never seen by another tenant or another key.
 */
describe.each(declaredSettings().map((s) => [s.object, s] as const))('%s (setting)', (_object, s) => {
  const { spec } = s;
  const param = spec.key && 'param' in spec.key ? spec.key : undefined;
  const field = keyField(spec);
  // A fresh key per test; a parameter of a few values (a provider) takes its first.
  const options = (param?.schema as { options?: readonly string[] } | undefined)?.options;
  const keyValue = () => options?.[0] ?? `sys_conformance_${Math.random().toString(36).slice(2, 10)}`;
  const pathOf = (key: string) => (param ? s.path.replace(`:${param.param}`, encodeURIComponent(key)) : s.path);
  const body = (): unknown =>
    fill(spec.fixture ?? exampleOf(spec.body), {
      named: {},
      unique: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    });
  let t: TenantFixture;

  beforeAll(async () => {
    t = await subscribedTenant(tierFor([spec.rail]));
  });

  it('a GET before any PUT answers the defaults, or 404 in the envelope', async () => {
    const key = keyValue();
    const res = await t.call('GET', pathOf(key));
    if (spec.unset === 'not_found') {
      expectEnvelope(res, 404, 'not_found');
      return;
    }
    expect(res.status).toBe(200);
    expect(spec.record.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ ...spec.unset.defaults, object: s.object, updatedAt: null });
  });

  it('a PUT replaces the record: the GET reads it back, the list shows it, the change is audited (and emitted)', async () => {
    const key = keyValue();
    const first = await t.call('PUT', pathOf(key), { body: body() });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(spec.record.safeParse(first.body).success, JSON.stringify(first.body)).toBe(true);
    expect(first.body.object).toBe(s.object);
    if (param && field) expect(first.body[field]).toBe(key);
    const again = await t.call('PUT', pathOf(key), { body: body() });
    expect(again.status).toBe(200);
    // Always forward: the second PUT's clock is after the first's.
    expect(Date.parse(again.body.updatedAt)).toBeGreaterThan(Date.parse(first.body.updatedAt));
    expect((await t.call('GET', pathOf(key))).body).toEqual(again.body);
    if (spec.list) {
      const listed = await t.call('GET', `${s.path.slice(0, s.path.lastIndexOf('/:'))}?limit=200`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.filter((x: Json) => field && x[field] === key)).toEqual([again.body]);
    }
    const audited = await t.call('POST', '/v1/audit-trail/query', { body: { action: s.action, limit: 200 } });
    expect(audited.status).toBe(200);
    const mine = audited.body.data.filter((e: Json) => e.action === s.action);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const events = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, type: s.action } });
    // Emitted when the setting registers its event type; a setting without one emits nothing.
    if (s.events.length > 0) {
      expect(events.map((e) => e.data)).toContainEqual(again.body);
      expect(getWebhookEventType(s.action)).toBeDefined();
    } else expect(events).toEqual([]);
    await expectChainVerifies(t);
  });

  it('another tenant, and for a setting of the calling key another key, never sees it', async () => {
    const key = keyValue();
    expect((await t.call('PUT', pathOf(key), { body: body() })).status).toBe(200);
    const other = await createTenant(ts, { tier: tierFor([spec.rail]) });
    const theirs = await other.call('GET', pathOf(key));
    if (spec.unset === 'not_found') expectEnvelope(theirs, 404, 'not_found');
    else expect(theirs.body.updatedAt).toBeNull();
    if (spec.key && 'caller' in spec.key) {
      const token = await t.key('admin');
      const ownKey = await t.call('GET', pathOf(key), { token });
      expect(ownKey.status).toBe(200);
      expect(ownKey.body.updatedAt).toBeNull();
    }
  });
});
