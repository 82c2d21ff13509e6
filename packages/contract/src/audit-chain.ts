import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * The audit chain's wire rules, shared by the server that writes events and by anyone who checks
 * them offline: the canonical serialisation, the hash, the signature check and the chain walk.
 */

/** `prevHash` of the first event of every tenant's chain. */
export const GENESIS_HASH = '0'.repeat(64);
export const AUDIT_EXPORT_FORMAT = 'svc-audit-export/1';

/**
 * The audit action a signing-key rotation appends to every tenant chain, signed by the new key.
 * From that event on, the chain's events must not be signed by the keys it retires: the order of
 * the chain, not a clock, says which key was valid when.
 */
export const SIGNING_KEY_ROTATED = 'signing_key.rotated';

/** The data of a `signing_key.rotated` event. */
export interface SigningKeyRotation {
  keyId: string;
  fingerprint: string;
  retiredKeyIds: string[];
}

/**
 * Clocks of the processes that write a chain differ a little; a validity window from a key list
 * is checked with this much slack at both ends. The exact boundary is the rotation event.
 */
export const KEY_VALIDITY_SKEW_MS = 5_000;

/** The fields an event's hash covers, in the form they are exported. */
export interface ChainedEvent {
  id: string;
  tenantId: string;
  seq: number;
  prevHash: string;
  timestamp: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  correlationId: string;
  data: unknown;
  keyId: string;
  hash: string;
  signature: string;
}

export interface PublicSigningKey {
  keyId: string;
  algorithm: 'ed25519';
  /** SubjectPublicKeyInfo, DER, base64. */
  publicKey: string;
  createdAt: string;
  retiredAt: string | null;
}

/** JSON with object keys sorted at every level and no insignificant white space. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

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

export type BrokenReason =
  | 'missing_events'
  | 'seq_gap'
  | 'prev_hash_mismatch'
  | 'hash_mismatch'
  | 'unknown_key'
  | 'untrusted_key'
  | 'key_not_valid_at'
  | 'bad_signature'
  | 'wrong_tenant';

export interface ChainVerdict {
  valid: boolean;
  checked: number;
  firstBroken: { seq: number; id: string; reason: BrokenReason; message: string } | null;
  head: { seq: number; hash: string } | null;
}

/**
 * A key the verifier trusts from a source of its own (a key list fetched from the service, a
 * pinned fingerprint), never from the material being verified. `createdAt`/`retiredAt` are its
 * validity window when that source recorded one; a key pinned by fingerprint alone has none.
 */
export type TrustedSigningKey = Pick<PublicSigningKey, 'keyId' | 'publicKey'> & Partial<Pick<PublicSigningKey, 'createdAt' | 'retiredAt'>>;

export interface VerifyChainOptions {
  tenantId?: string;
  anchor?: { seq: number; hash: string };
  /**
   * When given, signatures are checked only against these keys; `keys` then serve only to name
   * (by fingerprint) a key an event claims that is not trusted.
   */
  trustedKeys?: readonly TrustedSigningKey[];
  /**
   * Each event's timestamp must fall in its key's [createdAt, retiredAt] where the key has one,
   * give or take KEY_VALIDITY_SKEW_MS. (A key a rotation event of the chain retired is refused
   * for the events after it whatever this says.)
   */
  requireValidity?: boolean;
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
