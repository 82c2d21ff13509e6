import { createSvcClient } from './index.ts';
const svc = createSvcClient({ baseUrl: 'http://x', apiKey: 'k' });
async function f() {
  const a = await svc.compliance.createAssessment({ body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
  a.status satisfies 'draft' | 'in_progress' | 'completed';
  const c = await svc.frameworks.controls({ params: { id: 'eu-ai-act' }, query: { limit: 10 } });
  c.data[0]?.clauseRefs;
  const l = await svc.frameworks.list();
  l.cursor;
  await svc.frameworks.activate({ params: { id: 'x' } });
  await svc.operator.revokeKey({ params: { id: 'x' } });
  await svc.system.health();
  // @ts-expect-error body required
  await svc.compliance.createAssessment();
  // @ts-expect-error params required
  await svc.frameworks.get({});
  // @ts-expect-error listKeys requires query.tenantId
  await svc.operator.listKeys();
  for await (const o of svc.paginate(svc.compliance.listObligations, { query: { limit: 25 } })) {
    o.sourceRef satisfies string;
  }
  for await (const o of svc.paginate(svc.frameworks.controls, { params: { id: 'x' } })) {
    o.clauseRefs satisfies string[];
  }
  // @ts-expect-error not a list
  svc.paginate(svc.compliance.getAssessment, { params: { id: 'x' } });
  type Q = Parameters<typeof svc.compliance.listAssessments>[0];
  const q: Q = { query: { status: 'draft' } };
  // @ts-expect-error bad enum
  const q2: Q = { query: { status: 'nope' } };
  return [q, q2];
}
void f;
async function g() {
  const a = await svc.compliance.createAssessment({ body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
  // @ts-expect-error no such field
  a.nonexistent;
  // @ts-expect-error unknown body key types
  await svc.compliance.createAssessment({ body: { type: 'nope', systemId: 's', jurisdiction: 'eu/de' } });
  const h = await svc.system.health();
  // @ts-expect-error
  h.foo;
  type A = Parameters<typeof svc.frameworks.controls>[0];
  const x: A = { params: { id: 'a' }, query: { limit: 10, category: 'c' } };
  return x;
}
void g;
