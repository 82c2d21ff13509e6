import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
});
afterAll(() => ts?.close());

// An evidence upload is routed to an agent that works in the background: its decision and the
// tenant's first dictionary-bundle pin are audited too, at a time of their own; these tests look at
// what the requests themselves append.
const background = ['agent.decision_recorded', 'agent.failed', 'taxonomy.bundle_pinned'];
const events = () =>
  ts.server.db.prisma.auditEvent.findMany({ where: { tenantId: t.tenantId, action: { notIn: background } }, orderBy: { id: 'asc' } });

describe('audit events are written with the change, in its transaction', () => {
  it('each mutation appends exactly one event naming actor, action and resource; reads append none', async () => {
    const start = (await events()).length;
    await t.call('GET', '/v1/compliance/assessments');
    expect(await events()).toHaveLength(start);

    const act = await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { headers: { 'x-correlation-id': 'corr-activate' } });
    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
    const evd = await t.call('POST', '/v1/compliance/evidence', { body: { title: 't', kind: 'log', controlIds: ['AIA-RMS-01'] } });
    const att = await t.call('POST', '/v1/compliance/attestations', {
      body: {
        subject: { type: 'assessment', id: asm.body.id },
        statement: 'Reviewed and approved.',
        attester: { name: 'A', email: 'a@example.com' },
      },
    });
    const all = (await events()).slice(start);
    expect(all.map((e) => [e.action, e.resourceId])).toEqual([
      ['framework.activated', act.body.id],
      ['assessment.created', asm.body.id],
      ['evidence.uploaded', evd.body.id],
      ['attestation.created', att.body.id],
    ]);
    const owner = await ts.server.db.prisma.apiKey.findFirstOrThrow({ where: { tenantId: t.tenantId, role: 'owner' } });
    expect(all.every((e) => e.actor === owner.id)).toBe(true);
    expect(all[0]?.correlationId).toBe('corr-activate');
  });

  it('a refused mutation leaves no event and no row', async () => {
    const before = (await events()).length;
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 't', kind: 'log', controlIds: ['NOT-A-CONTROL'] } });
    await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria' } });
    expect(await events()).toHaveLength(before);
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE on audit events', async () => {
    const [first] = await events();
    const prisma = ts.server.db.prisma;
    await expect(prisma.$executeRaw`UPDATE audit_events SET action = 'tampered' WHERE id = ${first?.id}`).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`DELETE FROM audit_events WHERE id = ${first?.id}`).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRawUnsafe('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    expect((await events())[0]?.action).toBe(first?.action);
  });
});
