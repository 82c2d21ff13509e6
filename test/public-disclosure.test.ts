import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The public_disclosure rail: Art. 50 duties decided from the system profile (worked out by hand
 * from Art. 50(1)-(5)), documents built from the tenant's records, and immutable versions whose
 * SHA-256 the test recomputes from the returned content.
 */

let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  other = await createTenant(ts);
  expect((await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} })).status).toBeLessThan(300);
});
afterAll(() => ts?.close());

const base = '/v1/public-disclosure';
const sys = () => `sys_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const chatbot = {
  name: 'Credit assistant',
  purpose: 'Answers customer questions about loan applications.',
  provider: 'Acme Bank AG',
  role: 'provider_and_deployer',
  interactsWithPeople: true,
  generatesSyntheticContent: true,
  syntheticModalities: ['text'],
};
const emotionCam = {
  name: 'Store mood camera',
  purpose: 'Estimates shopper mood from video to adjust staffing.',
  provider: 'Vision GmbH',
  role: 'deployer',
  interactsWithPeople: true,
  generatesSyntheticContent: true,
  syntheticModalities: ['video'],
  emotionRecognition: true,
  deepFake: true,
};

async function declare(systemId: string, body: Record<string, unknown>, who = t) {
  const res = await who.call('PUT', `${base}/systems/${systemId}`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function generate(kind: string, systemId: string, who = t) {
  const res = await who.call('POST', `${base}/${kind}`, { body: { systemId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

type Duty = { paragraph: string; applies: boolean | null; requiredText: string | null; reason: string; source: string };
const applies = (doc: { duties: Duty[] }) => Object.fromEntries(doc.duties.map((d) => [d.paragraph, d.applies]));

/** The test's own canonical form: keys sorted at every level, then SHA-256. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
const hashOf = (content: unknown) => createHash('sha256').update(canonical(content)).digest('hex');

describe('public disclosure: Art. 50 duties from the profile', () => {
  it('a chatbot the tenant provides: 50(1), 50(2) and 50(5); none of the deployer duties', async () => {
    const id = sys();
    await declare(id, chatbot);
    const doc = await generate('art-50', id);
    expect(doc).toMatchObject({ object: 'svc.public_disclosure.document', kind: 'art-50', systemId: id, version: 1, missing: [] });
    expect(applies(doc)).toEqual({ '50(1)': true, '50(2)': true, '50(3)': false, '50(4)': false, '50(4) text': false, '50(5)': true });
    const d1 = doc.duties.find((d: Duty) => d.paragraph === '50(1)');
    expect(d1.source).toBe('EU AI Act Art. 50(1)');
    expect(d1.requiredText).toContain('You are interacting with an AI system (Credit assistant)');
    expect(doc.duties.find((d: Duty) => d.paragraph === '50(3)').requiredText).toBeNull();
    expect(doc.sections.map((s: { key: string }) => s.key)).toEqual(['art-50(1)', 'art-50(2)', 'art-50(5)']);
  });

  it('an emotion-recognition camera the tenant deploys, making deep fakes: 50(3), 50(4) and 50(5); no provider duty', async () => {
    const id = sys();
    await declare(id, emotionCam);
    const doc = await generate('art-50', id);
    expect(applies(doc)).toEqual({ '50(1)': false, '50(2)': false, '50(3)': true, '50(4)': true, '50(4) text': false, '50(5)': true });
    expect(doc.duties.find((d: Duty) => d.paragraph === '50(1)').reason).toContain('does not provide');
    expect(doc.duties.find((d: Duty) => d.paragraph === '50(3)').requiredText).toContain('emotion recognition system (Store mood camera)');
    expect(doc.duties.find((d: Duty) => d.paragraph === '50(4)').requiredText).toBe(
      'This video content has been artificially generated or manipulated.',
    );
  });

  it('public-interest text: disclosed unless under editorial responsibility (the Art. 50(4) exception)', async () => {
    const id = sys();
    const news = { ...chatbot, name: 'News writer', role: 'deployer', interactsWithPeople: false, publicInterestText: true };
    await declare(id, news);
    expect(applies(await generate('art-50', id))['50(4) text']).toBe(true);
    await declare(id, { ...news, editorialResponsibility: true });
    const edited = await generate('art-50', id);
    expect(applies(edited)).toEqual({
      '50(1)': false,
      '50(2)': false,
      '50(3)': false,
      '50(4)': false,
      '50(4) text': false,
      '50(5)': false,
    });
    expect(edited.duties.find((d: Duty) => d.paragraph === '50(4) text').reason).toContain('exception');
    expect(edited.sections).toEqual([]);
  });

  it('without a profile: applicability undecided, `profile` missing', async () => {
    const doc = await generate('art-50', sys());
    expect(doc.duties.every((d: Duty) => d.applies === null && d.requiredText === null)).toBe(true);
    expect(doc.missing).toEqual(['profile']);
    expect(doc.sources).toEqual([]);
  });
});

describe('public disclosure: versions and hashes', () => {
  it('identical inputs give the same hash; a changed record gives a new version with a new hash', async () => {
    const id = sys();
    const profile = await declare(id, chatbot);
    const v1 = await generate('model-card', id);
    const v2 = await generate('model-card', id);
    expect([v1.version, v2.version]).toEqual([1, 2]);
    expect(v1.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(v2.sha256).toBe(v1.sha256);
    expect(v2).toMatchObject({ previousSha256: v1.sha256, changed: false });
    expect(v1).toMatchObject({ previousSha256: null, changed: true });
    // The hash is the SHA-256 of the canonical content, recomputed here from the response.
    const content = (d: Record<string, unknown>) => ({
      kind: d.kind,
      systemId: d.systemId,
      sections: d.sections,
      duties: d.duties,
      missing: d.missing,
      sources: d.sources,
    });
    expect(hashOf(content(v1))).toBe(v1.sha256);
    expect(v1.sources).toEqual([{ type: 'system_profile', id, label: 'Credit assistant', stamp: profile.updatedAt }]);
    expect(v1.missing).toEqual(['evaluation', 'risks-and-limitations', 'training-data', 'evidence']);

    // A new record of the system: an assessment. It becomes a source and changes the hash.
    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: id, jurisdiction: 'eu/de' } });
    expect(asm.status, JSON.stringify(asm.body)).toBe(201);
    const v3 = await generate('model-card', id);
    expect(v3).toMatchObject({ version: 3, previousSha256: v1.sha256, changed: true });
    expect(v3.sha256).not.toBe(v1.sha256);
    expect(hashOf(content(v3))).toBe(v3.sha256);
    expect(v3.sources.map((s: { type: string; id: string }) => `${s.type}:${s.id}`)).toEqual([
      `system_profile:${id}`,
      `assessment:${asm.body.id}`,
    ]);
    const evaluation = v3.sections.find((s: { key: string }) => s.key === 'evaluation');
    expect(evaluation.content).toContain('FRIA (eu/de)');
    expect(evaluation.sourceIds).toEqual([asm.body.id]);
    expect(v3.missing).not.toContain('evaluation');

    // Versions are immutable and listed newest first per kind.
    expect((await t.call('GET', `${base}/model-card/${v1.id}`)).body).toEqual(v1);
    const list = await t.call('GET', `${base}/model-card?systemId=${id}`);
    expect(list.body.data.map((d: { version: number }) => d.version)).toEqual([3, 2, 1]);
    expectEnvelope(await t.call('GET', `${base}/art-50/${v1.id}`), 404, 'not_found');
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: v3.id, limit: 10 } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['disclosure_document.generated']);
  });

  it('art-53-gpai: Annex XI/XII items filled from the records, the others listed as missing', async () => {
    const id = sys();
    await declare(id, { ...chatbot, model: 'acme-llm 2.1', deployerContext: 'Customer portal.' });
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Acceptable use policy', kind: 'policy', systemId: id, controlIds: ['AIA-RMS-01'] },
    });
    expect(ev.status, JSON.stringify(ev.body)).toBe(201);
    const doc = await generate('art-53-gpai', id);
    const byKey = Object.fromEntries(doc.sections.map((s: { key: string }) => [s.key, s]));
    expect(byKey['53(1)(a).annex-xi-1(a)'].content).toBe(
      'Answers customer questions about loan applications. Integrated in: Customer portal.',
    );
    expect(byKey['53(1)(a).annex-xi-1(a)'].source).toBe('EU AI Act Art. 53(1)(a), Annex XI Section 1(1)(a)');
    expect(byKey['53(1)(a).annex-xi-1(b)']).toMatchObject({
      content: 'Acceptable use policy (policy). Controls cited: AIA-RMS-01.',
      sourceIds: [ev.body.id],
    });
    expect(byKey['53(1)(a).annex-xi-1(d)'].content).toBe('acme-llm 2.1');
    expect(doc.missing).toEqual([
      '53(1)(a).annex-xi-1(c)',
      '53(1)(a).annex-xi-1(f)',
      '53(1)(a).annex-xi-2(a)',
      '53(1)(a).annex-xi-2(c)',
      '53(1)(a).annex-xi-2(d)',
      '53(1)(a).annex-xi-2(e)',
      '53(1)(a).evaluation',
      '53(1)(c).copyright-policy',
      '53(1)(d).training-content-summary',
      'profile.generalPurposeModel',
    ]);
    expect(doc.sources.map((s: { type: string }) => s.type)).toEqual(['system_profile', 'evidence']);
  });
});

describe('public disclosure: versions generated at once', () => {
  it('each of several generations at once for one system gets its own next version, none refused', async () => {
    const systemId = sys();
    await declare(systemId, chatbot);
    for (const path of ['transparency', 'art-50', 'model-card']) {
      const all = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', `${base}/${path}`, { body: { systemId } })));
      expect(
        all.map((r) => r.status),
        JSON.stringify(all.map((r) => r.body)),
      ).toEqual([201, 201, 201, 201, 201]);
      expect(all.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
      // Each version names the hash of the one before it.
      const byVersion = new Map(all.map((r) => [r.body.version as number, r.body]));
      for (let v = 2; v <= 5; v++) expect(byVersion.get(v).previousSha256).toBe(byVersion.get(v - 1).sha256);
    }
  });
});

describe('public disclosure: GPAI records of the gpai_summary rail', () => {
  it('art-53-gpai fills (c)/(d) items and the energy and compute of Annex XI from a linked GPAI summary', async () => {
    const summary = await t.call('POST', '/v1/gpai-summary/summaries', {
      body: {
        modelName: 'Aurora',
        modelVersion: '2.1',
        provider: { name: 'Acme AI SAS', contact: 'ai-office@acme.example' },
        modalities: ['text'],
      },
    });
    expect(summary.status, JSON.stringify(summary.body)).toBe(201);
    const energy = await t.call('POST', '/v1/gpai-summary/energy-disclosure', {
      body: {
        summaryId: summary.body.id,
        energyMwh: 1250.5,
        energyBasis: 'estimated',
        method: 'GPU-hours times board power times a PUE of 1.2',
        computeFlops: 3.8e24,
        trainingTimeHours: 2160,
      },
    });
    expect(energy.status, JSON.stringify(energy.body)).toBe(201);
    const id = sys();
    await declare(id, { ...chatbot, generalPurposeModel: true, gpaiSummaryIds: [summary.body.id] });
    const doc = await generate('art-53-gpai', id);
    const byKey = Object.fromEntries(doc.sections.map((s: { key: string }) => [s.key, s]));
    expect(byKey['53(1)(a).annex-xi-1(d)']).toMatchObject({ content: 'Aurora 2.1', sourceIds: [summary.body.id] });
    expect(byKey['53(1)(a).annex-xi-2(d)'].content).toBe('3.8e+24 FLOP, 2160 hours of training.');
    expect(byKey['53(1)(a).annex-xi-2(e)'].content).toBe('1250.5 MWh (estimated).');
    expect(byKey['53(1)(d).training-content-summary'].content).toContain(`Aurora 2.1: summary ${summary.body.id}`);
    expect(doc.missing).not.toContain('profile.generalPurposeModel');
    expect(doc.missing).not.toContain('53(1)(d).training-content-summary');
    expect(doc.sources.map((s: { type: string; id: string }) => `${s.type}:${s.id}`)).toEqual([
      `system_profile:${id}`,
      `gpai_summary:${summary.body.id}`,
    ]);
    const unknown = await t.call('PUT', `${base}/systems/${id}`, {
      body: { ...chatbot, gpaiSummaryIds: ['gps_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details?.[0]?.field).toBe('gpaiSummaryIds[0]');
  });
});

describe('public disclosure: transparency notices', () => {
  it('generated as a draft with the required texts, versioned, published and withdrawn; other moves 409', async () => {
    const id = sys();
    await declare(id, chatbot);
    const res = await t.call('POST', `${base}/transparency`, { body: { systemId: id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const n = res.body;
    expect(n).toMatchObject({ object: 'svc.public_disclosure.transparency_notice', status: 'draft', audience: 'public', version: 1 });
    expect(n.text).toContain('Credit assistant is an AI system provided by Acme Bank AG.');
    expect(n.text).toContain('You are interacting with an AI system (Credit assistant), not a human.');
    expect(n.missing).toEqual(['assessments', 'risk-management', 'evidence']);
    expect(
      hashOf({
        kind: 'transparency',
        systemId: id,
        audience: 'public',
        sections: n.sections,
        duties: [],
        missing: n.missing,
        sources: n.sources,
      }),
    ).toBe(n.sha256);
    const again = await t.call('POST', `${base}/transparency`, { body: { systemId: id } });
    expect(again.body).toMatchObject({ version: 2, sha256: n.sha256, changed: false });
    const deployers = await t.call('POST', `${base}/transparency`, { body: { systemId: id, audience: 'deployers' } });
    expect(deployers.body.sha256).not.toBe(n.sha256);

    expectEnvelope(await t.call('POST', `${base}/transparency/${n.id}/withdraw`, { body: {} }), 409, 'conflict');
    const pub = await t.call('POST', `${base}/transparency/${n.id}/publish`, { body: {} });
    expect(pub.body).toMatchObject({ status: 'published', sha256: n.sha256, text: n.text });
    expect(pub.body.publishedAt).not.toBeNull();
    expect(expectEnvelope(await t.call('POST', `${base}/transparency/${n.id}/publish`, { body: {} }), 409, 'conflict').message).toContain(
      'published',
    );
    expect((await t.call('POST', `${base}/transparency/${n.id}/withdraw`, { body: {} })).body.status).toBe('withdrawn');
  });
});

describe('public disclosure: profiles, tenancy, tiers, validation', () => {
  it('profiles: replaced by PUT, listed, 404 when undeclared, 422 for a risk this tenant does not have', async () => {
    const id = sys();
    const first = await declare(id, chatbot);
    const second = await declare(id, { ...chatbot, name: 'Credit assistant 2' });
    expect(second).toMatchObject({ systemId: id, name: 'Credit assistant 2', createdAt: first.createdAt, emotionRecognition: false });
    expect((await t.call('GET', `${base}/systems/${id}`)).body).toEqual(second);
    expect((await t.call('GET', `${base}/systems?limit=200`)).body.data.map((p: { systemId: string }) => p.systemId)).toContain(id);
    expectEnvelope(await other.call('GET', `${base}/systems/${id}`), 404, 'not_found');
    const bad = await t.call('PUT', `${base}/systems/${id}`, { body: { ...chatbot, riskIds: ['rsk_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] } });
    expect(expectEnvelope(bad, 422, 'validation_failed').details?.[0]?.field).toBe('riskIds[0]');
    const role = await t.call('PUT', `${base}/systems/${id}`, { body: { ...chatbot, role: 'importer' } });
    expect(expectEnvelope(role, 422, 'validation_failed').details?.[0]?.field).toBe('role');
  });

  it('a profile declared several times at once is created once and replaced by the others', async () => {
    const id = sys();
    const names = ['Assistant A', 'Assistant B', 'Assistant C'];
    const sent = await Promise.all(names.map((name) => t.call('PUT', `${base}/systems/${id}`, { body: { ...chatbot, name } })));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    const got = (await t.call('GET', `${base}/systems/${id}`)).body;
    expect(names).toContain(got.name);
    const trail = (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: id, limit: 200 } })).body.data;
    expect(trail.map((e: { data: { replaced: boolean } }) => e.data.replaced).sort()).toEqual([false, true, true]);
  });

  it('another tenant gets 404 and never sees the versions; a tier below enterprise gets 403', async () => {
    const id = sys();
    const doc = await generate('art-50', id);
    expectEnvelope(await other.call('GET', `${base}/art-50/${doc.id}`), 404, 'not_found');
    expect((await other.call('GET', `${base}/art-50?limit=200`)).body.data.map((d: { id: string }) => d.id)).not.toContain(doc.id);
    const growth = await createTenant(ts, { tier: 'growth' });
    const denied = await growth.call('POST', `${base}/art-50`, { body: { systemId: id } });
    expect(expectEnvelope(denied, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'enterprise' }]);
    const viewer = await t.key('viewer');
    const ro = await fetch(`${ts.url}${base}/art-50`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ systemId: id }),
    });
    expect(ro.status).toBe(403);
  });
});
