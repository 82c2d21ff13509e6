import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest. The service must be able to read them (it signs with them), so they
 * cannot be hashed; they are sealed with AES-256-GCM under the key secrets-key.ts resolves (always
 * one: configured, kept in a key file, or in memory), and a database dump alone no longer lets
 * anyone forge our signatures or a tenant's inbound events. Rows written before sealing existed
 * stay readable and are sealed at the next start (sealExistingSecrets).
 */
/** What every sealed value starts with (`isSealed`). */
export const SEALED_PREFIX = 'enc:v1:';
const PREFIX = SEALED_PREFIX;
let key: Buffer | undefined;
/** The key being rotated away from (`SVC_SECRETS_KEY_PREVIOUS`): read, never written with. */
let previous: Buffer | undefined;

function parseKey(base64: string, name: string): Buffer {
  const k = Buffer.from(base64, 'base64');
  if (k.length !== 32) throw new Error(`${name} must be 32 bytes, base64-encoded`);
  return k;
}

export function configureSecretsKey(base64: string | undefined, previousBase64?: string): void {
  key = base64 === undefined ? undefined : parseKey(base64, 'SVC_SECRETS_KEY');
  previous = previousBase64 === undefined ? undefined : parseKey(previousBase64, 'SVC_SECRETS_KEY_PREVIOUS');
}

/** A name for a secrets key that tells keys apart in the audit trail and reveals nothing of them. */
export function secretsKeyId(base64: string): string {
  return `skey_${createHash('sha256').update('svc secrets key id\0').update(Buffer.from(base64, 'base64')).digest('hex').slice(0, 16)}`;
}

export function hasPreviousSecretsKey(): boolean {
  return previous !== undefined;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function sealSecret(plain: string): string {
  if (!key) throw new Error('no secrets key is configured in this process');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${ct.toString('base64url')}`;
}

function openWith(k: Buffer, stored: string): string {
  const [iv = '', tag = '', ct = ''] = stored.slice(PREFIX.length).split('.');
  const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * The clear value of a stored secret: sealed under the current key, or, during a rotation, under
 * the previous one (so processes already on the new key read rows not yet re-sealed).
 */
export function openSecret(stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!key) throw new Error('a webhook secret is sealed, and no secrets key is configured in this process');
  try {
    return openWith(key, stored);
  } catch (err) {
    if (!previous) throw err;
    return openWith(previous, stored);
  }
}

/** The clear value of a row sealed under the previous key only (it needs re-sealing), else undefined. */
export function openedWithPreviousOnly(stored: string): string | undefined {
  if (!previous || !key || !stored.startsWith(PREFIX)) return undefined;
  try {
    openWith(key, stored);
    return undefined;
  } catch {
    return openWith(previous, stored);
  }
}
