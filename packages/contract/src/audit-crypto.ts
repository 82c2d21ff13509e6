import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  AUDIT_EXPORT_FORMAT,
  type BrokenReason,
  type ChainedEvent,
  type ChainVerdict,
  canonicalJson,
  type ExportSealStatement,
  GENESIS_HASH,
  KEY_VALIDITY_SKEW_MS,
  type PublicSigningKey,
  SIGNING_KEY_ROTATED,
  type SigningKeyRotation,
  type TrustedSigningKey,
  type VerifyChainOptions,
} from './platform/audit-chain.ts';

/**
 * The audit chain's cryptography (`@svc/contract/audit`): hashing, key fingerprints, signature
 * checks and the chain walk. Kept out of the main entry, which browsers and edge runtimes load,
 * because it needs node:crypto (Ed25519 verification has no synchronous Web Crypto form). With the
 * chain's constants, so that an offline verifier (the CLI) needs nothing of the main entry at run time.
 */
export { AUDIT_EXPORT_FORMAT, GENESIS_HASH, KEY_VALIDITY_SKEW_MS } from './platform/audit-chain.ts';

/** SHA-256 (lowercase hex) over the canonical form of everything but the hash and signature. */
export function hashEvent(e: Omit<ChainedEvent, 'hash' | 'signature'>): string {
  const body = {
    v: 1,
    id: e.id,
    tenantId: e.tenantId,
    seq: e.seq,
    prevHash: e.prevHash,
    timestamp: e.timestamp,
    actor: e.actor,
    action: e.action,
    resourceType: e.resourceType,
    resourceId: e.resourceId,
    correlationId: e.correlationId,
    data: e.data,
    keyId: e.keyId,
  };
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * SHA-256 (lowercase hex) over the canonical form of an export's seal statement. The `kind` keeps
 * it apart from an event's hash, so one signature can never pass for the other.
 */
export function hashExportSeal(s: ExportSealStatement): string {
  const body = {
    v: 1,
    kind: 'svc.audit_trail.export_seal',
    format: AUDIT_EXPORT_FORMAT,
    tenantId: s.tenantId,
    exportedAt: s.exportedAt,
    range: { fromSeq: s.range.fromSeq, toSeq: s.range.toSeq },
    anchor: { seq: s.anchor.seq, hash: s.anchor.hash },
    last: { seq: s.last.seq, hash: s.last.hash },
    head: { seq: s.head.seq, hash: s.head.hash },
  };
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * The fingerprint a verifier pins a signing key by: `sha256:` and the lowercase hex SHA-256 of the
 * key's SubjectPublicKeyInfo DER bytes. Computed over the key material, not the key id, so a key
 * can only match its fingerprint by being the same key.
 */
export function keyFingerprint(publicKeyDerBase64: string): string {
  return `sha256:${createHash('sha256').update(Buffer.from(publicKeyDerBase64, 'base64')).digest('hex')}`;
}

/** Ed25519 over the hash's ASCII bytes; the signature is base64url. */
export function verifySignature(hash: string, signature: string, publicKeyDerBase64: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKeyDerBase64, 'base64'), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(hash, 'ascii'), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * Walks events in seq order: each must follow the previous one (seq + 1, prevHash = its hash),
 * hash to its own `hash`, and carry a valid signature by a known key. `anchor` is the hash the
 * first event must link to (the genesis hash when the range starts at seq 1).
 */
export function verifyChain(
  events: readonly ChainedEvent[],
  keys: readonly PublicSigningKey[],
  opts: VerifyChainOptions = {},
): ChainVerdict {
  const carried = new Map(keys.map((k) => [k.keyId, k]));
  const usable: Map<string, TrustedSigningKey> = opts.trustedKeys ? new Map(opts.trustedKeys.map((k) => [k.keyId, k])) : carried;
  let prev = opts.anchor ?? (events[0]?.seq === 1 ? { seq: 0, hash: GENESIS_HASH } : undefined);
  let checked = 0;
  /** Keys a rotation event of this chain retired, with the seq of that event. */
  const retiredAt = new Map<string, number>();
  const broken = (e: ChainedEvent, reason: BrokenReason, message: string): ChainVerdict => ({
    valid: false,
    checked,
    firstBroken: { seq: e.seq, id: e.id, reason, message },
    head: prev ?? null,
  });
  for (const e of events) {
    if (opts.tenantId && e.tenantId !== opts.tenantId) return broken(e, 'wrong_tenant', `event ${e.id} belongs to ${e.tenantId}`);
    if (prev) {
      if (e.seq !== prev.seq + 1) return broken(e, 'seq_gap', `expected seq ${prev.seq + 1}, found ${e.seq}`);
      if (e.prevHash !== prev.hash) return broken(e, 'prev_hash_mismatch', `prevHash does not match the hash of seq ${prev.seq}`);
    }
    const { hash, signature, ...rest } = e;
    const recomputed = hashEvent(rest);
    if (recomputed !== hash) return broken(e, 'hash_mismatch', `content hashes to ${recomputed}, event says ${hash}`);
    const key = usable.get(e.keyId);
    if (!key) {
      if (!opts.trustedKeys) return broken(e, 'unknown_key', `no public key ${e.keyId}`);
      const claimed = carried.get(e.keyId);
      return broken(
        e,
        'untrusted_key',
        claimed
          ? `signed by key ${e.keyId} (${keyFingerprint(claimed.publicKey)}), which is not a trusted key`
          : `signed by key ${e.keyId}, which is not a trusted key (and whose public key the export does not carry)`,
      );
    }
    if (!verifySignature(hash, signature, key.publicKey)) return broken(e, 'bad_signature', `signature does not verify with ${e.keyId}`);
    const rotation = e.action === SIGNING_KEY_ROTATED ? (e.data as Partial<SigningKeyRotation> | null) : undefined;
    // A rotation back to a key retired earlier (a configured key that returns) re-opens it.
    if (rotation?.keyId === e.keyId) retiredAt.delete(e.keyId);
    const retiredBy = retiredAt.get(e.keyId);
    if (retiredBy !== undefined) {
      return broken(e, 'key_not_valid_at', `signed by key ${e.keyId}, which the rotation at seq ${retiredBy} of this chain retired`);
    }
    if (opts.requireValidity) {
      const outside = outsideValidity(e.timestamp, key);
      if (outside) return broken(e, 'key_not_valid_at', `signed by key ${e.keyId} at ${e.timestamp}, ${outside}`);
    }
    for (const id of rotation?.retiredKeyIds ?? []) if (id !== e.keyId) retiredAt.set(id, e.seq);
    prev = { seq: e.seq, hash };
    checked++;
  }
  return { valid: true, checked, firstBroken: null, head: prev && prev.seq > 0 ? prev : null };
}

/** Why `timestamp` falls outside the key's validity window, or null when it is inside (or there is none). */
function outsideValidity(timestamp: string, key: TrustedSigningKey): string | null {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return 'which is not a readable time';
  if (key.createdAt) {
    const from = Date.parse(key.createdAt);
    if (Number.isNaN(from) || at < from - KEY_VALIDITY_SKEW_MS) return `before the key was created (${key.createdAt})`;
  }
  if (key.retiredAt) {
    const until = Date.parse(key.retiredAt);
    if (Number.isNaN(until) || at > until + KEY_VALIDITY_SKEW_MS) return `after the key was retired (${key.retiredAt})`;
  }
  return null;
}
