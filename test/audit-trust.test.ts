import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyExportFile } from '@svc/cli/src/audit-file.ts';
import { type ChainedEvent, GENESIS_HASH, type PublicSigningKey } from '@svc/contract';
import { hashEvent, keyFingerprint, verifyChain } from '@svc/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { openSealed } from './support/sealed.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-audit-trust-'));

/**
 * Signing keys belong to the database, not to a server: on a shared PostgreSQL another test
 * file's rotation or configured key retires the key this file's server signs with, which is
 * exactly what the validity-window checks here are about. So on PostgreSQL this file gets a
 * database of its own.
 */
let ts: TestServer;
beforeAll(async () => {
  ts = await startIsolatedTestServer();
});
afterAll(() => ts?.close());

type ExportDoc = {
  tenantId: string;
  publicKeys: PublicSigningKey[];
  events: (ChainedEvent & { object: string; data: Record<string, unknown> })[];
  [k: string]: unknown;
};

async function assess(t: TenantFixture, n: number) {
  for (let i = 0; i < n; i++) {
    const r = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: `sys_${i}`, jurisdiction: 'eu/de' } });
    expect(r.status).toBe(201);
  }
}

async function exportTrail(t: TenantFixture): Promise<ExportDoc> {
  const res = await t.call('POST', '/v1/audit-trail/export', { body: {} });
  expect(res.status).toBe(200);
  return res.body;
}

async function fetchKeys(t: TenantFixture): Promise<{ data: PublicSigningKey[] }> {
  const res = await t.call('GET', '/v1/audit-trail/keys');
  expect(res.status).toBe(200);
  return res.body;
}

function save(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** The CLI offline (no server URL, no credentials, no database), run in process (test/support/cli.ts). */
async function svcVerify(file: string, ...args: string[]) {
  const res = await svcInProcess(['audit', 'verify', file, ...args, '--json'], { PATH: process.env.PATH ?? '', HOME: dir });
  return { code: res.code, report: res.stdout ? JSON.parse(res.stdout) : undefined, stderr: res.stderr };
}

function spkiOf(key: KeyObject): string {
  return key.export({ format: 'der', type: 'spki' }).toString('base64');
}

/** Re-hashes events[from..] in place, relinking each to its predecessor, and signs them with `key`. */
function resign(events: ExportDoc['events'], from: number, keyId: string, key: KeyObject) {
  for (let i = from; i < events.length; i++) {
    const e = events[i] as ExportDoc['events'][number];
    if (i > 0) e.prevHash = (events[i - 1] as ChainedEvent).hash;
    e.keyId = keyId;
    const { hash: _h, signature: _s, ...rest } = e;
    e.hash = hashEvent(rest);
    e.signature = sign(null, Buffer.from(e.hash, 'ascii'), key).toString('base64url');
  }
}

/**
 * What someone who can write the file but holds no service key would do: edit one event, recompute
 * every hash from there on and sign with a key of their own, shipped in the file.
 */
function forge(doc: ExportDoc, seq: number, keys: 'append' | 'replace') {
  const copy: ExportDoc = structuredClone(doc);
  const at = copy.events.findIndex((e) => e.seq === seq);
  const target = copy.events[at] as ExportDoc['events'][number];
  target.data = { ...target.data, systemId: 'sys_forged' };
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = spkiOf(publicKey);
  const keyId = `sk_${keyFingerprint(spki).slice('sha256:'.length, 'sha256:'.length + 24)}`;
  // Appending keeps the genuine signatures before the edit; replacing must re-sign them all.
  resign(copy.events, keys === 'append' ? at : 0, keyId, privateKey);
  const forgedKey: PublicSigningKey = {
    keyId,
    algorithm: 'ed25519',
    publicKey: spki,
    createdAt: '2020-01-01T00:00:00.000Z',
    retiredAt: null,
  };
  copy.publicKeys = keys === 'append' ? [...copy.publicKeys, forgedKey] : [forgedKey];
  return { doc: copy, keyId, fingerprint: keyFingerprint(spki) };
}

const strip = (doc: ExportDoc) => doc.events.map(({ object: _o, ...e }) => e);

describe('a genuine export', () => {
  it('verifies against the trust file and against pinned fingerprints, and is only "unanchored" without either', async () => {
    const t = await createTenant(ts);
    await assess(t, 3);
    const doc = await exportTrail(t);
    const keys = await fetchKeys(t);
    const file = save(`genuine-${t.tenantId}.json`, doc);
    const trust = save(`trust-${t.tenantId}.json`, keys);
    const [signer] = keys.data.filter((k) => k.retiredAt === null);
    if (!signer) throw new Error('no current signing key');
    const fingerprint = keyFingerprint(signer.publicKey);
    expect(fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);

    const withTrust = verifyExportFile(file, { keys: keys.data });
    expect(withTrust).toMatchObject({ status: 'valid', valid: true, anchored: true, checked: 4, firstBroken: null });
    expect(withTrust.keys).toEqual([{ keyId: signer.keyId, fingerprint, trustedBy: 'trust_file' }]);
    expect(verifyExportFile(file, { fingerprints: [fingerprint.toUpperCase().replace('SHA256', 'sha256')] })).toMatchObject({
      status: 'valid',
      keys: [{ keyId: signer.keyId, trustedBy: 'fingerprint' }],
    });

    const cli = await svcVerify(file, '--trust', trust);
    expect(cli.code).toBe(0);
    expect(cli.report).toMatchObject({ status: 'valid', valid: true, checked: 4 });
    const pinned = await svcVerify(file, '--key-fingerprint', fingerprint);
    expect(pinned.code).toBe(0);

    const bare = await svcVerify(file);
    expect(bare.code).toBe(3);
    expect(bare.report).toMatchObject({ status: 'unanchored', valid: false, anchored: false, checked: 4, firstBroken: null });
    expect(bare.report.warning).toMatch(/NOT ANCHORED/);
  });

  it('a bare key list is a trust file too; an export is not', async () => {
    const t = await createTenant(ts);
    const doc = await exportTrail(t);
    const keys = await fetchKeys(t);
    const file = save(`bare-${t.tenantId}.json`, doc);
    expect((await svcVerify(file, '--trust', save(`list-${t.tenantId}.json`, keys.data))).code).toBe(0);
    const wrong = await svcVerify(file, '--trust', file);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/is not a trust file/);
    const badPin = await svcVerify(file, '--key-fingerprint', 'deadbeef');
    expect(badPin.code).toBe(1);
    expect(badPin.stderr).toMatch(/bad key fingerprint deadbeef/);
  });
});

describe('a forged export', () => {
  it('re-hashed and re-signed with a key it carries itself: refused with the trust file, never "valid" without', async () => {
    const t = await createTenant(ts);
    await assess(t, 3);
    const doc = await exportTrail(t);
    const keys = await fetchKeys(t);
    const trust = save(`trust-${t.tenantId}.json`, keys);

    for (const mode of ['append', 'replace'] as const) {
      const forged = forge(doc, 3, mode);
      // The forgery is consistent: against the keys it carries, every link, hash and signature holds.
      expect(verifyChain(strip(forged.doc), forged.doc.publicKeys, { tenantId: t.tenantId }).valid).toBe(true);
      const file = save(`forged-${mode}-${t.tenantId}.json`, forged.doc);

      const refused = await svcVerify(file, '--trust', trust);
      expect(refused.code).toBe(2);
      const first = mode === 'append' ? 3 : 1;
      expect(refused.report).toMatchObject({ status: 'broken', valid: false, checked: first - 1 });
      expect(refused.report.firstBroken).toMatchObject({ seq: first, id: doc.events[first - 1]?.id, reason: 'untrusted_key' });
      expect(refused.report.firstBroken.message).toContain(forged.keyId);
      expect(refused.report.firstBroken.message).toContain(forged.fingerprint);
      expect(refused.report.firstBroken.message).toContain(`--key-fingerprint ${forged.fingerprint}`);

      const genuinePin = keyFingerprint((keys.data.find((k) => k.retiredAt === null) as PublicSigningKey).publicKey);
      expect(verifyExportFile(file, { fingerprints: [genuinePin] }).firstBroken).toMatchObject({ seq: first, reason: 'untrusted_key' });

      const bare = await svcVerify(file);
      expect(bare.code).not.toBe(0);
      expect(bare.report.valid).toBe(false);
      expect(bare.report.status).not.toBe('valid');
    }
  });

  it('a trusted key id with other key material in the file gets the trusted material, and fails', async () => {
    const t = await createTenant(ts);
    await assess(t, 2);
    const doc = await exportTrail(t);
    const keys = await fetchKeys(t);
    const copy: ExportDoc = structuredClone(doc);
    const genuineId = (copy.events[0] as ChainedEvent).keyId;
    (copy.events[1] as ExportDoc['events'][number]).data = { forged: true };
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    resign(copy.events, 1, genuineId, privateKey);
    copy.publicKeys = copy.publicKeys.map((k) => (k.keyId === genuineId ? { ...k, publicKey: spkiOf(publicKey) } : k));
    const file = save(`swapped-${t.tenantId}.json`, copy);
    expect(verifyExportFile(file, { keys: keys.data }).firstBroken).toMatchObject({ seq: 2, reason: 'bad_signature' });
    // A pin of the genuine fingerprint does not match the swapped material, so nothing is trusted.
    const genuine = keys.data.find((k) => k.keyId === genuineId) as PublicSigningKey;
    expect(verifyExportFile(file, { fingerprints: [keyFingerprint(genuine.publicKey)] }).firstBroken).toMatchObject({
      seq: 1,
      reason: 'untrusted_key',
    });
    // Without an anchor the swapped material does not even verify the genuine first event.
    expect(verifyExportFile(file).firstBroken).toMatchObject({ seq: 1, reason: 'bad_signature' });
  });
});

describe('key rotation', () => {
  it('old keys stay trusted for the events they signed; a retired key signing after its retirement is refused', async () => {
    const t = await createTenant(ts);
    await assess(t, 2);
    const before = await fetchKeys(t);
    // The private half a rotation is about to wipe, as someone holding the database and the
    // secrets key could take it now, before the rotation.
    const current = (before.data.find((k) => k.retiredAt === null) as PublicSigningKey).keyId;
    const sealedRow = await ts.server.db.prisma.signingKey.findUniqueOrThrow({ where: { id: current } });
    if (!sealedRow.privateKey) throw new Error('the current key is not a generated one');
    const leakedKey = createPrivateKey(openSealed(sealedRow.privateKey, process.env.SVC_SECRETS_KEY as string));
    const rotated = await call(ts.url, 'POST', '/v1/operator/signing-keys/rotate', { token: ts.operatorToken });
    expect(rotated.status).toBe(201);
    await assess(t, 2);
    const doc = await exportTrail(t);
    const after = await fetchKeys(t);
    const file = save(`rotated-${t.tenantId}.json`, doc);

    const oldKeyId = (doc.events[0] as ChainedEvent).keyId;
    const newKeyId: string = rotated.body.keyId;
    expect(oldKeyId).not.toBe(newKeyId);
    // The rotation is on the record of the chain, signed by the new key.
    expect(doc.events.map((e) => e.keyId)).toEqual([oldKeyId, oldKeyId, oldKeyId, newKeyId, newKeyId, newKeyId]);
    expect(doc.events[3]).toMatchObject({
      action: 'signing_key.rotated',
      data: { keyId: newKeyId, fingerprint: keyFingerprint(rotated.body.publicKey), retiredKeyIds: [oldKeyId] },
    });
    const oldKey = after.data.find((k) => k.keyId === oldKeyId) as PublicSigningKey;
    expect(oldKey.retiredAt).not.toBeNull();

    const ok = verifyExportFile(file, { keys: after.data });
    expect(ok).toMatchObject({ status: 'valid', checked: 6 });
    expect(ok.keys.map((k) => k.keyId).sort()).toEqual([oldKeyId, newKeyId].sort());
    expect((await svcVerify(file, '--trust', save(`after-${t.tenantId}.json`, after))).code).toBe(0);

    // A trust file from before the rotation does not know the new key: fetch it again.
    const stale = verifyExportFile(file, { keys: before.data });
    expect(stale.firstBroken).toMatchObject({ seq: 4, reason: 'untrusted_key' });
    expect(stale.firstBroken?.message).toContain('svc audit keys --out');

    const fingerprints = [oldKeyId, newKeyId].map((id) =>
      keyFingerprint((after.data.find((k) => k.keyId === id) as PublicSigningKey).publicKey),
    );
    expect(verifyExportFile(file, { fingerprints }).status).toBe('valid');
    expect(verifyExportFile(file, { fingerprints: fingerprints.slice(1) }).firstBroken).toMatchObject({ seq: 1, reason: 'untrusted_key' });

    // The retired private key leaked (taken before the rotation, which wiped it from the database):
    // the last event, written after the rotation, is rewritten and signed with it. The signature
    // is genuine; the chain's own rotation event retired the key.
    expect(current).toBe(oldKeyId);
    expect((await ts.server.db.prisma.signingKey.findUniqueOrThrow({ where: { id: oldKeyId } })).privateKey).toBeNull();
    const leaked: ExportDoc = structuredClone(doc);
    const last = leaked.events.at(-1) as ExportDoc['events'][number];
    expect(Date.parse(last.timestamp)).toBeGreaterThan(Date.parse(oldKey.retiredAt as string));
    last.data = { ...last.data, systemId: 'sys_backdated' };
    resign(leaked.events, leaked.events.length - 1, oldKeyId, leakedKey);
    const leakedFile = save(`leaked-${t.tenantId}.json`, leaked);
    const refused = await svcVerify(leakedFile, '--trust', save(`after2-${t.tenantId}.json`, after));
    expect(refused.code).toBe(2);
    expect(refused.report.firstBroken).toMatchObject({ seq: 6, id: last.id, reason: 'key_not_valid_at' });
    expect(refused.report.firstBroken.message).toContain('which the rotation at seq 4 of this chain retired');
    // Without any trust file the chain's order alone refuses it too.
    expect(verifyExportFile(leakedFile).firstBroken).toMatchObject({ seq: 6, reason: 'key_not_valid_at' });
  });
});

describe('a rotation racing the writers', () => {
  it('leaves every chain verifiable: writers before it sign with the old key, writers after it with the new one', async () => {
    const tenants = await Promise.all([1, 2, 3].map(() => createTenant(ts)));
    await Promise.all(tenants.map((t) => assess(t, 1)));
    const burst = Promise.all(tenants.flatMap((t) => Array.from({ length: 8 }, () => assess(t, 1))));
    await new Promise((r) => setTimeout(r, 30));
    const rotated = await call(ts.url, 'POST', '/v1/operator/signing-keys/rotate', { token: ts.operatorToken });
    expect(rotated.status).toBe(201);
    await burst;
    for (const t of tenants) {
      const doc = await exportTrail(t);
      const keys = await fetchKeys(t);
      const report = verifyExportFile(save(`race-${t.tenantId}.json`, doc), { keys: keys.data });
      expect([t.tenantId, report.status, report.firstBroken]).toEqual([t.tenantId, 'valid', null]);
      const rotation = doc.events.findIndex((e) => e.action === 'signing_key.rotated');
      expect(rotation).toBeGreaterThan(0);
      expect(doc.events.slice(rotation).every((e) => e.keyId === rotated.body.keyId)).toBe(true);
      expect(doc.events.slice(0, rotation).every((e) => e.keyId !== rotated.body.keyId)).toBe(true);
    }
  });
});

describe('verifyChain with trusted keys', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = spkiOf(publicKey);
  function event(seq: number, prevHash: string, timestamp: string): ChainedEvent {
    const unsigned = {
      id: `aud_${seq}`,
      tenantId: 'ten_x',
      seq,
      prevHash,
      timestamp,
      actor: 'a',
      action: 'b.created',
      resourceType: 'c',
      resourceId: 'd',
      correlationId: 'e',
      data: {},
      keyId: 'sk_test',
    };
    const hash = hashEvent(unsigned);
    return { ...unsigned, hash, signature: sign(null, Buffer.from(hash, 'ascii'), privateKey).toString('base64url') };
  }
  const e1 = event(1, GENESIS_HASH, '2026-01-01T00:00:00.000Z');
  const e2 = event(2, e1.hash, '2026-03-01T00:00:00.000Z');
  const key: PublicSigningKey = {
    keyId: 'sk_test',
    algorithm: 'ed25519',
    publicKey: spki,
    createdAt: '2026-01-01T00:00:00.000Z',
    retiredAt: null,
  };

  it('keeps its behaviour for callers that pass no trusted keys', () => {
    expect(verifyChain([e1, e2], [key]).valid).toBe(true);
    expect(verifyChain([e1, e2], []).firstBroken?.reason).toBe('unknown_key');
  });

  it('uses only the trusted keys, and checks validity windows when asked', () => {
    expect(verifyChain([e1, e2], [key], { trustedKeys: [] }).firstBroken?.reason).toBe('untrusted_key');
    expect(verifyChain([e1, e2], [], { trustedKeys: [key], requireValidity: true }).valid).toBe(true);
    const retired = { ...key, retiredAt: '2026-02-01T00:00:00.000Z' };
    expect(verifyChain([e1, e2], [], { trustedKeys: [retired] }).valid).toBe(true);
    expect(verifyChain([e1, e2], [], { trustedKeys: [retired], requireValidity: true }).firstBroken).toMatchObject({
      seq: 2,
      reason: 'key_not_valid_at',
    });
    const later = { ...key, createdAt: '2026-02-01T00:00:00.000Z' };
    expect(verifyChain([e1, e2], [], { trustedKeys: [later], requireValidity: true }).firstBroken).toMatchObject({
      seq: 1,
      reason: 'key_not_valid_at',
      message: expect.stringContaining('before the key was created'),
    });
    // Pinned without a window: the signature is all there is to check.
    expect(verifyChain([e1, e2], [], { trustedKeys: [{ keyId: key.keyId, publicKey: spki }], requireValidity: true }).valid).toBe(true);
  });
});
