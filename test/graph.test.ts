import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_ROOT } from '@svc/server/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

interface Req {
  framework: string;
  kind: 'control' | 'clause';
  ref: string;
  title: string | null;
}
interface Rel {
  id: string;
  source: Req;
  target: Req;
  relationship: string;
  strength: number;
}
const key = (r: { framework: string; kind: string; ref: string }) => `${r.framework}|${r.kind}|${r.ref}`;
const FACTOR: Record<string, number> = { equal: 1, subset: 0.8, superset: 0.8, intersect: 0.5, not_related: 0 };

let ts: TestServer;
let t: TenantFixture;
let all: Rel[];

beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  all = await collectPages<Rel>(t, '/v1/graph/relations');
});
afterAll(() => ts?.close());

describe('graph: relations', () => {
  it('serves every crosswalk edge once, with both ends titled, through the cursor', () => {
    expect(all.length).toBeGreaterThanOrEqual(500);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    const untitled = all.filter((r) => r.source.title === null || r.target.title === null);
    expect(untitled).toEqual([]);
  });

  it('filters by dictionary on either side, by requirement and by relationship', async () => {
    const gdpr = (await t.call('GET', '/v1/graph/relations?framework=uk-gdpr&limit=200')).body.data as Rel[];
    expect(gdpr.length).toBe(all.filter((r) => r.source.framework === 'uk-gdpr' || r.target.framework === 'uk-gdpr').length);
    const art32 = (await t.call('GET', '/v1/graph/relations?requirement=art-32&limit=200')).body.data as Rel[];
    expect(art32.length).toBeGreaterThan(0);
    expect(art32.every((r) => r.source.ref === 'art-32' || r.target.ref === 'art-32')).toBe(true);
    const equal = (await t.call('GET', '/v1/graph/relations?relationship=equal&limit=200')).body.data as Rel[];
    expect(equal.length).toBeGreaterThan(0);
    expect(equal.every((r) => r.relationship === 'equal')).toBe(true);
    expectEnvelope(await t.call('GET', '/v1/graph/relations?relationship=similar'), 422, 'validation_failed');
  });

  it('is a growth rail: a starter tenant gets 403', async () => {
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    expectEnvelope(await starter.call('GET', '/v1/graph/relations'), 403, 'forbidden');
    expectEnvelope(await starter.call('GET', '/v1/graph/onboarding-savings'), 403, 'forbidden');
  });
});

describe('graph: blast radius, evidence reuse, onboarding savings', () => {
  let control: { id: string; clauseRefs: string[] };
  beforeAll(async () => {
    // A GDPR control whose clauses have crosswalk edges.
    const res = await t.call('GET', '/v1/frameworks/gdpr/controls?limit=200');
    const linked = new Set(
      all
        .flatMap((r) => [r.source, r.target])
        .filter((r) => r.framework === 'gdpr')
        .map((r) => r.ref),
    );
    control = res.body.data.find((c: { clauseRefs: string[] }) => c.clauseRefs.filter((ref) => linked.has(ref)).length >= 2);
    expect(control).toBeDefined();
    for (const fw of ['gdpr', 'uk-gdpr', 'iso-iec-27701'])
      expect((await t.call('POST', `/v1/frameworks/${fw}/activate`)).status).toBeLessThan(300);
  });

  it("reaches, one edge away, every requirement the control's clauses are mapped to, weighted by relationship and strength", async () => {
    const res = await t.call('POST', '/v1/graph/blast-radius', { body: { control: control.id } });
    expect(res.status).toBe(200);
    expect(res.body.control).toMatchObject({ framework: 'gdpr', kind: 'control', ref: control.id });
    const reached = new Map<string, { weight: number; hops: number }>();
    for (const f of res.body.frameworks) for (const r of f.requirements) reached.set(key(r), r);
    // `affectedFrameworks` is the same reach as `<dictionary>:<ref>` strings, in the detail's order.
    expect(res.body.affectedFrameworks).toEqual(
      res.body.frameworks.flatMap((f: { requirements: Req[] }) => f.requirements.map((r) => `${r.framework}:${r.ref}`)),
    );
    expect(res.body.affectedFrameworks).toContain(`gdpr:${control.id}`);
    for (const ref of control.clauseRefs) expect(res.body.affectedFrameworks).toContain(`gdpr:${ref}`);
    const own = new Set(control.clauseRefs.map((ref) => key({ framework: 'gdpr', kind: 'clause', ref })));
    for (const r of all) {
      for (const [from, to] of [
        [r.source, r.target],
        [r.target, r.source],
      ] as const) {
        if (!own.has(key(from))) continue;
        const w = (FACTOR[r.relationship] ?? 0) * (r.strength / 10);
        if (w < 0.1) continue;
        const got = reached.get(key(to));
        expect(got, `${key(to)} via ${r.id}`).toBeDefined();
        expect(got?.weight).toBeGreaterThanOrEqual(Math.round(w * 1000) / 1000 - 0.001);
      }
    }
    const frameworks = res.body.frameworks.map((f: { framework: string }) => f.framework);
    expect(frameworks[0]).toBe('gdpr');
    expect(frameworks).toContain('uk-gdpr');
    expect(res.body.affectedFrameworks.some((r: string) => r.startsWith('uk-gdpr:'))).toBe(true);
    expect(res.body.affectedSystems).toBe(0);
    expect(res.body.systems).toEqual([]);
    expectEnvelope(await t.call('POST', '/v1/graph/blast-radius', { body: { control: 'NO-SUCH-CONTROL' } }), 404, 'not_found');
    expectEnvelope(await t.call('POST', '/v1/graph/blast-radius', { body: {} }), 422, 'validation_failed');
  });

  it("counts the tenant's systems whose evidence or assessments the change reaches, and changes when they do", async () => {
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Security policy', kind: 'policy', controlIds: [control.id], systemId: 'sys_payments' },
    });
    expect(ev.status).toBe(201);
    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_crm', jurisdiction: 'eu/de' } });
    expect(asm.status).toBe(201);
    await t.call('POST', '/v1/compliance/assessments', {
      body: { type: 'aims-internal-audit', systemId: 'sys_unrelated', jurisdiction: 'eu/de' },
    });
    const res = await t.call('POST', '/v1/graph/blast-radius', { body: { control: control.id } });
    expect(res.body.affectedSystems).toBe(2);
    expect(res.body.systems).toEqual([
      { systemId: 'sys_crm', evidence: [], assessments: [asm.body.id] },
      { systemId: 'sys_payments', evidence: [ev.body.id], assessments: [] },
    ]);
  });

  it('tells which requirements of other dictionaries one piece of evidence satisfies, full across equal edges', async () => {
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Record of processing', kind: 'policy', controlIds: [control.id] },
    });
    const res = await t.call('POST', '/v1/graph/evidence-reuse', { body: { evidenceId: ev.body.id } });
    expect(res.status).toBe(200);
    expect(res.body.controls).toEqual([control.id]);
    const got = new Map<string, { coverage: string; strength: number }>(
      res.body.satisfies.map((s: Req & { coverage: string; strength: number }) => [key(s), s]),
    );
    const own = new Set([
      key({ framework: 'gdpr', kind: 'control', ref: control.id }),
      ...control.clauseRefs.map((ref) => key({ framework: 'gdpr', kind: 'clause', ref })),
    ]);
    const expected = new Map<string, string>();
    for (const r of all) {
      if (own.has(key(r.source)) && r.target.framework !== 'gdpr' && r.relationship !== 'not_related') {
        const cov = r.relationship === 'equal' || r.relationship === 'superset' ? 'full' : 'partial';
        if (expected.get(key(r.target)) !== 'full') expected.set(key(r.target), cov);
      }
      if (own.has(key(r.target)) && r.source.framework !== 'gdpr' && r.relationship !== 'not_related') {
        const cov = r.relationship === 'equal' || r.relationship === 'subset' ? 'full' : 'partial';
        if (expected.get(key(r.source)) !== 'full') expected.set(key(r.source), cov);
      }
    }
    expect(new Map([...got].map(([k, v]) => [k, v.coverage]))).toEqual(expected);
    expect(res.body.satisfies.some((s: { coverage: string }) => s.coverage === 'full')).toBe(true);
    const other = await createTenant(ts);
    expectEnvelope(await other.call('POST', '/v1/graph/evidence-reuse', { body: { evidenceId: ev.body.id } }), 404, 'not_found');
  });

  it("computes onboarding savings from the tenant's evidence: crosswalks cover UK GDPR controls before any UK evidence exists", async () => {
    const fresh = await createTenant(ts);
    for (const fw of ['gdpr', 'uk-gdpr']) await fresh.call('POST', `/v1/frameworks/${fw}/activate`);
    const before = (await fresh.call('GET', '/v1/graph/onboarding-savings')).body;
    const uk0 = before.frameworks.find((f: { framework: string }) => f.framework === 'uk-gdpr');
    expect(uk0).toMatchObject({ direct: 0, viaCrosswalk: { full: 0, partial: 0 }, savedShare: 0 });
    const gdprControls = (await fresh.call('GET', '/v1/frameworks/gdpr/controls?limit=200')).body.data.map((c: { id: string }) => c.id);
    await fresh.call('POST', '/v1/compliance/evidence', {
      body: { title: 'GDPR programme', kind: 'policy', controlIds: gdprControls.slice(0, 20) },
    });
    const after = (await fresh.call('GET', '/v1/graph/onboarding-savings')).body;
    const uk = after.frameworks.find((f: { framework: string }) => f.framework === 'uk-gdpr');
    const gd = after.frameworks.find((f: { framework: string }) => f.framework === 'gdpr');
    expect(gd.direct).toBe(20);
    expect(uk.direct).toBe(0);
    expect(uk.viaCrosswalk.full).toBeGreaterThan(0);
    expect(uk.savedShare).toBeCloseTo((uk.viaCrosswalk.full + uk.viaCrosswalk.partial / 2) / uk.controls, 3);
    expect(after.totals.savedShare).toBeGreaterThan(0);
    const ukControl = (await fresh.call('GET', '/v1/frameworks/uk-gdpr/controls?limit=1')).body.data[0].id;
    await fresh.call('POST', '/v1/compliance/evidence', { body: { title: 'UK addendum', kind: 'policy', controlIds: [ukControl] } });
    const last = (await fresh.call('GET', '/v1/graph/onboarding-savings')).body;
    expect(last.frameworks.find((f: { framework: string }) => f.framework === 'uk-gdpr').direct).toBe(1);
  });
});

describe('graph: impact of a new dictionary version', () => {
  let ts2: TestServer;
  let u: TenantFixture;
  let removedControl: string;
  let changedControl: string;
  let removedObligation: string;
  beforeAll(async () => {
    // The shipped content plus a GDPR 1.1.0 that drops a control and an obligation, rewords a
    // control and adds a clause.
    const dir = mkdtempSync(join(tmpdir(), 'svc-graph-content-'));
    cpSync(CONTENT_ROOT, dir, { recursive: true });
    const v1 = JSON.parse(readFileSync(join(dir, 'frameworks/gdpr.json'), 'utf8'));
    const v2 = structuredClone(v1);
    v2.version = '1.1.0';
    removedControl = v2.controls[1].id;
    changedControl = v2.controls[2].id;
    removedObligation = v2.obligations[0].id;
    v2.controls.splice(1, 1);
    v2.controls[1].description = `${v2.controls[1].description} Reviewed every quarter.`;
    v2.obligations.splice(0, 1);
    v2.questions = v2.questions.filter((q: { controlId: string }) => q.controlId !== removedControl);
    v2.clauses.push({
      ref: 'art-99-9',
      title: 'A clause added in 1.1.0',
      summary: 'A clause that exists only in the newer version.',
      parentRef: null,
    });
    writeFileSync(join(dir, 'frameworks/gdpr@1.1.0.json'), JSON.stringify(v2));
    // A database of its own: on PostgreSQL the new version would otherwise become every file's latest.
    ts2 = await startIsolatedTestServer({ SVC_CONTENT_DIR: dir });
    u = await createTenant(ts2);
    await u.call('POST', '/v1/frameworks/gdpr/activate', { body: { version: '1.0.0' } });
  });
  afterAll(() => ts2?.close());

  it("lists what 1.1.0 adds, removes and changes, and the tenant's evidence and obligations it touches", async () => {
    const ev = await u.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Old control evidence', kind: 'policy', controlIds: [removedControl] },
    });
    expect(ev.status).toBe(201);
    const res = await u.call('GET', '/v1/graph/impact?framework=gdpr');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ framework: 'gdpr', from: '1.0.0', to: '1.1.0' });
    expect(res.body.added).toEqual([{ kind: 'clause', ref: 'art-99-9', title: 'A clause added in 1.1.0' }]);
    expect(res.body.removed.map((r: { kind: string; ref: string }) => `${r.kind}:${r.ref}`).sort()).toEqual(
      [`control:${removedControl}`, `obligation:${removedObligation}`].sort(),
    );
    expect(res.body.changed.map((r: { ref: string }) => r.ref)).toEqual([changedControl]);
    expect(res.body.tenant.evidence).toEqual([{ id: ev.body.id, controls: [removedControl] }]);
    expect(res.body.tenant.obligations.map((o: { sourceRef: string; change: string }) => [o.sourceRef, o.change])).toEqual([
      [removedObligation, 'removed'],
    ]);
    const same = await u.call('GET', '/v1/graph/impact?framework=gdpr&from=1.1.0&to=1.1.0');
    expect(same.body).toMatchObject({ added: [], removed: [], changed: [] });
    expectEnvelope(await u.call('GET', '/v1/graph/impact?framework=gdpr&to=9.9.9'), 404, 'not_found');
    expectEnvelope(await u.call('GET', '/v1/graph/impact?framework=no-such-dictionary'), 404, 'not_found');
  });

  it('agents read the dictionary version the tenant pinned, not the newest one loaded', async () => {
    const prisma = ts2.server.db.prisma;
    // A tenant whose bundle was pinned while GDPR 1.0.0 was the newest: its pin names 1.0.0.
    const early = await createTenant(ts2, { tier: 'growth' });
    expect((await early.call('GET', '/v1/taxonomy/bundle-hash')).body.versions.gdpr).toBe('1.1.0');
    const pin = await prisma.taxonomyPin.findFirstOrThrow({ where: { tenantId: early.tenantId } });
    await prisma.taxonomyPin.create({
      data: {
        id: `txp_${'0'.repeat(25)}1`,
        tenantId: early.tenantId,
        seq: pin.seq + 1,
        hash: `sha256:${'0'.repeat(64)}`,
        versions: { ...(pin.versions as Record<string, string>), gdpr: '1.0.0' },
        components: pin.components as object,
        previousHash: pin.hash,
        pinnedBy: pin.pinnedBy,
      },
    });
    const current = await createTenant(ts2, { tier: 'growth' });

    // The control 1.1.0 removed is still there for the tenant pinned at 1.0.0, and the decision says so.
    const early1 = await early.call('POST', '/v1/agents/framework-mapper/invoke', { body: { control: removedControl } });
    expect(early1.status, JSON.stringify(early1.body)).toBe(200);
    expect(early1.body.dictionaryVersion).toBe('gdpr@1.0.0');
    const replay = await early.call('GET', `/v1/agents/decisions/${early1.body.decisionId}`);
    expect(replay.body.replay).toMatchObject({ reproduced: true, intact: true });
    expectEnvelope(
      await current.call('POST', '/v1/agents/framework-mapper/invoke', { body: { control: removedControl } }),
      404,
      'not_found',
    );

    // The reworded control is mapped under the title of the version each tenant pinned.
    const [a, b] = await Promise.all(
      [early, current].map((who) => who.call('POST', '/v1/agents/framework-mapper/invoke', { body: { control: changedControl } })),
    );
    expect([a?.status, b?.status]).toEqual([200, 200]);
    expect([a?.body.dictionaryVersion, b?.body.dictionaryVersion]).toEqual(['gdpr@1.0.0', 'gdpr@1.1.0']);
  });
});
