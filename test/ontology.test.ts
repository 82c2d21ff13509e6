import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

interface OntNode {
  id: string;
  layer: string;
  key: string;
  title: string;
  framework: string | null;
  attributes: Record<string, unknown>;
  links: string[];
  path?: string[];
}

let ts: TestServer;
let t: TenantFixture;

beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

const anon = (method: string, path: string, body?: unknown) => call(ts.url, method, path, { body });
const ids = (nodes: OntNode[] | undefined) => (nodes ?? []).map((n) => n.id).sort();

async function publicPages(path: string): Promise<OntNode[]> {
  const out: OntNode[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await anon('GET', `${path}${sep}limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.cursor;
  } while (cursor);
  return out;
}

describe('ontology: public dictionary layers', () => {
  it('lists authorities from the dictionaries without a token, with publisher and jurisdiction', async () => {
    const auths = await publicPages('/v1/ontology/authorities');
    const gdpr = auths.find((a) => a.id === 'authority:gdpr');
    expect(gdpr?.layer).toBe('authority');
    expect(typeof gdpr?.attributes.publisher).toBe('string');
    expect(typeof gdpr?.attributes.jurisdiction).toBe('string');
    expect(auths.find((a) => a.id === 'authority:eu-ai-act')?.attributes.aiGovernance).toBe('true');
    expect(new Set(auths.map((a) => a.id)).size).toBe(auths.length);
  });

  it('lists obligations and controls by framework, linked to the authority and through shared clauses', async () => {
    const controls = await publicPages('/v1/ontology/controls?framework=gdpr');
    const obligations = await publicPages('/v1/ontology/obligations?framework=gdpr');
    expect(controls.length).toBeGreaterThan(0);
    expect(obligations.length).toBeGreaterThan(0);
    expect(controls.every((c) => c.framework === 'gdpr' && c.links.includes('authority:gdpr'))).toBe(true);
    const sec = controls.find((c) => c.id === 'control:GDPR-SEC-01') as OntNode;
    const clauses = sec.attributes.clauseRefs as string[];
    const sharing = obligations.filter((o) => clauses.includes(o.attributes.clauseRef as string)).map((o) => o.id);
    expect(sec.links.filter((l) => l.startsWith('obligation:')).sort()).toEqual(sharing.sort());
    // public lists never link to tenant nodes
    expect(controls.some((c) => c.links.some((l) => l.startsWith('evidence:')))).toBe(false);
  });

  it('paginates with a cursor and rejects a bad limit or cursor', async () => {
    const first = await anon('GET', '/v1/ontology/controls?limit=2');
    expect(first.body.data).toHaveLength(2);
    const second = await anon('GET', `/v1/ontology/controls?limit=2&cursor=${first.body.cursor}`);
    expect(second.body.data[0].id > first.body.data[1].id).toBe(true);
    expectEnvelope(await anon('GET', '/v1/ontology/controls?limit=0'), 422, 'validation_failed');
    expectEnvelope(await anon('GET', '/v1/ontology/controls?cursor=nonsense'), 400, 'bad_request');
  });
});

describe('ontology: tenant layers and resolve', () => {
  it('tenant layers and resolve need a token', async () => {
    for (const p of [
      '/v1/ontology/evidence',
      '/v1/ontology/architecture',
      '/v1/ontology/policies',
      '/v1/ontology/resolve?node=control:GDPR-SEC-01',
    ]) {
      expectEnvelope(await anon('GET', p), 401, 'unauthorized');
    }
    expectEnvelope(await anon('POST', '/v1/ontology/resolve', { node: 'control:GDPR-SEC-01' }), 401, 'unauthorized');
  });

  it('resolve from a control reaches its authority, obligations sharing its clauses, and changes with evidence', async () => {
    const own = await createTenant(ts);
    expect((await own.call('POST', '/v1/frameworks/gdpr/activate')).status).toBeLessThan(300);
    const before = await own.call('GET', '/v1/ontology/resolve?node=control:GDPR-SEC-01');
    expect(before.status).toBe(200);
    expect(before.body.node.id).toBe('control:GDPR-SEC-01');
    expect(ids(before.body.layers.authority)).toEqual(['authority:gdpr']);
    const obligations = (await publicPages('/v1/ontology/obligations?framework=gdpr')).filter((o) =>
      o.links.includes('control:GDPR-SEC-01'),
    );
    expect(obligations.length).toBeGreaterThan(0);
    expect(ids(before.body.layers.obligation)).toEqual(ids(obligations));
    expect(before.body.layers.evidence).toBeUndefined();
    expect(before.body.layers.architecture).toBeUndefined();

    const ev = await own.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Security policy', kind: 'policy', controlIds: ['GDPR-SEC-01'], systemId: 'sys_credit_scoring' },
    });
    expect(ev.status).toBe(201);
    const after = await own.call('GET', '/v1/ontology/resolve?node=control:GDPR-SEC-01');
    expect(ids(after.body.layers.evidence)).toEqual([`evidence:${ev.body.id}`]);
    expect(ids(after.body.layers.architecture)).toEqual(['architecture:sys_credit_scoring']);
    expect(ids(after.body.layers.policy)).toEqual([`policy:${ev.body.id}`]);
    const sys = after.body.layers.architecture[0] as OntNode;
    expect(sys.path).toEqual(['control:GDPR-SEC-01', `evidence:${ev.body.id}`, 'architecture:sys_credit_scoring']);
    // the creation of the evidence is in the audit trail, linked to it
    expect((after.body.layers.audit as OntNode[]).some((a) => a.attributes.resourceId === ev.body.id)).toBe(true);

    const post = await own.call('POST', '/v1/ontology/resolve', { body: { node: 'control:GDPR-SEC-01' } });
    expect(post.status).toBe(200);
    expect(ids(post.body.layers.evidence)).toEqual([`evidence:${ev.body.id}`]);

    // walking back from the system reaches the control, its authority and the policy
    const fromSys = await own.call('GET', '/v1/ontology/resolve?node=architecture:sys_credit_scoring');
    expect(ids(fromSys.body.layers.control)).toContain('control:GDPR-SEC-01');
    expect(ids(fromSys.body.layers.authority)).toContain('authority:gdpr');

    // another tenant sees none of it
    const other = await createTenant(ts);
    const theirs = await other.call('GET', '/v1/ontology/resolve?node=control:GDPR-SEC-01');
    expect(theirs.body.layers.evidence).toBeUndefined();
    expectEnvelope(await other.call('GET', `/v1/ontology/resolve?node=evidence:${ev.body.id}`), 404, 'not_found');
    expect(await collectPages(other, '/v1/ontology/evidence')).toEqual([]);
  });

  it('lists evidence, architecture and policies of the tenant with their links', async () => {
    const own = await createTenant(ts);
    expect((await own.call('POST', '/v1/frameworks/gdpr/activate')).status).toBeLessThan(300);
    const a = await own.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Access policy', kind: 'policy', controlIds: ['GDPR-SEC-01'], systemId: 'sys_a' },
    });
    const b = await own.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Pen test', kind: 'document', controlIds: ['GDPR-SEC-02'], systemId: 'sys_b' },
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    const asm = await own.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_c', jurisdiction: 'eu/de' } });
    expect(asm.status).toBe(201);
    const evidence = await collectPages<OntNode>(own, '/v1/ontology/evidence');
    expect(ids(evidence)).toEqual([`evidence:${a.body.id}`, `evidence:${b.body.id}`].sort());
    const ea = evidence.find((e) => e.key === a.body.id) as OntNode;
    expect(ea.links).toEqual(expect.arrayContaining(['control:GDPR-SEC-01', 'architecture:sys_a', `policy:${a.body.id}`]));
    const systems = await collectPages<OntNode>(own, '/v1/ontology/architecture');
    expect(ids(systems)).toEqual(['architecture:sys_a', 'architecture:sys_b', 'architecture:sys_c']);
    expect(systems.find((s) => s.key === 'sys_c')?.attributes.assessments).toEqual([asm.body.id]);
    const policies = await collectPages<OntNode>(own, '/v1/ontology/policies');
    expect(ids(policies)).toEqual([`policy:${a.body.id}`]);
  });

  it('resolves AI-governance nodes and rejects unknown or malformed nodes', async () => {
    const controls = await publicPages('/v1/ontology/controls?framework=eu-ai-act');
    const c = controls[0] as OntNode;
    const aiId = c.links.find((l) => l.startsWith('ai-governance:')) as string;
    expect(aiId).toBe(`ai-governance:eu-ai-act/${c.key}`);
    const res = await t.call('GET', `/v1/ontology/resolve?node=${encodeURIComponent(aiId)}`);
    expect(res.status).toBe(200);
    expect(ids(res.body.layers.control)).toContain(c.id);
    expect(ids(res.body.layers.authority)).toEqual(['authority:eu-ai-act']);
    expectEnvelope(await t.call('GET', '/v1/ontology/resolve?node=control:NOPE-1'), 404, 'not_found');
    expectEnvelope(await t.call('GET', '/v1/ontology/resolve?node=nonsense'), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', '/v1/ontology/resolve', { body: {} }), 422, 'validation_failed');
  });
});
