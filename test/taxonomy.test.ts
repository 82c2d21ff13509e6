import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { canonicalJson, getRail } from '@svc/contract';
import { CONTENT_ROOT } from '@svc/server/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFrameworkContent } from '../packages/server/src/content/frameworks.ts';
import {
  canonicalHash,
  type DictionaryFacts,
  readTaxonomy,
  TAXONOMY_NAMES,
  unresolvedReferences,
} from '../packages/server/src/rails/taxonomy/service.ts';
import { call as callApi, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { restartableDatabase, startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
let t: TenantFixture;

beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

function dictionaryFacts(dir = join(CONTENT_ROOT, 'frameworks')): Map<string, DictionaryFacts> {
  return new Map(
    readFrameworkContent(dir).map(({ content: f }) => [
      f.id,
      { clauses: new Set(f.clauses.map((c) => c.ref)), actors: new Set(f.obligations.map((o) => o.actor)), jurisdiction: f.jurisdiction },
    ]),
  );
}

describe('taxonomy: the data files', () => {
  it('validate against their schemas, carry a version, and every reference resolves', () => {
    const tax = readTaxonomy();
    for (const name of TAXONOMY_NAMES) expect(tax[name].version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(unresolvedReferences(tax, dictionaryFacts())).toEqual([]);
    // The 27 member states, the regulators the issue names and the AI Act classes are there.
    expect(tax.jurisdictions.items.filter((j) => j.parent === 'eu' && j.kind === 'country')).toHaveLength(27);
    const regulators = new Set(tax.regulators.items.map((r) => r.id));
    for (const id of [
      'eu-ai-office',
      'edpb',
      'cnil',
      'bfdi',
      'ico',
      'enisa',
      'eba',
      'esma',
      'eiopa',
      'cppa',
      'anpd',
      'dpb-india',
      'hhs-ocr',
      'co-ag',
    ])
      expect(regulators).toContain(id);
    expect(tax['risk-classes'].items.map((c) => c.id)).toEqual(['prohibited', 'high', 'limited', 'minimal', 'gpai', 'gpai-systemic']);
  });

  it('the reference check catches what does not resolve', () => {
    const tax = structuredClone(readTaxonomy());
    tax.regulators.items[0]!.dictionaries.push('no-such-dictionary');
    tax['risk-classes'].items[0]!.articleRefs.push('art-999');
    tax.roles.items[0]!.definedBy[0]!.actor = 'nobody';
    tax.jurisdictions.items = tax.jurisdictions.items.filter((j) => j.code !== 'us-ca');
    const problems = unresolvedReferences(tax, dictionaryFacts());
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('no-such-dictionary'),
        expect.stringContaining('art-999'),
        expect.stringContaining('actor nobody'),
        expect.stringContaining('us-ca'),
      ]),
    );
  });
});

describe('taxonomy: dictionary views', () => {
  it('lists every dictionary with its version and content hash, as the frameworks rail has them', async () => {
    const ours = await collectPages<{ id: string; dictionaryVersion: string; contentHash: string; jurisdiction: string }>(
      t,
      '/v1/taxonomy/frameworks',
    );
    const theirs = await collectPages<{ id: string; dictionaryVersion: string; contentHash: string }>(t, '/v1/frameworks');
    expect(ours.map((f) => [f.id, f.dictionaryVersion, f.contentHash])).toEqual(
      theirs.map((f) => [f.id, f.dictionaryVersion, f.contentHash]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    const eu = (await t.call('GET', '/v1/taxonomy/frameworks?jurisdiction=eu&limit=200')).body.data as { jurisdiction: string }[];
    expect(eu.length).toBe(ours.filter((f) => f.jurisdiction === 'eu').length);
    expect(eu.length).toBeGreaterThan(3);
  });

  it('serves controls and clauses of one dictionary or all, each naming its version, through the cursor', async () => {
    const gdpr = await collectPages<{ id: string; dictionaryVersion: string }>(t, '/v1/taxonomy/controls?framework=gdpr');
    const own = await collectPages<{ id: string }>(t, '/v1/frameworks/gdpr/controls');
    expect(gdpr.map((c) => c.id)).toEqual(own.map((c) => c.id));
    expect(new Set(gdpr.map((c) => c.dictionaryVersion)).size).toBe(1);
    const all = await collectPages<{ framework: string; id: string }>(t, '/v1/taxonomy/controls');
    const frameworks = await collectPages<{ id: string }>(t, '/v1/taxonomy/frameworks');
    expect(new Set(all.map((c) => c.framework))).toEqual(new Set(frameworks.map((f) => f.id)));
    expect(new Set(all.map((c) => `${c.framework}|${c.id}`)).size).toBe(all.length);
    const clauses = await collectPages<{ ref: string; dictionaryVersion: string }>(t, '/v1/taxonomy/clauses?framework=eu-ai-act@1.0.0');
    expect(clauses.map((c) => c.ref)).toEqual(
      (await collectPages<{ ref: string }>(t, '/v1/frameworks/eu-ai-act@1.0.0/clauses')).map((c) => c.ref),
    );
    expect(clauses.every((c) => c.dictionaryVersion === 'eu-ai-act@1.0.0')).toBe(true);
    expectEnvelope(await t.call('GET', '/v1/taxonomy/controls?framework=no-such-dictionary'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/taxonomy/clauses?framework=gdpr@9.9.9'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/taxonomy/clauses?framework=GDPR!'), 422, 'validation_failed');
    expectEnvelope(await t.call('GET', '/v1/taxonomy/clauses?cursor=bm9wZQ'), 400, 'bad_request');
  });
});

describe('taxonomy: the taxonomy files through the API', () => {
  const tax = readTaxonomy();

  it('serves every file whole through the cursor, each item naming its file version', async () => {
    const routes: [string, string, (i: Record<string, unknown>) => unknown][] = [
      ['evidence-types', 'evidence-types', (i) => i.id],
      ['jurisdictions', 'jurisdictions', (i) => i.code],
      ['regulators', 'regulators', (i) => i.id],
      ['risk-classes', 'risk-classes', (i) => i.id],
      ['roles', 'roles', (i) => i.id],
    ];
    for (const [path, name, key] of routes) {
      const items = await collectPages<Record<string, unknown>>(t, `/v1/taxonomy/${path}`);
      const file = tax[name as keyof typeof tax];
      expect(items.map(key)).toEqual(file.items.map((i) => key(i as Record<string, unknown>)));
      expect(new Set(items.map((i) => i.dictionaryVersion))).toEqual(new Set([`taxonomy/${name}@${file.version}`]));
    }
    const page = await t.call('GET', '/v1/taxonomy/regulators?limit=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.cursor).toEqual(expect.any(String));
  });

  it('filters regulators by jurisdiction (with what lies inside it) and by dictionary, roles by dictionary', async () => {
    const de = (await t.call('GET', '/v1/taxonomy/regulators?jurisdiction=de&limit=200')).body.data.map((r: { id: string }) => r.id);
    expect(de).toEqual(expect.arrayContaining(['bfdi', 'baylda', 'hmbbfdi', 'lfdi-bw', 'bsi', 'bafin']));
    expect(de).not.toContain('cnil');
    const by = (await t.call('GET', '/v1/taxonomy/regulators?jurisdiction=de-by')).body.data.map((r: { id: string }) => r.id);
    expect(by).toEqual(['baylda']);
    const dora = (await t.call('GET', '/v1/taxonomy/regulators?framework=dora')).body.data.map((r: { id: string }) => r.id);
    expect(dora.sort()).toEqual(
      tax.regulators.items
        .filter((r) => r.dictionaries.includes('dora'))
        .map((r) => r.id)
        .sort(),
    );
    const lgpd = (await t.call('GET', '/v1/taxonomy/roles?framework=lgpd')).body.data as {
      id: string;
      definedBy: { framework: string; actor: string }[];
    }[];
    expect(lgpd.map((r) => r.id).sort()).toEqual(['controller', 'data-protection-officer', 'processor']);
    // The LGPD's processor is the "operador": the role names the actor the dictionary uses.
    expect(lgpd.find((r) => r.id === 'processor')?.definedBy).toContainEqual({ framework: 'lgpd', clauseRef: 'art-5', actor: 'operator' });
    const members = (await t.call('GET', '/v1/taxonomy/jurisdictions?parent=eu&limit=200')).body.data;
    expect(members).toHaveLength(27);
    const reports = (await t.call('GET', '/v1/taxonomy/evidence-types?kind=report&framework=gdpr')).body.data.map(
      (e: { id: string }) => e.id,
    );
    expect(reports.sort()).toEqual(
      tax['evidence-types'].items
        .filter((e) => e.evidenceKind === 'report' && e.requiredBy.some((r) => r.framework === 'gdpr'))
        .map((e) => e.id)
        .sort(),
    );
    expectEnvelope(await t.call('GET', '/v1/taxonomy/jurisdictions?kind=planet'), 422, 'validation_failed');
  });

  it('titles the risk classes’ articles from the EU AI Act dictionary', async () => {
    const classes = (await t.call('GET', '/v1/taxonomy/risk-classes')).body.data as {
      id: string;
      riskLevel: string;
      systemicRisk: boolean;
      articles: { ref: string; title: string | null }[];
    }[];
    const clauses = new Map(
      (await collectPages<{ ref: string; title: string }>(t, '/v1/taxonomy/clauses?framework=eu-ai-act')).map((c) => [c.ref, c.title]),
    );
    for (const c of classes) for (const a of c.articles) expect(a.title).toBe(clauses.get(a.ref));
    expect(classes.find((c) => c.id === 'gpai-systemic')).toMatchObject({ riskLevel: 'gpai', systemicRisk: true });
  });
});

/** The bundle hash recomputed by hand: dictionaries from the API, taxonomy files from disk. */
async function expectedBundleHash(who: TenantFixture): Promise<{ hash: string; versions: Record<string, string> }> {
  const components: Record<string, { version: string; contentHash: string }> = {};
  for (const f of await collectPages<{ id: string; version: string; contentHash: string }>(who, '/v1/taxonomy/frameworks')) {
    components[f.id] = { version: f.version, contentHash: f.contentHash };
  }
  const tax = readTaxonomy();
  for (const name of TAXONOMY_NAMES) {
    const { contentHash: _, ...file } = tax[name];
    components[`taxonomy/${name}`] = { version: file.version, contentHash: canonicalHash(file) };
  }
  const versions = Object.fromEntries(Object.entries(components).map(([k, v]) => [k, v.version]));
  return { hash: `sha256:${(await sha256(canonicalJson(components))).toString()}`, versions };
}

async function sha256(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The bundle hash of each content folder, computed in one separate process from the files alone:
 * each dictionary hashed as the loader hashes it, the taxonomy files as the service does.
 */
function bundleHashesInChildProcess(contentDirs: string[]): string[] {
  const repo = resolve(import.meta.dirname, '..');
  const script = join(mkdtempSync(join(tmpdir(), 'svc-taxonomy-child-')), 'hash.ts');
  writeFileSync(
    script,
    `import { join } from 'node:path';
import { readFrameworkContent } from ${JSON.stringify(join(repo, 'packages/server/src/content/frameworks.ts'))};
import { bundleOf, readTaxonomy, TAXONOMY_NAMES } from ${JSON.stringify(join(repo, 'packages/server/src/rails/taxonomy/service.ts'))};
const newer = (a: string, b: string) => { const x = a.split('.').map(Number), y = b.split('.').map(Number); for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) > (y[i] ?? 0); return false; };
function hashOf(dir: string): string {
  const components: Record<string, { version: string; contentHash: string }> = {};
  const latest = new Map<string, { version: string; contentHash: string }>();
  for (const { content, hash } of readFrameworkContent(join(dir, 'frameworks'))) {
    const seen = latest.get(content.id);
    if (!seen || newer(content.version, seen.version)) latest.set(content.id, { version: content.version, contentHash: hash });
  }
  for (const [id, v] of latest) components[id] = v;
  const tax = readTaxonomy(join(dir, 'taxonomy'));
  for (const name of TAXONOMY_NAMES) components['taxonomy/' + name] = { version: tax[name].version, contentHash: tax[name].contentHash };
  return bundleOf(components).hash;
}
process.stdout.write(process.argv.slice(2).map(hashOf).join('\\n'));
`,
  );
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, ...contentDirs], { cwd: repo, encoding: 'utf8' });
  return out.trim().split('\n');
}

async function auditActions(who: TenantFixture): Promise<string[]> {
  const events = await collectPages<{ action: string }>(who, '/v1/audit-trail/events');
  return events.map((e) => e.action).filter((a) => a.startsWith('taxonomy.'));
}

describe('taxonomy: the bundle hash', () => {
  it('is the SHA-256 of the canonical content, reproducible by hand, pinned at the first read and stable', async () => {
    const u = await createTenant(ts);
    const first = await u.call('GET', '/v1/taxonomy/bundle-hash');
    expect(first.status).toBe(200);
    const expected = await expectedBundleHash(u);
    expect(first.body).toMatchObject({ object: 'svc.taxonomy.bundle_hash', seq: 1, upToDate: true, changes: [] });
    expect(first.body.hash).toBe(expected.hash);
    expect(first.body.current.hash).toBe(expected.hash);
    expect(first.body.versions).toEqual(expected.versions);
    expect(first.body.versions['taxonomy/roles']).toBe(readTaxonomy().roles.version);
    const again = await u.call('GET', '/v1/taxonomy/bundle-hash');
    expect(again.body).toEqual(first.body);
    // The implicit first pin is on the record once; reads after it write nothing.
    expect(await auditActions(u)).toEqual(['taxonomy.bundle_pinned']);
    // Another tenant pins the same content under the same hash, in its own pin.
    const other = await t.call('GET', '/v1/taxonomy/bundle-hash');
    expect(other.body.hash).toBe(first.body.hash);
    expect(other.body.id).not.toBe(first.body.id);
    // A re-pin with nothing new writes nothing.
    const noop = await u.call('POST', '/v1/taxonomy/bundle-hash/repin', { body: {} });
    expect(noop.status).toBe(200);
    expect(noop.body).toMatchObject({ changed: false, hash: first.body.hash, previousHash: first.body.hash, seq: 1 });
    expect(await auditActions(u)).toEqual(['taxonomy.bundle_pinned']);
  });

  it('pins once when first reads race, and a re-pin before any read pins the current bundle', async () => {
    const u = await createTenant(ts);
    const reads = await Promise.all(Array.from({ length: 5 }, () => u.call('GET', '/v1/taxonomy/bundle-hash')));
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(reads.map((r) => r.body.id)).size).toBe(1);
    expect(await auditActions(u)).toEqual(['taxonomy.bundle_pinned']);
    const fresh = await createTenant(ts);
    const pinned = await fresh.call('POST', '/v1/taxonomy/bundle-hash/repin', { body: { reason: 'first pin' } });
    expect(pinned.body).toMatchObject({ changed: true, previousHash: null, seq: 1, hash: reads[0]?.body.hash });
    expect(await auditActions(fresh)).toEqual(['taxonomy.bundle_repinned']);
  });

  it('re-pins at once: the first moves the pin, the others find it there', async () => {
    const fresh = await createTenant(ts);
    const sent = await Promise.all([1, 2, 3].map(() => fresh.call('POST', '/v1/taxonomy/bundle-hash/repin', { body: {} })));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(sent.map((r) => r.body.changed).sort()).toEqual([false, false, true]);
    expect(await auditActions(fresh)).toEqual(['taxonomy.bundle_repinned']);
  });

  it('is the same in another process over the same content', async () => {
    const ts2 = await startTestServer();
    try {
      const u2 = await createTenant(ts2);
      const a = (await u2.call('GET', '/v1/taxonomy/bundle-hash')).body;
      const b = (await t.call('GET', '/v1/taxonomy/bundle-hash')).body;
      expect(a.current).toEqual(b.current);
    } finally {
      await ts2.close();
    }
  }, 120_000);

  it('needs taxonomy:write to re-pin, and is open to sandbox tenants', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 1000 });
    // Every sub-resource of the catalogue's row answers a sandbox tenant.
    for (const path of getRail('taxonomy').subResources) {
      expect((await sandbox.call('GET', `/v1/taxonomy/${path}`)).status).toBe(200);
    }
    expect((await sandbox.call('POST', '/v1/taxonomy/bundle-hash/repin', { body: {} })).status).toBe(200);
    const viewer = await sandbox.key('viewer');
    const asViewer = await fetch(`${ts.url}/v1/taxonomy/bundle-hash/repin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(asViewer.status).toBe(403);
    expectEnvelope(await sandbox.call('POST', '/v1/taxonomy/bundle-hash/repin', { body: { color: 'blue' } }), 422, 'validation_failed');
  });
});

describe('taxonomy: a new dictionary version leaves the pin until the explicit re-pin', () => {
  // One database, two starts: first with the shipped content, then with a copy plus GDPR 1.1.0.
  let store: Awaited<ReturnType<typeof restartableDatabase>>;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-taxonomy-content-'));
    cpSync(CONTENT_ROOT, dir, { recursive: true });
    const v1 = JSON.parse(readFileSync(join(dir, 'frameworks/gdpr.json'), 'utf8'));
    const v2 = structuredClone(v1);
    v2.version = '1.1.0';
    v2.controls[0].description = `${v2.controls[0].description} Reviewed every quarter.`;
    writeFileSync(join(dir, 'frameworks/gdpr@1.1.0.json'), JSON.stringify(v2));
    store = await restartableDatabase('taxonomy');
  });
  afterAll(async () => {
    await store?.drop?.();
  });

  const start = (env: NodeJS.ProcessEnv = {}) => store.start(env);

  it('keeps the tenant on its pinned hash, reports the change, and moves only on re-pin, audited', async () => {
    const before = await start();
    let u: TenantFixture;
    let pinned: { hash: string; versions: Record<string, string> };
    let shippedHash: string | undefined;
    let newContentHash: string | undefined;
    try {
      u = await createTenant(before);
      pinned = (await u.call('GET', '/v1/taxonomy/bundle-hash')).body;
      expect(pinned.versions.gdpr).toBe('1.0.0');
      // Another process, from the files alone, arrives at the same hash (and at the new content's,
      // checked below).
      [shippedHash, newContentHash] = bundleHashesInChildProcess([CONTENT_ROOT, dir]);
      expect(shippedHash).toBe(pinned.hash);
    } finally {
      await before.close();
    }
    const after = await start({ SVC_CONTENT_DIR: dir });
    try {
      const call = (method: string, path: string, body?: unknown) =>
        callApi(after.url, method, path, { token: u.token, ...(body === undefined ? {} : { body }) });
      const u2: TenantFixture = { ...u, call: (m, p, o = {}) => callApi(after.url, m, p, { token: u.token, ...o }) };

      const held = (await call('GET', '/v1/taxonomy/bundle-hash')).body;
      expect(held.hash).toBe(pinned.hash);
      expect(held.versions).toEqual(pinned.versions);
      expect(held.upToDate).toBe(false);
      expect(held.current.versions.gdpr).toBe('1.1.0');
      expect(held.current.hash).not.toBe(pinned.hash);
      expect(held.changes).toEqual([{ component: 'gdpr', pinned: '1.0.0', current: '1.1.0' }]);
      expect(held.current.hash).toBe((await expectedBundleHash(u2)).hash);
      expect(newContentHash).toBe(held.current.hash);
      // A re-pin against a hash the caller did not review is refused.
      const stale = await call('POST', '/v1/taxonomy/bundle-hash/repin', { expectedHash: pinned.hash });
      expect(stale.status).toBe(409);
      expect((await call('GET', '/v1/taxonomy/bundle-hash')).body.hash).toBe(pinned.hash);

      const moved = await call('POST', '/v1/taxonomy/bundle-hash/repin', { reason: 'Adopt GDPR 1.1.0', expectedHash: held.current.hash });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        object: 'svc.taxonomy.bundle_repin',
        changed: true,
        previousHash: pinned.hash,
        hash: held.current.hash,
        seq: 2,
        changes: [{ component: 'gdpr', pinned: '1.0.0', current: '1.1.0' }],
      });
      const now = (await call('GET', '/v1/taxonomy/bundle-hash')).body;
      expect(now).toMatchObject({ hash: held.current.hash, upToDate: true, seq: 2, changes: [] });
      expect(now.versions.gdpr).toBe('1.1.0');
      const events = (await call('GET', '/v1/audit-trail/events?limit=200')).body.data.filter((e: { action: string }) =>
        e.action.startsWith('taxonomy.'),
      );
      expect(events.map((e: { action: string }) => e.action)).toEqual(['taxonomy.bundle_repinned', 'taxonomy.bundle_pinned']);
      expect(events[0].data).toMatchObject({ previousHash: pinned.hash, hash: held.current.hash, reason: 'Adopt GDPR 1.1.0' });
      // Nothing new: a second re-pin changes nothing and records nothing.
      const again = await call('POST', '/v1/taxonomy/bundle-hash/repin', {});
      expect(again.body).toMatchObject({ changed: false, seq: 2 });
      const count = (await call('GET', '/v1/audit-trail/events?limit=200')).body.data.filter((e: { action: string }) =>
        e.action.startsWith('taxonomy.'),
      ).length;
      expect(count).toBe(2);
    } finally {
      await after.close();
    }
  }, 240_000);
});
