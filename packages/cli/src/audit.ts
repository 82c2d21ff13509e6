import { readFileSync } from 'node:fs';
import type { AuditExport, ChainLink, ExportSeal, PublicSigningKey, TrustedSigningKey } from '@svc/contract';
import {
  AUDIT_EXPORT_FORMAT,
  GENESIS_HASH,
  hashExportSeal,
  KEY_VALIDITY_SKEW_MS,
  keyFingerprint,
  verifyChain,
  verifySignature,
} from '@svc/contract/audit';
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
  /** The chain head the service signed in the export's (last) seal, and when; absent unless the seal held. */
  head?: ChainLink;
  exportedAt?: string;
  /** What an intact result establishes, and what no check of this file can. Absent when broken. */
  proves?: string[];
  doesNotProve?: string[];
  warning?: string;
}

const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;

/** Normalises a `--key-fingerprint` value; only the `sha256:<hex>` form is accepted. */
export function parseFingerprint(value: string): string {
  const fp = value.trim().toLowerCase();
  if (!FINGERPRINT.test(fp)) throw new Error(`bad key fingerprint ${value}: expected sha256: and 64 hex digits`);
  return fp;
}

/**
 * Reads a trust file: the body of `GET /v1/audit-trail/keys` (`{ "data": [...] }`) or its bare list,
 * checked against the contract's schema of a key (loaded here, not by every command).
 */
export async function readTrustFile(file: string): Promise<PublicSigningKey[]> {
  const { PublicKey } = await import('@svc/contract');
  const TrustFile = z.union([z.object({ data: z.array(PublicKey) }), z.array(PublicKey)]);
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
  if (
    doc?.format !== AUDIT_EXPORT_FORMAT ||
    !Array.isArray(doc.events) ||
    !Array.isArray(doc.publicKeys) ||
    !Number.isInteger(doc.range?.fromSeq) ||
    !Number.isInteger(doc.range?.toSeq)
  ) {
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

  // The first event must follow the anchor, which must sit just before the claimed range: without
  // it, events from the middle of a chain would pass for any range.
  const { fromSeq, toSeq } = doc.range;
  const anchor = isLink(doc.anchor) ? doc.anchor : undefined;
  const structural = !anchor
    ? broken(
        fromSeq,
        'missing_anchor',
        'the export has no anchor (the seq and hash of the event before its range), so its place in the chain is unknown',
      )
    : anchor.seq !== fromSeq - 1 || (anchor.seq === 0 && anchor.hash !== GENESIS_HASH)
      ? broken(fromSeq, 'range_mismatch', `the export claims seq ${fromSeq}..${toSeq}, but its anchor is seq ${anchor.seq}`)
      : null;

  const verdict = structural
    ? { checked: 0, firstBroken: structural }
    : verifyChain(events, carried, {
        tenantId: doc.tenantId,
        anchor,
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
  // The events hold together; the seal says they are the whole range, where the chain stood.
  let sealed: { head: ChainLink; exportedAt: string; keyIds: string[] } | undefined;
  if (!firstBroken) {
    const checkedSeals = checkSeals(doc, events, anchor as ChainLink, anchored ? (trustedKeys ?? []) : carried, anchored);
    if ('firstBroken' in checkedSeals) firstBroken = checkedSeals.firstBroken;
    else sealed = checkedSeals;
  }
  const status: VerifyReport['status'] = firstBroken ? 'broken' : anchored ? 'valid' : 'unanchored';
  const used = new Set([...events.slice(0, verdict.checked).map((e) => e.keyId), ...(sealed?.keyIds ?? [])]);
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
    ...(sealed ? { head: sealed.head, exportedAt: sealed.exportedAt, ...scopeOf(doc.tenantId, doc.range, sealed, anchored) } : {}),
    ...(status === 'unanchored'
      ? {
          warning:
            'NOT ANCHORED: the chain is intact, but its signatures were checked only against public keys the file carries itself, so a rewritten and re-signed file would pass this check too. Verify with --trust FILE (from `svc audit keys --out FILE`) or --key-fingerprint sha256:<hex>.',
        }
      : {}),
  };
}

type Broken = NonNullable<VerifyReport['firstBroken']>;

function broken(seq: number, reason: string, message: string): Broken {
  return { seq, id: '', reason, message };
}

function isLink(v: unknown): v is ChainLink {
  const l = v as ChainLink | null | undefined;
  return typeof l === 'object' && l !== null && Number.isInteger(l.seq) && typeof l.hash === 'string';
}

const sameLink = (a: ChainLink, b: ChainLink) => a.seq === b.seq && a.hash === b.hash;

/**
 * Checks the seals of an export whose events already verified as a chain from `anchor`: each a
 * statement signed by a key the verifier trusts (inside its window at `exportedAt` when the trust
 * file gives one), the pieces one after the other from the export's anchor to the end of its
 * range, each naming the hashes the events really have, and the export's head the last seal's.
 * An export without a seal (written before seals existed, or stripped of it) is refused: nothing
 * else tells a truncated or relabelled file from a genuine one.
 */
function checkSeals(
  doc: z.infer<typeof AuditExport>,
  events: readonly { seq: number; hash: string }[],
  anchor: ChainLink,
  keys: readonly TrustedSigningKey[],
  anchored: boolean,
): { head: ChainLink; exportedAt: string; keyIds: string[] } | { firstBroken: Broken } {
  const { fromSeq, toSeq } = doc.range;
  const seals = (doc as { seals?: unknown }).seals;
  if (!Array.isArray(seals) || seals.length === 0) {
    return {
      firstBroken: broken(
        fromSeq,
        'unsealed',
        "the export carries no seal (the service's signed statement of its range and the chain head): it was written before exports were sealed, or the seal was removed. Without one, a file whose newest events were dropped, or whose range was relabelled, would pass: export the range again",
      ),
    };
  }
  const hashAt = new Map<number, string>([[anchor.seq, anchor.hash], ...events.map((e) => [e.seq, e.hash] as [number, string])]);
  const link = (seq: number): ChainLink | undefined => {
    const hash = hashAt.get(seq);
    return hash === undefined ? undefined : { seq, hash };
  };
  const byId = new Map(keys.map((k) => [k.keyId, k]));
  let next = fromSeq;
  const keyIds: string[] = [];
  let lastSeal: ExportSeal | undefined;
  for (const [i, raw] of seals.entries()) {
    const s = raw as ExportSeal;
    const name = seals.length > 1 ? `seal ${i + 1} of ${seals.length}` : 'the seal';
    const bad = (message: string) => ({ firstBroken: broken(next, 'bad_seal', `${name}: ${message}`) });
    if (
      typeof s !== 'object' ||
      s === null ||
      typeof s.keyId !== 'string' ||
      typeof s.signature !== 'string' ||
      typeof s.hash !== 'string' ||
      typeof s.exportedAt !== 'string' ||
      !Number.isInteger(s.range?.fromSeq) ||
      !Number.isInteger(s.range?.toSeq) ||
      ![s.anchor, s.last, s.head].every(isLink)
    ) {
      return bad('is malformed');
    }
    if (s.tenantId !== doc.tenantId) return bad(`is of tenant ${s.tenantId}, the export of ${doc.tenantId}`);
    const recomputed = hashExportSeal(s);
    if (recomputed !== s.hash) return bad(`its statement hashes to ${recomputed}, the seal says ${s.hash}`);
    const key = byId.get(s.keyId);
    if (!key) return bad(`is signed by key ${s.keyId}, which is not ${anchored ? 'a trusted key' : 'among the keys the file carries'}`);
    if (!verifySignature(s.hash, s.signature, key.publicKey)) return bad(`its signature does not verify with ${s.keyId}`);
    if (anchored) {
      const at = Date.parse(s.exportedAt);
      const from = key.createdAt ? Date.parse(key.createdAt) : Number.NEGATIVE_INFINITY;
      const until = key.retiredAt ? Date.parse(key.retiredAt) : Number.POSITIVE_INFINITY;
      if (Number.isNaN(at) || at < from - KEY_VALIDITY_SKEW_MS || at > until + KEY_VALIDITY_SKEW_MS) {
        return bad(
          `is signed by key ${s.keyId} at ${s.exportedAt}, outside the key's validity (${key.createdAt} to ${key.retiredAt ?? 'now'})`,
        );
      }
    }
    // What the signed statement says against what the file holds.
    const mismatch = (message: string) => ({ firstBroken: broken(next, 'range_mismatch', `${name} ${message}`) });
    if (s.range.fromSeq !== next)
      return mismatch(`covers seq ${s.range.fromSeq}..${s.range.toSeq}, but the file's range continues at seq ${next}`);
    if (s.range.toSeq > toSeq || s.range.toSeq < s.range.fromSeq - 1) {
      return mismatch(`covers seq ${s.range.fromSeq}..${s.range.toSeq}, beyond the file's claimed range ${fromSeq}..${toSeq}`);
    }
    const before = link(s.range.fromSeq - 1);
    if (!before || !sameLink(before, s.anchor))
      return mismatch(`anchors its range on seq ${s.anchor.seq} with a hash the file does not have there`);
    const last = link(s.range.toSeq);
    if (!last || !sameLink(last, s.last)) return mismatch(`ends its range at seq ${s.last.seq} with a hash the file does not have there`);
    if (s.head.seq < s.range.toSeq || (s.head.seq === s.range.toSeq && s.head.hash !== s.last.hash)) {
      return mismatch(`names a chain head (seq ${s.head.seq}) that does not follow its range`);
    }
    if (!keyIds.includes(s.keyId)) keyIds.push(s.keyId);
    next = s.range.toSeq + 1;
    lastSeal = s;
  }
  if (next !== toSeq + 1) {
    return {
      firstBroken: broken(
        next,
        'range_mismatch',
        `the export claims seq ${fromSeq}..${toSeq}, but its seals cover only seq ${fromSeq}..${next - 1}`,
      ),
    };
  }
  const final = lastSeal as ExportSeal;
  if (!isLink(doc.head) || !sameLink(doc.head, final.head)) {
    return {
      firstBroken: broken(
        toSeq,
        'range_mismatch',
        `the export's head (seq ${doc.head?.seq}) is not the one its seal signs (seq ${final.head.seq})`,
      ),
    };
  }
  return { head: final.head, exportedAt: final.exportedAt, keyIds };
}

/** The plain words for what an intact result means. */
function scopeOf(
  tenantId: string,
  range: { fromSeq: number; toSeq: number },
  sealed: { head: ChainLink; exportedAt: string },
  anchored: boolean,
): { proves: string[]; doesNotProve: string[] } {
  const { fromSeq, toSeq } = range;
  const n = toSeq - fromSeq + 1;
  const signer = anchored ? 'keys you trust' : 'keys the file carries itself';
  const proves = [
    n > 0
      ? `the ${n} events are those recorded for ${tenantId} at seq ${fromSeq}..${toSeq}, unaltered, none dropped, added or reordered, each signed by ${signer}`
      : `the range seq ${fromSeq}..${toSeq} of ${tenantId} holds no events`,
    `at ${sealed.exportedAt} the chain's newest event was seq ${sealed.head.seq} (signed in the export's seal)`,
  ];
  if (sealed.head.seq > toSeq) proves.push(`seq ${toSeq + 1}..${sealed.head.seq} had been recorded by then and are not in this file`);
  const doesNotProve = [
    `anything recorded after ${sealed.exportedAt}: the chain may have grown since`,
    'that every action was recorded: the trail holds what the service wrote, and whoever holds a trusted private key can sign any history',
  ];
  if (fromSeq > 1) doesNotProve.push(`anything about seq 1..${fromSeq - 1}: verify the exports of those ranges`);
  if (!anchored) doesNotProve.unshift('that the service signed it: nothing outside the file vouches for its keys');
  return { proves, doesNotProve };
}
