import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import type { PublicSigningKey } from '@svc/contract';
import { keyFingerprint } from '@svc/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip, verifyPackBytes } from '../packages/cli/src/audit-pack.ts';
import { createTenant, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * `svc audit verify` on hostile packs. Each zip here is made by hand from a genuine pack of the
 * reporting rail, as someone who can hand a pack to an auditor but holds no trusted signing key
 * would make it: the signed manifest and files stay genuine and the zip around them is bent so that
 * another zip tool would show something the signature never covered, or so that reading it costs
 * far more than its signed sizes. A pack signed by a trusted key outside that key's validity window
 * is refused too. The genuine packs, and a faithful re-zip of them, still verify.
 */

const dir = mkdtempSync(join(tmpdir(), 'svc-pack-verify-'));
const SYSTEM = 'sys_pack_verify';

let ts: TestServer;
let t: TenantFixture;
let keys: PublicSigningKey[];
/** The genuine packs' zips and their files. */
let audit: { zip: Buffer; files: Map<string, Buffer> };
let nb: { zip: Buffer; files: Map<string, Buffer> };

async function download(path: string): Promise<Buffer> {
  const res = await fetch(ts.url + path, { headers: { authorization: `Bearer ${t.token}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function makePack(path: string, body: unknown) {
  const res = await t.call('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const zip = await download(res.body.downloadUrl);
  return { zip, files: readZip(zip) };
}

beforeAll(async () => {
  // A database of its own on PostgreSQL: another file's key rotation would move the windows checked here.
  ts = await startIsolatedTestServer();
  t = await createTenant(ts, { name: 'Pack Verify GmbH' });
  const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: SYSTEM, jurisdiction: 'eu/de' } });
  expect(asm.status, JSON.stringify(asm.body)).toBe(201);
  audit = await makePack('/v1/reports/audit-pack', {});
  nb = await makePack('/v1/reports/notified-body-pack', { systemId: SYSTEM });
  keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data;
}, 120_000);
afterAll(() => ts?.close());

const trusted = () => ({ keys });

// ---------------------------------------------------------------- a zip writer that can lie

interface Entry {
  name: string;
  data: Uint8Array;
  deflate?: boolean;
  /** What the headers declare instead of the truth. */
  size?: number;
  crc?: number;
  /** A different name in the local header than in the central directory. */
  localName?: string;
}

function localEntry(e: Entry): { bytes: Buffer; method: number; body: Buffer; crc: number; size: number } {
  const body = e.deflate ? deflateRawSync(e.data) : Buffer.from(e.data);
  const method = e.deflate ? 8 : 0;
  const crc = e.crc ?? crc32(e.data);
  const size = e.size ?? e.data.length;
  const name = Buffer.from(e.localName ?? e.name);
  const head = Buffer.alloc(30);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(20, 4);
  head.writeUInt16LE(method, 8);
  head.writeUInt32LE(crc, 14);
  head.writeUInt32LE(body.length, 18);
  head.writeUInt32LE(size, 22);
  head.writeUInt16LE(name.length, 26);
  return { bytes: Buffer.concat([head, name, body]), method, body, crc, size };
}

/** A zip of `entries`, with optional bytes before them (offsets shifted, as a self-extractor's), after them and after the end. */
function buildZip(entries: Entry[], opts: { prefix?: Buffer; hidden?: Buffer; suffix?: Buffer } = {}): Buffer {
  const parts: Buffer[] = opts.prefix ? [opts.prefix] : [];
  const central: Buffer[] = [];
  let offset = opts.prefix?.length ?? 0;
  for (const e of entries) {
    const local = localEntry(e);
    const name = Buffer.from(e.name);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(local.method, 10);
    cd.writeUInt32LE(local.crc, 16);
    cd.writeUInt32LE(local.body.length, 20);
    cd.writeUInt32LE(local.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    parts.push(local.bytes);
    central.push(cd, name);
    offset += local.bytes.length;
  }
  if (opts.hidden) {
    parts.push(opts.hidden);
    offset += opts.hidden.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end, ...(opts.suffix ? [opts.suffix] : [])]);
}

/** The genuine files of a pack as entries (JSON deflated, as the writer does), with changes. */
function entriesOf(files: Map<string, Buffer>, change: Record<string, Partial<Entry>> = {}): Entry[] {
  return [...files].map(([name, data]) => ({ name, data, deflate: !name.endsWith('.pdf'), ...change[name] }));
}

function save(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

async function svcVerify(file: string, ...args: string[]) {
  return svcInProcess(['audit', 'verify', file, ...args], { PATH: process.env.PATH ?? '', HOME: dir, SVC_LOG_LEVEL: 'silent' });
}

/** A forged audit trail: the genuine one with its first event's actor changed. */
function forgedTrail(): Buffer {
  const trail = JSON.parse((audit.files.get('audit-trail.json') as Buffer).toString());
  trail.events[0].actor = 'someone-else';
  return Buffer.from(`${JSON.stringify(trail, null, 2)}\n`);
}

describe('genuine packs', () => {
  it('verify as they are served, and after a faithful re-zip', async () => {
    const trustFile = join(dir, 'trust.json');
    writeFileSync(trustFile, JSON.stringify({ data: keys }));
    for (const [name, pack] of [
      ['audit.zip', audit],
      ['nb.zip', nb],
    ] as const) {
      const ok = await svcVerify(save(name, pack.zip), '--trust', trustFile);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^valid: /);
      const rezipped = verifyPackBytes(buildZip(entriesOf(pack.files)), trusted());
      expect(rezipped, JSON.stringify(rezipped.firstBroken)).toMatchObject({ status: 'valid', valid: true });
    }
    expect(verifyPackBytes(audit.zip)).toMatchObject({ status: 'unanchored', valid: false });
  });
});

describe('zips that tools read differently', () => {
  it('refuses a second entry of one name (a forged copy another tool would show)', async () => {
    const zip = buildZip([...entriesOf(audit.files), { name: 'audit-trail.json', data: forgedTrail(), deflate: true }]);
    expect(verifyPackBytes(zip, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: {
        id: 'audit-trail.json',
        reason: 'zip_duplicate_entry',
        message: expect.stringMatching(/two entries named audit-trail\.json/),
      },
    });
    // The forged copy first and the genuine last, for readers that keep the first.
    const first = buildZip([{ name: 'audit-trail.json', data: forgedTrail(), deflate: true }, ...entriesOf(audit.files)]);
    expect(verifyPackBytes(first, trusted()).firstBroken?.reason).toBe('zip_duplicate_entry');
    const res = await svcVerify(save('duplicate.zip', zip), '--trust', save('trust-dup.json', Buffer.from(JSON.stringify({ data: keys }))));
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/BROKEN.*zip_duplicate_entry.*two entries named audit-trail\.json/);
  });

  it('refuses a local header that names its entry unlike the central directory', () => {
    const zip = buildZip(entriesOf(audit.files, { 'evidence-index.json': { localName: 'evidence-index.jsoN' } }));
    expect(verifyPackBytes(zip, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: {
        id: 'evidence-index.json',
        reason: 'zip_header_mismatch',
        message: expect.stringMatching(/local header of evidence-index\.json names it "evidence-index\.jsoN"/),
      },
    });
    // Same name, but the local header declares other sizes than the central directory.
    const sized = Buffer.from(buildZip(entriesOf(audit.files)));
    const at = sized.indexOf('evidence-index.json') - 30;
    expect(sized.readUInt32LE(at)).toBe(0x04034b50);
    sized.writeUInt32LE(sized.readUInt32LE(at + 22) + 1, at + 22);
    expect(verifyPackBytes(sized, trusted()).firstBroken).toMatchObject({ reason: 'zip_header_mismatch', id: 'evidence-index.json' });
  });

  it('refuses bytes outside every entry, the central directory and its end record', async () => {
    const entries = entriesOf(audit.files);
    // A stub before the zip, offsets shifted as self-extractors do (most tools accept this).
    const prefixed = buildZip(entries, { prefix: Buffer.from('MZ this program cannot be run in DOS mode\n') });
    expect(verifyPackBytes(prefixed, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: { reason: 'zip_unreferenced_bytes', message: expect.stringMatching(/^bytes 0\.\.41 \(42 bytes, before /) },
    });
    // The CLI takes it for a pack (not for a JSON export) and says why it refuses it.
    const res = await svcVerify(
      save('prefixed.zip', prefixed),
      '--trust',
      save('trust-pre.json', Buffer.from(JSON.stringify({ data: keys }))),
    );
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toMatch(/zip_unreferenced_bytes: bytes 0\.\.41/);

    // Bytes after the end record.
    const appended = Buffer.concat([audit.zip, Buffer.from('trailing bytes no check reads')]);
    expect(verifyPackBytes(appended, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: {
        reason: 'zip_unreferenced_bytes',
        message: expect.stringMatching(/29 bytes follow the end of central directory record/),
      },
    });
    // A whole local entry (a forged trail) hidden between the entries and the central directory,
    // where a tool that reads local headers in order would find it.
    const hidden = localEntry({ name: 'audit-trail.json', data: forgedTrail(), deflate: true }).bytes;
    const smuggled = buildZip(entries, { hidden });
    expect(verifyPackBytes(smuggled, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: {
        reason: 'zip_unreferenced_bytes',
        message: expect.stringMatching(new RegExp(`\\(${hidden.length} bytes, before the central directory\\) belong to no entry`)),
      },
    });
    // A zip comment: the end record is found by a backward scan a comment can fool.
    const commented = Buffer.from(buildZip(entries, { suffix: Buffer.from('a comment') }));
    commented.writeUInt16LE(9, commented.length - 9 - 2);
    expect(verifyPackBytes(commented, trusted()).firstBroken).toMatchObject({
      reason: 'zip_unsupported',
      message: expect.stringMatching(/comment/),
    });
  });

  it('refuses an entry whose CRC does not match its bytes', () => {
    const data = audit.files.get('evidence-index.json') as Buffer;
    const zip = buildZip(entriesOf(audit.files, { 'evidence-index.json': { crc: (crc32(data) ^ 1) >>> 0 } }));
    expect(verifyPackBytes(zip, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: {
        id: 'evidence-index.json',
        reason: 'zip_bad_crc',
        message: expect.stringMatching(/evidence-index\.json has CRC-32 [0-9a-f]{8}, the zip says/),
      },
    });
    // Also for a file read before the signature is checked.
    const manifest = audit.files.get('manifest.json') as Buffer;
    const bad = buildZip(entriesOf(audit.files, { 'manifest.json': { crc: (crc32(manifest) ^ 0x100) >>> 0 } }));
    expect(verifyPackBytes(bad, trusted()).firstBroken).toMatchObject({ id: 'manifest.json', reason: 'zip_bad_crc' });
  });
});

describe('zip bombs', () => {
  const BOMB = 64 << 20;
  const bomb = Buffer.alloc(BOMB, 0x20);

  it('stops inflating an entry at the size the signed manifest gives', () => {
    const size = (audit.files.get('evidence-index.json') as Buffer).length;
    // The headers claim the signed size; the deflate stream holds 64 MiB.
    const lying = buildZip(entriesOf(audit.files, { 'evidence-index.json': { data: bomb, size } }));
    expect(lying.length).toBeLessThan(1 << 20);
    const before = process.memoryUsage().arrayBuffers;
    expect(verifyPackBytes(lying, trusted())).toMatchObject({
      status: 'broken',
      firstBroken: {
        id: 'evidence-index.json',
        reason: 'zip_size_limit',
        message: `evidence-index.json inflates to more than the ${size} bytes it declares; stopped there`,
      },
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(BOMB / 4);
    // The headers tell the truth: refused from the signed size alone, before any inflating.
    const honest = buildZip(entriesOf(audit.files, { 'evidence-index.json': { data: bomb } }));
    expect(verifyPackBytes(honest, trusted()).firstBroken).toMatchObject({
      reason: 'file_size_mismatch',
      message: `evidence-index.json declares ${BOMB} bytes in the zip; the signed manifest says ${size}`,
    });
  });

  it('caps what it inflates before the signature is checked', () => {
    const declared = buildZip(entriesOf(audit.files, { 'manifest.json': { data: bomb } }));
    expect(verifyPackBytes(declared, trusted()).firstBroken).toMatchObject({
      id: 'manifest.json',
      reason: 'zip_size_limit',
      message: expect.stringMatching(/manifest\.json declares 67108864 bytes, more than the 1048576/),
    });
    const lying = buildZip(entriesOf(audit.files, { 'manifest.json': { data: bomb, size: 1000 } }));
    expect(verifyPackBytes(lying, trusted()).firstBroken).toMatchObject({ id: 'manifest.json', reason: 'zip_size_limit' });
  });
});

describe('the signing key’s validity window', () => {
  function keyPair(createdAt: string, retiredAt: string | null): { key: PublicSigningKey; privateKey: KeyObject } {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const spki = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const keyId = `sk_${keyFingerprint(spki).slice(7, 31)}`;
    return { key: { keyId, algorithm: 'ed25519', publicKey: spki, createdAt, retiredAt }, privateKey };
  }

  /** The notified-body pack (no trail: its signature is all that protects it), signed by `privateKey` at `createdAt`. */
  function signedNbPack(keyId: string, privateKey: KeyObject, createdAt: string): Buffer {
    const manifest = JSON.parse((nb.files.get('manifest.json') as Buffer).toString());
    manifest.createdAt = createdAt;
    manifest.signature.keyId = keyId;
    const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const hash = createHash('sha256').update(bytes).digest('hex');
    const sig = {
      algorithm: 'ed25519',
      keyId,
      manifestSha256: hash,
      signature: sign(null, Buffer.from(hash, 'ascii'), privateKey).toString('base64url'),
    };
    return buildZip(
      entriesOf(nb.files, {
        'manifest.json': { data: bytes },
        'manifest.sig': { data: Buffer.from(JSON.stringify(sig)) },
      }),
    );
  }

  it('refuses a pack signed by a trusted key at a time outside its window', async () => {
    // A key the service used from January to June 2024 and then retired (its private half leaked).
    const { key, privateKey } = keyPair('2024-01-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z');
    const inside = verifyPackBytes(signedNbPack(key.keyId, privateKey, '2024-03-01T00:00:00.000Z'), { keys: [key] });
    expect(inside, JSON.stringify(inside.firstBroken)).toMatchObject({ status: 'valid', pack: { signature: { trustedBy: 'trust_file' } } });

    const late = signedNbPack(key.keyId, privateKey, new Date().toISOString());
    expect(verifyPackBytes(late, { keys: [key] })).toMatchObject({
      status: 'broken',
      firstBroken: {
        id: 'manifest.sig',
        reason: 'key_not_valid_at',
        message: expect.stringMatching(/after the key was retired \(2024-06-01T00:00:00\.000Z\)/),
      },
    });
    const early = signedNbPack(key.keyId, privateKey, '2023-12-31T00:00:00.000Z');
    expect(verifyPackBytes(early, { keys: [key] }).firstBroken).toMatchObject({
      reason: 'key_not_valid_at',
      message: expect.stringMatching(/before the key was created \(2024-01-01T00:00:00\.000Z\)/),
    });
    const undated = signedNbPack(key.keyId, privateKey, 'some day');
    expect(verifyPackBytes(undated, { keys: [key] }).firstBroken).toMatchObject({
      reason: 'key_not_valid_at',
      message: expect.stringMatching(/not a readable time/),
    });

    const res = await svcVerify(save('late.zip', late), '--trust', save('trust-late.json', Buffer.from(JSON.stringify({ data: [key] }))));
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/BROKEN.*key_not_valid_at: manifest\.sig is signed by key sk_\w+ at \S+, after the key was retired/);
  });

  it('refuses the genuine pack against a trust list whose copy of its key was retired before the pack was signed', () => {
    const manifest = JSON.parse((nb.files.get('manifest.json') as Buffer).toString());
    const signedAt = Date.parse(manifest.createdAt);
    const retired = keys.map((k) =>
      k.keyId === manifest.signature.keyId ? { ...k, retiredAt: new Date(signedAt - 3_600_000).toISOString() } : k,
    );
    expect(verifyPackBytes(nb.zip, { keys: retired })).toMatchObject({
      status: 'broken',
      firstBroken: { reason: 'key_not_valid_at', message: expect.stringMatching(/after the key was retired/) },
    });
    expect(verifyPackBytes(nb.zip, trusted())).toMatchObject({ status: 'valid' });
  });
});
