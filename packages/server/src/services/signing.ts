import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { PublicSigningKey } from '@svc/contract';
import type { Prisma, Tx } from '../db/client.ts';
import { ApiError } from '../errors.ts';

/**
 * Ed25519 keys that sign the audit chain. A key's id is derived from its public key, so a key
 * configured in several processes or databases has the same id everywhere. Private keys live in
 * memory (configured keys) or in `signing_keys` (keys the service generated for itself); retired
 * keys keep their public half so old signatures stay verifiable.
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

async function retireOthers(tx: Tx, keepId: string) {
  await tx.signingKey.updateMany({ where: { status: 'active', id: { not: keepId } }, data: { status: 'retired', retiredAt: new Date() } });
}

async function createGenerated(tx: Tx): Promise<string> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const spki = spkiOf(privateKey);
  const id = keyIdOf(spki);
  await tx.signingKey.create({
    data: {
      id,
      algorithm: 'ed25519',
      publicKey: spki,
      privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      source: 'generated',
      status: 'active',
    },
  });
  privateKeys.set(id, privateKey);
  await retireOthers(tx, id);
  return id;
}

/**
 * At start: the configured key becomes the active one (earlier keys are retired); without one,
 * the active generated key is kept, or one is generated on first start.
 */
export async function ensureSigningKey(prisma: Prisma, configuredPem: string | undefined): Promise<string> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150224)`;
    if (configuredPem) {
      const key = parsePrivate(configuredPem);
      const spki = spkiOf(key);
      const id = keyIdOf(spki);
      privateKeys.set(id, key);
      await tx.signingKey.upsert({
        where: { id },
        create: { id, algorithm: 'ed25519', publicKey: spki, privateKey: null, source: 'configured', status: 'active' },
        update: { status: 'active', retiredAt: null },
      });
      await retireOthers(tx, id);
      return id;
    }
    const active = await tx.signingKey.findFirst({ where: { status: 'active' } });
    if (active?.privateKey) {
      privateKeys.set(active.id, createPrivateKey(active.privateKey));
      return active.id;
    }
    return createGenerated(tx);
  });
}

/** Replaces the active generated key with a new one; the old one is retired, not deleted. */
export async function rotateSigningKey(prisma: Prisma): Promise<PublicSigningKey> {
  const id = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150224)`;
    const active = await tx.signingKey.findFirst({ where: { status: 'active' } });
    if (active?.source === 'configured') {
      throw new ApiError('conflict', 'The active signing key is configured (SVC_AUDIT_SIGNING_KEY); rotate it by configuring a new one.');
    }
    return createGenerated(tx);
  });
  const row = await prisma.signingKey.findUniqueOrThrow({ where: { id } });
  return renderPublicKey(row);
}

/**
 * The key to sign with, read in the caller's transaction: the active key, or, when this process
 * does not hold its private half (a configured key rolled out to other processes first), the
 * newest key it does hold. Either way the key is published, so the signature verifies.
 */
export async function activeSigner(tx: Tx): Promise<Signer> {
  const rows = await tx.signingKey.findMany({ orderBy: [{ retiredAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }] });
  return signerFrom(rows);
}

export interface Signer {
  keyId: string;
  sign: (hash: string) => string;
}

/** Picks the signer from key rows ordered active first, then newest first. */
export function signerFrom(rows: readonly { id: string; privateKey: string | null }[]): Signer {
  for (const row of rows) {
    let key = privateKeys.get(row.id);
    if (!key && row.privateKey) {
      key = createPrivateKey(row.privateKey);
      privateKeys.set(row.id, key);
    }
    if (key) {
      const k = key;
      return { keyId: row.id, sign: (hash) => sign(null, Buffer.from(hash, 'ascii'), k).toString('base64url') };
    }
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
