import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
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
  const key = publicKeyObject(publicKeyDerBase64);
  return key !== undefined && verifyWith(hash, signature, key);
}

/** The key object of a SubjectPublicKeyInfo (DER, base64); undefined when it is not one. */
function publicKeyObject(publicKeyDerBase64: string): KeyObject | undefined {
  try {
    return createPublicKey({ key: Buffer.from(publicKeyDerBase64, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

function verifyWith(hash: string, signature: string, key: KeyObject): boolean {
  try {
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
  return new ChainVerifier(keys, opts).push(events);
}

/** The keys a chain's rotation events retired, each with the seq of the rotation that retired it. */
export type RetiredKeys = Map<string, number>;

/** What a rotation event (any other event: nothing) does to the retired keys. */
function applyRotation(retired: RetiredKeys, e: Pick<ChainedEvent, 'seq' | 'keyId' | 'action' | 'data'>): void {
  if (e.action !== SIGNING_KEY_ROTATED) return;
  const rotation = e.data as Partial<SigningKeyRotation> | null;
  // A rotation back to a key retired earlier (a configured key that returns) re-opens it.
  if (rotation?.keyId === e.keyId) retired.delete(e.keyId);
  for (const id of rotation?.retiredKeyIds ?? []) if (id !== e.keyId) retired.set(id, e.seq);
}

/**
 * The keys retired by the rotation events among `events` (in seq order): what a verification that
 * starts after them (`VerifyChainOptions.retiredKeys`) must know to refuse a retired key's events.
 */
export function retiredKeysOf(events: Iterable<Pick<ChainedEvent, 'seq' | 'keyId' | 'action' | 'data'>>): RetiredKeys {
  const retired: RetiredKeys = new Map();
  for (const e of events) applyRotation(retired, e);
  return retired;
}

/**
 * The chain walk of `verifyChain`, fed in consecutive slices: the link to the previous event, the
 * keys retired so far and the count carry from one `push` to the next, so a long chain can be read
 * and checked a page at a time (bounded memory, and a server can yield between pages) with the
 * verdict one call on the whole would give. Once broken it stays broken.
 */
export class ChainVerifier {
  private readonly carried: Map<string, PublicSigningKey>;
  private readonly usable: Map<string, TrustedSigningKey>;
  private readonly retiredAt: RetiredKeys;
  /** The usable keys' key objects, by key id (null: not a public key). */
  private readonly parsed = new Map<string, KeyObject | null>();
  private prev: { seq: number; hash: string } | undefined;
  private checked = 0;
  private broken: ChainVerdict | undefined;

  constructor(
    keys: readonly PublicSigningKey[],
    private readonly opts: VerifyChainOptions = {},
  ) {
    this.carried = new Map(keys.map((k) => [k.keyId, k]));
    this.usable = opts.trustedKeys ? new Map(opts.trustedKeys.map((k) => [k.keyId, k])) : this.carried;
    this.retiredAt = new Map(opts.retiredKeys ?? []);
    this.prev = opts.anchor;
  }

  /** The verdict so far. */
  get verdict(): ChainVerdict {
    return (
      this.broken ?? { valid: true, checked: this.checked, firstBroken: null, head: this.prev && this.prev.seq > 0 ? this.prev : null }
    );
  }

  /** Checks the next events (in seq order, following the last ones pushed); the verdict so far. */
  push(events: readonly ChainedEvent[]): ChainVerdict {
    if (this.broken) return this.broken;
    if (this.checked === 0 && !this.prev && events[0]?.seq === 1) this.prev = { seq: 0, hash: GENESIS_HASH };
    for (const e of events) {
      const reason = this.check(e);
      if (reason) {
        this.broken = {
          valid: false,
          checked: this.checked,
          firstBroken: { seq: e.seq, id: e.id, reason: reason[0], message: reason[1] },
          head: this.prev ?? null,
        };
        return this.broken;
      }
      applyRotation(this.retiredAt, e);
      this.prev = { seq: e.seq, hash: e.hash };
      this.checked++;
    }
    return this.verdict;
  }

  /** Why `e` breaks the chain, or undefined when it holds. */
  private check(e: ChainedEvent): [BrokenReason, string] | undefined {
    const { opts, prev } = this;
    if (opts.tenantId && e.tenantId !== opts.tenantId) return ['wrong_tenant', `event ${e.id} belongs to ${e.tenantId}`];
    if (prev) {
      if (e.seq !== prev.seq + 1) return ['seq_gap', `expected seq ${prev.seq + 1}, found ${e.seq}`];
      if (e.prevHash !== prev.hash) return ['prev_hash_mismatch', `prevHash does not match the hash of seq ${prev.seq}`];
    }
    const { hash, signature, ...rest } = e;
    const recomputed = hashEvent(rest);
    if (recomputed !== hash) return ['hash_mismatch', `content hashes to ${recomputed}, event says ${hash}`];
    const key = this.usable.get(e.keyId);
    if (!key) {
      if (!opts.trustedKeys) return ['unknown_key', `no public key ${e.keyId}`];
      const claimed = this.carried.get(e.keyId);
      return [
        'untrusted_key',
        claimed
          ? `signed by key ${e.keyId} (${keyFingerprint(claimed.publicKey)}), which is not a trusted key`
          : `signed by key ${e.keyId}, which is not a trusted key (and whose public key the export does not carry)`,
      ];
    }
    // The key object is parsed once per key, not once per event.
    let parsed = this.parsed.get(e.keyId);
    if (parsed === undefined) {
      parsed = publicKeyObject(key.publicKey) ?? null;
      this.parsed.set(e.keyId, parsed);
    }
    if (!parsed || !verifyWith(hash, signature, parsed)) return ['bad_signature', `signature does not verify with ${e.keyId}`];
    // A rotation back to a retired key re-opens it from that event on (applyRotation).
    const returning = e.action === SIGNING_KEY_ROTATED && (e.data as Partial<SigningKeyRotation> | null)?.keyId === e.keyId;
    const retiredBy = returning ? undefined : this.retiredAt.get(e.keyId);
    if (retiredBy !== undefined) {
      return ['key_not_valid_at', `signed by key ${e.keyId}, which the rotation at seq ${retiredBy} of this chain retired`];
    }
    if (opts.requireValidity) {
      const outside = outsideValidity(e.timestamp, key);
      if (outside) return ['key_not_valid_at', `signed by key ${e.keyId} at ${e.timestamp}, ${outside}`];
    }
    return undefined;
  }
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
