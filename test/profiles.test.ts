import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INDUSTRY_IDS } from '@svc/contract';
import { CONTENT_ROOT } from '@svc/server/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useContentDir } from '../packages/server/src/content/paths.ts';
import { PROFILES_FILE, ProfileCatalogueSchema, unresolvedReferences } from '../packages/server/src/rails/profiles/service.ts';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

const FRAMEWORKS_DIR = join(PROFILES_FILE, '../../frameworks');

/** Control ids of each shipped dictionary, read from the content files themselves. */
function shippedDictionaries(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of readdirSync(FRAMEWORKS_DIR).filter((f) => f.endsWith('.json'))) {
    const d = JSON.parse(readFileSync(join(FRAMEWORKS_DIR, file), 'utf8')) as { id: string; controls: { id: string }[] };
    out.set(d.id, new Set(d.controls.map((c) => c.id)));
  }
  return out;
}

interface Profile {
  id: string;
  frameworks: string[];
  frameworkDetails: { id: string; shortTitle: string; dictionaryVersion: string; priority: number; why: string }[];
  controlBaseline: { controlId: string; framework: string; title: string; priority: number; why: string }[];
  assessments: { type: string; framework: string }[];
}

describe('profiles: the data file', () => {
  const raw = JSON.parse(readFileSync(PROFILES_FILE, 'utf8'));

  it('passes its schema and has one profile per industry of the catalogue', () => {
    const parsed = ProfileCatalogueSchema.parse(raw);
    expect(parsed.profiles.map((p) => p.id).sort()).toEqual([...INDUSTRY_IDS].sort());
  });

  it('cites only framework ids and control ids that exist in the shipped dictionaries, each control in its profile’s frameworks', () => {
    const dicts = shippedDictionaries();
    expect(dicts.size).toBe(readdirSync(join(CONTENT_ROOT, 'frameworks')).filter((f) => f.endsWith('.json')).length);
    expect(unresolvedReferences(ProfileCatalogueSchema.parse(raw), dicts)).toEqual([]);
  });

  it('the reference check catches an unknown control and a control outside the profile’s frameworks', () => {
    const broken = ProfileCatalogueSchema.parse(raw);
    const bank = broken.profiles.find((p) => p.id === 'banking');
    if (!bank) throw new Error('no banking profile');
    bank.controlBaseline.push({ controlId: 'DORA-NOPE-99', priority: 1, why: 'a control that does not exist anywhere' });
    bank.controlBaseline.push({ controlId: 'HIPAA-ADM-01', priority: 1, why: 'a HIPAA control in a profile without HIPAA' });
    const problems = unresolvedReferences(broken, shippedDictionaries());
    expect(problems).toEqual([
      "banking: control DORA-NOPE-99 is in none of the profile's frameworks",
      "banking: control HIPAA-ADM-01 is in none of the profile's frameworks",
    ]);
  });

  it('rejects a duplicate framework and an unknown industry by schema', () => {
    const dup = structuredClone(raw);
    dup.profiles[0].frameworks.push(dup.profiles[0].frameworks[0]);
    expect(ProfileCatalogueSchema.safeParse(dup).success).toBe(false);
    const unknown = structuredClone(raw);
    unknown.profiles[0].id = 'mining';
    expect(ProfileCatalogueSchema.safeParse(unknown).success).toBe(false);
  });
});

describe('profiles rail', () => {
  let ts: TestServer;
  let t: TenantFixture;
  beforeAll(async () => {
    ts = await startTestServer();
    t = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
  });
  afterAll(() => ts?.close());

  it('lists the 11 industries in catalogue order, paginated', async () => {
    const all = await collectPages<{ id: string; frameworks: string[]; baselineControls: number }>(t, '/v1/profiles');
    expect(all.map((p) => p.id)).toEqual([...INDUSTRY_IDS]);
    const page1 = await t.call('GET', '/v1/profiles?limit=4');
    expect(page1.body.data.map((p: { id: string }) => p.id)).toEqual(INDUSTRY_IDS.slice(0, 4));
    const page2 = await t.call('GET', `/v1/profiles?limit=4&cursor=${page1.body.cursor}`);
    expect(page2.body.data.map((p: { id: string }) => p.id)).toEqual(INDUSTRY_IDS.slice(4, 8));
    expectEnvelope(await t.call('GET', '/v1/profiles?cursor=garbage'), 400, 'bad_request');
  });

  it('serves every industry with frameworks and a control baseline resolved in the loaded dictionaries', async () => {
    const file = ProfileCatalogueSchema.parse(JSON.parse(readFileSync(PROFILES_FILE, 'utf8')));
    for (const id of INDUSTRY_IDS) {
      const res = await t.call<Profile>('GET', `/v1/profiles/${id}`);
      expect(res.status).toBe(200);
      const entry = file.profiles.find((p) => p.id === id);
      expect([...res.body.frameworks].sort()).toEqual(entry?.frameworks.map((f) => f.id).sort());
      // `frameworks` is the ids of `frameworkDetails`, in the same (priority) order.
      expect(res.body.frameworkDetails.map((f) => f.id)).toEqual(res.body.frameworks);
      const fwPrios = res.body.frameworkDetails.map((f) => f.priority);
      expect(fwPrios).toEqual([...fwPrios].sort((a, b) => a - b));
      expect(res.body.controlBaseline.map((c) => c.controlId).sort()).toEqual(entry?.controlBaseline.map((c) => c.controlId).sort());
      // Priority order, and every baseline control belongs to one of the profile's frameworks, titled from its dictionary.
      const prios = res.body.controlBaseline.map((c) => c.priority);
      expect(prios).toEqual([...prios].sort((a, b) => a - b));
      const fws = new Set(res.body.frameworks);
      for (const c of res.body.controlBaseline) {
        expect(fws.has(c.framework)).toBe(true);
        expect(c.title.length).toBeGreaterThan(3);
      }
    }
  });

  it('answers differ by industry: banking faces DORA and PCI DSS, healthcare HIPAA and the AI Act (DPIA, FRIA)', async () => {
    const bank = (await t.call<Profile>('GET', '/v1/profiles/banking')).body;
    const health = (await t.call<Profile>('GET', '/v1/profiles/healthcare')).body;
    const bankFw = bank.frameworks;
    const healthFw = health.frameworks;
    expect(bankFw).toEqual(expect.arrayContaining(['dora', 'nis2', 'gdpr', 'iso-iec-27001', 'pci-dss-4']));
    expect(bankFw).not.toContain('hipaa');
    expect(healthFw).toEqual(expect.arrayContaining(['hipaa', 'gdpr', 'eu-ai-act']));
    expect(healthFw).not.toContain('dora');
    expect(bank.controlBaseline.map((c) => c.controlId)).not.toEqual(health.controlBaseline.map((c) => c.controlId));
    expect(bank.frameworkDetails.find((f) => f.id === 'dora')).toMatchObject({ shortTitle: 'DORA', dictionaryVersion: 'dora@1.0.0' });
    expect(health.assessments.map((a) => a.type)).toEqual(expect.arrayContaining(['dpia', 'fria', 'risk-classification']));
    const retail = (await t.call<Profile>('GET', '/v1/profiles/retail')).body;
    expect(retail.frameworks).toEqual(expect.arrayContaining(['pci-dss-4', 'ccpa-cpra']));
  });

  it('an industry outside the catalogue is a 422', async () => {
    expectEnvelope(await t.call('GET', '/v1/profiles/mining'), 422, 'validation_failed');
  });

  it('is a growth rail: a starter tenant gets 403, a viewer may read', async () => {
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    expectEnvelope(await starter.call('GET', '/v1/profiles'), 403, 'forbidden');
    expectEnvelope(await starter.call('GET', '/v1/profiles/banking'), 403, 'forbidden');
    const viewer = await t.key('viewer');
    const res = await t.call('GET', '/v1/profiles/banking', { token: viewer });
    expect(res.status).toBe(200);
    const scoped = await t.key('viewer', ['compliance:read']);
    expectEnvelope(await t.call('GET', '/v1/profiles/banking', { token: scoped }), 403, 'forbidden');
  });
});

describe('profiles: the content folder', () => {
  it('are read from SVC_CONTENT_DIR like the dictionaries, and a broken file there stops the start naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-profiles-content-'));
    cpSync(CONTENT_ROOT, dir, { recursive: true });
    const file = join(dir, 'profiles', 'industry-profiles.json');
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.version = '1.1.0';
    data.profiles[0].description = 'Credit institutions, as described by the operator’s own content folder for this test.';
    writeFileSync(file, JSON.stringify(data));
    const other = await startIsolatedTestServer({ SVC_CONTENT_DIR: dir });
    try {
      const u = await createTenant(other);
      const banking = (await u.call('GET', '/v1/profiles/banking')).body;
      expect(banking.description).toBe(data.profiles[0].description);
    } finally {
      await other.close();
    }
    data.profiles[0].frameworks = 'dora';
    writeFileSync(file, JSON.stringify(data));
    await expect(startIsolatedTestServer({ SVC_CONTENT_DIR: dir })).rejects.toThrow(/industry-profiles\.json: .*frameworks/);
    // Later servers of this process read the shipped files again.
    useContentDir(CONTENT_ROOT);
  });
});
