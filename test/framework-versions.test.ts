import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_ROOT } from '@svc/server/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as callApi, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { restartableDatabase, startTestServer, type TestServer } from './support/server.ts';

const A = '/v1/compliance/assessments';

describe('dictionary versions: changelog, diff and the law as of a day', () => {
  let ts: TestServer;
  let t: TenantFixture;
  beforeAll(async () => {
    ts = await startTestServer();
    t = await createTenant(ts);
  });
  afterAll(() => ts?.close());

  it('lists the versions newest first, each change with its source, and pages them', async () => {
    const res = await t.call('GET', '/v1/frameworks/eu-ai-act/versions');
    expect(res.status).toBe(200);
    const [latest, ...older] = res.body.data;
    expect(latest).toMatchObject({ object: 'svc.frameworks.version', framework: 'eu-ai-act', basedOn: 'eu-ai-act@1.0.0' });
    expect(latest.amendingAct.title).toMatch(/\w/);
    expect(latest.changes.length).toBeGreaterThan(10);
    for (const c of latest.changes) expect(c.source.length).toBeGreaterThan(5);
    expect(older.at(-1)).toMatchObject({ version: '1.0.0', basedOn: null, summary: null, amendingAct: null, changes: [] });
    const page = await t.call('GET', '/v1/frameworks/eu-ai-act/versions?limit=1');
    expect(page.body.data).toHaveLength(1);
    const next = await t.call('GET', `/v1/frameworks/eu-ai-act/versions?limit=1&cursor=${page.body.cursor}`);
    expect(next.body.data[0].version).toBe(older[0].version);
    expectEnvelope(await t.call('GET', '/v1/frameworks/eu-ai-act/versions?cursor=bm9wZQ'), 400, 'bad_request');
    expectEnvelope(await t.call('GET', '/v1/frameworks/nothing-here/versions'), 404, 'not_found');
    // A correction of ours names no amending act: its law applies from its own publication.
    const fix = (await t.call('GET', '/v1/frameworks/pci-dss-4/versions?limit=1')).body.data[0];
    expect(fix).toMatchObject({ version: '1.1.0', amendingAct: null });
    expect(fix.lawFrom).toBe(fix.publishedAt);
    expect(fix.summary).toMatch(/correction/);
  });

  it('diffs two versions field by field in both directions, with the sources going forward', async () => {
    const fwd = await t.call('GET', '/v1/frameworks/eu-ai-act/diff?from=1.0.0');
    expect(fwd.status).toBe(200);
    expect(fwd.body).toMatchObject({ object: 'svc.frameworks.diff', from: 'eu-ai-act@1.0.0' });
    // The Annex III high-risk duties moved, each amendment sourced.
    const moved = fwd.body.entries.filter(
      (e: { kind: string; fields: { field: string; after: unknown }[] }) =>
        e.kind === 'obligation' && e.fields.some((f) => f.field === 'applicableFrom' && f.after === '2027-12-02'),
    );
    expect(moved.length).toBeGreaterThan(5);
    for (const e of moved) expect(e.sources[0].source).toMatch(/\w/);
    const added = fwd.body.entries.filter((e: { change: string }) => e.change === 'added');
    expect(added.length).toBe(fwd.body.counts.added);
    const back = await t.call('GET', `/v1/frameworks/eu-ai-act/diff?from=${fwd.body.to.split('@')[1]}&to=1.0.0`);
    expect(back.body.counts.removed).toBe(fwd.body.counts.added);
    expect(back.body.entries.every((e: { sources: unknown[] }) => e.sources.length === 0)).toBe(true);
    const same = await t.call('GET', '/v1/frameworks/eu-ai-act/diff?from=1.0.0&to=1.0.0');
    expect(same.body.entries).toEqual([]);
    expectEnvelope(await t.call('GET', '/v1/frameworks/eu-ai-act/diff?from=9.9.9'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/frameworks/eu-ai-act/diff?from=latest'), 422, 'validation_failed');
  });

  it('answers as the law stood on the day asked: before and after the amendment took effect', async () => {
    const versions = (await t.call('GET', '/v1/frameworks/eu-ai-act/versions')).body.data;
    const lawFrom: string = versions[0].lawFrom;
    const dayBefore = new Date(Date.parse(lawFrom) - 86_400_000).toISOString().slice(0, 10);
    const before = await t.call('GET', `/v1/frameworks/eu-ai-act/obligations?asOf=${dayBefore}&limit=200`);
    const after = await t.call('GET', '/v1/frameworks/eu-ai-act/obligations?asOf=2026-09-01&limit=200');
    expect(before.body.data[0].dictionaryVersion).toBe('eu-ai-act@1.0.0');
    expect(after.body.data[0].dictionaryVersion).toBe(versions[0].dictionaryVersion);
    const rmsBefore = before.body.data.find((o: { clauseRef: string }) => o.clauseRef === 'art-9');
    const rmsAfter = after.body.data.find((o: { id: string }) => o.id === rmsBefore.id);
    expect(rmsBefore.applicableFrom).toBe('2026-08-02');
    expect(rmsAfter).toMatchObject({ applicableFrom: '2027-12-02', status: 'not_yet_applicable', asOf: '2026-09-01' });
    // On 1 September 2026 the prohibitions of Art. 5 apply; the status filter agrees with the records.
    const applicable = await t.call('GET', '/v1/frameworks/eu-ai-act/obligations?asOf=2026-09-01&status=applicable&limit=200');
    expect(applicable.body.data.length).toBeGreaterThan(10);
    expect(applicable.body.data.every((o: { status: string }) => o.status === 'applicable')).toBe(true);
    expect(applicable.body.data.some((o: { clauseRef: string }) => o.clauseRef === 'art-5-1-a')).toBe(true);
    // A pinned version answers for itself, whatever the day.
    const pinned = await t.call('GET', '/v1/frameworks/eu-ai-act@1.0.0/obligations?asOf=2026-09-01&limit=200');
    expect(pinned.body.data.find((o: { id: string }) => o.id === rmsBefore.id)).toMatchObject({ status: 'applicable' });
    expectEnvelope(await t.call('GET', '/v1/frameworks/eu-ai-act/obligations?asOf=2026-13-45'), 422, 'validation_failed');
  });

  it('repins: a dry run shows the diff and changes nothing; the repin moves the obligations, audited', async () => {
    const u = await createTenant(ts);
    expect((await u.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: { version: '1.0.0' } })).status).toBe(201);
    const latest = (await u.call('GET', '/v1/frameworks/eu-ai-act')).body.version;
    const before = (await u.call('GET', '/v1/compliance/obligations?framework=eu-ai-act&limit=200')).body.data;
    const dry = await u.call('POST', '/v1/frameworks/eu-ai-act/repin', { body: { version: latest, dryRun: true } });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, from: 'eu-ai-act@1.0.0', to: `eu-ai-act@${latest}`, activation: null });
    expect(dry.body.impact.obligations.length).toBeGreaterThan(5);
    expect(dry.body.obligations.added).toBeGreaterThan(0);
    expect((await u.call('GET', '/v1/compliance/obligations?framework=eu-ai-act&limit=200')).body.data).toEqual(before);

    const moved = await u.call('POST', '/v1/frameworks/eu-ai-act/repin', { body: { version: latest } });
    expect(moved.status).toBe(200);
    expect(moved.body.activation).toMatchObject({ dictionaryVersion: `eu-ai-act@${latest}` });
    expect(moved.body.obligations).toEqual(dry.body.obligations);
    const after = (await u.call('GET', '/v1/compliance/obligations?framework=eu-ai-act&limit=200')).body.data;
    const rms = after.find((o: { clauseRef: string }) => o.clauseRef === 'art-9');
    expect(rms.dueDate.slice(0, 10)).toBe('2027-12-02');
    expect(after.length).toBe(before.length + moved.body.obligations.added);
    const trail = await u.call('POST', '/v1/audit-trail/query', { body: { resourceId: moved.body.activation.id, limit: 10 } });
    expect(trail.body.data.map((e: { action: string }) => e.action)).toContain('framework.repinned');
    // Back to 1.0.0: the obligations the amendment added are withdrawn, not deleted.
    const back = await u.call('POST', '/v1/frameworks/eu-ai-act/repin', { body: { version: '1.0.0' } });
    expect(back.body.obligations.withdrawn).toBe(moved.body.obligations.added);
    const none = createTenant(ts);
    expectEnvelope(await (await none).call('POST', '/v1/frameworks/eu-ai-act/repin', { body: { version: latest } }), 404, 'not_found');
    expectEnvelope(await u.call('POST', '/v1/frameworks/eu-ai-act/repin', { body: { version: '7.0.0' } }), 404, 'not_found');
    expectEnvelope(await u.call('POST', '/v1/frameworks/eu-ai-act/repin', { body: {} }), 422, 'validation_failed');
  });
});

describe('dictionary versions: a new version reaches the tenants pinned to an older one', () => {
  // One database, two starts: the shipped content, then a copy with one more GDPR version.
  let store: Awaited<ReturnType<typeof restartableDatabase>>;
  let dir: string;
  let gdpr: { controls: { id: string }[]; obligations: { id: string; clauseRef: string }[] };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-versions-content-'));
    cpSync(CONTENT_ROOT, dir, { recursive: true });
    gdpr = JSON.parse(readFileSync(join(dir, 'frameworks/gdpr.json'), 'utf8'));
    const control = gdpr.controls[0]?.id;
    const obligation = gdpr.obligations[0]?.id;
    mkdirSync(join(dir, 'frameworks/changes'), { recursive: true });
    writeFileSync(
      join(dir, 'frameworks/changes/gdpr@1.1.0.json'),
      JSON.stringify({
        dictionary: 'gdpr',
        version: '1.1.0',
        from: '1.0.0',
        publishedAt: '2026-11-29',
        summary: 'A test amendment that rewords one control and moves one obligation.',
        amendingAct: {
          title: 'Test Amending Regulation',
          reference: null,
          sourceUrl: null,
          adoptedOn: null,
          inForceFrom: '2026-10-01',
          note: null,
        },
        changes: [
          {
            op: 'amend',
            kind: 'control',
            id: control,
            set: { description: 'Reworded by the test amendment, every quarter.' },
            source: 'Test act, Art. 1',
            sourceUrl: null,
          },
          {
            op: 'amend',
            kind: 'obligation',
            id: obligation,
            set: { applicableFrom: '2027-01-01' },
            source: 'Test act, Art. 2',
            sourceUrl: null,
          },
        ],
      }),
    );
    store = await restartableDatabase('versions');
  });
  afterAll(async () => {
    await store?.drop?.();
  });

  const start = (env: NodeJS.ProcessEnv = {}) => store.start(env);

  it('announces it once per pinned tenant, naming its touched obligations, controls, assessments and systems', async () => {
    const first = await start();
    let u: TenantFixture;
    let activationId: string;
    let assessmentId: string;
    try {
      u = await createTenant(first);
      activationId = (await u.call('POST', '/v1/frameworks/gdpr/activate')).body.id;
      const control = gdpr.controls[0]?.id as string;
      expect(
        (
          await u.call('POST', '/v1/compliance/evidence', {
            body: { title: 'Records of processing', kind: 'document', controlIds: [control], systemId: 'sys_crm' },
          })
        ).status,
      ).toBe(201);
      const a = await u.call('POST', A, { body: { type: 'gap-analysis', systemId: 'sys_gap', jurisdiction: 'eu/de', framework: 'gdpr' } });
      expect(a.status).toBe(201);
      assessmentId = a.body.id;
      const other = await createTenant(first);
      await other.call('POST', '/v1/frameworks/eu-ai-act/activate');
    } finally {
      await first.close();
    }
    const second = await start({ SVC_CONTENT_DIR: dir });
    try {
      const call = (m: string, p: string, o: Record<string, unknown> = {}) => callApi(second.url, m, p, { token: u.token, ...o });
      const trail = await call('POST', '/v1/audit-trail/query', { body: { resourceId: activationId, limit: 10 } });
      const notices = trail.body.data.filter((e: { action: string }) => e.action === 'framework.version_available');
      expect(notices).toHaveLength(1);
      expect(notices[0].data).toMatchObject({
        framework: 'gdpr',
        pinned: 'gdpr@1.0.0',
        available: 'gdpr@1.1.0',
        counts: { amended: 2 },
        impact: { controls: [gdpr.controls[0]?.id], assessments: [assessmentId], systems: ['sys_crm', 'sys_gap'] },
      });
      expect(notices[0].data.impact.obligations).toHaveLength(1);
      // The tenant keeps its version until it repins.
      expect((await call('GET', '/v1/frameworks/gdpr/activate', {})).status).toBe(404);
      const act = await call('POST', '/v1/frameworks/gdpr/activate');
      expect(act.body).toMatchObject({ dictionaryVersion: 'gdpr@1.0.0', alreadyActive: true });
      const dry = await call('POST', '/v1/frameworks/gdpr/repin', { body: { version: '1.1.0', dryRun: true } });
      expect(dry.body.impact).toEqual(notices[0].data.impact);
    } finally {
      await second.close();
    }
    // A third start over the same files announces nothing again.
    const third = await start({ SVC_CONTENT_DIR: dir });
    try {
      const trail = await callApi(third.url, 'POST', '/v1/audit-trail/query', {
        token: u.token,
        body: { resourceId: activationId, limit: 10 },
      });
      expect(trail.body.data.filter((e: { action: string }) => e.action === 'framework.version_available')).toHaveLength(1);
    } finally {
      await third.close();
    }
  }, 180_000);
});
