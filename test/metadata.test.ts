import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Label {
  object: string;
  id: string;
  resourceType: string;
  resourceId: string;
  key: string;
  value: string;
  createdBy: string;
  createdAt: string;
}
interface Facets {
  resourceType: string | null;
  total: number;
  resources: number;
  keys: { key: string; count: number; resources: number; values: { value: string; count: number }[] }[];
  resourceTypes: { resourceType: string; count: number }[];
}
interface Item {
  resourceType: string;
  resourceId: string;
  labels: { id: string; key: string; value: string }[];
}

let ts: TestServer;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  ts = await startTestServer();
  a = await createTenant(ts);
  b = await createTenant(ts);
});
afterAll(() => ts?.close());

const assessment = async (t: TenantFixture, systemId = 'sys_credit_scoring_v2') => {
  const res = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId, jurisdiction: 'eu/de' } });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const label = (t: TenantFixture, resourceType: string, resourceId: string, key: string, value: string) =>
  t.call('POST', '/v1/metadata/label', { body: { resourceType, resourceId, key, value } });
const facets = async (t: TenantFixture, query = '') => {
  const res = await t.call('GET', `/v1/metadata/facets${query}`);
  expect(res.status).toBe(200);
  return res.body as Facets;
};
const keyOf = (f: Facets, key: string) => f.keys.find((k) => k.key === key);
const countOf = (f: Facets, key: string, value: string) => keyOf(f, key)?.values.find((v) => v.value === value)?.count ?? 0;

describe('metadata: label', () => {
  it('attaches a label to a record of the tenant, idempotently on the triple', async () => {
    const t = await createTenant(ts);
    const asm = await assessment(t);
    const first = await label(t, 'assessment', asm, 'team', 'ai-governance');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'svc.metadata.label',
      resourceType: 'assessment',
      resourceId: asm,
      key: 'team',
      value: 'ai-governance',
    });
    expect(first.body.id).toMatch(/^lbl_[0-9A-HJKMNP-TV-Z]{26}$/);
    const again = await label(t, 'assessment', asm, 'team', 'ai-governance');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // Another value of the same key is another label.
    const other = await label(t, 'assessment', asm, 'team', 'risk');
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
    const ofRecord = await collectPages<Label>(t, `/v1/metadata/label?resourceType=assessment&resourceId=${asm}`);
    expect(ofRecord.map((l) => l.value).sort()).toEqual(['ai-governance', 'risk']);
  });

  it('labels the tenant itself, framework activations and webhook subscriptions', async () => {
    const t = await createTenant(ts);
    expect((await label(t, 'tenant', t.tenantId, 'environment', 'production')).status).toBe(201);
    const act = await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
    expect((await label(t, 'framework_activation', act.body.id, 'owner', 'legal')).status).toBe(201);
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/x', eventTypes: ['label.*'] },
    });
    expect(sub.status).toBe(201);
    expect((await label(t, 'webhook_subscription', sub.body.id, 'owner', 'platform')).status).toBe(201);
    const obl = (await t.call('GET', '/v1/compliance/obligations?limit=1')).body.data[0].id as string;
    expect((await label(t, 'obligation', obl, 'priority', 'high')).status).toBe(201);
  });

  it("an unknown record, or another tenant's, is 404; an unknown kind or a bad key is 422", async () => {
    const mine = await assessment(a);
    expectEnvelope(await label(b, 'assessment', mine, 'team', 'x'), 404, 'not_found');
    expectEnvelope(await label(a, 'assessment', 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R', 'team', 'x'), 404, 'not_found');
    expectEnvelope(await label(a, 'evidence', mine, 'team', 'x'), 404, 'not_found');
    expectEnvelope(await label(a, 'tenant', b.tenantId, 'team', 'x'), 404, 'not_found');
    const kind = expectEnvelope(await label(a, 'spaceship', mine, 'team', 'x'), 422, 'validation_failed');
    expect(kind.details[0].field).toBe('resourceType');
    expectEnvelope(await label(a, 'assessment', mine, 'bad key!', 'x'), 422, 'validation_failed');
    expectEnvelope(await label(a, 'assessment', mine, 'team', 'a\u0000b'), 422, 'validation_failed');
    expectEnvelope(await label(a, 'assessment', mine, 'team', ''), 422, 'validation_failed');
    expect((await collectPages<Label>(b, '/v1/metadata/label')).length).toBe(0);
  });

  it('removes a label by id (404 for another tenant or twice) and by key with unlabel', async () => {
    const t = await createTenant(ts);
    const asm = await assessment(t);
    const l1 = (await label(t, 'assessment', asm, 'team', 'ai-governance')).body as Label;
    await label(t, 'assessment', asm, 'team', 'risk');
    await label(t, 'assessment', asm, 'stage', 'pilot');
    expectEnvelope(await b.call('DELETE', `/v1/metadata/label/${l1.id}`), 404, 'not_found');
    const removed = await t.call('DELETE', `/v1/metadata/label/${l1.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual(l1);
    expectEnvelope(await t.call('DELETE', `/v1/metadata/label/${l1.id}`), 404, 'not_found');

    const body = { resourceType: 'assessment', resourceId: asm, key: 'team' };
    expectEnvelope(await b.call('POST', '/v1/metadata/label/unlabel', { body }), 404, 'not_found');
    const un = await t.call('POST', '/v1/metadata/label/unlabel', { body });
    expect(un.status).toBe(200);
    expect(un.body.removed.map((l: Label) => `${l.key}=${l.value}`)).toEqual(['team=risk']);
    const none = await t.call('POST', '/v1/metadata/label/unlabel', { body });
    expect(none.body.removed).toEqual([]);
    const left = await collectPages<Label>(t, `/v1/metadata/label?resourceId=${asm}`);
    expect(left.map((l) => `${l.key}=${l.value}`)).toEqual(['stage=pilot']);
  });

  it('writes label.added and label.removed audit events, and emits them as webhooks', async () => {
    const t = await createTenant(ts);
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/labels', eventTypes: ['label.added', 'label.removed'] },
    });
    expect(sub.status).toBe(201);
    const asm = await assessment(t);
    const l = (await label(t, 'assessment', asm, 'team', 'ai-governance')).body as Label;
    await label(t, 'assessment', asm, 'team', 'ai-governance'); // a repeat records nothing
    await t.call('DELETE', `/v1/metadata/label/${l.id}`);
    const res = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: l.id, limit: 200 } });
    expect(res.status).toBe(200);
    const events = res.body.data as { action: string; resourceType: string; data: Record<string, unknown> }[];
    expect(events.map((e) => e.action).sort()).toEqual(['label.added', 'label.removed']);
    for (const e of events) {
      expect(e.resourceType).toBe('svc.metadata.label');
      expect(e.data).toEqual({ resourceType: 'assessment', resourceId: asm, key: 'team', value: 'ai-governance' });
    }
    const deliveries = (await t.call('GET', '/v1/webhook-deliveries?limit=200')).body.data as { eventType: string }[];
    expect(deliveries.map((d) => d.eventType).sort()).toEqual(['label.added', 'label.removed']);
  });

  it('needs metadata:write to label and metadata:read to read; the sandbox tier is admitted', async () => {
    const asm = await assessment(a);
    const viewer = await a.key('viewer');
    const res = await fetch(`${ts.url}/v1/metadata/label`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceType: 'assessment', resourceId: asm, key: 'team', value: 'x' }),
    });
    expect(res.status).toBe(403);
    const read = await fetch(`${ts.url}/v1/metadata/facets`, { headers: { authorization: `Bearer ${viewer}` } });
    expect(read.status).toBe(200);
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    expect((await label(sandbox, 'tenant', sandbox.tenantId, 'environment', 'sandbox')).status).toBe(201);
    expect((await sandbox.call('GET', '/v1/metadata/facets')).status).toBe(200);
  });
});

describe('metadata: facets', () => {
  it('counts per key, per key=value and per kind, changing as labels come and go, never counting another tenant', async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const empty = await facets(t);
    expect(empty).toMatchObject({ resourceType: null, total: 0, resources: 0, keys: [], resourceTypes: [] });

    const x = await assessment(t, 'sys_x');
    const y = await assessment(t, 'sys_y');
    await label(t, 'assessment', x, 'team', 'risk');
    await label(t, 'assessment', y, 'team', 'risk');
    await label(t, 'assessment', y, 'team', 'legal');
    const envLabel = (await label(t, 'tenant', t.tenantId, 'env', 'prod')).body as Label;
    // The other tenant's labels, with the same keys, are never counted.
    const ox = await assessment(other);
    await label(other, 'assessment', ox, 'team', 'risk');
    await label(other, 'assessment', ox, 'env', 'prod');

    let f = await facets(t);
    expect(f.total).toBe(4);
    expect(f.resources).toBe(3);
    expect(keyOf(f, 'team')).toMatchObject({ count: 3, resources: 2 });
    expect(keyOf(f, 'team')?.values).toEqual([
      { value: 'risk', count: 2 },
      { value: 'legal', count: 1 },
    ]);
    expect(countOf(f, 'env', 'prod')).toBe(1);
    expect(f.keys.map((k) => k.key)).toEqual(['team', 'env']);
    expect(f.resourceTypes).toEqual([
      { resourceType: 'assessment', count: 3 },
      { resourceType: 'tenant', count: 1 },
    ]);

    const byType = await facets(t, '?resourceType=tenant');
    expect(byType).toMatchObject({ resourceType: 'tenant', total: 1, resources: 1 });
    expect(byType.keys.map((k) => k.key)).toEqual(['env']);
    const byKey = await facets(t, '?key=team');
    expect(byKey.total).toBe(3);
    expect(byKey.keys.map((k) => k.key)).toEqual(['team']);

    // Adding and removing labels moves the counts.
    await label(t, 'assessment', x, 'team', 'legal');
    f = await facets(t);
    expect(countOf(f, 'team', 'legal')).toBe(2);
    expect(keyOf(f, 'team')?.count).toBe(4);
    await t.call('DELETE', `/v1/metadata/label/${envLabel.id}`);
    await t.call('POST', '/v1/metadata/label/unlabel', { body: { resourceType: 'assessment', resourceId: y, key: 'team' } });
    f = await facets(t);
    expect(f.total).toBe(2);
    expect(f.resources).toBe(1);
    expect(keyOf(f, 'env')).toBeUndefined();
    expect(keyOf(f, 'team')?.values).toEqual([
      { value: 'legal', count: 1 },
      { value: 'risk', count: 1 },
    ]);
    expect(f.resourceTypes).toEqual([{ resourceType: 'assessment', count: 2 }]);

    const theirs = await facets(other);
    expect(theirs.total).toBe(2);
  });

  it('rejects an unknown kind with 422', async () => {
    expectEnvelope(await a.call('GET', '/v1/metadata/facets?resourceType=spaceship'), 422, 'validation_failed');
  });
});

describe('metadata: search', () => {
  it('finds labels by key, value prefix and text, paginated, within the tenant', async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await assessment(t, `sys_${i}`));
    for (const [i, id] of ids.entries()) await label(t, 'assessment', id, 'team', i % 2 === 0 ? `ai-governance-${i}` : `Risk ${i}`);
    await label(t, 'tenant', t.tenantId, 'cost-centre', 'AI-lab 100%');
    const oid = await assessment(other);
    await label(other, 'assessment', oid, 'team', 'ai-governance-x');

    const prefix = await collectPages<Label>(t, '/v1/metadata/search?valuePrefix=AI-');
    expect(prefix.map((l) => l.value).sort()).toEqual([
      'AI-lab 100%',
      'ai-governance-0',
      'ai-governance-2',
      'ai-governance-4',
      'ai-governance-6',
    ]);
    const keyed = await collectPages<Label>(t, '/v1/metadata/search?key=team&valuePrefix=ai-');
    expect(keyed).toHaveLength(4);
    const text = await collectPages<Label>(t, '/v1/metadata/search?q=risk');
    expect(text.map((l) => l.value).sort()).toEqual(['Risk 1', 'Risk 3', 'Risk 5']);
    const inKey = await collectPages<Label>(t, '/v1/metadata/search?q=centre');
    expect(inKey.map((l) => l.key)).toEqual(['cost-centre']);
    // `%` and `_` are literal, not wildcards.
    expect((await collectPages<Label>(t, '/v1/metadata/search?q=%25')).map((l) => l.value)).toEqual(['AI-lab 100%']);
    expect(await collectPages<Label>(t, '/v1/metadata/search?q=_')).toEqual([]);
    const byType = await collectPages<Label>(t, '/v1/metadata/search?resourceType=tenant');
    expect(byType).toHaveLength(1);

    // Pages of 3: every label once, newest first, the last page without a cursor.
    const seen: Label[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: CallResult = await t.call('GET', `/v1/metadata/search?key=team&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data);
      cursor = res.body.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((l) => l.id)).size).toBe(7);
    expect(seen.map((l) => l.id)).toEqual([...seen.map((l) => l.id)].sort().reverse());
    expectEnvelope(await t.call('GET', '/v1/metadata/search?cursor=not-a-cursor'), 400, 'bad_request');
    expectEnvelope(await t.call('GET', '/v1/metadata/search?limit=0'), 422, 'validation_failed');
  });
});

describe('metadata: items', () => {
  it('lists the records carrying key or key=value, each once with all its labels, paginated', async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await assessment(t, `sys_${i}`));
    for (const id of ids) await label(t, 'assessment', id, 'team', 'risk');
    await label(t, 'assessment', ids[0] as string, 'team', 'legal');
    await label(t, 'assessment', ids[0] as string, 'stage', 'pilot');
    await label(t, 'tenant', t.tenantId, 'team', 'legal');
    const oid = await assessment(other);
    await label(other, 'assessment', oid, 'team', 'risk');

    const all = await collectPages<Item>(t, '/v1/metadata/items?key=team');
    expect(all).toHaveLength(6);
    expect(all.map((i) => `${i.resourceType}:${i.resourceId}`)).toEqual([
      ...ids.map((id) => `assessment:${id}`).sort(),
      `tenant:${t.tenantId}`,
    ]);
    const first = all.find((i) => i.resourceId === ids[0]);
    expect(first?.labels.map((l) => `${l.key}=${l.value}`)).toEqual(['stage=pilot', 'team=legal', 'team=risk']);

    const legal = await collectPages<Item>(t, '/v1/metadata/items?key=team&value=legal');
    expect(legal.map((i) => i.resourceId).sort()).toEqual([ids[0], t.tenantId].sort());
    const legalAssessments = await collectPages<Item>(t, '/v1/metadata/items?key=team&value=legal&resourceType=assessment');
    expect(legalAssessments.map((i) => i.resourceId)).toEqual([ids[0]]);
    expect(await collectPages<Item>(t, '/v1/metadata/items?key=nothing')).toEqual([]);

    // Pages of 2 walk the six records once each.
    const seen: Item[] = [];
    let cursor: string | null = null;
    do {
      const res: CallResult = await t.call('GET', `/v1/metadata/items?key=team&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen.map((i) => i.resourceId)).toEqual(all.map((i) => i.resourceId));

    // Removing a label takes its record out of the items.
    const gone = (await collectPages<Label>(t, `/v1/metadata/label?resourceId=${ids[1]}`))[0] as Label;
    await t.call('DELETE', `/v1/metadata/label/${gone.id}`);
    expect(await collectPages<Item>(t, '/v1/metadata/items?key=team')).toHaveLength(5);

    expectEnvelope(await t.call('GET', '/v1/metadata/items'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/metadata/items?key=team&cursor=eyJrIjoxfQ'), 400, 'bad_request');
  });
});
