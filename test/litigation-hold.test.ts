import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The litigation_hold rail: holds over named records and criteria, custodians and their
 * acknowledgement, the preservation log, the eDiscovery export (its digests recomputed here from
 * the contents, independently of the server), and the guard: a held label or watchlist entry
 * cannot be deleted (409) until the hold is released, and the sandbox reset keeps held records.
 */

let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  other = await createTenant(ts);
});
afterAll(() => ts?.close());

const H = '/v1/litigation-hold';

/** Canonical JSON: object keys sorted at every level, no spaces (written here, not imported). */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

async function label(who: TenantFixture, value: string) {
  const res = await who.call('POST', '/v1/metadata/label', {
    body: { resourceType: 'tenant', resourceId: who.tenantId, key: 'matter', value },
  });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body as { id: string };
}

async function risk(who: TenantFixture, title: string, domain = 'security') {
  const res = await who.call('POST', '/v1/risk-register/risks', {
    body: { title, domain, inherentLikelihood: 3, inherentImpact: 4 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; createdAt: string };
}

async function hold(who: TenantFixture, body: Record<string, unknown>) {
  const res = await who.call('POST', `${H}/holds`, { body: { matter: 'Doe v. Example', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string; records: unknown[]; criteria: unknown };
}

const log = async (who: TenantFixture, holdId: string) =>
  (
    await collectPages<{ event: string; targetId: string | null; targetType: string | null; detail: any; actor: string | null }>(
      who,
      `${H}/preservation?holdId=${holdId}`,
    )
  ).reverse();

describe('tiers and validation', () => {
  it('a tenant below enterprise gets 403 on every sub-resource', async () => {
    const growth = await createTenant(ts, { tier: 'growth' });
    for (const p of ['holds', 'custodians', 'preservation', 'ediscovery']) {
      expectEnvelope(await growth.call('GET', `${H}/${p}`), 403, 'forbidden');
    }
    expectEnvelope(await growth.call('POST', `${H}/holds`, { body: { matter: 'x', criteria: { types: ['risk'] } } }), 403, 'forbidden');
  });

  it('a hold needs records or criteria; bad criteria and foreign records are 422', async () => {
    expectEnvelope(await t.call('POST', `${H}/holds`, { body: { matter: 'Nothing' } }), 422, 'validation_failed');
    expectEnvelope(await t.call('POST', `${H}/holds`, { body: { matter: 'Empty', criteria: {} } }), 422, 'validation_failed');
    expectEnvelope(
      await t.call('POST', `${H}/holds`, {
        body: { matter: 'Backwards', criteria: { createdFrom: '2026-02-01T00:00:00.000Z', createdTo: '2026-01-01T00:00:00.000Z' } },
      }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', `${H}/holds`, {
        body: { matter: 'Bad kind', records: [{ type: 'spaceship', id: 'rsk_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }] },
      }),
      422,
      'validation_failed',
    );
    // Another tenant's label is not this tenant's record: 422, and it reveals nothing.
    const theirs = await label(other, 'foreign');
    const env = expectEnvelope(
      await t.call('POST', `${H}/holds`, { body: { matter: 'Foreign', records: [{ type: 'metadata_label', id: theirs.id }] } }),
      422,
      'validation_failed',
    );
    expect(env.details[0].field).toBe('records[0].id');
  });
});

describe('a held label cannot be deleted until the hold is released', () => {
  it('409 naming the hold, logged; release needs a reason; then the delete goes through', async () => {
    const l = await label(t, 'held-label');
    const h = await hold(t, { records: [{ type: 'metadata_label', id: l.id }] });
    expect(h.status).toBe('active');

    const refused = expectEnvelope(await t.call('DELETE', `/v1/metadata/label/${l.id}`), 409, 'conflict');
    expect(refused.message).toContain(h.id);
    expect(refused.message).toContain(l.id);
    // Nothing was removed.
    const labels = await collectPages<{ id: string }>(t, '/v1/metadata/label');
    expect(labels.map((x) => x.id)).toContain(l.id);

    // Release without a reason: 422, still active, the label still held.
    expectEnvelope(await t.call('POST', `${H}/holds/${h.id}/release`, { body: {} }), 422, 'validation_failed');
    expect((await t.call('GET', `${H}/holds/${h.id}`)).body.status).toBe('active');
    expectEnvelope(await t.call('DELETE', `/v1/metadata/label/${l.id}`), 409, 'conflict');

    const released = await t.call('POST', `${H}/holds/${h.id}/release`, { body: { reason: 'Case settled on 2026-11-20.' } });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body).toMatchObject({ status: 'released', releaseReason: 'Case settled on 2026-11-20.' });
    expect(released.body.releasedAt).not.toBeNull();
    // A released hold holds nothing and cannot be released again.
    expect((await t.call('GET', `${H}/holds/${h.id}/records`)).body.records).toEqual([]);
    const again = expectEnvelope(await t.call('POST', `${H}/holds/${h.id}/release`, { body: { reason: 'again' } }), 409, 'conflict');
    expect(again.message).toContain('released');

    const deleted = await t.call('DELETE', `/v1/metadata/label/${l.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    // The preservation log, in order: the hold, the two refused deletions, the release.
    const entries = await log(t, h.id);
    expect(entries.map((e) => e.event)).toEqual(['hold_created', 'deletion_refused', 'deletion_refused', 'hold_released']);
    expect(entries[1]).toMatchObject({ targetType: 'metadata_label', targetId: l.id });
    expect(entries[1]?.actor).toMatch(/^key_/);
    expect(entries[3]?.detail.reason).toBe('Case settled on 2026-11-20.');

    // Audited: the hold's creation and release.
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: h.id, limit: 50 } });
    expect(audit.body.data.map((e: { action: string }) => e.action).sort()).toEqual(['legal_hold.created', 'legal_hold.released']);
  });

  it('a label not under any hold is deleted as before', async () => {
    const l = await label(t, 'free-label');
    await hold(t, { criteria: { types: ['risk'] } });
    expect((await t.call('DELETE', `/v1/metadata/label/${l.id}`)).status).toBe(200);
  });
});

describe('criteria resolve to records, watchlist entries included', () => {
  it('createdFrom selects the later risk only; a watchlist entry held by criteria cannot be unwatched', async () => {
    const first = await risk(t, 'Early risk');
    await new Promise((r) => setTimeout(r, 20));
    const boundary = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const second = await risk(t, 'Later risk');
    const h = await hold(t, { criteria: { types: ['risk'], createdFrom: boundary } });
    const held = await t.call('GET', `${H}/holds/${h.id}/records`);
    expect(held.status).toBe(200);
    const ids = held.body.records.map((r: { id: string }) => r.id);
    expect(ids).toContain(second.id);
    expect(ids).not.toContain(first.id);
    expect(held.body.records.find((r: { id: string }) => r.id === second.id)).toEqual({ type: 'risk', id: second.id, via: 'criteria' });

    // A record created after the hold that matches its criteria is held too.
    const third = await risk(t, 'Even later risk');
    expect((await t.call('GET', `${H}/holds/${h.id}/records`)).body.records.map((r: { id: string }) => r.id)).toContain(third.id);

    const watched = await t.call('POST', '/v1/risk/watchlist', { body: { riskId: first.id } });
    expect(watched.status, JSON.stringify(watched.body)).toBe(201);
    const wh = await hold(t, { matter: 'Watchlist matter', criteria: { types: ['risk_watch'] } });
    const refused = expectEnvelope(await t.call('DELETE', `/v1/risk/watchlist/${first.id}`), 409, 'conflict');
    expect(refused.message).toContain(wh.id);
    expect((await log(t, wh.id)).map((e) => e.event)).toEqual(['hold_created', 'deletion_refused']);
    expect((await t.call('POST', `${H}/holds/${wh.id}/release`, { body: { reason: 'Matter closed' } })).status).toBe(200);
    const removed = await t.call('DELETE', `/v1/risk/watchlist/${first.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toBe(true);
  });
});

describe('custodians', () => {
  it('one person added to a hold three times at once: one custodian and 409s', async () => {
    const h = await hold(t, { criteria: { types: ['evidence'] } });
    const body = { holdId: h.id, name: 'Dana Whitfield', email: `dana.${Date.now()}@example.com` };
    const all = await Promise.all([0, 1, 2].map(() => t.call('POST', `${H}/custodians`, { body })));
    expect(all.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('notice, duplicate, acknowledgement, released hold', async () => {
    const h = await hold(t, { criteria: { types: ['evidence'] } });
    const c = await t.call('POST', `${H}/custodians`, { body: { holdId: h.id, name: 'Dana Whitfield', email: 'Dana@Example.com' } });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body).toMatchObject({
      holdId: h.id,
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      status: 'notified',
      acknowledgedAt: null,
    });
    expectEnvelope(
      await t.call('POST', `${H}/custodians`, { body: { holdId: h.id, name: 'Dana W.', email: 'dana@example.com' } }),
      409,
      'conflict',
    );
    expectEnvelope(await t.call('POST', `${H}/custodians`, { body: { holdId: h.id } }), 422, 'validation_failed');
    expectEnvelope(
      await t.call('POST', `${H}/custodians`, { body: { holdId: h.id, stakeholderUserId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' } }),
      422,
      'validation_failed',
    );

    // A stakeholder person: name and email come from the stakeholder record.
    const person = await t.call('POST', '/v1/stakeholders/users', {
      body: { name: 'Ines Duarte', email: 'ines.duarte@example.com', roleIds: [] },
    });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    const sc = await t.call('POST', `${H}/custodians`, { body: { holdId: h.id, stakeholderUserId: person.body.id } });
    expect(sc.status, JSON.stringify(sc.body)).toBe(201);
    expect(sc.body).toMatchObject({ stakeholderUserId: person.body.id, name: 'Ines Duarte', email: 'ines.duarte@example.com' });

    const ack = await t.call('POST', `${H}/custodians/${c.body.id}/acknowledge`, { body: {} });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.body.status).toBe('acknowledged');
    expect(ack.body.acknowledgedAt).not.toBeNull();
    const twice = expectEnvelope(await t.call('POST', `${H}/custodians/${c.body.id}/acknowledge`, { body: {} }), 409, 'conflict');
    expect(twice.message).toContain('acknowledged');

    expect((await log(t, h.id)).map((e) => [e.event, e.targetId])).toEqual([
      ['hold_created', h.id],
      ['custodian_notified', c.body.id],
      ['custodian_notified', sc.body.id],
      ['custodian_acknowledged', c.body.id],
    ]);

    const listed = await collectPages<{ id: string }>(t, `${H}/custodians?holdId=${h.id}&status=acknowledged`);
    expect(listed.map((x) => x.id)).toEqual([c.body.id]);

    await t.call('POST', `${H}/holds/${h.id}/release`, { body: { reason: 'done' } });
    expectEnvelope(await t.call('POST', `${H}/custodians`, { body: { holdId: h.id, name: 'Late Person' } }), 409, 'conflict');
    expectEnvelope(
      await t.call('POST', `${H}/custodians`, { body: { holdId: 'lhd_01JD3Z8W2M6Q4X9V7K5T1B0N3R', name: 'Nobody' } }),
      422,
      'validation_failed',
    );
  });
});

describe('writes and their preservation-log entries', () => {
  it('each change is audited and logged once in its transaction, with the key and correlation id of its request; a replay adds nothing', async () => {
    const headers = { 'idempotency-key': `hold-${Date.now()}`, 'x-correlation-id': 'corr-hold-create' };
    const body = { matter: 'Replayed matter', criteria: { types: ['policy'] } };
    const first = await t.call('POST', `${H}/holds`, { body, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await t.call('POST', `${H}/holds`, { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const h = first.body as { id: string };

    const c = await t.call('POST', `${H}/custodians`, {
      body: { holdId: h.id, name: 'Rui Costa' },
      headers: { 'x-correlation-id': 'corr-custodian' },
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body.noticeSentAt).toBe(c.body.createdAt);
    const ack = await t.call('POST', `${H}/custodians/${c.body.id}/acknowledge`, {
      body: { reason: 'Signed the notice.' },
      headers: { 'x-correlation-id': 'corr-ack' },
    });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    // The state comes first: a released hold is 409 with or without a reason, an unknown one 404.
    const released = await t.call('POST', `${H}/holds/${h.id}/release`, {
      body: { reason: 'Closed.' },
      headers: { 'x-correlation-id': 'corr-release' },
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expectEnvelope(await t.call('POST', `${H}/holds/${h.id}/release`, { body: {} }), 409, 'conflict');
    expectEnvelope(await t.call('POST', `${H}/holds/lhd_01JD3Z8W2M6Q4X9V7K5T1B0N3R/release`, { body: {} }), 404, 'not_found');

    const entries = await log(t, h.id);
    expect(entries.map((e) => [e.event, e.targetId, e.detail.correlationId])).toEqual([
      ['hold_created', h.id, 'corr-hold-create'],
      ['custodian_notified', c.body.id, 'corr-custodian'],
      ['custodian_acknowledged', c.body.id, 'corr-ack'],
      ['hold_released', h.id, 'corr-release'],
    ]);
    for (const e of entries) expect(e.actor).toMatch(/^key_/);

    const audited = async (id: string) =>
      (await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: id, limit: 50 } })).body.data.map(
        (e: { action: string; data: unknown }) => [e.action, e.data],
      );
    expect(await audited(h.id)).toEqual([
      ['legal_hold.released', { from: 'active', to: 'released', reason: 'Closed.' }],
      ['legal_hold.created', { matter: 'Replayed matter', records: 0, criteria: { types: ['policy'] } }],
    ]);
    expect(await audited(c.body.id)).toEqual([
      ['custodian.acknowledged', { from: 'notified', to: 'acknowledged', reason: 'Signed the notice.' }],
      ['custodian.notified', { holdId: h.id, name: 'Rui Costa' }],
    ]);
  });
});

describe('ediscovery', () => {
  it('exports the held records with per-record SHA-256 and a manifest hash that recompute', async () => {
    const a = await risk(t, 'Exported risk A', 'privacy');
    const b = await risk(t, 'Exported risk B', 'ai');
    const l = await label(t, 'exported-label');
    const h = await hold(t, {
      matter: 'Export matter',
      records: [
        { type: 'risk', id: a.id },
        { type: 'risk', id: b.id },
        { type: 'metadata_label', id: l.id },
      ],
    });
    const res = await t.call('POST', `${H}/ediscovery`, { body: { holdId: h.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const x = res.body;
    expect(x.recordCount).toBe(3);
    // Manifest order: by kind (the fixed list: risk before metadata_label), then id.
    expect(x.manifest.records.map((r: { type: string; id: string }) => `${r.type}:${r.id}`)).toEqual([
      ...[a.id, b.id].sort().map((id) => `risk:${id}`),
      `metadata_label:${l.id}`,
    ]);
    for (const r of x.records) {
      expect(r.sha256).toBe(sha256(canonical(r.content)));
      expect(r.content.id).toBe(r.id);
      expect(r.content.tenantId).toBeUndefined();
      expect(r.redactedFields).toEqual([]);
    }
    const riskA = x.records.find((r: { id: string }) => r.id === a.id);
    expect(riskA.content).toMatchObject({ title: 'Exported risk A', domain: 'privacy', inherentLikelihood: 3, inherentImpact: 4 });
    expect(x.manifest.records).toEqual(
      x.records.map((r: { type: string; id: string; sha256: string }) => ({ type: r.type, id: r.id, sha256: r.sha256 })),
    );
    expect(x.manifest).toMatchObject({ holdId: h.id, matter: 'Export matter', algorithm: 'sha256' });
    expect(x.manifestHash).toBe(sha256(canonical(x.manifest)));

    // Stored: the get returns the same export, and the log has it.
    expect((await t.call('GET', `${H}/ediscovery/${x.id}`)).body).toEqual(x);
    const entries = await log(t, h.id);
    expect(entries.at(-1)).toMatchObject({ event: 'export_created', targetId: x.id });
    expect(entries.at(-1)?.detail.manifestHash).toBe(x.manifestHash);

    // Another tenant sees none of it.
    expectEnvelope(await other.call('GET', `${H}/ediscovery/${x.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `${H}/holds/${h.id}/records`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `${H}/ediscovery`, { body: { holdId: h.id } }), 422, 'validation_failed');

    await t.call('POST', `${H}/holds/${h.id}/release`, { body: { reason: 'Produced to opposing counsel' } });
    expectEnvelope(await t.call('POST', `${H}/ediscovery`, { body: { holdId: h.id } }), 409, 'conflict');
  });
});

describe('the sandbox reset keeps held records and the hold tables', () => {
  it('a held label survives the reset until its hold is released', async () => {
    // Litigation hold is enterprise-only and the reset sandbox-only, so no tenant reaches both
    // through HTTP: the hold is written straight into the database for this sandbox tenant, as a
    // tenant moved from enterprise to sandbox would keep it.
    const sandbox = await createTenant(ts, { tier: 'sandbox' });
    const kept = await label(sandbox, 'kept');
    const gone = await label(sandbox, 'gone');
    const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const holdId = `lhd_${Array.from({ length: 26 }, () => B32[Math.floor(Math.random() * 32)]).join('')}`;
    await ts.server.db.prisma.legalHold.create({
      data: {
        id: holdId,
        tenantId: sandbox.tenantId,
        matter: 'Downgraded tenant',
        status: 'active',
        records: [{ type: 'metadata_label', id: kept.id }],
        createdBy: 'test',
      },
    });
    // The guard answers for this tenant too: the held label cannot be deleted.
    expectEnvelope(await sandbox.call('DELETE', `/v1/metadata/label/${kept.id}`), 409, 'conflict');

    const reset = await sandbox.call('POST', '/v1/seed/reset', { body: {} });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.keptUnderLegalHold).toMatchObject({ metadataLabel: 1, legalHold: 1, legalHoldLogEntry: 1 });
    expect(reset.body.tables.metadataLabel).toBe(1);
    const left = await collectPages<{ id: string }>(sandbox, '/v1/metadata/label');
    expect(left.map((x) => x.id)).toEqual([kept.id]);
    expect(left.map((x) => x.id)).not.toContain(gone.id);

    await ts.server.db.prisma.legalHold.updateMany({ where: { id: holdId, tenantId: sandbox.tenantId }, data: { status: 'released' } });
    const again = await sandbox.call('POST', '/v1/seed/reset', { body: {} });
    expect(again.status).toBe(200);
    expect(again.body.tables.metadataLabel).toBe(1);
    expect(again.body.keptUnderLegalHold).toMatchObject({ legalHold: 1 });
    expect(again.body.keptUnderLegalHold.metadataLabel).toBeUndefined();
    expect(await collectPages(sandbox, '/v1/metadata/label')).toEqual([]);
  });
});

describe('tenancy', () => {
  it("another tenant's holds are 404 and absent from its lists", async () => {
    const h = await hold(t, { criteria: { types: ['policy'] } });
    expectEnvelope(await other.call('GET', `${H}/holds/${h.id}`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `${H}/holds/${h.id}/release`, { body: { reason: 'x' } }), 404, 'not_found');
    const theirs = await collectPages<{ id: string; holdId: string | null }>(other, `${H}/preservation`);
    expect(theirs.some((e) => e.holdId === h.id)).toBe(false);
    // Their hold does not hold my records.
    const mine = await label(t, 'not-theirs');
    await hold(other, { criteria: { types: ['metadata_label'] } });
    expect((await t.call('DELETE', `/v1/metadata/label/${mine.id}`)).status).toBe(200);
  });
});
