import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

// The documents of an assessment through the report engine: a FRIA answered by one person,
// approved by another, rendered as a PDF whose text carries every answer with its citation, the
// approval and the evidence the answers cite; a report of the wrong type or of another tenant's
// assessment is refused before anything is written.

let ts: TestServer;
beforeAll(async () => {
  // The render job runs in this server (SVC_ROLE all), on a database of its own.
  ts = await startIsolatedTestServer({ SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '100' });
});
afterAll(() => ts?.close());

type Json = Record<string, any>;
const tag = () => Math.random().toString(36).slice(2, 8);
const A = '/v1/compliance/assessments';
const as = (token: string, method: string, path: string, body?: unknown): Promise<CallResult> =>
  call(ts.url, method, path, { token, body });

async function person(t: TenantFixture, name: string): Promise<{ id: string; token: string }> {
  const res = await t.call('POST', '/v1/stakeholders/users', { body: { name, email: `${name.toLowerCase()}.${tag()}@example.com` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, token: await t.personKey(res.body.id) };
}

/** A distinct answer for each question, so that the document must show each one. */
function answerFor(q: Json, n: number, evidenceId: string, attach: boolean): Json {
  switch (q.kind) {
    case 'yes_no':
      return { value: n % 2 ? 'yes' : 'no', notes: `Note ${n} on ${q.key}.` };
    case 'scale':
      return { value: 3 };
    case 'choice':
      return { value: q.options[1].value };
    case 'evidence':
      return { evidenceIds: [evidenceId], value: `Attached for ${q.key}.` };
    default:
      return { value: `Answer ${n} to ${q.key}.`, ...(attach ? { evidenceIds: [evidenceId] } : {}) };
  }
}

async function waitForReport(t: TenantFixture, id: string): Promise<Json> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await t.call('GET', `/v1/reports/${id}`);
    if (r.body.status !== 'rendering') return r.body;
    if (Date.now() > deadline) throw new Error(`report ${id} still rendering: ${JSON.stringify(r.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function pdfTextOf(t: TenantFixture, path: string): Promise<string> {
  const res = await fetch(ts.url + path, { headers: { authorization: `Bearer ${t.token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/pdf');
  const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
  const { text } = await extractText(pdf, { mergePages: true });
  // Lines of a paragraph wrap where the page ends: compare with the whitespace folded.
  return fold(text);
}

/** Whitespace folded (a hyphenated word may wrap after its hyphen), and the plain quotes the standard fonts draw. */
const fold = (s: string) =>
  s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/- /g, '-');

describe('assessment documents (fria, dpia) through the report engine', () => {
  it('lists the two document types, each needing assessmentId', async () => {
    const t = await createTenant(ts);
    const types = await collectPages<Json>(t, '/v1/reports/types');
    expect(types).toHaveLength(15);
    expect(types.find((x) => x.id === 'fria')).toMatchObject({
      title: 'Fundamental-rights impact assessment (EU AI Act Art. 27)',
      templateId: 'pdf/fria@1',
      requiredInputs: ['assessmentId'],
    });
    expect(types.find((x) => x.id === 'dpia')).toMatchObject({
      title: 'Data-protection impact assessment (GDPR Art. 35)',
      templateId: 'pdf/dpia@1',
      requiredInputs: ['assessmentId'],
    });
  });

  it('renders an approved FRIA: its record, every stage with questions, citations and answers, and its evidence', async () => {
    const t = await createTenant(ts);
    const ana = await person(t, 'Ana');
    const ben = await person(t, 'Ben');
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
    const sha = [...Array(64)].map((_, i) => '0123456789abcdef'[(i * 7 + 3) % 16]).join('');
    const evidenceTitle = `Works-council minutes ${tag()}`;
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: evidenceTitle, kind: 'document', controlIds: ['AIA-RMS-01'], systemId: 'sys_hr', sha256: sha },
    });
    expect(ev.status, JSON.stringify(ev.body)).toBe(201);

    const created = await t.call('POST', A, {
      body: { type: 'fria', systemId: 'sys_hr', jurisdiction: 'eu/de', title: 'FRIA of the hiring screen' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;

    // Ana answers every required question (answers may unlock more), over HTTP with her own key.
    const given = new Map<string, Json>();
    for (let round = 0; round < 5; round++) {
      const open = await collectPages<Json>(t, `${A}/${id}/questions?required=true&answered=false`);
      if (open.length === 0) break;
      for (const q of open) {
        // The first text answer cites the evidence record.
        const attach = q.kind === 'text' && ![...given.values()].some((g) => g.body.evidenceIds);
        const body = answerFor(q, given.size, ev.body.id, attach);
        const res = await as(ana.token, 'PUT', `${A}/${id}/questions/${q.key}/answer`, body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        given.set(q.key, { q, body });
      }
    }
    expect(given.size).toBeGreaterThan(5);
    expect((await as(ana.token, 'POST', `${A}/${id}/submit`, {})).status).toBe(200);
    const approved = await as(ben.token, 'POST', `${A}/${id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const a = approved.body;
    expect(a.answersHash).toMatch(/^[0-9a-f]{64}$/);

    const gen = await t.call('POST', '/v1/reports/generate', { body: { template: 'fria', assessmentId: id } });
    expect(gen.status, JSON.stringify(gen.body)).toBe(202);
    expect(gen.body).toMatchObject({ template: 'fria', status: 'rendering', inputs: { assessmentId: id } });
    const done = await waitForReport(t, gen.body.id);
    expect(done, JSON.stringify(done)).toMatchObject({
      status: 'ready',
      title: 'Fundamental-rights impact assessment (EU AI Act Art. 27)',
      recommendedReviewers: ['compliance-officer', 'legal-counsel', 'data-protection-officer'],
    });
    expect(done.pages).toBeGreaterThan(a.stages.length);
    const text = await pdfTextOf(t, done.downloadUrl);

    // The record: type, system, revision, status, pinned dictionary, who approved when, the frozen hash.
    for (const s of [id, 'fria', 'sys_hr', 'approved', a.dictionaryVersion, ben.id, a.approvedAt, a.answersHash]) expect(text).toContain(s);
    expect(text).toContain('Revision 1');
    // One section per stage, with its title.
    for (const [n, s] of (a.stages as Json[]).entries()) expect(text).toContain(fold(`Stage ${n + 1}: ${s.title}`));
    // Every answered question: its text, its citation, the value, the notes, who answered.
    for (const { q, body } of given.values()) {
      expect(text).toContain(fold(q.text));
      expect(text).toContain(fold(`Citation: ${q.source.citation}`));
      expect(text).toContain(fold(`Answer: ${body.value}`));
      if (body.notes) expect(text).toContain(fold(body.notes));
    }
    expect(text).toContain(`Answered by ${ana.id} at`);
    // The evidence the answers cite: id, title, SHA-256.
    expect(text).toContain(fold(`${ev.body.id}: ${evidenceTitle}`));
    expect(text).toContain(`SHA-256: ${sha}`);
  }, 240_000);

  it('refuses, with 422 on assessmentId, a missing id, another type, an unknown or another tenant’s assessment', async () => {
    const t = await createTenant(ts);
    const other = await createTenant(ts);
    const dpia = (await t.call('POST', A, { body: { type: 'dpia', systemId: 'sys_crm', jurisdiction: 'eu/fr' } })).body;
    const fria = (await t.call('POST', A, { body: { type: 'fria', systemId: 'sys_crm', jurisdiction: 'eu/fr' } })).body;
    const foreign = (await other.call('POST', A, { body: { type: 'fria', systemId: 'sys_x', jurisdiction: 'eu/fr' } })).body;
    expect(dpia.id && fria.id && foreign.id).toBeTruthy();

    const missing = expectEnvelope(await t.call('POST', '/v1/reports/generate', { body: { template: 'fria' } }), 422, 'validation_failed');
    expect(missing.details[0]).toMatchObject({ field: 'assessmentId', issue: 'missing' });
    for (const [template, assessmentId] of [
      ['fria', dpia.id],
      ['dpia', fria.id],
      ['fria', foreign.id],
      ['fria', 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
    ]) {
      const res = await t.call('POST', '/v1/reports/generate', { body: { template, assessmentId } });
      expect(expectEnvelope(res, 422, 'validation_failed').details[0].field, `${template} ${assessmentId}`).toBe('assessmentId');
    }
    // Nothing was written for the refused requests.
    expect((await t.call('GET', '/v1/reports')).body.data).toEqual([]);

    // A document of an assessment not yet approved renders, saying so.
    const gen = await t.call('POST', '/v1/reports/generate', { body: { template: 'dpia', assessmentId: dpia.id } });
    expect(gen.status, JSON.stringify(gen.body)).toBe(202);
    const done = await waitForReport(t, gen.body.id);
    expect(done.status, JSON.stringify(done)).toBe('ready');
    const text = await pdfTextOf(t, done.downloadUrl);
    expect(text).toContain(`The assessment is draft, not approved`);
    expect(text).toContain('not frozen: set on approval');
    expect(text).toContain('Answer: not answered.');
  }, 120_000);
});
