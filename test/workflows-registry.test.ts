import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, getWebhookEventType, WorkflowSnapshot } from '@svc/contract';
import { CONTENT_ROOT } from '@svc/server/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkCatalogueRefs,
  diffWorkflows,
  prepareCatalogue,
  STOCK_WORKFLOWS_FILE,
  StockCatalogueSchema,
} from '../packages/server/src/rails/workflows-registry/service.ts';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface Step {
  position: number;
  key: string;
  owner: string;
  refs: { framework: string; kind: 'clause' | 'control'; ref: string; title?: string | null }[];
}
interface Wf {
  object: string;
  id: string;
  title: string;
  category: string;
  stakeholders: string[];
  frameworks: string[];
  steps: Step[];
  catalogueVersion: string;
}
interface FileWf {
  id: string;
  category: string;
  stakeholders: string[];
  frameworks: string[];
  steps: Omit<Step, 'position'>[];
}

const BASE = '/v1/workflows-registry';
/** The data file as the test reads it, independently of the server. */
const raw = JSON.parse(readFileSync(join(CONTENT_ROOT, 'workflows', 'stock-workflows.json'), 'utf8')) as {
  version: string;
  workflows: FileWf[];
};
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ids = (list: { id: string }[]) => list.map((w) => w.id);
const sortedIds = (list: { id: string }[]) => ids(list).sort();

let ts: TestServer;
let t: TenantFixture;

beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

describe('workflows registry: the data file', () => {
  it('holds 20 workflows that pass the schema', () => {
    expect(STOCK_WORKFLOWS_FILE).toBe(join(CONTENT_ROOT, 'workflows', 'stock-workflows.json'));
    const parsed = StockCatalogueSchema.safeParse(raw);
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 5))).toBe(true);
    expect(raw.workflows).toHaveLength(20);
    for (const wanted of ['dpia', 'fria', 'ai-act-risk-classification', 'incident-notification', 'dsar-handling', 'internal-audit']) {
      expect(ids(raw.workflows)).toContain(wanted);
    }
  });

  it('cites only framework ids and clauses or controls that exist in the shipped dictionaries', () => {
    const dir = join(CONTENT_ROOT, 'frameworks');
    const dictionaries = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => {
        const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; clauses: { ref: string }[]; controls: { id: string }[] };
        return { id: d.id, clauses: new Set(d.clauses.map((c) => c.ref)), controls: new Set(d.controls.map((c) => c.id)) };
      });
    const catalogue = StockCatalogueSchema.parse(raw);
    expect(checkCatalogueRefs(catalogue, dictionaries)).toEqual([]);
    const cited = raw.workflows.flatMap((w) => w.steps.flatMap((s) => s.refs));
    expect(cited.length).toBeGreaterThan(200);
    for (const f of ['gdpr', 'eu-ai-act', 'nis2', 'dora', 'iso-iec-27001', 'iso-iec-42001']) {
      expect(cited.some((r) => r.framework === f)).toBe(true);
    }

    // The check catches what it is for: an unknown dictionary, clause or control.
    const broken = structuredClone(catalogue);
    const dpia = broken.workflows.find((w) => w.id === 'dpia');
    if (!dpia?.steps[0]) throw new Error('dpia has no steps');
    dpia.steps[0].refs.push({ framework: 'gdpr', kind: 'clause', ref: 'art-999' }, { framework: 'gdpr', kind: 'control', ref: 'art-35' });
    dpia.frameworks.push('no-such-law');
    const problems = checkCatalogueRefs(broken, dictionaries);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/art-999/);
    expect(problems.join('\n')).toMatch(/no-such-law/);
  });

  it('the schema refuses a step owner that is not a stakeholder, and a framework no step cites', () => {
    const bad = structuredClone(raw);
    (bad.workflows[0] as FileWf).steps[0] = { ...(bad.workflows[0] as FileWf).steps[0], owner: 'nobody' } as FileWf['steps'][number];
    expect(StockCatalogueSchema.safeParse(bad).success).toBe(false);
    const extra = structuredClone(raw);
    (extra.workflows[0] as FileWf).frameworks = [...(extra.workflows[0] as FileWf).frameworks, 'soc2-tsc'].sort();
    expect(StockCatalogueSchema.safeParse(extra).success).toBe(false);
  });
});

describe('workflows registry: catalogue and filters', () => {
  let all: Wf[];
  beforeAll(async () => {
    all = await collectPages<Wf>(t, `${BASE}/catalog`);
  });

  it('serves every workflow of the file once, in id order, with its steps numbered', () => {
    expect(all).toHaveLength(raw.workflows.length);
    expect(ids(all)).toEqual(sortedIds(raw.workflows));
    for (const w of all) {
      const src = raw.workflows.find((x) => x.id === w.id) as FileWf;
      expect(w.object).toBe('svc.workflows_registry.workflow');
      expect(w.catalogueVersion).toBe(raw.version);
      expect(w.category).toBe(src.category);
      expect(w.stakeholders).toEqual(src.stakeholders);
      expect(w.frameworks).toEqual(src.frameworks);
      expect(w.steps.map((s) => s.key)).toEqual(src.steps.map((s) => s.key));
      expect(w.steps.map((s) => s.position)).toEqual(src.steps.map((_, i) => i + 1));
      expect(w.steps.map((s) => s.refs.map(({ title: _t, ...r }) => r))).toEqual(src.steps.map((s) => s.refs));
    }
  });

  it('titles every reference from the dictionary it cites', () => {
    const dir = join(CONTENT_ROOT, 'frameworks');
    const titles = new Map<string, string>();
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        id: string;
        clauses: { ref: string; title: string }[];
        controls: { id: string; title: string }[];
      };
      for (const c of d.clauses) titles.set(`${d.id}|clause|${c.ref}`, c.title);
      for (const c of d.controls) titles.set(`${d.id}|control|${c.id}`, c.title);
    }
    const refs = all.flatMap((w) => w.steps.flatMap((s) => s.refs));
    expect(refs.length).toBeGreaterThan(200);
    for (const r of refs) expect(r.title, `${r.framework} ${r.ref}`).toBe(titles.get(`${r.framework}|${r.kind}|${r.ref}`));
    const dpia = all.find((w) => w.id === 'dpia') as Wf;
    expect(dpia.steps[0]?.refs[0]).toEqual({ framework: 'gdpr', kind: 'clause', ref: 'art-35-1', title: 'When a DPIA is required' });
  });

  it('pages with limit and cursor', async () => {
    const first = await t.call('GET', `${BASE}/catalog?limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.cursor).toEqual(expect.any(String));
    const second = await t.call('GET', `${BASE}/catalog?limit=3&cursor=${first.body.cursor}`);
    expect(ids(second.body.data)).toEqual(ids(all).slice(3, 6));
    const last = await t.call('GET', `${BASE}/catalog?limit=200`);
    expect(last.body.cursor).toBeNull();
    expectEnvelope(await t.call('GET', `${BASE}/catalog?cursor=not-a-cursor`), 400, 'bad_request');
    expectEnvelope(await t.call('GET', `${BASE}/catalog?limit=0`), 422, 'validation_failed');
  });

  it('gets one workflow by id; an unknown id is 404', async () => {
    const res = await t.call('GET', `${BASE}/catalog/dpia`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(all.find((w) => w.id === 'dpia'));
    expectEnvelope(await t.call('GET', `${BASE}/catalog/no-such-workflow`), 404, 'not_found');
  });

  const frameworks = [...new Set(raw.workflows.flatMap((w) => w.frameworks))];
  const roles = [...new Set(raw.workflows.flatMap((w) => w.stakeholders))];
  const categories = [...new Set(raw.workflows.map((w) => w.category))];

  it('by-framework returns exactly the workflows whose file entry lists the framework', async () => {
    for (const f of frameworks) {
      const got = await collectPages<Wf>(t, `${BASE}/by-framework?framework=${f}`);
      expect(ids(got), f).toEqual(sortedIds(raw.workflows.filter((w) => w.frameworks.includes(f))));
      expect(got.every((w) => w.steps.some((s) => s.refs.some((r) => r.framework === f)))).toBe(true);
    }
    const gdpr = await collectPages<Wf>(t, `${BASE}/by-framework?framework=gdpr`);
    expect(ids(gdpr)).toContain('dpia');
    expect(ids(gdpr)).not.toContain('model-release-gate');
  });

  it('by-stakeholder returns exactly the workflows naming the role', async () => {
    for (const role of roles) {
      const got = await collectPages<Wf>(t, `${BASE}/by-stakeholder?role=${role}`);
      expect(ids(got), role).toEqual(sortedIds(raw.workflows.filter((w) => w.stakeholders.includes(role))));
    }
    const dpo = await collectPages<Wf>(t, `${BASE}/by-stakeholder?role=dpo`);
    expect(ids(dpo)).toEqual(expect.arrayContaining(['dpia', 'dsar-handling', 'incident-notification']));
  });

  it('by-category returns exactly the workflows of the category, and the categories partition the catalogue', async () => {
    let total = 0;
    for (const c of categories) {
      const got = await collectPages<Wf>(t, `${BASE}/by-category?category=${c}`);
      expect(ids(got), c).toEqual(sortedIds(raw.workflows.filter((w) => w.category === c)));
      total += got.length;
    }
    expect(total).toBe(raw.workflows.length);
    expect(ids(await collectPages<Wf>(t, `${BASE}/by-category?category=privacy`))).toContain('dpia');
  });

  it('the catalogue filters combine with AND', async () => {
    const got = await collectPages<Wf>(t, `${BASE}/catalog?framework=gdpr&role=dpo&category=privacy`);
    const want = raw.workflows.filter((w) => w.frameworks.includes('gdpr') && w.stakeholders.includes('dpo') && w.category === 'privacy');
    expect(want.length).toBeGreaterThan(0);
    expect(ids(got)).toEqual(sortedIds(want));
  });

  it('an unknown value gives an empty list; a malformed or missing one is 422', async () => {
    for (const path of ['by-framework?framework=no-such-law', 'by-stakeholder?role=astronaut', 'by-category?category=astrology']) {
      const res = await t.call('GET', `${BASE}/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({ data: [], cursor: null });
    }
    for (const path of [
      'by-framework?framework=GDPR!',
      'by-framework',
      'by-stakeholder?role=Data%20Protection%20Officer',
      'by-stakeholder',
      'by-category?category=_x',
      'by-category',
      'catalog?framework=%20',
    ]) {
      expectEnvelope(await t.call('GET', `${BASE}/${path}`), 422, 'validation_failed');
    }
  });
});

describe('workflows registry: snapshots', () => {
  const expectedHash = sha256(canonicalJson(raw));

  it('POST snapshot records version 1 with the sha256 of the canonical catalogue, audited and emitted', async () => {
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/wf', eventTypes: ['workflow_snapshot.created'] },
    });
    expect(sub.status).toBe(201);
    const res = await t.call('POST', `${BASE}/snapshot`, { body: { note: 'first baseline' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(WorkflowSnapshot.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({
      object: 'svc.workflows_registry.snapshot',
      version: 1,
      hash: expectedHash,
      catalogueVersion: raw.version,
      workflowCount: raw.workflows.length,
      note: 'first baseline',
    });
    expect(res.body.workflows).toEqual(
      [...raw.workflows].sort((a, b) => (a.id < b.id ? -1 : 1)).map((w) => ({ id: w.id, hash: sha256(canonicalJson(w)) })),
    );
    expect(res.body.changes).toEqual({ since: null, added: sortedIds(raw.workflows), removed: [], changed: [] });

    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: res.body.id, limit: 10 } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['workflow_snapshot.created']);
    expect(audit.body.data[0]).toMatchObject({ resourceType: 'svc.workflows_registry.snapshot', data: { version: 1, hash: expectedHash } });

    const def = getWebhookEventType('workflow_snapshot.created');
    expect(def).toBeDefined();
    const rows = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, subject: res.body.id } });
    expect(rows).toHaveLength(1);
    expect(def?.data.safeParse(rows[0]?.data).success).toBe(true);
    expect(rows[0]?.data).toEqual(res.body);

    const got = await t.call('GET', `${BASE}/snapshot/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('versions increase by one per tenant, independently for each tenant; the list is newest first', async () => {
    const second = await t.call('POST', `${BASE}/snapshot`, { body: {} });
    const third = await t.call('POST', `${BASE}/snapshot`, { body: {} });
    expect([second.body.version, third.body.version]).toEqual([2, 3]);
    expect(third.body.hash).toBe(expectedHash);
    expect(third.body.note).toBeNull();
    // Same catalogue: nothing changed since the previous snapshot.
    expect(third.body.changes).toEqual({ since: 2, added: [], removed: [], changed: [] });

    const other = await createTenant(ts);
    const theirs = await other.call('POST', `${BASE}/snapshot`, { body: {} });
    expect(theirs.body.version).toBe(1);
    expect(theirs.body.hash).toBe(expectedHash);

    const mine = await collectPages<{ id: string; version: number }>(t, `${BASE}/snapshot`);
    expect(mine.map((s) => s.version)).toEqual([3, 2, 1]);
    expect(ids(mine)).not.toContain(theirs.body.id);
    expectEnvelope(await other.call('GET', `${BASE}/snapshot/${third.body.id}`), 404, 'not_found');
    expect((await collectPages<{ version: number }>(other, `${BASE}/snapshot`)).map((s) => s.version)).toEqual([1]);
  });

  it('concurrent snapshots of one tenant take distinct consecutive versions', async () => {
    const u = await createTenant(ts);
    const results = await Promise.all(Array.from({ length: 5 }, () => u.call('POST', `${BASE}/snapshot`, { body: {} })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('an Idempotency-Key replay returns the same snapshot and takes no new version', async () => {
    const u = await createTenant(ts);
    const headers = { 'idempotency-key': `wfs-${Date.now()}` };
    const first = await u.call('POST', `${BASE}/snapshot`, { body: { note: 'once' }, headers });
    const again = await u.call('POST', `${BASE}/snapshot`, { body: { note: 'once' }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await collectPages(u, `${BASE}/snapshot`)).toHaveLength(1);
  });

  it('refuses unknown body fields and an over-long note', async () => {
    expectEnvelope(await t.call('POST', `${BASE}/snapshot`, { body: { version: 9 } }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', `${BASE}/snapshot`, { body: { note: 'x'.repeat(501) } }), 422, 'validation_failed');
  });

  it('the hash and the diff follow the catalogue: a changed catalogue hashes differently and names what changed', () => {
    const base = prepareCatalogue(StockCatalogueSchema.parse(raw));
    expect(base.hash).toBe(expectedHash);
    const edited = structuredClone(raw);
    (edited.workflows.find((w) => w.id === 'dsar-handling') as FileWf).category = 'privacy-operations';
    edited.workflows = edited.workflows.filter((w) => w.id !== 'breach-tabletop');
    const next = prepareCatalogue(StockCatalogueSchema.parse(edited));
    expect(next.hash).toBe(sha256(canonicalJson(edited)));
    expect(next.hash).not.toBe(base.hash);
    expect(diffWorkflows({ version: 4, workflows: base.workflowHashes }, next.workflowHashes)).toEqual({
      since: 4,
      added: [],
      removed: ['breach-tabletop'],
      changed: ['dsar-handling'],
    });
  });

  it('needs workflows_registry:write to snapshot; a viewer reads', async () => {
    const viewer = await t.key('viewer');
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${ts.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect((await call('GET', `${BASE}/catalog?limit=1`)).status).toBe(200);
    expect((await call('GET', `${BASE}/snapshot`)).status).toBe(200);
    const refused = await call('POST', `${BASE}/snapshot`, {});
    expect(refused.status).toBe(403);
  });
});

describe('workflows registry: tier', () => {
  it('is a starter rail: a sandbox tenant gets 403 on every route, a starter tenant is served', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 1000 });
    for (const [method, path] of [
      ['GET', `${BASE}/catalog`],
      ['GET', `${BASE}/catalog/dpia`],
      ['GET', `${BASE}/by-framework?framework=gdpr`],
      ['GET', `${BASE}/by-stakeholder?role=dpo`],
      ['GET', `${BASE}/by-category?category=privacy`],
      ['GET', `${BASE}/snapshot`],
      ['POST', `${BASE}/snapshot`],
    ] as const) {
      expectEnvelope(await sandbox.call(method, path, method === 'POST' ? { body: {} } : {}), 403, 'forbidden');
    }
    const starter = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    expect((await starter.call('GET', `${BASE}/by-category?category=privacy`)).status).toBe(200);
    expect((await starter.call('POST', `${BASE}/snapshot`, { body: {} })).status).toBe(201);
  });
});
