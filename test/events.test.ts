import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const base = {
  source: 'ci.pipeline',
  kind: 'model.deployed',
  phase: 'completed',
  severity: 'info',
  actor: 'deploy-bot',
  entity: 'sys_a',
  action: 'deploy',
  outcome: 'success',
  correlationId: 'run-1',
};

describe('event engine: POST /v1/events', () => {
  let t: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
  });

  it('appends one row of the 14 typed fields, covered by an audit event', async () => {
    const res = await t.call('POST', '/v1/events', { body: { ...base, latencyMs: 120, attributes: { version: '2.4.1' } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...base, tenantId: t.tenantId, latencyMs: 120, attributes: { version: '2.4.1' }, overBudget: false });
    expect(res.body.id).toMatch(/^evi_/);
    const audit = await ts.server.db.prisma.auditEvent.findUniqueOrThrow({ where: { id: res.body.auditEventId } });
    expect(audit).toMatchObject({ action: 'event.emitted', resourceId: res.body.id, tenantId: t.tenantId });
  });

  it('validates strictly: every violation named, nothing written', async () => {
    const before = await ts.server.db.prisma.eventIndexRow.count({ where: { tenantId: t.tenantId } });
    const res = await t.call('POST', '/v1/events', {
      body: { ...base, kind: 'NoDots', phase: 'done', severity: 'loud', latencyMs: -1, colour: 'red', actor: 'a'.repeat(200) },
    });
    const details = expectEnvelope(res, 422, 'validation_failed').details;
    const fields = Object.fromEntries(details.map((d: { field: string; issue: string }) => [d.field, d.issue]));
    expect(fields).toMatchObject({
      kind: 'invalid_format',
      phase: 'invalid_value',
      severity: 'invalid_value',
      latencyMs: 'too_small',
      colour: 'unknown_field',
      actor: 'too_big',
    });
    const missing = await t.call('POST', '/v1/events', { body: { kind: 'a.b' } });
    const missingFields = expectEnvelope(missing, 422, 'validation_failed').details.filter((d: { issue: string }) => d.issue === 'missing');
    expect(missingFields.map((d: { field: string }) => d.field).sort()).toEqual(
      ['action', 'actor', 'correlationId', 'entity', 'outcome', 'phase', 'severity', 'source'].sort(),
    );
    const other = await t.call('POST', '/v1/events', { body: { ...base, tenantId: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } });
    expect(expectEnvelope(other, 422, 'validation_failed').details[0].field).toBe('tenantId');
    const future = await t.call('POST', '/v1/events', { body: { ...base, time: '2999-01-01T00:00:00Z' } });
    expect(expectEnvelope(future, 422, 'validation_failed').details[0].field).toBe('time');
    expect(await ts.server.db.prisma.eventIndexRow.count({ where: { tenantId: t.tenantId } })).toBe(before);
  });

  it('the platform appends rows for its own operations', async () => {
    const fresh = await createTenant(ts);
    const asm = await fresh.call('POST', '/v1/compliance/assessments', {
      body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' },
      headers: { 'x-correlation-id': 'corr-asm' },
    });
    const rows = await fresh.call('GET', '/v1/events?source=svc.api');
    const kinds = rows.body.data.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(['assessment.created', 'tenant.created']);
    expect(rows.body.data[0]).toMatchObject({ entity: asm.body.id, correlationId: 'corr-asm', action: 'created', phase: 'completed' });
  });
});

describe('event engine: filters and sub-resources', () => {
  let t: TenantFixture;
  const t0 = Date.parse('2026-11-01T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTenant(ts);
    const rows = [
      {
        kind: 'model.deployed',
        phase: 'started',
        severity: 'info',
        actor: 'bot',
        entity: 'sys_x',
        action: 'deploy',
        correlationId: 'c1',
        min: 0,
        latencyMs: 100,
      },
      {
        kind: 'model.deployed',
        phase: 'completed',
        severity: 'info',
        actor: 'bot',
        entity: 'sys_x',
        action: 'deploy',
        correlationId: 'c1',
        min: 5,
        latencyMs: 9000,
      },
      {
        kind: 'incident.opened',
        phase: 'started',
        severity: 'critical',
        actor: 'pager',
        entity: 'inc_1',
        action: 'open',
        correlationId: 'c2',
        min: 70,
        latencyMs: 2500,
        source: 'pagerduty',
      },
      {
        kind: 'incident.opened',
        phase: 'completed',
        severity: 'error',
        actor: 'pager',
        entity: 'inc_1',
        action: 'close',
        correlationId: 'c2',
        min: 130,
        latencyMs: 10,
        source: 'pagerduty',
      },
      {
        kind: 'evidence.collected',
        phase: 'observed',
        severity: 'notice',
        actor: 'scanner',
        entity: 'sys_x',
        action: 'scan',
        correlationId: 'c1',
        min: 10,
        latencyMs: null,
      },
    ];
    for (const r of rows) {
      const res = await t.call('POST', '/v1/events', {
        body: {
          ...base,
          source: r.source ?? 'ci.pipeline',
          kind: r.kind,
          phase: r.phase,
          severity: r.severity,
          actor: r.actor,
          entity: r.entity,
          action: r.action,
          correlationId: r.correlationId,
          latencyMs: r.latencyMs,
          time: new Date(t0 + r.min * 60_000).toISOString(),
        },
      });
      expect(res.status).toBe(201);
    }
  });

  const ids = async (q: string) =>
    (await t.call('GET', `/v1/events?${q}`)).body.data.map((r: { kind: string; phase: string }) => `${r.kind}/${r.phase}`);

  it('filters by each field and by time range, newest first', async () => {
    expect(await ids('source=pagerduty')).toEqual(['incident.opened/completed', 'incident.opened/started']);
    expect(await ids('kind=model.deployed')).toEqual(['model.deployed/completed', 'model.deployed/started']);
    expect(await ids('phase=observed')).toEqual(['evidence.collected/observed']);
    expect(await ids('severity=critical')).toEqual(['incident.opened/started']);
    expect(await ids('actor=scanner')).toEqual(['evidence.collected/observed']);
    expect(await ids('entity=inc_1&action=close')).toEqual(['incident.opened/completed']);
    expect(await ids(`tenantId=${t.tenantId}&source=pagerduty`)).toHaveLength(2);
    expect(await ids('tenantId=ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R')).toEqual([]);
    const window = `from=${new Date(t0 + 4 * 60_000).toISOString()}&to=${new Date(t0 + 71 * 60_000).toISOString()}&source=ci.pipeline`;
    expect(await ids(window)).toEqual(['evidence.collected/observed', 'model.deployed/completed']);
  });

  it('paginates by time with a cursor', async () => {
    const all = await ids('limit=200&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z');
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: { kind: string; phase: string }[]; cursor: string | null } } = await t.call(
        'GET',
        `/v1/events?limit=2&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z${cursor ? `&cursor=${cursor}` : ''}`,
      );
      walked.push(...res.body.data.map((r) => `${r.kind}/${r.phase}`));
      cursor = res.body.cursor;
    } while (cursor);
    expect(walked).toEqual(all);
    expect(all).toHaveLength(5);
  });

  it('query: counts per kind and severity over hourly buckets, with over-budget rows', async () => {
    const res = await t.call('POST', '/v1/events/query', {
      body: { groupBy: ['kind'], bucket: 'hour', from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    // model.deployed 9000 ms > 5000 ms (default budget); incident.* 2500 ms > 1000 ms.
    expect(res.body.overBudget).toBe(2);
    const g = res.body.groups.map((x: { key: { kind: string }; bucket: string; count: number; overBudget: number }) => [
      x.key.kind,
      x.bucket,
      x.count,
      x.overBudget,
    ]);
    expect(g).toEqual([
      ['evidence.collected', '2026-11-01T10:00:00.000Z', 1, 0],
      ['incident.opened', '2026-11-01T11:00:00.000Z', 1, 1],
      ['incident.opened', '2026-11-01T12:00:00.000Z', 1, 0],
      ['model.deployed', '2026-11-01T10:00:00.000Z', 2, 1],
    ]);
    const bySeverity = await t.call('POST', '/v1/events/query', { body: { groupBy: ['severity'], source: 'pagerduty' } });
    expect(bySeverity.body.groups.map((x: { key: { severity: string } }) => x.key.severity)).toEqual(['critical', 'error']);
  });

  it('lifecycle: the ordered phases of one entity; trail: one correlation id in order', async () => {
    const life = await t.call('GET', '/v1/events/lifecycle?entity=inc_1');
    expect(life.body.phases.map((p: { phase: string }) => p.phase)).toEqual(['started', 'completed']);
    const trail = await t.call('GET', '/v1/events/trail?correlationId=c1');
    expect(trail.body.data.map((r: { kind: string; phase: string }) => `${r.kind}/${r.phase}`)).toEqual([
      'model.deployed/started',
      'model.deployed/completed',
      'evidence.collected/observed',
    ]);
  });

  it('sources: counts and last seen', async () => {
    const res = await t.call('GET', '/v1/events/sources');
    const byName = Object.fromEntries(res.body.data.map((s: { source: string }) => [s.source, s]));
    expect(byName.pagerduty).toMatchObject({ count: 2, kinds: 1, lastSeen: new Date(t0 + 130 * 60_000).toISOString() });
    expect(byName['ci.pipeline']).toMatchObject({ count: 3, kinds: 2 });
    expect(byName['svc.api'].count).toBeGreaterThanOrEqual(1);
  });

  it('routes matching rows to event agents by the rule table', async () => {
    const dispatches = await ts.server.db.prisma.agentDispatch.findMany({ where: { tenantId: t.tenantId } });
    const agents = dispatches.map((d) => d.agent).sort();
    // incident.* -> incident-reporter (two rows), evidence.* -> evidence-compiler (one row).
    expect(agents).toEqual(['evidence-compiler', 'incident-reporter', 'incident-reporter']);
  });

  it('the event index is append-only in the database', async () => {
    const prisma = ts.server.db.prisma;
    await expect(prisma.$executeRaw`UPDATE event_index SET kind = 'x.y' WHERE tenant_id = ${t.tenantId}`).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`DELETE FROM event_index WHERE tenant_id = ${t.tenantId}`).rejects.toThrow(/append-only/);
  });
});
