import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { PublicSigningKey } from '@svc/contract';
import { keyFingerprint, verifySignature } from '@svc/contract/audit';
import { parseFingerprint, type TrustAnchor, type VerifyReport, verifyExportDocument } from './audit.ts';

/**
 * Offline verification of a pack of the reporting rail (`POST /v1/reports/audit-pack`,
 * `POST /v1/reports/notified-body-pack`): a zip whose `manifest.json` lists every other file with
 * its SHA-256 and size, signed in `manifest.sig` by the audit signing key (Ed25519 over the
 * manifest's SHA-256, as the audit chain signs its events). Checks, in order: the signature (with
 * the trusted keys when a trust anchor is given, else with the pack's own `keys.json`, which is
 * then only `unanchored`), every listed file's presence, size and hash, that the zip holds no file
 * the manifest does not list, and the audit-trail export inside (the same check as an export file).
 */

export const PACK_FORMAT = 'svc.reporting.pack/1';
const ZIP_MAGIC = 0x04034b50;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === ZIP_MAGIC;
}

/** The entries of a zip, read from its central directory (stored and deflated entries). */
export function readZip(buf: Buffer): Map<string, Buffer> {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    if (buf.readUInt32LE(local) !== ZIP_MAGIC) throw new Error(`corrupt zip entry ${name}`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    if (method === 0) out.set(name, Buffer.from(data));
    else if (method === 8) {
      try {
        out.set(name, inflateRawSync(data));
      } catch (err) {
        throw new Error(`${name}: cannot be decompressed (${(err as Error).message}): the zip is damaged`);
      }
    } else throw new Error(`${name}: unsupported zip compression method ${method}`);
  }
  return out;
}

interface ManifestFile {
  name: string;
  sha256: string;
  size: number;
}
interface Manifest {
  format: string;
  packId: string;
  kind: string;
  tenantId: string;
  createdAt: string;
  files: ManifestFile[];
  signature?: { keyId?: string };
}

export interface PackReport {
  kind: string;
  packId: string;
  createdAt: string;
  signature: { keyId: string; valid: boolean; trustedBy: 'trust_file' | 'fingerprint' | 'export_file' | null };
  files: { name: string; sha256: string; size: number; ok: boolean }[];
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function parseJson<T>(entries: Map<string, Buffer>, name: string): T {
  const b = entries.get(name);
  if (!b) throw new Error(`the pack has no ${name}`);
  try {
    return JSON.parse(b.toString('utf8')) as T;
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
}

export function verifyPackBytes(bytes: Buffer, trust: TrustAnchor = {}): VerifyReport & { pack: PackReport } {
  const entries = readZip(bytes);
  const manifestBytes = entries.get('manifest.json');
  const manifest = parseJson<Manifest>(entries, 'manifest.json');
  if (manifest?.format !== PACK_FORMAT || !Array.isArray(manifest.files))
    throw new Error(`manifest.json is not a pack manifest (${PACK_FORMAT})`);
  const sig = parseJson<{ keyId: string; manifestSha256: string; signature: string }>(entries, 'manifest.sig');
  const carried = (entries.has('keys.json') ? (parseJson<{ data?: PublicSigningKey[] }>(entries, 'keys.json').data ?? []) : []).filter(
    (k) => typeof k?.keyId === 'string' && typeof k.publicKey === 'string',
  );
  const pinned = new Set((trust.fingerprints ?? []).map(parseFingerprint));
  const anchored = trust.keys !== undefined || pinned.size > 0;

  const pack: PackReport = {
    kind: manifest.kind,
    packId: manifest.packId,
    createdAt: manifest.createdAt,
    signature: { keyId: sig.keyId, valid: false, trustedBy: null },
    files: [],
  };
  const base = {
    anchored,
    tenantId: manifest.tenantId,
    checked: 0,
    range: { fromSeq: 0, toSeq: 0 },
    keys: [] as VerifyReport['keys'],
    pack,
  };
  const broken = (name: string, reason: string, message: string): VerifyReport & { pack: PackReport } => ({
    ...base,
    status: 'broken',
    valid: false,
    firstBroken: { seq: 0, id: name, reason, message },
  });

  // 1. The manifest's signature, by a key the verifier trusts (or, unanchored, one the pack carries).
  const hash = sha256(manifestBytes as Buffer);
  if (hash !== sig.manifestSha256) {
    return broken('manifest.json', 'manifest_hash_mismatch', `manifest.json hashes to ${hash}, manifest.sig signed ${sig.manifestSha256}`);
  }
  let key: { publicKey: string } | undefined;
  let trustedBy: VerifyReport['keys'][number]['trustedBy'] = 'export_file';
  if (anchored) {
    key = trust.keys?.find((k) => k.keyId === sig.keyId);
    if (key) trustedBy = 'trust_file';
    else {
      const claimed = carried.find((k) => k.keyId === sig.keyId);
      if (claimed && pinned.has(keyFingerprint(claimed.publicKey))) {
        key = claimed;
        trustedBy = 'fingerprint';
      }
    }
    if (!key) return broken('manifest.sig', 'untrusted_key', `manifest.sig is signed by key ${sig.keyId}, which is not a trusted key`);
  } else {
    key = carried.find((k) => k.keyId === sig.keyId);
    trustedBy = 'export_file';
    if (!key) return broken('manifest.sig', 'unknown_key', `manifest.sig names key ${sig.keyId}, which keys.json does not hold`);
  }
  if (!verifySignature(hash, sig.signature, key.publicKey)) {
    return broken('manifest.sig', 'bad_signature', `the signature of manifest.json does not verify with ${sig.keyId}`);
  }
  pack.signature = { keyId: sig.keyId, valid: true, trustedBy };
  base.keys = [{ keyId: sig.keyId, fingerprint: keyFingerprint(key.publicKey), trustedBy }];

  // 2. Every listed file, byte for byte; nothing unlisted.
  for (const f of manifest.files) {
    const b = entries.get(f.name);
    if (!b) return broken(f.name, 'missing_file', `${f.name} is listed in the manifest but not in the zip`);
    const h = sha256(b);
    const ok = h === f.sha256 && b.length === f.size;
    pack.files.push({ name: f.name, sha256: h, size: b.length, ok });
    if (!ok) {
      return broken(
        f.name,
        'file_hash_mismatch',
        `${f.name} hashes to ${h} (${b.length} bytes); the signed manifest says ${f.sha256} (${f.size} bytes)`,
      );
    }
  }
  const listed = new Set([...manifest.files.map((f) => f.name), 'manifest.json', 'manifest.sig']);
  for (const name of entries.keys()) {
    if (!listed.has(name)) return broken(name, 'unlisted_file', `${name} is in the zip but not in the signed manifest`);
  }

  // 3. The audit-trail export inside, as `svc audit verify trail.json` checks it.
  if (entries.has('audit-trail.json')) {
    const chain = verifyExportDocument(parseJson(entries, 'audit-trail.json'), 'audit-trail.json', trust);
    if (chain.tenantId !== manifest.tenantId) {
      return broken('audit-trail.json', 'wrong_tenant', `audit-trail.json is of ${chain.tenantId}, the manifest of ${manifest.tenantId}`);
    }
    const firstBroken = chain.firstBroken ? { ...chain.firstBroken, message: `audit-trail.json: ${chain.firstBroken.message}` } : null;
    return { ...chain, firstBroken, pack, keys: dedupeKeys([...base.keys, ...chain.keys]) };
  }
  const status = anchored ? 'valid' : 'unanchored';
  return {
    ...base,
    status,
    valid: status === 'valid',
    firstBroken: null,
    ...(status === 'unanchored'
      ? {
          warning:
            'NOT ANCHORED: the files match the signed manifest, but the signature was checked only against a key the pack carries itself. Verify with --trust FILE (from `svc audit keys --out FILE`) or --key-fingerprint sha256:<hex>.',
        }
      : {}),
  };
}

function dedupeKeys(keys: VerifyReport['keys']): VerifyReport['keys'] {
  return [...new Map(keys.map((k) => [k.keyId, k])).values()];
}
