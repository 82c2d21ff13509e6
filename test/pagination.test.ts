import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
let t: TenantFixture;
let total = 0;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  for (const id of ['eu-ai-act', 'gdpr', 'iso-iec-42001']) {
    const res = await t.call('POST', `/v1/frameworks/${id}/activate`);
    total += res.body.obligations;
  }
});
afterAll(() => ts?.close());

async function walk(limit: number, filter = '') {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: { data: { id: string }[]; cursor: string | null } } = await t.call(
      'GET',
      `/v1/compliance/obligations?limit=${limit}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((o) => o.id));
    cursor = res.body.cursor;
    pages++;
  } while (cursor !== null && pages < 1000);
  return { ids, pages };
}

describe('cursor pagination over obligations', () => {
  it('has more than 200 obligations from three frameworks', () => {
    expect(total).toBeGreaterThan(200);
  });

  it.each([1, 7, 50, 200])('walks every obligation once with limit %i, cursor null at the end', async (limit) => {
    const { ids, pages } = await walk(limit);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / limit));
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it('defaults to 50 per page', async () => {
    const res = await t.call('GET', '/v1/compliance/obligations');
    expect(res.body.data).toHaveLength(50);
    expect(typeof res.body.cursor).toBe('string');
  });

  it('keeps filters across pages', async () => {
    const { ids } = await walk(13, '&framework=gdpr');
    const direct = await t.call('GET', '/v1/compliance/obligations?framework=gdpr&limit=200');
    expect(ids).toEqual(direct.body.data.map((o: { id: string }) => o.id));
  });

  it('rejects a limit out of range (422) and a forged cursor (400)', async () => {
    for (const bad of ['0', '201', 'ten', '-5', '1.5']) {
      const res = await t.call('GET', `/v1/compliance/obligations?limit=${bad}`);
      expect(expectEnvelope(res, 422, 'validation_failed').details[0].field).toBe('limit');
    }
    for (const bad of ['garbage', Buffer.from('{"k":{}}').toString('base64url'), '%%%']) {
      const res = await t.call('GET', `/v1/compliance/obligations?cursor=${encodeURIComponent(bad)}`);
      expect(expectEnvelope(res, 400, 'bad_request').details[0]).toEqual({ field: 'cursor', issue: 'invalid_format' });
    }
  });

  it('shows another tenant none of these obligations', async () => {
    const other = await createTenant(ts);
    const res = await other.call('GET', '/v1/compliance/obligations?limit=200');
    expect(res.body).toEqual({ data: [], cursor: null });
  });
});
