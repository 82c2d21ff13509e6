import { SEARCH_KINDS } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../packages/server/src/db/client.ts';
import { frameworksSearch } from '../packages/server/src/rails/frameworks/search.ts';
import { SEARCH_SOURCES } from '../packages/server/src/rails/index.ts';
import { collectSearchSources, contentDocuments } from '../packages/server/src/search/documents.ts';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

type Hit = { kind: string; id: string; score: number; title: string; snippet: string | null; fields: Record<string, unknown> };
type Results = { object: string; data: Hit[]; facets: Record<string, Record<string, number>>; total: number; cursor: string | null };

/** A word no shipped content holds, so a test's records are the only matches. */
const word = () => `zq${Math.random().toString(36).slice(2, 9).replace(/\d/g, 'x')}`;

async function search(t: TenantFixture, path: string): Promise<Results> {
  const res = await t.call('GET', path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Results;
}

async function addEvidence(t: TenantFixture, body: Record<string, unknown>): Promise<string> {
  const res = await t.call('POST', '/v1/compliance/evidence', { body: { kind: 'policy', controlIds: ['AIA-RMS-01'], ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function growthTenant(): Promise<TenantFixture> {
  const t = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
  const act = await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
  expect([200, 201]).toContain(act.status);
  return t;
}

describe('search: kinds and access', () => {
  it('lists the 20 kinds with their indexed and facet fields', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const res = await t.call('GET', '/v1/search/kinds?limit=200');
    expect(res.status).toBe(200);
    const kinds = res.body.data as { id: string; scope: string; indexedFields: string[]; facetFields: string[]; routes: string[] }[];
    expect(kinds).toHaveLength(20);
    expect(new Set(kinds.map((k) => k.id)).size).toBe(20);
    expect(res.body.cursor).toBeNull();
    for (const k of kinds) expect(k.indexedFields.length).toBeGreaterThan(0);
    expect(kinds.find((k) => k.id === 'finding')).toMatchObject({
      scope: 'tenant',
      facetFields: ['severity', 'status', 'control'],
      routes: ['findings'],
    });
    expect(kinds.filter((k) => k.scope === 'content').map((k) => k.id)).toContain('crosswalk');
    // Pages walk the same list.
    const first = await t.call('GET', '/v1/search/kinds?limit=15');
    const second = await t.call('GET', `/v1/search/kinds?limit=15&cursor=${first.body.cursor}`);
    expect([...first.body.data, ...second.body.data].map((k: { id: string }) => k.id)).toEqual(kinds.map((k) => k.id));
    expect(second.body.cursor).toBeNull();
  });

  it('is closed to a starter tenant (403) and needs q (422)', async () => {
    const starter = await createTenant(ts, { tier: 'starter' });
    expectEnvelope(await starter.call('GET', '/v1/search/frameworks?q=risk'), 403, 'forbidden');
    expectEnvelope(await starter.call('GET', '/v1/search/kinds'), 403, 'forbidden');
    const t = await createTenant(ts, { tier: 'growth' });
    for (const path of ['/v1/search/frameworks', '/v1/search/evidence?q=', '/v1/search/findings?q=%20%20', '/v1/search/multi-index?q=']) {
      const env = expectEnvelope(await t.call('GET', path), 422, 'validation_failed');
      expect(JSON.stringify(env.details)).toContain('q');
    }
    const unknown = expectEnvelope(await t.call('GET', '/v1/search/multi-index?q=risk&kinds=control,spaceship'), 422, 'validation_failed');
    expect(unknown.details[0].field).toBe('kinds');
    const wrongKind = expectEnvelope(await t.call('GET', '/v1/search/frameworks?q=risk&kind=evidence'), 422, 'validation_failed');
    expect(wrongKind.details[0].field).toBe('kind');
    expectEnvelope(await t.call('GET', '/v1/search/frameworks?q=risk&cursor=bm90LWEtY3Vyc29y'), 400, 'bad_request');
  });
});

describe('search: hostile input', () => {
  it('answers odd queries with a 200 or an enveloped 4xx, never a 500', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const values = ['%00', '%27%3B%20DROP%20TABLE%20evidence%3B--', '%E2%80%AE%F0%9F%92%A5', 'a'.repeat(201), '*', '%5C%5C%5C', ',,,'];
    for (const path of ['/v1/search/evidence', '/v1/search/frameworks', '/v1/search/multi-index', '/v1/search/specialists']) {
      for (const v of values) {
        for (const query of [`q=${v}`, `q=risk&type=${v}`, `q=risk&cursor=${v}`, `q=risk&limit=${v}`, `q=risk&kinds=${v}`]) {
          const res = await t.call('GET', `${path}?${query}`);
          if (res.status !== 200) expect(res.body.error, `${path}?${query}: ${res.status}`).toMatch(/^(bad_request|validation_failed)$/);
        }
      }
      // A single-valued parameter given twice is a malformed query (400), named in the details.
      const twice = await t.call('GET', `${path}?q=a&q=b`);
      expectEnvelope(twice, 400, 'bad_request');
      expect(twice.body.details).toEqual([expect.objectContaining({ field: 'q', issue: 'invalid_format' })]);
    }
  });
});

describe('search: framework dictionaries and crosswalks', () => {
  it('ranks dictionary records by BM25, counts facets over all matches, and filters narrow them', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const all = await search(t, '/v1/search/frameworks?q=risk%20management&limit=200');
    expect(all.object).toBe('svc.search.results');
    expect(all.total).toBeGreaterThan(10);
    const scores = all.data.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Facet counts cover every match: the kinds add up to the total.
    expect(Object.values(all.facets.kind ?? {}).reduce((a, b) => a + b, 0)).toBe(all.total);
    expect(Object.keys(all.facets)).toEqual(expect.arrayContaining(['kind', 'framework', 'jurisdiction']));

    const euControls = await search(t, '/v1/search/frameworks?q=risk%20management&framework=eu-ai-act&kind=control&limit=200');
    expect(euControls.total).toBeGreaterThan(0);
    expect(euControls.total).toBeLessThan(all.total);
    expect(euControls.facets.kind).toEqual({ control: euControls.total });
    expect(euControls.facets.framework).toEqual({ 'eu-ai-act': euControls.total });
    for (const h of euControls.data) {
      expect(h.kind).toBe('control');
      expect(h.fields.framework).toEqual(['eu-ai-act']);
      expect(h.id).toMatch(/^eu-ai-act@\d+\.\d+\.\d+\//);
    }
    // The filtered count is the unfiltered facet count of eu-ai-act among controls.
    const controls = await search(t, '/v1/search/frameworks?q=risk%20management&kind=control&limit=1');
    expect(controls.facets.framework?.['eu-ai-act']).toBe(euControls.total);
  });

  it('pages through the ranked result with the cursor, without repeats', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const whole = await search(t, '/v1/search/frameworks?q=data%20protection&limit=30');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Results = await search(t, `/v1/search/frameworks?q=data%20protection&limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data.map((h) => `${h.kind}:${h.id}`));
      cursor = page.cursor;
      pages++;
    } while (cursor && pages < 3);
    expect(seen).toEqual(whole.data.map((h) => `${h.kind}:${h.id}`));
    expect(new Set(seen).size).toBe(seen.length);
    // A cursor of one query does not page another.
    const first = await search(t, '/v1/search/frameworks?q=data%20protection&limit=5');
    expectEnvelope(await t.call('GET', `/v1/search/frameworks?q=security&limit=5&cursor=${first.cursor}`), 400, 'bad_request');
  });

  it('searches crosswalk edges with relationship facets; a filter narrows to its count', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const all = await search(t, '/v1/search/crosswalks?q=risk&limit=200');
    expect(all.total).toBeGreaterThan(0);
    expect(all.data.every((h) => h.kind === 'crosswalk')).toBe(true);
    const rel = all.facets.relationship ?? {};
    expect(Object.values(rel).reduce((a, b) => a + b, 0)).toBe(all.total);
    const [top] = Object.entries(rel);
    const [relationship, count] = top as [string, number];
    const narrowed = await search(t, `/v1/search/crosswalks?q=risk&relationship=${relationship}&limit=200`);
    expect(narrowed.total).toBe(count);
    expect(narrowed.facets.relationship).toEqual({ [relationship]: count });
    expect(narrowed.data.every((h) => h.fields.relationship === relationship)).toBe(true);
    const hit = narrowed.data[0] as Hit;
    expect((hit.fields.framework as string[]).length).toBeGreaterThanOrEqual(1);
    expect(hit.fields.from).toMatch(/\//);
  });
});

describe('search: evidence of the tenant', () => {
  it('ranks a title match above a description match, counts facets from the data, and follows writes', async () => {
    const t = await growthTenant();
    const w = word();
    const inTitle = await addEvidence(t, { title: `Quarterly ${w} review`, kind: 'policy' });
    const inDescription = await addEvidence(t, {
      title: 'Access review',
      description: `Covers the ${w} process among many other things listed here at length.`,
      kind: 'document',
    });
    await addEvidence(t, { title: `${w} screenshot`, kind: 'screenshot', controlIds: ['AIA-RMS-01', 'AIA-CLS-02'] });
    await addEvidence(t, { title: 'Unrelated policy', kind: 'policy' });

    const r1 = await search(t, `/v1/search/evidence?q=${w}`);
    expect(r1.total).toBe(3);
    const ids = r1.data.map((h) => h.id);
    expect(ids.indexOf(inTitle)).toBeLessThan(ids.indexOf(inDescription));
    expect(r1.data.find((h) => h.id === inDescription)?.snippet).toContain(w);
    expect(r1.facets.type).toEqual({ policy: 1, document: 1, screenshot: 1 });
    expect(r1.facets.control).toEqual({ 'AIA-RMS-01': 3, 'AIA-CLS-02': 1 });

    // Filters narrow the hits and the counts.
    const policies = await search(t, `/v1/search/evidence?q=${w}&type=policy,screenshot`);
    expect(policies.total).toBe(2);
    expect(policies.facets.type).toEqual({ policy: 1, screenshot: 1 });
    const dg = await search(t, `/v1/search/evidence?q=${w}&control=AIA-CLS-02`);
    expect(dg.data.map((h) => h.fields.type)).toEqual(['screenshot']);

    // A record created through the API is found by the next search, and the counts change.
    const fresh = await addEvidence(t, { title: `Fresh ${w} evidence`, kind: 'policy' });
    const r2 = await search(t, `/v1/search/evidence?q=${w}`);
    expect(r2.total).toBe(4);
    expect(r2.data.map((h) => h.id)).toContain(fresh);
    expect(r2.facets.type).toEqual({ policy: 2, document: 1, screenshot: 1 });

    // A change of another kind of record in between (an activation) rebuilds the index: still exact.
    expect([200, 201]).toContain((await t.call('POST', '/v1/frameworks/gdpr/activate', { body: {} })).status);
    const later = await addEvidence(t, { title: `Later ${w} evidence`, kind: 'document' });
    const r3 = await search(t, `/v1/search/evidence?q=${w}`);
    expect(r3.total).toBe(5);
    expect(r3.data.map((h) => h.id)).toContain(later);
    expect(r3.facets.type).toEqual({ policy: 2, document: 2, screenshot: 1 });
  });

  it("never shows another tenant's evidence", async () => {
    const a = await growthTenant();
    const b = await growthTenant();
    const w = word();
    const mine = await addEvidence(a, { title: `${w} register` });
    await addEvidence(b, { title: `${w} register of b` });
    const res = await search(a, `/v1/search/evidence?q=${w}`);
    expect(res.data.map((h) => h.id)).toEqual([mine]);
    expect(res.total).toBe(1);
    const multi = await search(a, `/v1/search/multi-index?q=${w}`);
    expect(multi.data.map((h) => h.id)).toEqual([mine]);
  });
});

describe('search: findings, specialists, multi-index', () => {
  it('searches findings with severity and status facets', async () => {
    const t = await growthTenant();
    const w = word();
    const make = async (title: string, severity: string) => {
      const res = await t.call('POST', '/v1/self-audit/findings', { body: { title, severity, controlId: 'AIA-RMS-01' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const high = await make(`${w} gap in logging`, 'high');
    await make(`${w} missing review`, 'low');
    await make(`${w} stale register`, 'low');
    const all = await search(t, `/v1/search/findings?q=${w}`);
    expect(all.total).toBe(3);
    expect(all.facets.severity).toEqual({ low: 2, high: 1 });
    expect(all.facets.status).toEqual({ open: 3 });
    const onlyHigh = await search(t, `/v1/search/findings?q=${w}&severity=high`);
    expect(onlyHigh.data.map((h) => h.id)).toEqual([high]);
    expect(onlyHigh.facets.severity).toEqual({ high: 1 });
  });

  it("shows listed consultants of any tenant and the caller's own unlisted ones, never another's unlisted", async () => {
    const w = word();
    const firmOwner = await createTenant(ts, { tier: 'specialist' });
    const other = await createTenant(ts, { tier: 'specialist' });
    const consultant = async (t: TenantFixture, name: string, listed: boolean, expertise: string[]) => {
      const firm = await t.call('POST', '/v1/specialists/firms', { body: { name: `${name} firm`, jurisdictions: ['EU'] } });
      expect(firm.status, JSON.stringify(firm.body)).toBe(201);
      const res = await t.call('POST', '/v1/specialists/consultants', {
        body: { firmId: firm.body.id, name, headline: `${w} assessor`, expertise, jurisdictions: ['EU'], listed },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const listed = await consultant(firmOwner, 'Ada Listed', true, ['eu-ai-act']);
    const hidden = await consultant(firmOwner, 'Bo Hidden', false, ['gdpr']);
    const own = await consultant(other, 'Cy Own', false, ['gdpr']);
    const res = await search(other, `/v1/search/specialists?q=${w}`);
    expect(res.data.map((h) => h.id).sort()).toEqual([listed, own].sort());
    expect(res.data.map((h) => h.id)).not.toContain(hidden);
    expect(res.facets.expertise).toEqual({ 'eu-ai-act': 1, gdpr: 1 });
    const gdpr = await search(other, `/v1/search/specialists?q=${w}&expertise=gdpr`);
    expect(gdpr.data.map((h) => h.id)).toEqual([own]);
  });

  it('searches several kinds at once with counts per kind', async () => {
    const t = await growthTenant();
    const w = word();
    const ev = await addEvidence(t, { title: `${w} evidence`, kind: 'document' });
    const cert = await t.call('POST', '/v1/trust/certifications', {
      body: { name: `${w} certificate`, issuer: 'BSI', validFrom: '2026-01-01T00:00:00.000Z' },
    });
    expect(cert.status).toBe(201);
    const res = await t.call('GET', `/v1/search/multi-index?q=${w}&kinds=evidence,certification,control`);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('svc.search.multi_index_results');
    expect(res.body.total).toBe(2);
    expect(res.body.kinds).toEqual([
      { kind: 'evidence', total: 1, facets: { type: { document: 1 }, control: { 'AIA-RMS-01': 1 } } },
      { kind: 'certification', total: 1, facets: {} },
      { kind: 'control', total: 0, facets: { framework: {}, jurisdiction: {}, category: {} } },
    ]);
    expect(res.body.facets.kind).toEqual({ evidence: 1, certification: 1 });
    expect(res.body.data.map((h: Hit) => h.id).sort()).toEqual([ev, cert.body.id].sort());
    // Content and tenant records together: a common word finds controls and the tenant's evidence.
    const mixed = await search(t, `/v1/search/multi-index?q=risk%20${w}&kinds=evidence,control&limit=200`);
    expect(mixed.facets.kind?.evidence).toBe(1);
    expect(mixed.facets.kind?.control).toBeGreaterThan(0);
    // A filter on a facet the kind does not have leaves none of its records.
    const typed = await search(t, `/v1/search/multi-index?q=${w}&kinds=evidence,certification&type=document`);
    expect(typed.data.map((h) => h.id)).toEqual([ev]);
  });
});

describe('search: records that change', () => {
  it('a state change of a record moves it between facet values at the next search', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const w = word();
    const user = await t.call('POST', '/v1/stakeholders/users', { body: { name: `Dana ${w}`, email: `dana.${w}@example.com` } });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const before = await search(t, `/v1/search/multi-index?q=${w}&kinds=person`);
    expect(before.data.map((h) => h.id)).toEqual([user.body.id]);
    expect(before.facets.status).toEqual({ active: 1 });
    const off = await t.call('POST', `/v1/stakeholders/users/${user.body.id}/deactivate`, { body: {} });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const after = await search(t, `/v1/search/multi-index?q=${w}&kinds=person`);
    expect(after.total).toBe(1);
    expect(after.facets.status).toEqual({ [off.body.status]: 1 });
    expect(off.body.status).not.toBe('active');
    const active = await search(t, `/v1/search/multi-index?q=${w}&kinds=person&status=active`);
    expect(active.total).toBe(0);
  });
});

describe("search: the rails' sources of documents", () => {
  it('has one source of each kind of the registry, in its order', () => {
    for (const scope of ['content', 'tenant', 'marketplace'] as const) {
      expect(SEARCH_SOURCES[scope].map((s) => s.kind)).toEqual(SEARCH_KINDS.filter((k) => k.scope === scope).map((k) => k.id));
    }
    const prefixes = SEARCH_SOURCES.tenant.map((s) => s.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('refuses a list of rails that leaves a kind without a source, or gives a kind two', () => {
    const frameworksOnly = { frameworks: { handlers: null, search: frameworksSearch } };
    // @ts-expect-error: the kinds of the other rails have no source (the error names them)
    expect(() => collectSearchSources(frameworksOnly)).toThrow('Search kind glossary_term needs one content source');
    const twice = { a: { handlers: null, search: frameworksSearch }, b: { handlers: null, search: frameworksSearch } };
    // @ts-expect-error: the kinds of the other rails have no source
    expect(() => collectSearchSources(twice)).toThrow("Search kind framework needs one content source in the rails' list; found: a, b.");
  });

  it('reads the content documents with one query per table, kinds in the order of the registry', async () => {
    const queries: string[] = [];
    const prisma = ts.server.db.prisma;
    // The client, noting each query made through a model.
    const counted = new Proxy(prisma, {
      get(target, model, receiver) {
        const delegate = Reflect.get(target, model, receiver);
        if (typeof model !== 'string' || model.startsWith('$') || typeof delegate !== 'object' || delegate === null) return delegate;
        return new Proxy(delegate, {
          get(d, op) {
            const f = Reflect.get(d, op);
            if (typeof f !== 'function') return f;
            return (...args: unknown[]) => {
              queries.push(`${model}.${String(op)}`);
              return f.apply(d, args);
            };
          },
        });
      },
    }) as Prisma;
    const docs = await contentDocuments(counted, SEARCH_SOURCES);
    expect(queries.sort()).toEqual(
      [
        'crosswalkEdge.findMany',
        'framework.findMany',
        'frameworkClause.findMany',
        'frameworkControl.findMany',
        'frameworkObligation.findMany',
        'frameworkQuestion.findMany',
        'glossaryTerm.findMany',
      ].sort(),
    );
    expect([...new Set(docs.map((d) => d.kind))]).toEqual(SEARCH_KINDS.filter((k) => k.scope === 'content').map((k) => k.id));
  });
});

describe.skipIf(!process.env.DATABASE_URL)('search: freshness across API processes on one PostgreSQL', () => {
  let other: TestServer;
  beforeAll(async () => {
    other = await startTestServer();
  });
  afterAll(() => other?.close());

  it('a record written through one process is found by the next search through the other', async () => {
    const t = await growthTenant();
    const w = word();
    const viaOther = (path: string) => call<Results>(other.url, 'GET', path, { token: t.token });
    // The other process builds its index of the tenant now ...
    const before = await viaOther(`/v1/search/evidence?q=${w}`);
    expect(before.status).toBe(200);
    expect(before.body.total).toBe(0);
    // ... then a write through this process ...
    const id = await addEvidence(t, { title: `${w} written elsewhere` });
    // ... is visible through the other one at its next search.
    const after = await viaOther(`/v1/search/evidence?q=${w}`);
    expect(after.body.data.map((h) => h.id)).toEqual([id]);
    const multi = await viaOther(`/v1/search/multi-index?q=${w}&kinds=evidence`);
    expect(multi.body.total).toBe(1);
  });
});
