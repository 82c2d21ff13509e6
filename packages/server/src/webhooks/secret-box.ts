import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest. The service must be able to read them (it signs with them), so they
 * cannot be hashed; they are sealed with AES-256-GCM under the key secrets-key.ts resolves (always
 * one: configured, kept in a key file, or in memory), and a database dump alone no longer lets
 * anyone forge our signatures or a tenant's inbound events. Rows written before sealing existed
 * stay readable and are sealed at the next start (sealExistingSecrets).
 */
const PREFIX = 'enc:v1:';
let key: Buffer | undefined;

export function configureSecretsKey(base64: string | undefined): void {
  if (base64 === undefined) {
    key = undefined;
    return;
  }
  const k = Buffer.from(base64, 'base64');
  if (k.length !== 32) throw new Error('SVC_SECRETS_KEY must be 32 bytes, base64-encoded');
  key = k;
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

export function openSecret(stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!key) throw new Error('a webhook secret is sealed, and no secrets key is configured in this process');
  const [iv = '', tag = '', ct = ''] = stored.slice(PREFIX.length).split('.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
