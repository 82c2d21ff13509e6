import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The gpai_summary rail: the Commission's template as data, summaries that are published only
 * when every required section is filled from the records, new versions on change, data sources
 * by template category, the copyright policy and the energy disclosure with the Art. 51(2) flag
 * (strictly more than 10^25 FLOPs) worked out by hand.
 */

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts, { tier: 'growth' });
});
afterAll(() => ts?.close());

const BASE = '/v1/gpai-summary';
let counter = 0;

async function newSummary(extra: Record<string, unknown> = {}, who = t) {
  const res = await who.call('POST', `${BASE}/summaries`, {
    body: {
      modelName: `Aurora ${++counter}`,
      modelVersion: '2.1',
      provider: { name: 'Acme AI SAS', contact: 'ai-office@acme.example' },
      modalities: ['text'],
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string; version: number; publishedVersion: number | null };
}

const crawled = (summaryId: string) => ({
  summaryId,
  type: 'crawled',
  name: 'Acme web crawl 2025',
  description: 'Public web pages.',
  collectedFrom: '2025-01-01',
  collectedTo: '2025-06-30',
  crawler: { name: 'AcmeBot', respectsRobotsTxt: true },
  topDomains: ['Wikipedia.org', 'europa.eu'],
});
const policy = (summaryId: string) => ({
  summaryId,
  optOutMethods: ['robots_txt', 'tdm_rep'],
  description: 'Reservations in robots.txt and TDMRep are honoured at crawl time.',
  complaintContact: 'copyright@acme.example',
});

async function actions(id: string) {
  const rows = await ts.server.db.prisma.auditEvent.findMany({ where: { tenantId: t.tenantId, resourceId: id }, orderBy: { seq: 'asc' } });
  return rows.map((r) => r.action);
}

describe('template', () => {
  it('lists the template’s sections with their sources, the required ones marked', async () => {
    const res = await t.call('GET', `${BASE}/template`);
    expect(res.status).toBe(200);
    expect(res.body.version).toBe('gpai-summary/template@1.0.0');
    expect(res.body.legalBasis).toContain('Art. 53(1)(d)');
    expect(res.body.sections.map((s: { number: string }) => s.number)).toEqual([
      '1.1',
      '1.2',
      '1.3',
      '2.1',
      '2.2',
      '2.3',
      '2.4',
      '2.5',
      '2.6',
      '2',
      '3.1',
      '3.2',
    ]);
    expect(res.body.sections.filter((s: { required: boolean }) => s.required).map((s: { id: string }) => s.id)).toEqual([
      'general.provider',
      'general.model',
      'general.modalities',
      'sources.any',
      'processing.tdm-opt-out',
      'processing.illegal-content',
    ]);
    for (const s of res.body.sections) expect(s.source).toMatch(/template/i);
  });
});

describe('summaries: completeness, publishing and versions', () => {
  it('refuses to publish until every required section is filled, then publishes; a change opens the next version', async () => {
    const s = await newSummary();
    expect(s).toMatchObject({ status: 'draft', version: 1, publishedVersion: null });

    // Nothing but provider and model: four required sections missing.
    let doc = (await t.call('GET', `${BASE}/summaries/${s.id}/document`)).body;
    expect(doc.complete).toBe(false);
    expect(doc.missing).toEqual(['general.modalities', 'sources.any', 'processing.tdm-opt-out', 'processing.illegal-content']);
    const refused = expectEnvelope(await t.call('POST', `${BASE}/summaries/${s.id}/publish`, { body: {} }), 422, 'validation_failed');
    expect(refused.details.map((d: { field: string }) => d.field)).toEqual([
      'sections.general.modalities',
      'sections.sources.any',
      'sections.processing.tdm-opt-out',
      'sections.processing.illegal-content',
    ]);
    expect((await t.call('GET', `${BASE}/summaries/${s.id}`)).body.status).toBe('draft');

    // Crawled data needs its crawler and domains; other types take neither.
    expectEnvelope(
      await t.call('POST', `${BASE}/data-sources`, { body: { ...crawled(s.id), crawler: undefined } }),
      422,
      'validation_failed',
    );
    expectEnvelope(await t.call('POST', `${BASE}/data-sources`, { body: { ...crawled(s.id), topDomains: [] } }), 422, 'validation_failed');
    expectEnvelope(
      await t.call('POST', `${BASE}/data-sources`, { body: { ...crawled(s.id), type: 'public_dataset' } }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', `${BASE}/data-sources`, { body: { ...crawled(s.id), collectedFrom: '2025-07-01' } }),
      422,
      'validation_failed',
    );
    const src = await t.call('POST', `${BASE}/data-sources`, { body: crawled(s.id) });
    expect(src.status, JSON.stringify(src.body)).toBe(201);
    expect(src.body).toMatchObject({ type: 'crawled', topDomains: ['wikipedia.org', 'europa.eu'], summaryVersion: 1 });

    const p1 = await t.call('POST', `${BASE}/copyright-policy`, { body: policy(s.id) });
    expect(p1.status).toBe(201);
    expect(p1.body).toMatchObject({ version: 1, source: 'Regulation (EU) 2024/1689 Art. 53(1)(c)' });
    const p2 = await t.call('POST', `${BASE}/copyright-policy`, { body: { ...policy(s.id), optOutMethods: ['robots_txt'] } });
    expect(p2.body.version).toBe(2);

    doc = (await t.call('GET', `${BASE}/summaries/${s.id}/document`)).body;
    expect(doc.missing).toEqual(['general.modalities', 'processing.illegal-content']);
    const tdm = doc.sections.find((x: { id: string }) => x.id === 'processing.tdm-opt-out');
    expect(tdm.content.version).toBe(2); // the newest policy applies
    const crawledSection = doc.sections.find((x: { id: string }) => x.id === 'sources.crawled');
    expect(crawledSection).toMatchObject({ filled: true, required: false });
    expect(doc.sections.find((x: { id: string }) => x.id === 'sources.public')).toMatchObject({ filled: false, content: [] });

    // Filling the rest in place (a draft stays version 1).
    const patched = await t.call('PATCH', `${BASE}/summaries/${s.id}`, {
      body: {
        trainingDataSize: [{ modality: 'text', sizeRange: '1 billion to 10 trillion tokens' }],
        illegalContentMeasures: 'Filtered against hash lists of known illegal material.',
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ status: 'draft', version: 1 });

    const published = await t.call('POST', `${BASE}/summaries/${s.id}/publish`, { body: { reason: 'complete' } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', version: 1, publishedVersion: 1 });
    expect(published.body.publishedAt).not.toBeNull();

    // Published: a second publish is a conflict, and nothing is attached to it any more.
    const again = expectEnvelope(await t.call('POST', `${BASE}/summaries/${s.id}/publish`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('published');
    expectEnvelope(await t.call('POST', `${BASE}/data-sources`, { body: crawled(s.id) }), 409, 'conflict');
    expectEnvelope(await t.call('POST', `${BASE}/copyright-policy`, { body: policy(s.id) }), 409, 'conflict');

    // A change opens version 2 as a draft; version 1 stays readable as published.
    const v2 = await t.call('PATCH', `${BASE}/summaries/${s.id}`, {
      body: { modalities: ['text', 'image'], trainingDataSize: [{ modality: 'text', sizeRange: '1 billion to 10 trillion tokens' }] },
    });
    expect(v2.body).toMatchObject({ status: 'draft', version: 2, publishedVersion: 1 });
    // image has no size range: modalities section missing again.
    expect((await t.call('GET', `${BASE}/summaries/${s.id}/document`)).body.missing).toEqual(['general.modalities']);
    expectEnvelope(await t.call('POST', `${BASE}/summaries/${s.id}/publish`, { body: {} }), 422, 'validation_failed');
    await t.call('PATCH', `${BASE}/summaries/${s.id}`, {
      body: {
        trainingDataSize: [
          { modality: 'text', sizeRange: '1 billion to 10 trillion tokens' },
          { modality: 'image', sizeRange: '1 million to 1 billion images' },
        ],
      },
    });
    const img = await t.call('POST', `${BASE}/data-sources`, {
      body: {
        summaryId: s.id,
        type: 'private_licensed',
        name: 'Stock photos',
        description: 'Licensed images',
        licence: 'Commercial licence 2025',
      },
    });
    expect(img.body.summaryVersion).toBe(2);
    const pub2 = await t.call('POST', `${BASE}/summaries/${s.id}/publish`, { body: {} });
    expect(pub2.body).toMatchObject({ status: 'published', version: 2, publishedVersion: 2 });

    const versions = await t.call('GET', `${BASE}/summaries/${s.id}/versions?limit=1`);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2]);
    // The version is the document as published: generated at the publication's moment.
    expect(versions.body.data[0]).toMatchObject({ publishedAt: pub2.body.publishedAt, document: { generatedAt: pub2.body.publishedAt } });
    expect(versions.body.cursor).not.toBeNull();
    const older = await t.call('GET', `${BASE}/summaries/${s.id}/versions?limit=1&cursor=${versions.body.cursor}`);
    expect(older.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(older.body.cursor).toBeNull();
    // Version 1 as published: text only, one data source, complete.
    const v1doc = older.body.data[0].document;
    expect(v1doc).toMatchObject({ version: 1, complete: true, missing: [] });
    expect(v1doc.sections.find((x: { id: string }) => x.id === 'general.modalities').content.modalities).toEqual(['text']);
    expect(v1doc.sections.find((x: { id: string }) => x.id === 'sources.private').content).toEqual([]);

    expect(await actions(s.id)).toEqual([
      'gpai_summary.created',
      'gpai_summary.updated',
      'gpai_summary.published',
      'gpai_summary.updated',
      'gpai_summary.updated',
      'gpai_summary.published',
    ]);
  });

  it('one summary per model name and version; bad modalities are 422', async () => {
    const s = await newSummary();
    const name = (await t.call('GET', `${BASE}/summaries/${s.id}`)).body.modelName as string;
    expectEnvelope(
      await t.call('POST', `${BASE}/summaries`, {
        body: { modelName: name.toUpperCase(), modelVersion: '2.1', provider: { name: 'X', contact: 'x@y.example' } },
      }),
      409,
      'conflict',
    );
    expect((await newSummary({ modelName: name, modelVersion: '2.2' })).version).toBe(1);
    expectEnvelope(
      await t.call('POST', `${BASE}/summaries`, {
        body: { modelName: 'Dup', modelVersion: '1', provider: { name: 'X', contact: 'x' }, modalities: ['text', 'text'] },
      }),
      422,
      'validation_failed',
    );
    const wrongSize = expectEnvelope(
      await t.call('POST', `${BASE}/summaries`, {
        body: {
          modelName: 'Sizes',
          modelVersion: '1',
          provider: { name: 'X', contact: 'x' },
          modalities: ['text'],
          trainingDataSize: [{ modality: 'audio', sizeRange: 'small' }],
        },
      }),
      422,
      'validation_failed',
    );
    expect(wrongSize.details[0].field).toBe('trainingDataSize[0].modality');
    expectEnvelope(await t.call('PATCH', `${BASE}/summaries/${s.id}`, { body: {} }), 422, 'validation_failed');
    const unknown = expectEnvelope(
      await t.call('POST', `${BASE}/summaries`, {
        body: { modelName: 'X', modelVersion: '1', provider: { name: 'X', contact: 'x' }, extra: 1 },
      }),
      422,
      'validation_failed',
    );
    expect(unknown.details).toEqual([{ field: 'extra', issue: 'unknown_field', message: 'unknown field extra' }]);
    expectEnvelope(
      await t.call('POST', `${BASE}/data-sources`, { body: crawled('gps_01JD3Z8W2M6Q4X9V7K5T1B0N3R') }),
      422,
      'validation_failed',
    );
  });
});

describe('values named twice', () => {
  it('a modality or an opt-out method named twice is 422 at its second place, and nothing is recorded', async () => {
    const twice = expectEnvelope(
      await t.call('POST', `${BASE}/summaries`, {
        body: { modelName: 'Twice', modelVersion: '1', provider: { name: 'X', contact: 'x' }, modalities: ['text', 'image', 'text'] },
      }),
      422,
      'validation_failed',
    );
    expect(twice.details[0].field).toBe('modalities[2]');
    const s = await newSummary();
    const refused = expectEnvelope(
      await t.call('POST', `${BASE}/copyright-policy`, { body: { ...policy(s.id), optOutMethods: ['tdm_rep', 'tdm_rep'] } }),
      422,
      'validation_failed',
    );
    expect(refused.details[0].field).toBe('optOutMethods[1]');
    expect((await t.call('GET', `${BASE}/copyright-policy?summaryId=${s.id}`)).body.data).toEqual([]);
  });
});

describe('energy disclosure and the Art. 51(2) presumption', () => {
  it('flags compute strictly above 10^25 FLOPs; the newest disclosure applies to the document', async () => {
    const s = await newSummary();
    const disclose = (body: Record<string, unknown>) =>
      t.call('POST', `${BASE}/energy-disclosure`, { body: { summaryId: s.id, method: 'Metered', ...body } });
    const low = await disclose({ energyMwh: 1250.5, energyBasis: 'estimated', computeFlops: 3.8e24 });
    expect(low.status, JSON.stringify(low.body)).toBe(201);
    expect(low.body).toMatchObject({ systemicRiskPresumed: false, thresholdFlops: 1e25, energyMwh: 1250.5 });
    expect((await t.call('GET', `${BASE}/summaries/${s.id}/document`)).body.systemicRiskPresumed).toBe(false);
    // Exactly 10^25 is not "greater than".
    expect((await disclose({ energyMwh: 5, energyBasis: 'measured', computeFlops: 1e25 })).body.systemicRiskPresumed).toBe(false);
    const high = await disclose({ energyBasis: 'unknown', computeFlops: 2.1e25, method: 'Estimated from compute' });
    expect(high.body).toMatchObject({ systemicRiskPresumed: true, energyMwh: null, energyBasis: 'unknown' });
    expect((await t.call('GET', `${BASE}/summaries/${s.id}/document`)).body.systemicRiskPresumed).toBe(true);
    expectEnvelope(await disclose({ energyBasis: 'unknown', energyMwh: 3, computeFlops: 1e20 }), 422, 'validation_failed');
    expectEnvelope(await disclose({ energyBasis: 'measured', computeFlops: 1e20 }), 422, 'validation_failed');
    expectEnvelope(await disclose({ energyBasis: 'measured', energyMwh: 1, computeFlops: -1 }), 422, 'validation_failed');
    const list = await t.call('GET', `${BASE}/energy-disclosure?summaryId=${s.id}`);
    expect(list.body.data.map((d: { computeFlops: number }) => d.computeFlops)).toEqual([2.1e25, 1e25, 3.8e24]);
  });
});

describe('copyright policies recorded at once', () => {
  it('take the next versions in turn: none shares a number', async () => {
    const s = await newSummary();
    const all = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', `${BASE}/copyright-policy`, { body: policy(s.id) })));
    expect(all.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(all.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('summaries of one model and version sent at once: one summary and 409s', async () => {
    const body = {
      modelName: `Borealis ${Date.now()}`,
      modelVersion: '1.0',
      provider: { name: 'Acme AI SAS', contact: 'ai-office@acme.example' },
      modalities: ['text'],
    };
    const all = await Promise.all([0, 1, 2].map(() => t.call('POST', `${BASE}/summaries`, { body })));
    expect(all.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('tenancy, permissions and tier', () => {
  it('another tenant gets 404; an editor may not publish; a starter tenant is refused the rail', async () => {
    const s = await newSummary();
    const other = await createTenant(ts, { tier: 'growth' });
    expectEnvelope(await other.call('GET', `${BASE}/summaries/${s.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `${BASE}/summaries/${s.id}/document`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `${BASE}/summaries/${s.id}/publish`, { body: {} }), 404, 'not_found');
    expectEnvelope(await other.call('PATCH', `${BASE}/summaries/${s.id}`, { body: { illegalContentMeasures: 'x' } }), 404, 'not_found');
    expectEnvelope(await other.call('POST', `${BASE}/data-sources`, { body: crawled(s.id) }), 422, 'validation_failed');
    expect((await other.call('GET', `${BASE}/summaries`)).body.data.map((x: { id: string }) => x.id)).not.toContain(s.id);

    const editor = await t.key('editor');
    const denied = expectEnvelope(
      await call(ts.url, 'POST', `${BASE}/summaries/${s.id}/publish`, { token: editor, body: {} }),
      403,
      'forbidden',
    );
    expect(JSON.stringify(denied.details)).toContain('gpai_summary:approve');
    const ok = await call(ts.url, 'PATCH', `${BASE}/summaries/${s.id}`, {
      token: editor,
      body: { illegalContentMeasures: 'Hash-list filtering.' },
    });
    expect(ok.status).toBe(200);

    const starter = await createTenant(ts, { tier: 'starter' });
    for (const path of ['template', 'summaries', 'data-sources', 'copyright-policy', 'energy-disclosure']) {
      expect(expectEnvelope(await starter.call('GET', `${BASE}/${path}`), 403, 'forbidden').details).toEqual([
        { field: 'tier', issue: 'growth' },
      ]);
    }
  });
});
