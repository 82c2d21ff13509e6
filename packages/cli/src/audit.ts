import { readFileSync } from 'node:fs';
import { AUDIT_EXPORT_FORMAT, type AuditExport, PublicKey, type PublicSigningKey, type TrustedSigningKey } from '@svc/contract';
import { keyFingerprint, verifyChain } from '@svc/contract/audit';
import { z } from 'zod';

/** Exit code of `svc audit verify` for an intact chain that no trust anchor vouches for. */
export const EXIT_UNANCHORED = 3;

/**
 * What the verifier trusts, obtained apart from the export: the key list of
 * `GET /v1/audit-trail/keys` (with each key's validity window) and/or pinned key fingerprints.
 */
export interface TrustAnchor {
  keys?: readonly PublicSigningKey[];
  fingerprints?: readonly string[];
}

export interface VerifyReport {
  /**
   * `valid`: intact and every signature by a trusted key inside its validity window. `unanchored`:
   * intact, but signatures were checked only against keys the file carries itself, which whoever
   * wrote the file could have chosen. `broken`: see `firstBroken`.
   */
  status: 'valid' | 'unanchored' | 'broken';
  /** True only for `valid`, so a check of this flag alone cannot pass an unanchored file. */
  valid: boolean;
  anchored: boolean;
  tenantId: string;
  checked: number;
  range: { fromSeq: number; toSeq: number };
  firstBroken: { seq: number; id: string; reason: string; message: string } | null;
  /** The keys whose signatures were accepted, and where the trust in each came from. */
  keys: { keyId: string; fingerprint: string; trustedBy: 'trust_file' | 'fingerprint' | 'export_file' }[];
  warning?: string;
}

const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;

/** Normalises a `--key-fingerprint` value; only the `sha256:<hex>` form is accepted. */
export function parseFingerprint(value: string): string {
  const fp = value.trim().toLowerCase();
  if (!FINGERPRINT.test(fp)) throw new Error(`bad key fingerprint ${value}: expected sha256: and 64 hex digits`);
  return fp;
}

const TrustFile = z.union([z.object({ data: z.array(PublicKey) }), z.array(PublicKey)]);

/** Reads a trust file: the body of `GET /v1/audit-trail/keys` (`{ "data": [...] }`) or its bare list. */
export function readTrustFile(file: string): PublicSigningKey[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not a readable JSON trust file: ${(err as Error).message}`);
  }
  const parsed = TrustFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${file} is not a trust file: expected the JSON of GET /v1/audit-trail/keys (svc audit keys --out FILE)`);
  }
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.data;
}

/** The check of verifyExportFile on an export already parsed (`file` names it in messages). */
export function verifyExportDocument(doc: z.infer<typeof AuditExport>, file: string, trust: TrustAnchor = {}): VerifyReport {
  if (doc?.format !== AUDIT_EXPORT_FORMAT || !Array.isArray(doc.events) || !Array.isArray(doc.publicKeys)) {
    throw new Error(`${file} is not an audit export (format ${AUDIT_EXPORT_FORMAT})`);
  }
  const events = doc.events.map(({ object: _object, ...e }) => e);
  // The file's keys are only claims; a malformed one is ignored rather than allowed to crash the check.
  const carried = doc.publicKeys.filter((k) => typeof k?.keyId === 'string' && typeof k.publicKey === 'string');
  const pinned = new Set((trust.fingerprints ?? []).map(parseFingerprint));
  const anchored = trust.keys !== undefined || pinned.size > 0;

  let trustedKeys: TrustedSigningKey[] | undefined;
  const source = new Map<string, VerifyReport['keys'][number]['trustedBy']>();
  if (anchored) {
    // A trust-file entry wins over the file's copy of the same key: its window is the verifier's.
    const byId = new Map<string, TrustedSigningKey>();
    for (const k of trust.keys ?? []) {
      byId.set(k.keyId, k);
      source.set(k.keyId, 'trust_file');
    }
    // A pinned key's material comes from the file, but only once its hash matches the pin; the
    // file's createdAt/retiredAt for it are not trusted, so it is pinned without a window.
    for (const k of carried) {
      if (!byId.has(k.keyId) && pinned.has(keyFingerprint(k.publicKey))) {
        byId.set(k.keyId, { keyId: k.keyId, publicKey: k.publicKey });
        source.set(k.keyId, 'fingerprint');
      }
    }
    trustedKeys = [...byId.values()];
  } else {
    for (const k of carried) source.set(k.keyId, 'export_file');
  }

  const verdict = verifyChain(events, carried, {
    tenantId: doc.tenantId,
    anchor: doc.anchor,
    ...(trustedKeys ? { trustedKeys, requireValidity: true } : {}),
  });
  let firstBroken = verdict.firstBroken;
  if (firstBroken?.reason === 'untrusted_key') {
    const keyId = doc.events.find((e) => e.seq === firstBroken?.seq)?.keyId;
    const claimed = carried.find((k) => k.keyId === keyId);
    const pin = claimed
      ? `, or confirm its fingerprint with the operator and pin it with --key-fingerprint ${keyFingerprint(claimed.publicKey)}`
      : '';
    firstBroken = {
      ...firstBroken,
      message: `${firstBroken.message}. Trust it only if the service published it: fetch the keys again (\`svc audit keys --out FILE\`, then --trust FILE)${pin}`,
    };
  }
  const expected = doc.range.toSeq - doc.range.fromSeq + 1;
  if (!firstBroken && verdict.checked !== expected) {
    firstBroken = {
      seq: doc.range.fromSeq + verdict.checked,
      id: '',
      reason: 'missing_events',
      message: `the export claims seq ${doc.range.fromSeq}..${doc.range.toSeq} but holds ${verdict.checked} events`,
    };
  }
  const status: VerifyReport['status'] = firstBroken ? 'broken' : anchored ? 'valid' : 'unanchored';
  const used = new Set(events.slice(0, verdict.checked).map((e) => e.keyId));
  const keyOf = (id: string) => trustedKeys?.find((k) => k.keyId === id) ?? carried.find((k) => k.keyId === id);
  const keys = [...used].flatMap((keyId) => {
    const k = keyOf(keyId);
    const trustedBy = source.get(keyId);
    return k && trustedBy ? [{ keyId, fingerprint: keyFingerprint(k.publicKey), trustedBy }] : [];
  });
  return {
    status,
    valid: status === 'valid',
    anchored,
    tenantId: doc.tenantId,
    checked: verdict.checked,
    range: doc.range,
    firstBroken,
    keys,
    ...(status === 'unanchored'
      ? {
          warning:
            'NOT ANCHORED: the chain is intact, but its signatures were checked only against public keys the file carries itself, so a rewritten and re-signed file would pass this check too. Verify with --trust FILE (from `svc audit keys --out FILE`) or --key-fingerprint sha256:<hex>.',
        }
      : {}),
  };
}
