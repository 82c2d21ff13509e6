import { sign } from 'node:crypto';
import { hashEvent } from '@svc/contract/audit';
import { appendAudit } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { openSealed, privateKeyFromDump } from './support/sealed.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

/**
 * Each of the seven drift checks fires on data set up for it and stays quiet otherwise. Every
 * test uses a fresh tenant, runs the reconciler through the API and reads the drift events.
 */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const attester = { name: 'Dana', email: 'dana@example.com' };
const DAY = 86_400_000;

async function run(t: TenantFixture) {
  const res = await t.call('POST', '/v1/reconciliation/run');
  expect(res.status).toBe(200);
  return res.body;
}

async function open(t: TenantFixture, check?: string) {
  const res = await t.call('GET', `/v1/reconciliation/events?status=open&limit=200${check ? `&check=${check}` : ''}`);
  return res.body.data as { check: string; type: string; subject: string; control: string | null; detail: Record<string, unknown> }[];
}

/** Appends `n` events to the tenant's chain in one transaction, as changes append them. */
async function appendMany(t: TenantFixture, n: number) {
  await ts.server.db.prisma.$transaction(async (tx) => {
    for (let i = 0; i < n; i++) {
      await appendAudit(tx, {
        tenantId: t.tenantId,
        actor: 'test',
        action: 'test.bulk',
        resourceType: 'x',
        resourceId: `x_${i}`,
        correlationId: 'cor_bulk',
      });
    }
  });
}

/** Rewrites the data of the tenant's audit event `seq` behind the append-only trigger's back. */
async function tamper(t: TenantFixture, seq: number, data: Record<string, unknown>) {
  await ts.server.db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only');
    await tx.$executeRaw`UPDATE audit_events SET data = ${JSON.stringify(data)}::jsonb WHERE tenant_id = ${t.tenantId} AND seq = ${seq}`;
    await tx.$executeRawUnsafe('ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only');
  });
}

/** The open audit-chain findings of a chain broken at `seq` for `reason`. */
const brokenAt = (seq: number, reason: string) => [
  expect.objectContaining({ type: 'audit-chain-broken', subject: `seq:${seq}`, detail: expect.objectContaining({ reason }) }),
];

async function declare(t: TenantFixture, state: Record<string, unknown>) {
  const res = await t.call('PUT', '/v1/reconciliation/declared', { body: state });
  expect(res.status).toBe(200);
  return res.body;
}

describe('declared state', () => {
  it('starts empty at version 0, is replaced by PUT (versioned, audited) and validated', async () => {
    const t = await createTenant(ts);
    expect((await t.call('GET', '/v1/reconciliation/declared')).body).toMatchObject({
      version: 0,
      activatedFrameworks: [],
      updatedBy: null,
    });
    const v1 = await declare(t, { activatedFrameworks: ['gdpr', 'gdpr'], controlBaseline: ['GDPR-LAW-01'] });
    expect(v1).toMatchObject({ version: 1, activatedFrameworks: ['gdpr'], controlBaseline: ['GDPR-LAW-01'], attestationMaxAgeDays: null });
    const v2 = await declare(t, { activatedFrameworks: [] });
    expect(v2.version).toBe(2);
    const bad = await t.call('PUT', '/v1/reconciliation/declared', { body: { attestationMaxAgeDays: 0, surprise: true } });
    expectEnvelope(bad, 422, 'validation_failed');
    const audits = await ts.server.db.prisma.auditEvent.count({
      where: { tenantId: t.tenantId, action: 'reconciliation.declared_updated' },
    });
    expect(audits).toBe(2);
  });

  it('declarations at once take versions in turn: none lost, none repeated, none refused', async () => {
    const t = await createTenant(ts);
    const all = await Promise.all(
      Array.from({ length: 5 }, (_, i) => t.call('PUT', '/v1/reconciliation/declared', { body: { attestationMaxAgeDays: 30 + i } })),
    );
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(all.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
    expect((await t.call('GET', '/v1/reconciliation/declared')).body.version).toBe(5);
  });
});

describe('the seven drift checks', () => {
  it('a tenant with nothing declared and nothing wrong has no drift', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
    const r = await run(t);
    expect(r).toMatchObject({ opened: 0, open: 0, trigger: 'manual' });
  });

  it('framework-activation: declared but not active, active but not declared; resolves when fixed', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/frameworks/iso-iec-42001/activate');
    await declare(t, { activatedFrameworks: ['gdpr'] });
    await run(t);
    const found = await open(t, 'framework-activation');
    expect(found.map((f) => [f.type, f.subject]).sort()).toEqual([
      ['framework-not-active', 'gdpr'],
      ['framework-undeclared', 'iso-iec-42001'],
    ]);
    await t.call('POST', '/v1/frameworks/gdpr/activate');
    await declare(t, { activatedFrameworks: ['gdpr', 'iso-iec-42001'] });
    const r = await run(t);
    expect(r.resolved).toBe(2);
    expect(await open(t, 'framework-activation')).toEqual([]);
  });

  it('control-evidence: a baseline control without current evidence is a baseline divergence', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate');
    await declare(t, { activatedFrameworks: ['eu-ai-act'], controlBaseline: ['AIA-RMS-01'] });
    await run(t);
    expect(await open(t, 'control-evidence')).toEqual([
      expect.objectContaining({ type: 'baseline-divergence', control: 'AIA-RMS-01', subject: 'AIA-RMS-01' }),
    ]);
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 'RM procedure', kind: 'policy', controlIds: ['AIA-RMS-01'] } });
    await run(t);
    expect(await open(t, 'control-evidence')).toEqual([]);
  });

  it('evidence-expiry: the newest evidence of an attested control has expired', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate');
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: {
        title: 'Old pen test',
        kind: 'report',
        controlIds: ['AIA-RMS-01'],
        collectedAt: new Date(Date.now() - 400 * DAY).toISOString(),
        expiresAt: new Date(Date.now() - DAY).toISOString(),
      },
    });
    // Not implemented yet (no attestation, no baseline): quiet.
    await run(t);
    expect(await open(t, 'evidence-expiry')).toEqual([]);
    await t.call('POST', '/v1/compliance/attestations', {
      body: { subject: { type: 'control', id: 'AIA-RMS-01' }, statement: 'Operated as documented.', attester },
    });
    await run(t);
    const found = await open(t, 'evidence-expiry');
    expect(found).toEqual([expect.objectContaining({ type: 'evidence-expired', control: 'AIA-RMS-01' })]);
    expect(found[0]?.detail.evidenceId).toBe(ev.body.id);
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 'New pen test', kind: 'report', controlIds: ['AIA-RMS-01'] } });
    await run(t);
    expect(await open(t, 'evidence-expiry')).toEqual([]);
  });

  it('attestation-freshness: baseline controls need an attestation within the declared age', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate');
    await t.call('POST', '/v1/compliance/evidence', { body: { title: 'x', kind: 'log', controlIds: ['AIA-RMS-01'] } });
    await t.call('POST', '/v1/compliance/attestations', {
      body: {
        subject: { type: 'control', id: 'AIA-RMS-01' },
        statement: 'Operated as documented.',
        attester,
        attestedAt: new Date(Date.now() - 200 * DAY).toISOString(),
      },
    });
    await declare(t, { activatedFrameworks: ['eu-ai-act'], controlBaseline: ['AIA-RMS-01'] });
    await run(t);
    expect(await open(t, 'attestation-freshness')).toEqual([]);
    await declare(t, { activatedFrameworks: ['eu-ai-act'], controlBaseline: ['AIA-RMS-01'], attestationMaxAgeDays: 90 });
    await run(t);
    expect(await open(t, 'attestation-freshness')).toEqual([expect.objectContaining({ type: 'attestation-stale', control: 'AIA-RMS-01' })]);
  });

  it('events-covered: an event-index row without its audit event is found', async () => {
    const t = await createTenant(ts);
    await run(t);
    expect(await open(t, 'events-covered')).toEqual([]);
    // Write a row behind the API's back, as a broken writer would.
    await ts.server.db.prisma.eventIndexRow.create({
      data: {
        id: 'evi_01JD3Z8W2M6Q4X9V7K5T1B0N3R'.replace('N3R', t.tenantId.slice(-3)),
        time: new Date(),
        tenantId: t.tenantId,
        source: 'rogue',
        kind: 'rogue.write',
        phase: 'observed',
        severity: 'info',
        actor: 'nobody',
        entity: 'x',
        action: 'write',
        outcome: 'unknown',
        correlationId: 'c',
        attributes: {},
        auditEventId: null,
      },
    });
    await run(t);
    expect(await open(t, 'events-covered')).toEqual([
      expect.objectContaining({ type: 'uncovered-event', detail: { kind: 'rogue.write' } }),
    ]);
  });

  it('audit-chain: a tampered audit event is found by the next run', async () => {
    const t = await createTenant(ts);
    await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
    await run(t);
    expect(await open(t, 'audit-chain')).toEqual([]);
    await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 's', jurisdiction: 'eu/de' } });
    const prisma = ts.server.db.prisma;
    const head = await prisma.auditChainHead.findUniqueOrThrow({ where: { tenantId: t.tenantId } });
    await tamper(t, head.seq, { type: 'forged' });
    await run(t);
    expect(await open(t, 'audit-chain')).toEqual(brokenAt(head.seq, 'hash_mismatch'));
  });

  it('audit-chain: verifies page by page past the first page, and finds a forged event there', async () => {
    const t = await createTenant(ts);
    const prisma = ts.server.db.prisma;
    // More events than one page of the check (500): appended as changes append them.
    await appendMany(t, 520);
    await run(t);
    expect(await open(t, 'audit-chain')).toEqual([]);
    const head = await prisma.auditChainHead.findUniqueOrThrow({ where: { tenantId: t.tenantId } });
    expect(await prisma.auditVerification.findUniqueOrThrow({ where: { tenantId: t.tenantId } })).toMatchObject({
      seq: head.seq,
      hash: head.hash,
    });

    // From the mark on, another 1,020, one forged on the third page of the next run.
    await appendMany(t, 1_020);
    const forgedSeq = head.seq + 1_010;
    await tamper(t, forgedSeq, { forged: true });
    await run(t);
    expect(await open(t, 'audit-chain')).toEqual(brokenAt(forgedSeq, 'hash_mismatch'));
    // The mark stays where the chain last verified.
    expect((await prisma.auditVerification.findUniqueOrThrow({ where: { tenantId: t.tenantId } })).seq).toBe(head.seq);
  });

  it('audit-chain: an event signed with a key retired before the last run is refused (a leaked key after rotation)', async () => {
    // Rotation retires the key of every chain in the database: a database of its own.
    const own = await startIsolatedTestServer();
    try {
      const t = await createTenant(own);
      const prisma = own.server.db.prisma;
      await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
      // The active key's private half leaks (read at rest and opened with the secrets key).
      const [leakedRow] = await prisma.$queryRawUnsafe<{ id: string; private_key: string }[]>(
        `SELECT "id", "private_key" FROM "signing_keys" WHERE "status" = 'active'`,
      );
      const leaked = privateKeyFromDump(openSealed(leakedRow!.private_key, process.env.SVC_SECRETS_KEY as string))!;
      expect((await call(own.url, 'POST', '/v1/operator/signing-keys/rotate', { token: own.operatorToken })).status).toBe(201);
      await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 's', jurisdiction: 'eu/de' } });
      // A run verifies past the rotation: the next one starts after it.
      await run(t);
      expect(await open(t, 'audit-chain')).toEqual([]);

      // The holder of the leaked key appends an event, linked and hashed as the chain wants.
      const head = await prisma.auditChainHead.findUniqueOrThrow({ where: { tenantId: t.tenantId } });
      const body = {
        id: 'aud_forged0000000000000000000',
        tenantId: t.tenantId,
        seq: head.seq + 1,
        prevHash: head.hash,
        timestamp: new Date().toISOString(),
        actor: 'key_forged',
        action: 'assessment.deleted',
        resourceType: 'svc.compliance.assessment',
        resourceId: 'asm_forged',
        correlationId: 'cor_forged',
        data: {},
        keyId: leakedRow!.id,
      };
      const hash = hashEvent(body);
      const { timestamp, ...row } = body;
      await prisma.auditEvent.create({
        data: {
          ...row,
          createdAt: new Date(timestamp),
          hash,
          signature: sign(null, Buffer.from(hash, 'ascii'), leaked).toString('base64url'),
        },
      });
      await prisma.auditChainHead.update({ where: { tenantId: t.tenantId }, data: { seq: body.seq, hash } });

      await run(t);
      expect(await open(t, 'audit-chain')).toEqual(brokenAt(body.seq, 'key_not_valid_at'));
    } finally {
      await own.close();
    }
  });

  it('credential-age: active keys older than the declared maximum', async () => {
    const t = await createTenant(ts);
    await declare(t, { maxApiKeyAgeDays: 30 });
    await run(t);
    expect(await open(t, 'credential-age')).toEqual([]);
    const key = await ts.server.db.prisma.apiKey.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    await ts.server.db.prisma.apiKey.update({ where: { id: key.id }, data: { createdAt: new Date(Date.now() - 60 * DAY) } });
    await run(t);
    expect(await open(t, 'credential-age')).toEqual([expect.objectContaining({ type: 'stale-credential', subject: key.id })]);
  });
});

describe('drift events in the audit log, summary and /v1/events/drifts', () => {
  it('each finding is chained into the audit trail; the summary counts them; drifts lists them', async () => {
    const t = await createTenant(ts);
    await declare(t, { activatedFrameworks: ['gdpr', 'eu-ai-act'] });
    const r = await run(t);
    expect(r.opened).toBe(2);
    const drifts = await open(t);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { action: 'drift.detected' } });
    expect(audit.body.data.map((e: { seq: number }) => e.seq).sort()).toEqual(
      drifts.map((d) => (d as unknown as { auditSeq: number }).auditSeq).sort(),
    );
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body.valid).toBe(true);
    const summary = await t.call('GET', '/v1/reconciliation/summary');
    expect(summary.body).toMatchObject({ open: 2, resolved: 0, intervalSeconds: 300, lastRun: { id: r.id } });
    expect(summary.body.byCheck).toHaveLength(7);
    expect(summary.body.byCheck.find((c: { check: string }) => c.check === 'framework-activation').open).toBe(2);
    const viaEvents = await t.call('GET', '/v1/events/drifts?status=open');
    expect(viaEvents.body.data.map((d: { id: string }) => d.id).sort()).toEqual(
      drifts.map((d) => (d as unknown as { id: string }).id).sort(),
    );
    // A second run finds the same drift: nothing new is opened or audited.
    const again = await run(t);
    expect(again).toMatchObject({ opened: 0, resolved: 0, open: 2 });
  });

  it('runs on a schedule', async () => {
    const fast = await startTestServer({ SVC_RECONCILE_INTERVAL_SECONDS: '1' });
    try {
      const t = await createTenant(fast);
      await t.call('PUT', '/v1/reconciliation/declared', { body: { activatedFrameworks: ['gdpr'] } });
      let found: unknown[] = [];
      for (let i = 0; i < 40 && found.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        found = (await t.call('GET', '/v1/reconciliation/events?status=open')).body.data;
      }
      expect(found).toEqual([expect.objectContaining({ type: 'framework-not-active', subject: 'gdpr' })]);
      const summary = await t.call('GET', '/v1/reconciliation/summary');
      expect(summary.body.lastRun.trigger).toBe('schedule');
    } finally {
      await fast.close();
    }
  });
});
