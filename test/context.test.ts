import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCX_TYPE, docx, encryptedOfficeFile, PDF_TYPE, shapeOnlyPdf, textPdf } from './fixtures/documents.ts';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  // A body limit above the rail's limits (1 MiB of text, 4 MiB of PDF or DOCX file as base64), so
  // that the rail's own refusals are reached.
  ts = await startTestServer({ SVC_BODY_LIMIT: '6mb' });
});
afterAll(() => ts?.close());

const MiB = 1_048_576;
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

async function upload(t: TenantFixture, text: string, title = 'Document'): Promise<{ id: string; [k: string]: unknown }> {
  const res = await t.call('POST', '/v1/context/upload', { body: { title, text } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function auditActions(t: TenantFixture): Promise<string[]> {
  const res = await t.call('GET', '/v1/audit-trail/events?limit=200');
  expect(res.status).toBe(200);
  return (res.body.data as { action: string }[]).map((e) => e.action);
}

describe('context: upload, documents and text', () => {
  it('stores text with its SHA-256, lists it by cursor, reads it back; base64 is decoded as UTF-8', async () => {
    const t = await createTenant(ts);
    const text = 'Politique de sécurité. The provider shall keep logs.';
    const res = await t.call('POST', '/v1/context/upload', {
      body: { title: 'Security policy', text, source: 'policy.txt', metadata: { owner: 'ciso' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'svc.context.document',
      title: 'Security policy',
      mediaType: 'text/plain',
      source: 'policy.txt',
      metadata: { owner: 'ciso' },
      sha256: sha(text),
      sizeBytes: Buffer.byteLength(text, 'utf8'),
      characters: text.length,
      preview: text,
      documentType: null,
      frameworks: [],
      classifiedAt: null,
    });
    expect(res.body.id).toMatch(/^doc_/);
    expect(res.body.text).toBeUndefined();
    expect((await t.call('GET', `/v1/context/upload/${res.body.id}`)).body).toEqual(res.body);
    const read = await t.call('GET', `/v1/context/upload/${res.body.id}/text`);
    expect(read.body).toEqual({ object: 'svc.context.document_text', id: res.body.id, sha256: sha(text), text });

    const b64 = await t.call('POST', '/v1/context/upload', {
      body: { title: 'Encoded', contentBase64: Buffer.from(text, 'utf8').toString('base64'), mediaType: 'text/markdown' },
    });
    expect(b64.status).toBe(201);
    expect(b64.body).toMatchObject({ sha256: sha(text), mediaType: 'text/markdown', characters: text.length });

    const other = await upload(t, 'Another text.');
    const all = await collectPages<{ id: string }>(t, '/v1/context/upload');
    expect(all.map((d) => d.id)).toEqual([other.id, b64.body.id, res.body.id]);
    const page = await t.call('GET', '/v1/context/upload?limit=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.cursor).toEqual(expect.any(String));
    const same = await collectPages<{ id: string }>(t, `/v1/context/upload?sha256=${sha(text)}`);
    expect(same.map((d) => d.id)).toEqual([b64.body.id, res.body.id]);

    expect((await auditActions(t)).filter((a) => a === 'document.uploaded')).toHaveLength(3);
  });

  it('refuses more than 1 MiB of text with 400 bad_request, and bad content with 422', async () => {
    const t = await createTenant(ts);
    const big = 'a'.repeat(MiB + 1);
    const env = expectEnvelope(await t.call('POST', '/v1/context/upload', { body: { title: 'Big', text: big } }), 400, 'bad_request');
    expect(env.details).toEqual([expect.objectContaining({ field: 'text', issue: 'too_big' })]);
    const env64 = expectEnvelope(
      await t.call('POST', '/v1/context/upload', { body: { title: 'Big', contentBase64: Buffer.from(big).toString('base64') } }),
      400,
      'bad_request',
    );
    expect(env64.details).toEqual([expect.objectContaining({ field: 'contentBase64', issue: 'too_big' })]);
    // Exactly 1 MiB (multi-byte characters counted in bytes) is accepted.
    const edge = `${'é'.repeat(MiB / 2 - 1)}ab`;
    expect(Buffer.byteLength(edge)).toBe(MiB);
    expect((await t.call('POST', '/v1/context/upload', { body: { title: 'Edge', text: edge } })).status).toBe(201);
    expect((await t.call('POST', '/v1/context/upload', { body: { title: 'Edge+', text: `${edge}x` } })).status).toBe(400);

    expectEnvelope(
      await t.call('POST', '/v1/context/upload', { body: { title: 'Both', text: 'a', contentBase64: 'YQ==' } }),
      422,
      'validation_failed',
    );
    expectEnvelope(await t.call('POST', '/v1/context/upload', { body: { title: 'None' } }), 422, 'validation_failed');
    const notUtf8 = expectEnvelope(
      await t.call('POST', '/v1/context/upload', {
        body: { title: 'Binary', contentBase64: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64') },
      }),
      422,
      'validation_failed',
    );
    expect(notUtf8.details[0].field).toBe('contentBase64');
    const nul = expectEnvelope(
      await t.call('POST', '/v1/context/upload', { body: { title: 'NUL', contentBase64: Buffer.from('a\u0000b').toString('base64') } }),
      422,
      'validation_failed',
    );
    expect(nul.details[0].field).toBe('contentBase64');
    expect(
      expectEnvelope(await t.call('POST', '/v1/context/upload', { body: { title: 'X', text: 'a', extra: 1 } }), 422, 'validation_failed')
        .details[0].issue,
    ).toBe('unknown_field');
    // Nothing refused was stored.
    expect((await collectPages(t, '/v1/context/upload')).length).toBe(1);
  });

  it('an Idempotency-Key replay stores one document', async () => {
    const t = await createTenant(ts);
    const key = `ctx-${Date.now()}`;
    const body = { title: 'Once', text: 'Only once.' };
    const first = await t.call('POST', '/v1/context/upload', { body, headers: { 'idempotency-key': key } });
    const again = await t.call('POST', '/v1/context/upload', { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await collectPages(t, '/v1/context/upload')).length).toBe(1);
  });

  it("another tenant's document is 404 everywhere", async () => {
    const t = await createTenant(ts);
    const doc = await upload(t, 'The provider shall establish a risk management system in line with Article 9 of the AI Act.');
    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/context/upload/${doc.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/context/upload/${doc.id}/text`), 404, 'not_found');
    expectEnvelope(await other.call('POST', '/v1/context/classify', { body: { documentId: doc.id } }), 404, 'not_found');
    expectEnvelope(await other.call('POST', '/v1/context/clause-extract', { body: { documentId: doc.id } }), 404, 'not_found');
    await other.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
    expectEnvelope(await other.call('POST', '/v1/context/map', { body: { documentId: doc.id } }), 404, 'not_found');
    expect((await collectPages(other, '/v1/context/upload')).length).toBe(0);
  });
});

describe('context: classify', () => {
  it('assigns a type and frameworks by rules, with the spans that fired; stores it on a document', async () => {
    const t = await createTenant(ts);
    const text =
      'Data Protection Impact Assessment (DPIA) for the CRM.\n\nThis DPIA is carried out under Article 35 GDPR. The controller assesses the necessity and proportionality of the processing of data subjects’ records.';
    const inline = await t.call('POST', '/v1/context/classify', { body: { text } });
    expect(inline.status).toBe(200);
    expect(inline.body).toMatchObject({ object: 'svc.context.classification', documentId: null, documentType: 'dpia', stored: false });
    const dpia = inline.body.candidates[0];
    expect(dpia.documentType).toBe('dpia');
    expect(inline.body.score).toBe(dpia.score);
    expect(dpia.score).toBeCloseTo(dpia.points / (dpia.points + 3), 3);
    const rules = Object.fromEntries(dpia.evidence.map((e: { rule: string }) => [e.rule, e]));
    expect(rules['type.dpia.acronym']).toMatchObject({ kind: 'citation', matchCount: 2 });
    expect(rules['type.dpia.article-35']).toBeDefined();
    // Every span is the text it claims to be.
    for (const e of [...dpia.evidence, ...inline.body.frameworks.flatMap((f: { evidence: unknown[] }) => f.evidence)]) {
      for (const m of (e as { matches: { start: number; end: number; text: string }[] }).matches)
        expect(text.slice(m.start, m.end)).toBe(m.text);
    }
    expect(inline.body.frameworks.map((f: { framework: string }) => f.framework)).toEqual(['gdpr']);
    expect(inline.body.frameworks[0].evidence.map((e: { rule: string }) => e.rule)).toContain('framework.gdpr.name');

    // Stored on a document, audited; a different text gives a different answer.
    const doc = await upload(t, text, 'CRM DPIA');
    const stored = await t.call('POST', '/v1/context/classify', { body: { documentId: doc.id } });
    expect(stored.body).toMatchObject({ documentId: doc.id, documentType: 'dpia', stored: true });
    expect((await t.call('GET', `/v1/context/upload/${doc.id}`)).body).toMatchObject({
      documentType: 'dpia',
      frameworks: ['gdpr'],
      classifiedAt: expect.any(String),
    });
    expect(await auditActions(t)).toContain('document.classified');

    const techDoc = await upload(
      t,
      'Technical documentation of the credit scoring system, drawn up per Annex IV of Regulation (EU) 2024/1689 (the AI Act). It covers the system architecture and training data.',
    );
    const tech = await t.call('POST', '/v1/context/classify', { body: { documentId: techDoc.id } });
    expect(tech.body.documentType).toBe('technical_documentation');
    expect(tech.body.frameworks[0].framework).toBe('eu-ai-act');

    const nothing = await t.call('POST', '/v1/context/classify', { body: { text: 'Lunch menu: soup and bread.' } });
    expect(nothing.body).toMatchObject({ documentType: null, score: 0, candidates: [], frameworks: [] });
    expectEnvelope(await t.call('POST', '/v1/context/classify', { body: {} }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/context/classify', { body: { text: 'x', documentId: doc.id } }), 422, 'validation_failed');
  });
});

describe('context: clause-extract', () => {
  it('finds references resolved to dictionary clauses and obligation sentences, with offsets', async () => {
    const t = await createTenant(ts);
    const text = [
      'Under Regulation (EU) 2024/1689, providers shall meet Article 10(2)(f) and Art. 6(3) for systems listed in Annex III.',
      'Recital 47 explains the intent.',
      'The business must not sell personal information contrary to § 1798.100 of the CCPA.',
      'Control A.5.1 of ISO/IEC 27001 is required to be reviewed.',
    ].join('\n\n');
    const res = await t.call('POST', '/v1/context/clause-extract', { body: { text } });
    expect(res.status).toBe(200);
    const refs = res.body.references as {
      start: number;
      end: number;
      text: string;
      kind: string;
      ref: string;
      namedFramework: string | null;
      resolved: { framework: string; ref: string; exact: boolean }[];
    }[];
    for (const r of refs) expect(text.slice(r.start, r.end)).toBe(r.text);
    const byText = Object.fromEntries(refs.map((r) => [r.text, r]));
    expect(byText['Article 10(2)(f)']).toMatchObject({ kind: 'article', ref: 'art-10-2-f' });
    expect(byText['Article 10(2)(f)']?.resolved).toContainEqual(
      expect.objectContaining({ framework: 'eu-ai-act', ref: 'art-10-2', exact: false }),
    );
    expect(byText['Art. 6(3)']?.resolved).toContainEqual(expect.objectContaining({ framework: 'eu-ai-act', ref: 'art-6-3', exact: true }));
    expect(byText['Annex III']).toMatchObject({ kind: 'annex', ref: 'annex-iii' });
    expect(byText['Annex III']?.resolved).toContainEqual(expect.objectContaining({ framework: 'eu-ai-act', ref: 'annex-iii' }));
    expect(byText['Recital 47']).toMatchObject({ kind: 'recital', ref: 'recital-47', resolved: [] });
    expect(byText['§ 1798.100']).toMatchObject({ kind: 'section', ref: 'sec-1798-100', namedFramework: 'ccpa-cpra' });
    expect(byText['§ 1798.100']?.resolved).toEqual([expect.objectContaining({ framework: 'ccpa-cpra', ref: 'sec-1798-100', exact: true })]);
    expect(byText['A.5.1']?.resolved).toContainEqual(expect.objectContaining({ framework: 'iso-iec-27001', ref: 'A.5.1', exact: true }));
    expect(res.body.frameworksConsidered).toEqual(expect.arrayContaining(['ccpa-cpra', 'eu-ai-act', 'iso-iec-27001']));

    const obligations = res.body.obligations as {
      start: number;
      end: number;
      text: string;
      modal: string;
      negated: boolean;
      references: string[];
    }[];
    for (const o of obligations) expect(text.slice(o.start, o.end)).toBe(o.text);
    expect(obligations.map((o) => [o.modal, o.negated])).toEqual([
      ['shall', false],
      ['must not', true],
      ['is required to', false],
    ]);
    expect(obligations[0]?.references).toEqual(['art-10-2-f', 'art-6-3', 'annex-iii']);
    expect(obligations[0]?.text.startsWith('Under Regulation')).toBe(true);

    // `framework` narrows resolution; another text gives another answer.
    const narrowed = await t.call('POST', '/v1/context/clause-extract', { body: { text: 'Article 9 applies.', framework: 'gdpr' } });
    expect(narrowed.body.references[0].resolved).toEqual([expect.objectContaining({ framework: 'gdpr', ref: 'art-9' })]);
    expect(narrowed.body.obligations).toEqual([]);
    expectEnvelope(
      await t.call('POST', '/v1/context/clause-extract', { body: { text: 'x', framework: 'no-such-framework' } }),
      422,
      'validation_failed',
    );

    // A stored document reads the same; nothing is audited.
    const doc = await upload(t, text);
    const fromDoc = await t.call('POST', '/v1/context/clause-extract', { body: { documentId: doc.id } });
    expect(fromDoc.body.references).toEqual(res.body.references);
    expect(await auditActions(t)).not.toContain('document.classified');
  });
});

describe('context: map, gap-analysis and recommendations', () => {
  const policy = [
    'AI risk policy.',
    'The provider shall establish a lifecycle risk management system for each high-risk AI system, in accordance with Article 9 of the AI Act.',
    'Lunch is served at noon.',
  ].join('\n\n');

  it('maps passages to controls, stores them, and the gaps follow documents and evidence', async () => {
    const t = await createTenant(ts);
    // Not activated: 409; unknown: 422.
    const notActive = expectEnvelope(
      await t.call('POST', '/v1/context/gap-analysis', { body: { framework: 'eu-ai-act' } }),
      409,
      'conflict',
    );
    expect(notActive.details[0].field).toBe('framework');
    expect(
      expectEnvelope(await t.call('POST', '/v1/context/gap-analysis', { body: { framework: 'no-such' } }), 422, 'validation_failed')
        .details[0].field,
    ).toBe('framework');
    const doc = await upload(t, policy, 'AI risk policy');
    expectEnvelope(await t.call('POST', '/v1/context/map', { body: { documentId: doc.id } }), 422, 'validation_failed');
    expectEnvelope(
      await t.call('POST', '/v1/context/map', { body: { documentId: doc.id, framework: 'no-such' } }),
      422,
      'validation_failed',
    );

    expect((await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} })).status).toBeLessThan(300);
    const g0 = await t.call('POST', '/v1/context/gap-analysis', { body: { framework: 'eu-ai-act' } });
    expect(g0.status).toBe(200);
    expect(g0.body.covered).toBe(0);
    expect(g0.body.gaps).toHaveLength(g0.body.controls);
    const gapOf = (body: { gaps: { control: string; missing: string[] }[] }, c: string) => body.gaps.find((g) => g.control === c);
    expect(gapOf(g0.body, 'AIA-RMS-01')?.missing).toEqual(['evidence', 'document']);

    const mapped = await t.call('POST', '/v1/context/map', { body: { documentId: doc.id } });
    expect(mapped.status).toBe(200);
    expect(mapped.body.frameworks).toEqual([
      expect.objectContaining({
        framework: 'eu-ai-act',
        dictionaryVersion: expect.stringMatching(/^eu-ai-act@/),
        mappingId: expect.stringMatching(/^cxm_/),
      }),
    ]);
    const maps = mapped.body.mappings as {
      passage: { start: number; end: number; text: string };
      control: string;
      score: number;
      reason: string;
    }[];
    for (const m of maps) expect(policy.slice(m.passage.start, m.passage.end)).toBe(m.passage.text);
    const rms = maps.find((m) => m.control === 'AIA-RMS-01');
    expect(rms?.passage.text).toContain('Article 9');
    expect(rms?.reason).toContain('cites art-9 (a clause of the control)');
    // A sub-clause control is scored lower than the control whose clause is cited; the lunch line maps to nothing.
    const sub = maps.find((m) => m.control === 'AIA-RMS-02');
    if (sub) expect(sub.score).toBeLessThan(rms?.score ?? 0);
    expect(maps.some((m) => m.passage.text.startsWith('Lunch'))).toBe(false);
    expect(await auditActions(t)).toContain('document.mapped');

    const g1 = await t.call('POST', '/v1/context/gap-analysis', { body: { framework: 'eu-ai-act' } });
    expect(gapOf(g1.body, 'AIA-RMS-01')).toMatchObject({ missing: ['evidence'], documentIds: [doc.id], evidenceIds: [] });

    // Evidence for the control closes its gap.
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'RMS procedure', kind: 'policy', controlIds: ['AIA-RMS-01', 'AIA-CLS-01'] },
    });
    expect(ev.status).toBe(201);
    const g2 = await t.call('POST', '/v1/context/gap-analysis', { body: { framework: 'eu-ai-act' } });
    expect(gapOf(g2.body, 'AIA-RMS-01')).toBeUndefined();
    expect(gapOf(g2.body, 'AIA-CLS-01')).toMatchObject({ missing: ['document'], evidenceIds: [ev.body.id] });
    expect(g2.body.covered).toBe(1);
    expect(g2.body.gaps).toHaveLength(g2.body.controls - 1);

    // Re-mapping a changed document replaces its mapping: a text without the passage drops the link.
    const bare = await upload(t, 'Lunch is served at noon.');
    const m2 = await t.call('POST', '/v1/context/map', { body: { documentId: bare.id, framework: 'eu-ai-act' } });
    expect(m2.body.mappings).toEqual([]);
    expect(m2.body.frameworks[0].controls).toBe(0);
    const again = await t.call('POST', '/v1/context/map', { body: { documentId: doc.id, framework: 'eu-ai-act' } });
    expect(again.body.frameworks[0].mappingId).toBe(mapped.body.frameworks[0].mappingId);
  });

  it('ranks gaps by a priority computed from missing parts, obligations in force and crosswalk reach', async () => {
    const t = await createTenant(ts);
    expectEnvelope(await t.call('GET', '/v1/context/recommendations?framework=eu-ai-act'), 409, 'conflict');
    expectEnvelope(await t.call('GET', '/v1/context/recommendations?framework=no-such'), 422, 'validation_failed');
    const empty = await t.call('GET', '/v1/context/recommendations');
    expect(empty.body).toMatchObject({ frameworks: [], total: 0, recommendations: [] });

    // Pinned to the text as first published, where art-9 applies from 2026-08-02 (in force today).
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: { version: '1.0.0' } });
    type Rec = {
      rank: number;
      control: string;
      missing: string[];
      priority: number;
      parts: { name: string; value: number; weight: number; cap: number; points: number }[];
    };
    const r0 = await t.call('GET', '/v1/context/recommendations?limit=200');
    expect(r0.status).toBe(200);
    const recs0 = r0.body.recommendations as Rec[];
    expect(r0.body.total).toBe(recs0.length);
    expect(recs0.map((r) => r.rank)).toEqual(recs0.map((_, i) => i + 1));
    for (const r of recs0) {
      expect(r.priority).toBeCloseTo(
        r.parts.reduce((n, p) => n + Math.min(p.value, p.cap) * p.weight, 0),
        3,
      );
    }
    for (let i = 1; i < recs0.length; i++) expect((recs0[i] as Rec).priority).toBeLessThanOrEqual((recs0[i - 1] as Rec).priority);
    const rms0 = recs0.find((r) => r.control === 'AIA-RMS-01') as Rec;
    const part = (r: Rec, name: string) => r.parts.find((p) => p.name === name)?.value;
    expect(part(rms0, 'missing')).toBe(2);
    // AIA-OBL-018 (art-9, in force since 2026-08-02) and the art-9 sub-clause obligations are on its clause.
    expect(part(rms0, 'obligations_in_force')).toBeGreaterThan(0);
    expect(part(rms0, 'crosswalk_reach')).toBeGreaterThan(0);

    // Evidence for it: one part missing now, so it moves down; mapping a document removes it.
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 'RMS', kind: 'policy', controlIds: ['AIA-RMS-01'] } });
    const recs1 = (await t.call('GET', '/v1/context/recommendations?limit=200')).body.recommendations as Rec[];
    const rms1 = recs1.find((r) => r.control === 'AIA-RMS-01') as Rec;
    expect(rms1.missing).toEqual(['document']);
    expect(rms1.priority).toBeCloseTo(rms0.priority - 1, 3);
    expect(rms1.rank).toBeGreaterThan(rms0.rank);

    const doc = await upload(t, 'The provider shall run a lifecycle risk management system as required by Article 9 of the AI Act.');
    await t.call('POST', '/v1/context/map', { body: { documentId: doc.id } });
    const recs3 = (await t.call('GET', '/v1/context/recommendations?limit=200&framework=eu-ai-act')).body;
    expect(recs3.frameworks).toEqual(['eu-ai-act']);
    expect((recs3.recommendations as Rec[]).find((r) => r.control === 'AIA-RMS-01')).toBeUndefined();
    expect((await t.call('GET', '/v1/context/recommendations?limit=3')).body.recommendations).toHaveLength(3);
  });
});

describe('context: access', () => {
  it('is a growth rail: a starter tenant gets 403; a viewer reads but cannot write; no token is 401', async () => {
    const starter = await createTenant(ts, { tier: 'starter' });
    const denied = expectEnvelope(await starter.call('POST', '/v1/context/upload', { body: { title: 'x', text: 'y' } }), 403, 'forbidden');
    expect(denied.details).toEqual([{ field: 'tier', issue: 'growth' }]);
    expectEnvelope(await starter.call('GET', '/v1/context/recommendations'), 403, 'forbidden');
    expectEnvelope(await starter.call('POST', '/v1/context/classify', { body: { text: 'DPIA' } }), 403, 'forbidden');

    const growth = await createTenant(ts, { tier: 'growth' });
    expect((await growth.call('POST', '/v1/context/upload', { body: { title: 'x', text: 'y' } })).status).toBe(201);
    const viewer = await growth.key('viewer');
    expect((await call(ts.url, 'GET', '/v1/context/upload', { token: viewer })).status).toBe(200);
    expect((await call(ts.url, 'POST', '/v1/context/clause-extract', { token: viewer, body: { text: 'Article 9' } })).status).toBe(200);
    expectEnvelope(await call(ts.url, 'POST', '/v1/context/upload', { token: viewer, body: { title: 'x', text: 'y' } }), 403, 'forbidden');
    expectEnvelope(await call(ts.url, 'GET', '/v1/context/upload'), 401, 'unauthorized');
  });
});

describe('context: PDF and DOCX uploads', () => {
  const b64 = (b: Buffer) => b.toString('base64');
  const uploadFile = (t: TenantFixture, title: string, file: Buffer, mediaType: string) =>
    t.call('POST', '/v1/context/upload', { body: { title, contentBase64: b64(file), mediaType, source: `${title}.bin` } });

  it('extracts and stores the text of a PDF (every page) and of a DOCX (every paragraph)', async () => {
    const t = await createTenant(ts);
    const pdf = await textPdf(['Risk policy. The provider shall establish a risk management system.', 'Logs are kept for six months.']);
    const res = await uploadFile(t, 'Risk policy', pdf, PDF_TYPE);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ mediaType: PDF_TYPE, title: 'Risk policy' });
    const text = (await t.call('GET', `/v1/context/upload/${res.body.id}/text`)).body;
    expect(text.text).toContain('The provider shall establish a risk management system.');
    expect(text.text).toContain('Logs are kept for six months.');
    expect(text.text.indexOf('Risk policy.')).toBeLessThan(text.text.indexOf('Logs are kept'));
    expect(text.sha256).toBe(sha(text.text));
    expect(res.body).toMatchObject({ sha256: sha(text.text), characters: text.text.length, sizeBytes: Buffer.byteLength(text.text) });
    // The stored text is the rail's text: its computations read it.
    const classified = await t.call('POST', '/v1/context/classify', { body: { documentId: res.body.id } });
    expect(classified.status, JSON.stringify(classified.body)).toBe(200);

    const word = await uploadFile(
      t,
      'Logging',
      docx(['Logging & records.', 'The deployer shall keep the logs <automatically> generated.']),
      DOCX_TYPE,
    );
    expect(word.status, JSON.stringify(word.body)).toBe(201);
    expect(word.body.mediaType).toBe(DOCX_TYPE);
    const wordText = (await t.call('GET', `/v1/context/upload/${word.body.id}/text`)).body.text;
    expect(wordText).toBe('Logging & records.\n\nThe deployer shall keep the logs <automatically> generated.');
    expect((await auditActions(t)).filter((a) => a === 'document.uploaded')).toHaveLength(2);
  });

  it('refuses encrypted, corrupt, text-less and oversized files with 422 naming the issue, and stores nothing', async () => {
    const t = await createTenant(ts);
    const good = await textPdf(['A readable page of text.']);
    const cases: [string, Buffer, string, string][] = [
      ['encrypted pdf', await textPdf(['Secret text.'], { userPassword: 'open sesame', ownerPassword: 'owner' }), PDF_TYPE, 'encrypted'],
      ['encrypted docx', encryptedOfficeFile(), DOCX_TYPE, 'encrypted'],
      ['truncated pdf', good.subarray(0, Math.floor(good.length / 3)), PDF_TYPE, 'corrupt'],
      ['not a pdf', Buffer.from('just some text, declared a PDF'), PDF_TYPE, 'corrupt'],
      ['garbled pdf', Buffer.from('%PDF-1.7\n% nothing of a PDF follows\n'), PDF_TYPE, 'corrupt'],
      ['not a zip', Buffer.from('plain text declared a DOCX'), DOCX_TYPE, 'corrupt'],
      ['zip without document', docx([], { 'word/document.xml': null }), DOCX_TYPE, 'corrupt'],
      ['broken zip', docx(['Text']).subarray(0, 40), DOCX_TYPE, 'corrupt'],
      ['shape-only pdf', await shapeOnlyPdf(), PDF_TYPE, 'no_text'],
      ['empty docx', docx(['', '   ']), DOCX_TYPE, 'no_text'],
      // A zip that inflates past 64 MiB is refused before it is read.
      ['zip bomb', docx(['Text'], { 'word/media/pad.bin': new Uint8Array(64 * MiB + 1) }), DOCX_TYPE, 'too_big'],
      ['oversized pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4 * MiB - 8, 0x20)]), PDF_TYPE, 'too_big'],
    ];
    for (const [what, file, mediaType, issue] of cases) {
      const env = expectEnvelope(await uploadFile(t, what, file, mediaType), 422, 'validation_failed');
      expect(env.details, what).toEqual([{ field: 'contentBase64', issue, message: expect.any(String) }]);
      expect(env.message.length, what).toBeGreaterThan(10);
    }
    // A PDF or DOCX media type with `text` is refused: the file goes in contentBase64.
    const asText = await t.call('POST', '/v1/context/upload', { body: { title: 'x', text: 'hello', mediaType: PDF_TYPE } });
    expect(expectEnvelope(asText, 422, 'validation_failed').details[0].field).toBe('text');
    expect(await collectPages(t, '/v1/context/upload')).toEqual([]);
    expect((await auditActions(t)).filter((a) => a === 'document.uploaded')).toEqual([]);
    // Exactly 4 MiB of file passes the size check (and is then read: this one is no PDF).
    const atLimit = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4 * MiB - 9, 0x20)]);
    expect(atLimit.length).toBe(4 * MiB);
    const env = expectEnvelope(await uploadFile(t, 'at limit', atLimit, PDF_TYPE), 422, 'validation_failed');
    expect(env.details[0].issue).toBe('corrupt');
  });
});
