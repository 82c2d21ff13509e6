import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

describe('frameworks rail', () => {
  it('lists the dictionaries with versions and counts', async () => {
    const res = await t.call('GET', '/v1/frameworks');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.map((f: { id: string }) => [f.id, f]));
    for (const id of ['eu-ai-act', 'gdpr', 'iso-iec-42001']) {
      expect(byId[id]).toMatchObject({ object: 'svc.frameworks.framework', id, dictionaryVersion: `${id}@${byId[id].versions.at(-1)}` });
      expect(byId[id].contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(byId[id].counts.controls).toBeGreaterThan(30);
    }
    expect(res.body.cursor).toBeNull();
  });

  it('gets one framework by id and by pinned version; unknown ones are 404', async () => {
    const latest = await t.call('GET', '/v1/frameworks/gdpr');
    const pinned = await t.call('GET', '/v1/frameworks/gdpr@1.0.0');
    expect(latest.status).toBe(200);
    expect(pinned.body).toEqual(latest.body);
    expectEnvelope(await t.call('GET', '/v1/frameworks/no-such-dictionary'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/frameworks/gdpr@9.9.9'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/frameworks/NOT%20AN%20ID'), 422, 'validation_failed');
  });

  it('walks controls with limit and cursor in dictionary order', async () => {
    const all = await t.call('GET', '/v1/frameworks/iso-iec-42001/controls?limit=200');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: { id: string }[]; cursor: string | null } } = await t.call(
        'GET',
        `/v1/frameworks/iso-iec-42001/controls?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...res.body.data.map((c) => c.id));
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((c: { id: string }) => c.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('serves clauses and questions, filtered', async () => {
    const clauses = await t.call('GET', '/v1/frameworks/eu-ai-act/clauses?limit=200');
    const refs = clauses.body.data.map((c: { ref: string }) => c.ref);
    expect(refs).toEqual(expect.arrayContaining(['art-5', 'art-6', 'art-50']));
    const q = await t.call('GET', '/v1/frameworks/eu-ai-act/questions?limit=5');
    expect(q.body.data).toHaveLength(5);
    const controlId = q.body.data[0].controlId;
    const filtered = await t.call('GET', `/v1/frameworks/eu-ai-act/questions?controlId=${controlId}`);
    expect(filtered.body.data.every((x: { controlId: string }) => x.controlId === controlId)).toBe(true);
  });

  it('activation is idempotent, derives obligations once and is audited once', async () => {
    const tenant = await createTenant(ts);
    const first = await tenant.call('POST', '/v1/frameworks/iso-iec-42001/activate');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ framework: 'iso-iec-42001', alreadyActive: false, dictionaryVersion: 'iso-iec-42001@1.0.0' });
    const again = await tenant.call('POST', '/v1/frameworks/iso-iec-42001/activate', { body: {} });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, alreadyActive: true, obligations: first.body.obligations });
    const obligations = await tenant.call('GET', '/v1/compliance/obligations?limit=200&framework=iso-iec-42001');
    expect(obligations.body.data).toHaveLength(first.body.obligations);
    const audits = await ts.server.db.prisma.auditEvent.count({ where: { tenantId: tenant.tenantId, action: 'framework.activated' } });
    expect(audits).toBe(1);
  });

  it('concurrent first activations create one activation', async () => {
    const tenant = await createTenant(ts);
    const results = await Promise.all(Array.from({ length: 5 }, () => tenant.call('POST', '/v1/frameworks/gdpr/activate')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await ts.server.db.prisma.frameworkActivation.count({ where: { tenantId: tenant.tenantId } })).toBe(1);
  });

  it('activation needs frameworks:activate; an editor gets 403 naming it', async () => {
    const editor = await t.key('editor');
    const res = await t.call('POST', '/v1/frameworks/gdpr/activate', { token: editor });
    expect(expectEnvelope(res, 403, 'forbidden').message).toContain('frameworks:activate');
  });
});
