import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENESIS_HASH } from '@svc/contract';
import { verifyChain } from '@svc/contract/audit';
import { appendAudit } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-audit-'));

let ts: TestServer & { databaseUrl: string | undefined };
beforeAll(async () => {
  // Signing keys belong to the database: the rotations and the configured key here stay in its own.
  ts = await startIsolatedTestServer();
});
afterAll(() => ts?.close());

async function mutate(t: TenantFixture, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: `sys_${i}`, jurisdiction: 'eu/de' } });
    ids.push(r.body.id);
  }
  return ids;
}

/** The service's public keys, kept by the verifier as the trust anchor of offline checks. */
async function trustFile(t: TenantFixture) {
  const file = join(dir, `trust-${t.tenantId}.json`);
  writeFileSync(file, JSON.stringify((await t.call('GET', '/v1/audit-trail/keys')).body));
  return file;
}

/**
 * `svc audit verify` on the export with nothing but PATH and HOME in its environment: no server URL,
 * no database. In this process (test/support/cli.ts), as the bin runs it.
 */
async function verifyOffline(file: string, trust: string) {
  const res = await svcInProcess(['audit', 'verify', file, '--trust', trust, '--json'], { PATH: process.env.PATH ?? '', HOME: dir });
  return { code: res.code, report: JSON.parse(res.stdout) };
}

describe('the hash-chained, signed audit trail', () => {
  it('chains each tenant from seq 1 with the genesis hash, and signs every event', async () => {
    const t = await createTenant(ts);
    await mutate(t, 3);
    const res = await t.call('GET', '/v1/audit-trail/events?limit=200');
    expect(res.status).toBe(200);
    const events = [...res.body.data].reverse();
    // tenant.created by the operator, then three assessments.
    expect(events.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(events[0]).toMatchObject({ action: 'tenant.created', prevHash: GENESIS_HASH });
    for (let i = 1; i < events.length; i++) expect(events[i].prevHash).toBe(events[i - 1].hash);
    const keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data;
    expect(verifyChain(events, keys).valid).toBe(true);
    expect(events.every((e: { actor: string; timestamp: string; signature: string }) => e.actor && e.timestamp && e.signature)).toBe(true);
  });

  it('paginates events by seq, newest first, and queries by actor, action, resource and time', async () => {
    const t = await createTenant(ts);
    const ids = await mutate(t, 5);
    const page1 = await t.call('GET', '/v1/audit-trail/events?limit=2');
    expect(page1.body.data.map((e: { seq: number }) => e.seq)).toEqual([6, 5]);
    const page2 = await t.call('GET', `/v1/audit-trail/events?limit=10&cursor=${page1.body.cursor}`);
    expect(page2.body.data.map((e: { seq: number }) => e.seq)).toEqual([4, 3, 2, 1]);
    expect(page2.body.cursor).toBeNull();

    const byResource = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: ids[2] } });
    expect(byResource.body.data).toHaveLength(1);
    expect(byResource.body.data[0]).toMatchObject({ action: 'assessment.created', resourceId: ids[2] });
    const byAction = await t.call('POST', '/v1/audit-trail/query', { body: { action: 'assessment.created', limit: 200 } });
    expect(byAction.body.data).toHaveLength(5);
    const owner = await ts.server.db.prisma.apiKey.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    const byActor = await t.call('POST', '/v1/audit-trail/query', { body: { actor: owner.id, limit: 200 } });
    expect(byActor.body.data).toHaveLength(5);
    const future = await t.call('POST', '/v1/audit-trail/query', { body: { from: new Date(Date.now() + 60_000).toISOString() } });
    expect(future.body.data).toHaveLength(0);
    const past = await t.call('POST', '/v1/audit-trail/query', { body: { to: new Date(Date.now() + 60_000).toISOString(), limit: 200 } });
    expect(past.body.data).toHaveLength(6);
    const other = await createTenant(ts);
    const none = await other.call('POST', '/v1/audit-trail/query', { body: { resourceId: ids[2] } });
    expect(none.body.data).toHaveLength(0);
  });

  it('a rolled-back change leaves no event and the chain head where it was', async () => {
    const t = await createTenant(ts);
    const prisma = ts.server.db.prisma;
    const head = await prisma.auditChainHead.findUniqueOrThrow({ where: { tenantId: t.tenantId } });
    await expect(
      prisma.$transaction(async (tx) => {
        await appendAudit(tx, {
          tenantId: t.tenantId,
          actor: 'test',
          action: 'x.y',
          resourceType: 'x',
          resourceId: 'x',
          correlationId: 'c',
        });
        throw new Error('the change fails after its event was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await prisma.auditEvent.count({ where: { tenantId: t.tenantId } })).toBe(1);
    expect(await prisma.auditChainHead.findUniqueOrThrow({ where: { tenantId: t.tenantId } })).toEqual(head);
  });

  it('200 parallel mutations of one tenant leave one unbroken chain', async () => {
    const t = await createTenant(ts);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: `p${i}`, jurisdiction: 'eu/de' } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(200);
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body).toMatchObject({ valid: true, checked: 201, firstBroken: null, range: { fromSeq: 1, toSeq: 201 } });
    const seqs = (await ts.server.db.prisma.auditEvent.findMany({ where: { tenantId: t.tenantId }, select: { seq: true } })).map(
      (e) => e.seq,
    );
    expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
  });

  it('an export verifies offline, and one edited byte is found and named', async () => {
    const t = await createTenant(ts);
    await mutate(t, 4);
    const exp = await t.call('POST', '/v1/audit-trail/export', { body: {} });
    expect(exp.status).toBe(200);
    expect(exp.body).toMatchObject({ format: 'svc-audit-export/1', range: { fromSeq: 1, toSeq: 5 }, head: { seq: 5 } });
    const file = join(dir, `export-${t.tenantId}.json`);
    const text = JSON.stringify(exp.body, null, 2);
    writeFileSync(file, text);
    const trust = await trustFile(t);
    const ok = await verifyOffline(file, trust);
    expect(ok.code).toBe(0);
    expect(ok.report).toMatchObject({ valid: true, checked: 5 });

    // Change one character of seq 3's data.
    const target = exp.body.events.find((e: { seq: number }) => e.seq === 3);
    const needle = `"systemId": "${target.data.systemId}"`;
    const at = text.indexOf(needle) + needle.length - 2;
    const tampered = `${text.slice(0, at)}${text[at] === '1' ? '2' : '1'}${text.slice(at + 1)}`;
    expect(tampered.length).toBe(text.length);
    writeFileSync(file, tampered);
    const bad = await verifyOffline(file, trust);
    expect(bad.code).toBe(2);
    expect(bad.report.valid).toBe(false);
    expect(bad.report.firstBroken).toMatchObject({ seq: 3, id: target.id, reason: 'hash_mismatch' });

    // Drop an event: the gap is named too.
    const dropped = { ...exp.body, events: exp.body.events.filter((e: { seq: number }) => e.seq !== 4) };
    writeFileSync(file, JSON.stringify(dropped));
    expect((await verifyOffline(file, trust)).report.firstBroken).toMatchObject({ seq: 5, reason: 'seq_gap' });
  });

  it('a range export anchors on the event before it', async () => {
    const t = await createTenant(ts);
    await mutate(t, 6);
    const exp = await t.call('POST', '/v1/audit-trail/export', { body: { fromSeq: 3, toSeq: 5 } });
    expect(exp.body.events.map((e: { seq: number }) => e.seq)).toEqual([3, 4, 5]);
    expect(exp.body.anchor.seq).toBe(2);
    const file = join(dir, `range-${t.tenantId}.json`);
    writeFileSync(file, JSON.stringify(exp.body));
    expect((await verifyOffline(file, await trustFile(t))).report).toMatchObject({ valid: true, checked: 3 });
    expectEnvelope(await t.call('POST', '/v1/audit-trail/export', { body: { fromSeq: 5, toSeq: 3 } }), 422, 'validation_failed');
  });

  it('replay names the first broken link when the database was tampered with behind the trigger', async () => {
    const t = await createTenant(ts);
    await mutate(t, 3);
    const prisma = ts.server.db.prisma;
    // Only someone with the power to disable triggers can do this; replay must still catch it.
    await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only');
      await tx.$executeRaw`UPDATE audit_events SET actor = 'someone-else' WHERE tenant_id = ${t.tenantId} AND seq = 2`;
      await tx.$executeRawUnsafe('ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only');
    });
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body).toMatchObject({ valid: false, checked: 1, firstBroken: { seq: 2, reason: 'hash_mismatch' } });
  });

  it('key rotation keeps old signatures verifiable and signs new events with the new key', async () => {
    const t = await createTenant(ts);
    await mutate(t, 2);
    const rotated = await call(ts.url, 'POST', '/v1/operator/signing-keys/rotate', { token: ts.operatorToken });
    expect(rotated.status).toBe(201);
    await mutate(t, 2);
    const keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data;
    expect(keys.find((k: { keyId: string }) => k.keyId === rotated.body.keyId)?.retiredAt).toBeNull();
    expect(keys.filter((k: { retiredAt: string | null }) => k.retiredAt !== null).length).toBeGreaterThanOrEqual(1);
    const events = [...(await t.call('GET', '/v1/audit-trail/events')).body.data].reverse();
    expect(new Set(events.map((e: { keyId: string }) => e.keyId)).size).toBe(2);
    expect(events.at(-1).keyId).toBe(rotated.body.keyId);
    const replay = await t.call('POST', '/v1/audit-trail/replay', { body: {} });
    expect(replay.body.valid).toBe(true);
  });

  it('the public keys file verifies exported signatures independently', () => {
    // Sanity of the offline verifier against a hand-built, wrongly signed chain.
    const verdict = verifyChain(
      [
        {
          id: 'aud_x',
          tenantId: 'ten_x',
          seq: 1,
          prevHash: GENESIS_HASH,
          timestamp: '2026-01-01T00:00:00.000Z',
          actor: 'a',
          action: 'b',
          resourceType: 'c',
          resourceId: 'd',
          correlationId: 'e',
          data: {},
          keyId: 'sk_none',
          hash: 'f'.repeat(64),
          signature: 'AA',
        },
      ],
      [],
    );
    expect(verdict.firstBroken?.reason).toBe('hash_mismatch');
  });
});

describe('a configured signing key', () => {
  it('is used when SVC_AUDIT_SIGNING_KEY is set', async () => {
    const { generateSigningKeyPem } = await import('@svc/server');
    const pem = generateSigningKeyPem();
    const other = await startTestServer({
      SVC_AUDIT_SIGNING_KEY: Buffer.from(pem).toString('base64'),
      ...(ts.databaseUrl ? { DATABASE_URL: ts.databaseUrl } : {}),
    });
    try {
      const t = await createTenant(other);
      const events = (await t.call('GET', '/v1/audit-trail/events')).body.data;
      const keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data;
      const active = keys.filter((k: { retiredAt: string | null }) => k.retiredAt === null);
      expect(active).toHaveLength(1);
      expect(events[0].keyId).toBe(active[0].keyId);
      const rotate = await call(other.url, 'POST', '/v1/operator/signing-keys/rotate', { token: other.operatorToken });
      expectEnvelope(rotate, 409, 'conflict');
    } finally {
      await other.close();
    }
  });
});

describe('read access', () => {
  it('audit:read is needed; a scoped key without it gets 403', async () => {
    const t = await createTenant(ts);
    const scoped = await t.key('owner', ['compliance:read']);
    const res = await t.call('GET', '/v1/audit-trail/events', { token: scoped });
    expect(expectEnvelope(res, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'audit:read' }]);
  });
});
