import { createDecipheriv, createPrivateKey, type KeyObject } from 'node:crypto';

/**
 * Opens a value sealed at rest (`enc:v1:<iv>.<tag>.<ciphertext>`, AES-256-GCM) with a base64
 * secrets key: what someone holding both the database and the secrets key could do, written from
 * the format rather than with the server's own code.
 */
export function openSealed(stored: string, keyBase64: string): string {
  if (!stored.startsWith('enc:v1:')) throw new Error('not a sealed value');
  const [iv = '', tag = '', ct = ''] = stored.slice('enc:v1:'.length).split('.');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * What a dump alone yields of a stored private key: a usable key if the column holds one in any
 * encoding a thief would try (PEM, base64 of PEM, base64 DER), else undefined.
 */
export function privateKeyFromDump(stored: string | null): KeyObject | undefined {
  if (!stored) return undefined;
  const attempts: (() => KeyObject)[] = [
    () => createPrivateKey(stored),
    () => createPrivateKey(Buffer.from(stored, 'base64').toString('utf8')),
    () => createPrivateKey({ key: Buffer.from(stored, 'base64'), format: 'der', type: 'pkcs8' }),
  ];
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {}
  }
  return undefined;
}
