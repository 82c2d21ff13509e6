import { createPublicKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyExportFile } from '@svc/cli/src/audit-file.ts';
import type { ChainedEvent, ExportSeal, PublicSigningKey } from '@svc/contract';
import { hashEvent, hashExportSeal } from '@svc/contract/audit';
import { issueOperatorCredential, type RunningServer, startServer } from '@svc/server';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createTenant, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { openSealed, privateKeyFromDump } from './support/sealed.ts';
import { snapshot, startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * The audit signing key at rest. A key the service generates lives in `signing_keys`: sealed with
 * the secrets key there, so that a dump or a backup alone cannot sign a forged export that
 * `svc audit verify --trust` accepts; re-sealed by a rotation of the secrets key; and gone from a
 * key once it is retired. Rows from before sealing (PEM in clear) are put right at the next start.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-signing-key-'));
const suiteSecretsKey = process.env.SVC_SECRETS_KEY as string;

type ExportDoc = {
  tenantId: string;
  publicKeys: PublicSigningKey[];
  events: (ChainedEvent & { object: string; data: Record<string, unknown> })[];
  seals: ExportSeal[];
  [k: string]: unknown;
};

type KeyRow = { id: string; status: string; public_key: string; private_key: string | null };

/** The table as a dump shows it, read with SQL rather than through the service. */
async function dumpKeys(server: RunningServer): Promise<KeyRow[]> {
  return server.db.prisma.$queryRawUnsafe<KeyRow[]>(
    'SELECT "id", "status", "public_key", "private_key" FROM "signing_keys" ORDER BY "created_at"',
  );
}

const spkiOf = (key: KeyObject) => createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64');

async function assess(t: TenantFixture, n: number) {
  for (let i = 0; i < n; i++) {
    const r = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: `sys_${i}`, jurisdiction: 'eu/de' } });
    expect(r.status).toBe(201);
  }
}

async function exportAndKeys(t: TenantFixture): Promise<{ doc: ExportDoc; keys: { data: PublicSigningKey[] } }> {
  const doc = await t.call('POST', '/v1/audit-trail/export', { body: {} });
  expect(doc.status).toBe(200);
  const keys = await t.call('GET', '/v1/audit-trail/keys');
  expect(keys.status).toBe(200);
  return { doc: doc.body, keys: keys.body };
}

function save(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/**
 * The forgery a stolen service key allows: rewrite an event, re-hash and re-sign it and every
 * later one, and re-sign the export's seal, all with the service's own key and key id.
 */
function forgeWith(doc: ExportDoc, keyId: string, key: KeyObject): ExportDoc {
  const copy: ExportDoc = structuredClone(doc);
  const at = copy.events.length - 2;
  (copy.events[at] as ExportDoc['events'][number]).data = { systemId: 'sys_forged' };
  for (let i = at; i < copy.events.length; i++) {
    const e = copy.events[i] as ExportDoc['events'][number];
    if (i > 0) e.prevHash = (copy.events[i - 1] as ChainedEvent).hash;
    e.keyId = keyId;
    const { hash: _h, signature: _s, object: _o, ...rest } = e;
    e.hash = hashEvent(rest);
    e.signature = sign(null, Buffer.from(e.hash, 'ascii'), key).toString('base64url');
  }
  const last = copy.events.at(-1) as ChainedEvent;
  copy.seals = copy.seals.map((s) => {
    const statement = { ...s, keyId, last: { seq: last.seq, hash: last.hash }, head: { seq: last.seq, hash: last.hash } };
    const hash = hashExportSeal(statement);
    return { ...statement, hash, signature: sign(null, Buffer.from(hash, 'ascii'), key).toString('base64url') };
  });
  copy.head = { seq: last.seq, hash: last.hash };
  return copy;
}

describe('the signing key in a dump of the database', () => {
  let ts: TestServer;
  afterAll(() => ts?.close());

  it('is sealed: the dump holds no private key, so a forged export signed with it cannot be made', async () => {
    ts = await startIsolatedTestServer();
    const t = await createTenant(ts);
    await assess(t, 3);
    const { doc, keys } = await exportAndKeys(t);
    const trust = save(`trust-${t.tenantId}.json`, keys);
    // The genuine export verifies; the forgery below differs only in what the thief signs.
    expect(verifyExportFile(save(`genuine-${t.tenantId}.json`, doc), { keys: keys.data }).status).toBe('valid');

    const rows = await dumpKeys(ts.server);
    const active = rows.find((r) => r.status === 'active') as KeyRow;
    expect(active.private_key).not.toBeNull();
    // The attack: take each stored private key from the dump, forge with it, and verify the forgery
    // as an auditor would, against the service's published keys.
    const outcomes: string[] = [];
    for (const row of rows) {
      const stolen = privateKeyFromDump(row.private_key);
      if (!stolen) continue;
      const forged = save(`forged-${row.id}-${t.tenantId}.json`, forgeWith(doc, row.id, stolen));
      const verdict = await svcInProcess(['audit', 'verify', forged, '--trust', trust, '--json'], {
        PATH: process.env.PATH ?? '',
        HOME: dir,
      });
      outcomes.push(`${row.id}: ${JSON.parse(verdict.stdout).status}`);
    }
    expect(outcomes, 'a private key usable from the dump alone').toEqual([]);
    for (const row of rows) expect(row.private_key ?? '').not.toMatch(/PRIVATE KEY|MC4CAQAwBQYDK2Vw/);

    // It is there, sealed: the secrets key (kept apart from the database) opens it to the key
    // whose public half is published.
    expect(active.private_key?.startsWith('enc:v1:')).toBe(true);
    const opened = privateKeyFromDump(openSealed(active.private_key as string, suiteSecretsKey)) as KeyObject;
    expect(spkiOf(opened)).toBe(active.public_key);
  });

  it('a retired key keeps no private half; the new key signs and the old signatures still verify', async () => {
    const t = await createTenant(ts);
    await assess(t, 2);
    const before = (await dumpKeys(ts.server)).find((r) => r.status === 'active') as KeyRow;
    const rotated = await call(ts.url, 'POST', '/v1/operator/signing-keys/rotate', { token: ts.operatorToken });
    expect(rotated.status).toBe(201);
    await assess(t, 1);

    const rows = await dumpKeys(ts.server);
    const retired = rows.find((r) => r.id === before.id) as KeyRow;
    expect(retired).toMatchObject({ status: 'retired', private_key: null });
    expect(rows.filter((r) => r.status !== 'active').map((r) => r.private_key)).toEqual(
      rows.filter((r) => r.status !== 'active').map(() => null),
    );
    const current = rows.find((r) => r.status === 'active') as KeyRow;
    expect(current.id).toBe(rotated.body.keyId);
    expect(current.private_key?.startsWith('enc:v1:')).toBe(true);

    const { doc, keys } = await exportAndKeys(t);
    expect(new Set(doc.events.map((e) => e.keyId))).toEqual(new Set([before.id, current.id]));
    expect(verifyExportFile(save(`rotated-${t.tenantId}.json`, doc), { keys: keys.data })).toMatchObject({
      status: 'valid',
      firstBroken: null,
    });
  });
});

/** The embedded database on disk, whatever the rest of the suite runs on: these tests restart it. */
const opened: RunningServer[] = [];
async function startEmbedded(at: string, env: NodeJS.ProcessEnv): Promise<{ server: RunningServer; operatorToken: string }> {
  const server = await startServer({
    env: { ...process.env, DATABASE_URL: undefined, SVC_LOG_LEVEL: 'silent', SVC_ROLE: 'api', ...env },
    config: { port: 0, dataDir: at, databaseUrl: undefined, credentialsFile: join(at, '..', 'credentials.json') },
    anonymousPerSecond: 100_000,
    operatorPerSecond: 100_000,
    // A new folder starts from the suite's migrated, content-loaded database (a restart opens its own).
    ...(snapshot() ? { pgliteSnapshot: snapshot() } : {}),
  });
  opened.push(server);
  const { token } = await issueOperatorCredential(server.db.prisma, 'signing key test');
  return { server, operatorToken: token };
}
afterAll(async () => {
  for (const s of opened) await s.close().catch(() => {});
});

function tenantOn(server: RunningServer, operatorToken: string): Promise<TenantFixture> {
  return createTenant({ server, url: server.url, operatorToken, close: async () => {} });
}

// It ignores DATABASE_URL (an embedded database on disk, restarted): the PostgreSQL pass would only repeat it.
describe.runIf(!process.env.DATABASE_URL)('keys stored before sealing, and a rotation of the secrets key', () => {
  const dataDir = join(dir, 'data');
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  let keyId = '';
  let tenant: TenantFixture;

  it('a private key found in clear is sealed at the next start, a retired one wiped, and the same key signs on', async () => {
    const first = await startEmbedded(dataDir, { SVC_SECRETS_KEY: oldKey });
    tenant = await tenantOn(first.server, first.operatorToken);
    const retiring = (await dumpKeys(first.server)).find((r) => r.status === 'active') as KeyRow;
    const retiringPem = openSealed(retiring.private_key as string, oldKey);
    expect((await call(first.server.url, 'POST', '/v1/operator/signing-keys/rotate', { token: first.operatorToken })).status).toBe(201);
    const active = (await dumpKeys(first.server)).find((r) => r.status === 'active') as KeyRow;
    keyId = active.id;
    // The database as an earlier version left it: both private keys in clear.
    const activePem = openSealed(active.private_key as string, oldKey);
    await first.server.db.prisma.$executeRawUnsafe('UPDATE "signing_keys" SET "private_key" = $1 WHERE "id" = $2', activePem, active.id);
    await first.server.db.prisma.$executeRawUnsafe(
      'UPDATE "signing_keys" SET "private_key" = $1 WHERE "id" = $2',
      retiringPem,
      retiring.id,
    );
    await first.server.close();

    const again = await startEmbedded(dataDir, { SVC_SECRETS_KEY: oldKey });
    const rows = await dumpKeys(again.server);
    expect(rows.find((r) => r.id === retiring.id)?.private_key).toBeNull();
    const sealed = rows.find((r) => r.id === keyId) as KeyRow;
    expect(sealed.status).toBe('active');
    expect(sealed.private_key?.startsWith('enc:v1:')).toBe(true);
    expect(openSealed(sealed.private_key as string, oldKey)).toBe(activePem);
    for (const r of rows) expect(privateKeyFromDump(r.private_key)).toBeUndefined();

    // No new key: the sealed one signs the next event, and nothing was rotated.
    const t = { ...tenant, call: tenantCall(again.server.url, tenant.token) };
    await assess(t, 1);
    const { doc, keys } = await exportAndKeys(t);
    expect((doc.events.at(-1) as ChainedEvent).keyId).toBe(keyId);
    expect(doc.events.filter((e) => e.action === 'signing_key.rotated')).toHaveLength(1);
    expect(verifyExportFile(save('legacy.json', doc), { keys: keys.data }).status).toBe('valid');
    await again.server.close();
  }, 300_000); // two starts of an embedded database on disk, each migrating and loading content on the first

  it('a rotation of the secrets key re-seals it under the new key; signing goes on with the same key', async () => {
    const rotating = await startEmbedded(dataDir, { SVC_SECRETS_KEY: newKey, SVC_SECRETS_KEY_PREVIOUS: oldKey });
    const row = (await dumpKeys(rotating.server)).find((r) => r.id === keyId) as KeyRow;
    expect(row.status).toBe('active');
    const pem = openSealed(row.private_key as string, newKey);
    expect(spkiOf(privateKeyFromDump(pem) as KeyObject)).toBe(row.public_key);
    expect(() => openSealed(row.private_key as string, oldKey)).toThrow();
    await rotating.server.close();

    // The old key can go: a start with the new key alone opens the signing key and signs with it.
    const done = await startEmbedded(dataDir, { SVC_SECRETS_KEY: newKey });
    const t = { ...tenant, call: tenantCall(done.server.url, tenant.token) };
    await assess(t, 1);
    const { doc, keys } = await exportAndKeys(t);
    expect((doc.events.at(-1) as ChainedEvent).keyId).toBe(keyId);
    expect(doc.events.filter((e) => e.action === 'signing_key.rotated')).toHaveLength(1);
    expect(verifyExportFile(save('resealed.json', doc), { keys: keys.data })).toMatchObject({ status: 'valid', firstBroken: null });
    await done.server.close();

    // A process with the old secrets key alone cannot open it, and says so rather than replace the
    // key every other process signs with.
    await expect(startEmbedded(dataDir, { SVC_SECRETS_KEY: oldKey })).rejects.toThrow(
      /sealed under a secrets key this process does not have.*SVC_SECRETS_KEY/,
    );
  }, 300_000);
});

function tenantCall(url: string, token: string): TenantFixture['call'] {
  return (method, path, opts = {}) => call(url, method, path, { token, ...opts });
}
