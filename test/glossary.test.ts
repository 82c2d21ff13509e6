import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_ROOT } from '@svc/server/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Term {
  id: string;
  term: string;
  dictionary: string;
  clause: { ref: string; title: string | null } | null;
  synonyms: string[];
  related: { term: string; label: string; dictionary: string; relation: string; origin: string }[];
}

let ts: TestServer;
let t: TenantFixture;
let all: Term[];
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  all = await collectPages<Term>(t, '/v1/glossary');
});
afterAll(() => ts?.close());

const fold = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Ids of the dictionaries the content folder ships: one whole file each. */
const SHIPPED_DICTIONARIES = readdirSync(join(CONTENT_ROOT, 'frameworks'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

describe('glossary', () => {
  it('lists 760+ terms of every shipped dictionary once each, alphabetically, through the cursor', async () => {
    expect(all.length).toBeGreaterThanOrEqual(760);
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length);
    const names = all.map((x) => fold(x.term));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const frameworks = await t.call('GET', '/v1/frameworks');
    const ids = frameworks.body.data.map((f: { id: string }) => f.id).sort();
    expect(ids).toEqual(SHIPPED_DICTIONARIES);
    expect([...new Set(all.map((x) => x.dictionary))].sort()).toEqual(ids);
  });

  it("filters by dictionary, and every term's clause exists in that dictionary", async () => {
    const res = await t.call('GET', '/v1/glossary?dictionary=gdpr&limit=200');
    expect(res.body.data.length).toBeGreaterThanOrEqual(50);
    expect(res.body.data.every((x: Term) => x.dictionary === 'gdpr')).toBe(true);
    const clauses = await t.call('GET', '/v1/frameworks/gdpr/clauses?limit=200');
    const refs = new Map(clauses.body.data.map((c: { ref: string; title: string }) => [c.ref, c.title]));
    for (const x of res.body.data as Term[]) if (x.clause) expect(x.clause.title, x.id).toBe(refs.get(x.clause.ref));
    expect((await t.call('GET', '/v1/glossary?dictionary=no-such-dictionary')).body).toEqual({ data: [], cursor: null });
  });

  it('searches names, synonyms and definitions, ignoring case and punctuation, every word required', async () => {
    const res = await t.call('GET', '/v1/glossary?q=PERSONAL%20Data&limit=200');
    const ids = res.body.data.map((x: Term) => x.id);
    expect(ids).toEqual(expect.arrayContaining(['gdpr:personal-data']));
    for (const x of res.body.data as Term[]) {
      const haystack = fold([x.term, ...x.synonyms, (x as unknown as { definition: string }).definition].join(' '));
      expect(haystack, x.id).toContain('personal');
      expect(haystack, x.id).toContain('data');
    }
    const both = await t.call('GET', '/v1/glossary?q=deployer&dictionary=eu-ai-act');
    expect(both.body.data.map((x: Term) => x.id)).toContain('eu-ai-act:deployer');
    expect((await t.call('GET', '/v1/glossary?q=zzqxjv')).body.data).toEqual([]);
    expectEnvelope(await t.call('GET', '/v1/glossary?q=%2B%2B%2B'), 422, 'validation_failed');
  });

  it("links the AI Act's deployer to the matching roles of other dictionaries, in both directions", async () => {
    const res = await t.call('GET', '/v1/glossary/eu-ai-act:deployer');
    expect(res.status).toBe(200);
    const term: Term = res.body;
    const others = term.related.filter((r) => r.dictionary !== 'eu-ai-act');
    expect(others.length).toBeGreaterThan(0);
    for (const link of term.related) {
      const back: Term = (await t.call('GET', `/v1/glossary/${link.term}`)).body;
      const inverse = back.related.find((r) => r.term === term.id);
      expect(inverse, `${link.term} links back`).toBeDefined();
      const expected = link.relation === 'broader' ? 'narrower' : link.relation === 'narrower' ? 'broader' : link.relation;
      expect(inverse?.relation).toBe(expected);
    }
  });

  it('links terms of the same name across dictionaries (GDPR and UK GDPR personal data)', async () => {
    const term: Term = (await t.call('GET', '/v1/glossary/gdpr:personal-data')).body;
    expect(term.related.map((r) => r.term)).toContain('uk-gdpr:personal-data');
    const withLinks = all.filter((x) => x.related.some((r) => r.dictionary !== x.dictionary));
    expect(withLinks.length / all.length).toBeGreaterThan(0.3);
  });

  it('answers unknown and malformed ids and cursors with the error envelope', async () => {
    expectEnvelope(await t.call('GET', '/v1/glossary/gdpr:no-such-term'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/glossary/Not%20A%20Term'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/glossary?cursor=bm90LWEtY3Vyc29y'), 400, 'bad_request');
    expectEnvelope(await t.call('GET', '/v1/glossary', { token: null }), 401, 'unauthorized');
  });

  it('is readable with any role, as reference data', async () => {
    const viewer = await t.key('viewer');
    const res = await fetch(`${ts.url}/v1/glossary?limit=1`, { headers: { authorization: `Bearer ${viewer}` } });
    expect(res.status).toBe(200);
  });
});
