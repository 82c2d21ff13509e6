import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { PublicSigningKey } from '@svc/contract';
import type { Prisma, Tx } from '../../db/client.ts';
import type { Sql } from '../../db/sql.ts';
import { ApiError } from '../../errors.ts';
import { isSealed, openedWithPreviousOnly, openSecret, sealSecret } from '../../webhooks/secret-box.ts';

/**
 * Ed25519 keys that sign the audit chain. A key's id is derived from its public key, so a key
 * configured in several processes or databases has the same id everywhere. Private keys live in
 * memory (configured keys) or in `signing_keys` (keys the service generated for itself), sealed
 * there with the secrets key like the webhook secrets: a dump or a backup alone cannot sign. A
 * retired key keeps only its public half, so old signatures stay verifiable and nothing can sign
 * with it again.
 */
const privateKeys = new Map<string, KeyObject>();

function spkiOf(key: KeyObject): string {
  return createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64');
}

export function keyIdOf(spkiBase64: string): string {
  return `sk_${createHash('sha256').update(Buffer.from(spkiBase64, 'base64')).digest('hex').slice(0, 24)}`;
}

function parsePrivate(pemOrBase64: string): KeyObject {
  const text = pemOrBase64.includes('BEGIN') ? pemOrBase64 : Buffer.from(pemOrBase64, 'base64').toString('utf8');
  const key = createPrivateKey(text);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('SVC_AUDIT_SIGNING_KEY must be an Ed25519 private key (PKCS#8 PEM)');
  return key;
}

/** Generates a new Ed25519 key as PKCS#8 PEM (for operators who want to configure one). */
export function generateSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** Creates a generated key (not yet active: activateKey makes it so). */
export async function createGeneratedKey(tx: Tx): Promise<string> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const spki = spkiOf(privateKey);
  const id = keyIdOf(spki);
  await tx.signingKey.create({
    data: {
      id,
      algorithm: 'ed25519',
      publicKey: spki,
      privateKey: sealSecret(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()),
      source: 'generated',
      status: 'retired',
    },
  });
  privateKeys.set(id, privateKey);
  return id;
}

/** Records the configured key (its private half stays in this process's memory only). */
export async function upsertConfiguredKey(tx: Tx, configuredPem: string): Promise<string> {
  const key = parsePrivate(configuredPem);
  const spki = spkiOf(key);
  const id = keyIdOf(spki);
  privateKeys.set(id, key);
  await tx.signingKey.upsert({
    where: { id },
    create: { id, algorithm: 'ed25519', publicKey: spki, privateKey: null, source: 'configured', status: 'retired' },
    update: {},
  });
  return id;
}

/**
 * Whether this process can sign with the key of `row`: a configured key it was given, or a
 * generated key whose sealed private half it can open (which loads it). A generated key sealed
 * under a secrets key this process does not have is an error, not a reason to replace the key:
 * a process started with the wrong SVC_SECRETS_KEY would otherwise retire the key every other
 * process signs with.
 */
export function holdGeneratedKey(row: { id: string; privateKey: string | null }): boolean {
  if (row.privateKey === null) return privateKeys.has(row.id);
  try {
    privateKeys.set(row.id, openPrivate(row.privateKey));
    return true;
  } catch {
    throw new Error(
      `The audit signing key ${row.id} is sealed under a secrets key this process does not have: start it with the SVC_SECRETS_KEY that sealed it (the one the other processes use; during a rotation of the secrets key, the old one in SVC_SECRETS_KEY_PREVIOUS), or, if that key is lost, configure a new signing key in SVC_AUDIT_SIGNING_KEY (the lost one is then retired; its signatures stay verifiable).`,
    );
  }
}

function openPrivate(stored: string): KeyObject {
  return createPrivateKey(openSecret(stored));
}

/** Forgets the private halves of retired keys in this process (their rows no longer hold them). */
export function forgetPrivateKeys(ids: readonly string[]): void {
  for (const id of ids) privateKeys.delete(id);
}

/**
 * The private halves at rest, put right at start: a retired key's is wiped (nothing may sign
 * with it again); one stored in clear (written before sealing existed) is sealed; one sealed
 * under the previous secrets key only (a rotation of SVC_SECRETS_KEY) is re-sealed under the
 * current one. Each update is conditional on the row still holding what was read.
 */
export async function sealStoredKeys(tx: Tx): Promise<{ wiped: number; sealed: number; resealed: number }> {
  const rows = await tx.signingKey.findMany({ where: { privateKey: { not: null } }, select: { id: true, status: true, privateKey: true } });
  const counts = { wiped: 0, sealed: 0, resealed: 0 };
  for (const r of rows) {
    const stored = r.privateKey as string;
    const where = { id: r.id, privateKey: stored };
    if (r.status !== 'active') {
      counts.wiped += (await tx.signingKey.updateMany({ where, data: { privateKey: null } })).count;
      privateKeys.delete(r.id);
    } else if (!isSealed(stored)) {
      counts.sealed += (await tx.signingKey.updateMany({ where, data: { privateKey: sealSecret(stored) } })).count;
    } else {
      const opened = openedWithPreviousOnly(stored);
      if (opened !== undefined) {
        counts.resealed += (await tx.signingKey.updateMany({ where, data: { privateKey: sealSecret(opened) } })).count;
      }
    }
  }
  return counts;
}

/**
 * The key to sign with, read in the caller's transaction: the active key, or, when this process
 * does not hold its private half (a configured key rolled out to other processes first), the
 * newest key it does hold. Either way the key is published, so the signature verifies.
 */
export async function activeSigner(tx: Tx | Prisma): Promise<Signer> {
  const rows = await tx.signingKey.findMany({ orderBy: [{ retiredAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }] });
  return signerFrom(rows);
}

export interface Signer {
  keyId: string;
  sign: (hash: string) => string;
}

/**
 * The signer of a chain's next event. A chain a rotation has reached is bound to the rotation's key
 * (`boundKeyId`, read from the chain head the writer has locked, so it is current even when the
 * key rows read in the same statement come from a snapshot taken before the rotation committed).
 * That key is read afresh when the snapshot lacks it; a process that does not hold its private
 * half answers 503 rather than sign with a key the chain has retired.
 */
export async function signerForChain(
  sql: Sql,
  rows: readonly { id: string; privateKey: string | null }[],
  boundKeyId: string | null,
): Promise<Signer> {
  if (boundKeyId === null) return signerFrom(rows);
  let row = rows.find((r) => r.id === boundKeyId);
  if (!row) {
    const [fresh] = await sql.query<{ id: string; privateKey: string | null }>(
      'SELECT "id", "private_key" AS "privateKey" FROM "signing_keys" WHERE "id" = $1',
      [boundKeyId],
    );
    row = fresh;
  }
  const signer = row ? signerIfHeld(row) : undefined;
  if (!signer) {
    throw new ApiError(
      'service_unavailable',
      `This process does not hold the audit signing key ${boundKeyId}; it must be restarted with the current SVC_AUDIT_SIGNING_KEY.`,
      undefined,
      { 'Retry-After': '1' },
    );
  }
  return signer;
}

function signerIfHeld(row: { id: string; privateKey: string | null }): Signer | undefined {
  let key = privateKeys.get(row.id);
  if (!key && row.privateKey) {
    // A row this process cannot open (sealed under another secrets key) is a key it does not hold.
    try {
      key = openPrivate(row.privateKey);
    } catch {
      return undefined;
    }
    privateKeys.set(row.id, key);
  }
  if (!key) return undefined;
  const k = key;
  return { keyId: row.id, sign: (hash) => sign(null, Buffer.from(hash, 'ascii'), k).toString('base64url') };
}

/** Picks the signer from key rows ordered active first, then newest first. */
export function signerFrom(rows: readonly { id: string; privateKey: string | null }[]): Signer {
  for (const row of rows) {
    const signer = signerIfHeld(row);
    if (signer) return signer;
  }
  throw new ApiError('service_unavailable', 'No audit signing key is available to this process.');
}

export function renderPublicKey(row: { id: string; publicKey: string; createdAt: Date; retiredAt: Date | null }): PublicSigningKey {
  return {
    keyId: row.id,
    algorithm: 'ed25519',
    publicKey: row.publicKey,
    createdAt: row.createdAt.toISOString(),
    retiredAt: row.retiredAt ? row.retiredAt.toISOString() : null,
  };
}

export async function listPublicKeys(prisma: Prisma | Tx): Promise<PublicSigningKey[]> {
  const rows = await prisma.signingKey.findMany({ orderBy: { createdAt: 'asc' } });
  return rows.map(renderPublicKey);
}
