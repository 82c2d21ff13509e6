import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChainVerifier, hashEvent, retiredKeysOf, verifyChain } from './audit-crypto.ts';
import { type ChainedEvent, GENESIS_HASH, type PublicSigningKey, SIGNING_KEY_ROTATED } from './platform/audit-chain.ts';

/** A signing key of the test chain: its public form and the private key that signs. */
function key(keyId: string): { pub: PublicSigningKey; priv: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  return { pub: { keyId, algorithm: 'ed25519', publicKey: der, createdAt: '2026-01-01T00:00:00.000Z', retiredAt: null }, priv: privateKey };
}

const A = key('sk_a');
const B = key('sk_b');
const KEYS = [A.pub, B.pub];

/** Appends an event signed by `by`, linked to the chain's last one. */
function append(chain: ChainedEvent[], by: typeof A, action = 'assessment.created', data: unknown = { n: chain.length + 1 }): void {
  const prev = chain.at(-1);
  const body = {
    id: `aud_${chain.length + 1}`,
    tenantId: 'ten_1',
    seq: chain.length + 1,
    prevHash: prev?.hash ?? GENESIS_HASH,
    timestamp: new Date(Date.UTC(2026, 5, 1, 0, 0, chain.length)).toISOString(),
    actor: 'key_1',
    action,
    resourceType: 'svc.compliance.assessment',
    resourceId: `asm_${chain.length + 1}`,
    correlationId: 'cor_1',
    data,
    keyId: by.pub.keyId,
  };
  const hash = hashEvent(body);
  chain.push({ ...body, hash, signature: sign(null, Buffer.from(hash, 'ascii'), by.priv).toString('base64url') });
}

/**
 * Seven events by A, a rotation to B that retires A at seq 8, two events by B, then at seq 11 an
 * event signed with the retired key A (a leaked key, say): linked and hashed correctly, so only
 * the retirement refuses it.
 */
function rotatedChain(): ChainedEvent[] {
  const chain: ChainedEvent[] = [];
  for (let i = 0; i < 7; i++) append(chain, A);
  append(chain, B, SIGNING_KEY_ROTATED, { keyId: 'sk_b', fingerprint: 'sha256:x', retiredKeyIds: ['sk_a'] });
  append(chain, B);
  append(chain, B);
  append(chain, A);
  append(chain, B);
  return chain;
}

/** The verdict of `chain` pushed in slices of `size`. */
function inSlices(chain: ChainedEvent[], size: number, opts = {}) {
  const v = new ChainVerifier(KEYS, opts);
  for (let i = 0; i < chain.length; i += size) v.push(chain.slice(i, i + size));
  return v.verdict;
}

describe('the chain walk in slices', () => {
  it('gives the verdict of one walk over the whole chain, whatever the slice size', () => {
    const valid = rotatedChain().slice(0, 10);
    const broken = rotatedChain();
    expect(verifyChain(valid, KEYS)).toMatchObject({ valid: true, checked: 10, head: { seq: 10 } });
    expect(verifyChain(broken, KEYS)).toMatchObject({ valid: false, checked: 10, firstBroken: { seq: 11, reason: 'key_not_valid_at' } });
    for (const size of [1, 2, 3, 7, 8, 100]) {
      expect(inSlices(valid, size)).toEqual(verifyChain(valid, KEYS));
      expect(inSlices(broken, size)).toEqual(verifyChain(broken, KEYS));
    }
  });

  it('finds a gap, a broken link and a forged content across a slice boundary', () => {
    const chain = rotatedChain().slice(0, 10);
    const gap = [...chain.slice(0, 4), ...chain.slice(5)];
    expect(inSlices(gap, 4)).toMatchObject({ valid: false, firstBroken: { seq: 6, reason: 'seq_gap' } });
    const forged = chain.map((e) => (e.seq === 5 ? { ...e, data: { n: 99 } } : e));
    expect(inSlices(forged, 4)).toMatchObject({ valid: false, checked: 4, firstBroken: { seq: 5, reason: 'hash_mismatch' } });
    const relinked = chain.map((e) => (e.seq === 6 ? { ...e, prevHash: GENESIS_HASH } : e));
    expect(inSlices(relinked, 5)).toMatchObject({ valid: false, firstBroken: { seq: 6, reason: 'prev_hash_mismatch' } });
    // Once broken, later slices change nothing.
    const v = new ChainVerifier(KEYS);
    v.push(forged.slice(0, 6));
    expect(v.push(forged.slice(6))).toMatchObject({ checked: 4, firstBroken: { seq: 5 } });
  });

  it('refuses a retired key after the anchor only when told what the rotations before it retired', () => {
    const chain = rotatedChain();
    const anchor = { seq: 9, hash: chain[8]!.hash };
    const rest = chain.slice(9);
    // Started after the rotation and told nothing, the walk cannot know that A was retired.
    expect(verifyChain(rest, KEYS, { anchor })).toMatchObject({ valid: true, checked: 3 });
    const retiredKeys = retiredKeysOf(chain.slice(0, 9));
    expect([...retiredKeys]).toEqual([['sk_a', 8]]);
    expect(verifyChain(rest, KEYS, { anchor, retiredKeys })).toMatchObject({
      valid: false,
      firstBroken: { seq: 11, reason: 'key_not_valid_at', message: expect.stringContaining('rotation at seq 8') },
    });
  });

  it('re-opens a retired key that a later rotation returns to', () => {
    const chain = rotatedChain().slice(0, 10);
    append(chain, A, SIGNING_KEY_ROTATED, { keyId: 'sk_a', fingerprint: 'sha256:y', retiredKeyIds: ['sk_b'] });
    append(chain, A);
    expect(verifyChain(chain, KEYS)).toMatchObject({ valid: true, checked: 12 });
    expect(inSlices(chain, 3)).toMatchObject({ valid: true, checked: 12 });
    expect([...retiredKeysOf(chain)]).toEqual([['sk_b', 11]]);
    const bad = [...chain];
    append(bad, B);
    expect(inSlices(bad, 5)).toMatchObject({ valid: false, firstBroken: { seq: 13, reason: 'key_not_valid_at' } });
  });

  it('refuses a signature by another key and an unknown key', () => {
    const chain = rotatedChain().slice(0, 3);
    expect(verifyChain(chain, [{ ...A.pub, publicKey: B.pub.publicKey }])).toMatchObject({
      firstBroken: { seq: 1, reason: 'bad_signature' },
    });
    expect(verifyChain(chain, [B.pub])).toMatchObject({ firstBroken: { seq: 1, reason: 'unknown_key' } });
    expect(verifyChain(chain, [{ ...A.pub, publicKey: 'bm90IGEga2V5' }])).toMatchObject({
      firstBroken: { seq: 1, reason: 'bad_signature' },
    });
  });
});
