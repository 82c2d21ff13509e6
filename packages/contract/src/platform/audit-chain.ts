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

/** A point of a chain: a sequence number and the hash of the event there (seq 0: the genesis hash). */
export interface ChainLink {
  seq: number;
  hash: string;
}

/**
 * The service's signed statement about an export (or one piece of an export joined from several):
 * which tenant, when, which `range`, the event before it (`anchor`), the last event of the range
 * (`last`; the anchor when the range is empty) and the chain head at that time. The events carry
 * their own signatures; this one binds their number and position, so none can be dropped from
 * the end, and no range relabelled, without the check failing.
 */
export interface ExportSealStatement {
  tenantId: string;
  exportedAt: string;
  range: { fromSeq: number; toSeq: number };
  anchor: ChainLink;
  last: ChainLink;
  head: ChainLink;
}

export interface ExportSeal extends ExportSealStatement {
  algorithm: 'ed25519';
  keyId: string;
  /** SHA-256 (hex) of the canonical JSON of the statement (hashExportSeal). */
  hash: string;
  /** Ed25519 signature of `hash` (its ASCII bytes), base64url, as the events are signed. */
  signature: string;
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

export type BrokenReason =
  | 'missing_events'
  | 'seq_gap'
  | 'prev_hash_mismatch'
  | 'hash_mismatch'
  | 'unknown_key'
  | 'untrusted_key'
  | 'key_not_valid_at'
  | 'bad_signature'
  | 'wrong_tenant'
  | 'missing_anchor'
  | 'range_mismatch'
  | 'unsealed'
  | 'bad_seal';

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
  /**
   * Keys that rotation events before the first event (at or before `anchor`) retired, with the seq
   * of the rotation (`retiredKeysOf` of those events): a walk that starts mid-chain refuses their
   * later events as a walk from the start would.
   */
  retiredKeys?: Iterable<readonly [keyId: string, seq: number]>;
}
