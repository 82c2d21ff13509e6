import { createHash } from 'node:crypto';
import type { PublicSigningKey } from '@svc/contract';
import { KEY_VALIDITY_SKEW_MS, keyFingerprint, verifySignature } from '@svc/contract/audit';
import { parseFingerprint, type TrustAnchor, type VerifyReport, verifyExportDocument } from './audit.ts';
import { extractEntry, looksLikeZip, readZipDirectory, type ZipEntry, ZipError } from './zip.ts';

/**
 * Offline verification of a pack of the reporting rail (`POST /v1/reports/audit-pack`,
 * `POST /v1/reports/notified-body-pack`): a zip whose `manifest.json` lists every other file with
 * its SHA-256 and size, signed in `manifest.sig` by the audit signing key (Ed25519 over the
 * manifest's SHA-256, as the audit chain signs its events). Checks, in order: the zip's structure
 * (zip.ts: one entry per name, local headers that agree with the central directory, no byte outside
 * an entry, the directory or its end record); the signature (with the trusted keys when a trust
 * anchor is given, a trust-file key only inside its validity window at the manifest's `createdAt`,
 * its signing time; else with the pack's own `keys.json`, which is then only `unanchored`); that
 * the zip holds exactly the files the manifest lists; every listed file's size, CRC and hash, each
 * inflated only after the signature held and no further than the size the manifest gives; and the
 * audit-trail export inside (the same check as an export file).
 */

export const PACK_FORMAT = 'svc.reporting.pack/1';

/** Caps on what is inflated before the signature is checked, and on any one file of a pack. */
const MAX_MANIFEST_BYTES = 1 << 20;
const MAX_SIG_BYTES = 16 << 10;
const MAX_KEYS_BYTES = 1 << 20;
export const MAX_PACK_FILE_BYTES = 256 << 20;
const MAX_PACK_TOTAL_BYTES = 1 << 30;

export function isZip(bytes: Uint8Array): boolean {
  return looksLikeZip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** Every entry of a zip, read by the strict reader of zip.ts, each capped at MAX_PACK_FILE_BYTES. */
export function readZip(buf: Buffer): Map<string, Buffer> {
  return new Map(readZipDirectory(buf).map((e) => [e.name, extractEntry(buf, e, MAX_PACK_FILE_BYTES)]));
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
const SHA256 = /^[0-9a-f]{64}$/;

type PackVerdict = VerifyReport & { pack: PackReport };

function parseJson<T>(bytes: Buffer, name: string): T {
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
}

/** Why `at` (the manifest's signing time) falls outside the trusted key's window, or null. */
function outsideWindow(at: string, key: PublicSigningKey): string | null {
  const t = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  if (Number.isNaN(t)) return `the manifest's createdAt (${String(at)}) is not a readable time`;
  const from = Date.parse(key.createdAt);
  if (Number.isNaN(from) || t < from - KEY_VALIDITY_SKEW_MS) return `before the key was created (${key.createdAt})`;
  if (key.retiredAt) {
    const until = Date.parse(key.retiredAt);
    if (Number.isNaN(until) || t > until + KEY_VALIDITY_SKEW_MS) return `after the key was retired (${key.retiredAt})`;
  }
  return null;
}

/** The signed manifest's file list, if it is well formed: unique names, hex SHA-256s, whole sizes. */
function listProblem(files: unknown[]): string | null {
  const seen = new Set<string>(['manifest.json', 'manifest.sig']);
  let total = 0;
  for (const f of files as Partial<ManifestFile>[]) {
    if (typeof f?.name !== 'string' || typeof f.sha256 !== 'string' || !SHA256.test(f.sha256)) return 'a file without a name or SHA-256';
    if (!Number.isSafeInteger(f.size) || (f.size as number) < 0) return `${f.name} without a size in bytes`;
    if (seen.has(f.name)) return `${f.name} twice (or a name of its own files)`;
    if ((f.size as number) > MAX_PACK_FILE_BYTES)
      return `${f.name} of ${f.size} bytes, more than the ${MAX_PACK_FILE_BYTES} a pack file may have`;
    seen.add(f.name);
    total += f.size as number;
  }
  return total > MAX_PACK_TOTAL_BYTES ? `${total} bytes of files, more than the ${MAX_PACK_TOTAL_BYTES} a pack may have` : null;
}

export function verifyPackBytes(bytes: Buffer, trust: TrustAnchor = {}): PackVerdict {
  const pinned = new Set((trust.fingerprints ?? []).map(parseFingerprint));
  const anchored = trust.keys !== undefined || pinned.size > 0;
  const pack: PackReport = { kind: '', packId: '', createdAt: '', signature: { keyId: '', valid: false, trustedBy: null }, files: [] };
  const base = {
    anchored,
    tenantId: '',
    checked: 0,
    range: { fromSeq: 0, toSeq: 0 },
    keys: [] as VerifyReport['keys'],
    pack,
  };
  const broken = (name: string, reason: string, message: string): PackVerdict => ({
    ...base,
    status: 'broken',
    valid: false,
    firstBroken: { seq: 0, id: name, reason, message },
  });
  try {
    return verifyPackEntries(bytes, trust, pinned, pack, base, broken);
  } catch (err) {
    // A zip tools could read differently, or one that would cost more than its signed sizes, is broken.
    if (err instanceof ZipError && err.reason !== 'not_a_zip') return broken(err.entry ?? '(zip)', err.reason, err.message);
    throw err;
  }
}

function verifyPackEntries(
  bytes: Buffer,
  trust: TrustAnchor,
  pinned: Set<string>,
  pack: PackReport,
  base: Omit<PackVerdict, 'status' | 'valid' | 'firstBroken'>,
  broken: (name: string, reason: string, message: string) => PackVerdict,
): PackVerdict {
  const anchored = base.anchored;
  const entries = new Map<string, ZipEntry>(readZipDirectory(bytes).map((e) => [e.name, e]));
  // Only these three are inflated before the signature holds, each under a small cap of its own.
  const small = (name: string, cap: number): Buffer | undefined => {
    const e = entries.get(name);
    return e ? extractEntry(bytes, e, cap) : undefined;
  };
  const manifestBytes = small('manifest.json', MAX_MANIFEST_BYTES);
  if (!manifestBytes) throw new Error('the pack has no manifest.json');
  const manifest = parseJson<Manifest>(manifestBytes, 'manifest.json');
  if (manifest?.format !== PACK_FORMAT || !Array.isArray(manifest.files))
    throw new Error(`manifest.json is not a pack manifest (${PACK_FORMAT})`);
  const sigBytes = small('manifest.sig', MAX_SIG_BYTES);
  if (!sigBytes) throw new Error('the pack has no manifest.sig');
  const sig = parseJson<{ keyId: string; manifestSha256: string; signature: string }>(sigBytes, 'manifest.sig');
  if (typeof sig?.keyId !== 'string' || typeof sig.manifestSha256 !== 'string' || typeof sig.signature !== 'string') {
    throw new Error('manifest.sig is not a pack signature (keyId, manifestSha256, signature)');
  }
  const needCarried = !trust.keys?.some((k) => k.keyId === sig.keyId);
  const keysBytes = needCarried ? small('keys.json', MAX_KEYS_BYTES) : undefined;
  const carried = (keysBytes ? (parseJson<{ data?: PublicSigningKey[] }>(keysBytes, 'keys.json').data ?? []) : []).filter(
    (k) => typeof k?.keyId === 'string' && typeof k.publicKey === 'string',
  );
  Object.assign(pack, { kind: manifest.kind, packId: manifest.packId, createdAt: manifest.createdAt });
  pack.signature = { keyId: sig.keyId, valid: false, trustedBy: null };
  base.tenantId = manifest.tenantId;

  // 1. The manifest's signature, by a key the verifier trusts (or, unanchored, one the pack carries).
  const hash = sha256(manifestBytes);
  if (hash !== sig.manifestSha256) {
    return broken('manifest.json', 'manifest_hash_mismatch', `manifest.json hashes to ${hash}, manifest.sig signed ${sig.manifestSha256}`);
  }
  let key: { publicKey: string } | undefined;
  let trustedBy: VerifyReport['keys'][number]['trustedBy'] = 'export_file';
  if (anchored) {
    const listed = trust.keys?.find((k) => k.keyId === sig.keyId);
    if (listed) {
      // The manifest's createdAt is the time it was signed: the key must have been in service then.
      const outside = outsideWindow(manifest.createdAt, listed);
      if (outside) {
        return broken(
          'manifest.sig',
          'key_not_valid_at',
          `manifest.sig is signed by key ${sig.keyId} at ${manifest.createdAt}, ${outside}: the trust file does not vouch for it then`,
        );
      }
      key = listed;
      trustedBy = 'trust_file';
    } else {
      // A pinned key's material comes from the pack; its window there is not trusted, as for exports.
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

  // 2. The zip holds exactly the listed files, each no larger than the manifest says, byte for byte.
  const problem = listProblem(manifest.files);
  if (problem) return broken('manifest.json', 'bad_manifest', `the signed manifest lists ${problem}`);
  const listed = new Set([...manifest.files.map((f) => f.name), 'manifest.json', 'manifest.sig']);
  for (const name of entries.keys()) {
    if (!listed.has(name)) return broken(name, 'unlisted_file', `${name} is in the zip but not in the signed manifest`);
  }
  const files = new Map<string, Buffer>();
  for (const f of manifest.files) {
    const e = entries.get(f.name);
    if (!e) return broken(f.name, 'missing_file', `${f.name} is listed in the manifest but not in the zip`);
    if (e.size !== f.size) {
      return broken(f.name, 'file_size_mismatch', `${f.name} declares ${e.size} bytes in the zip; the signed manifest says ${f.size}`);
    }
    // Inflated no further than the signed size: a bomb stops there.
    const b = extractEntry(bytes, e, f.size);
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
    files.set(f.name, b);
  }

  // 3. The audit-trail export inside, as `svc audit verify trail.json` checks it.
  const trail = files.get('audit-trail.json');
  if (trail) {
    const chain = verifyExportDocument(parseJson(trail, 'audit-trail.json'), 'audit-trail.json', trust);
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
