import { createHash, randomBytes } from 'node:crypto';
import type { Environment, Role } from '@svc/contract';
import type { Tx } from '../db/client.ts';
import { newId } from '../ids.ts';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length)) {
      // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export const TOKEN_PATTERN = /^svc_(live|test|dev|op)_[0-9A-Za-z]{32,64}$/;

/** Tokens are random and long, so a plain SHA-256 is the right hash: nothing to brute-force. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(env: Environment | 'op'): string {
  return `svc_${env}_${base62(32)}`;
}

export interface IssueKeyOptions {
  tenantId: string;
  env: Environment;
  role: Role;
  name?: string;
  scopes?: string[];
  expiresAt?: Date;
  /** The person of the stakeholders rail the key acts for; absent: a service key. */
  personId?: string;
}

/** Creates an API key and returns its row and the token, which is never stored. */
export async function issueApiKey(tx: Tx, opts: IssueKeyOptions) {
  const token = newToken(opts.env);
  const key = await tx.apiKey.create({
    data: {
      id: newId('key'),
      tenantId: opts.tenantId,
      name: opts.name ?? `${opts.role} key`,
      role: opts.role,
      scopes: opts.scopes ?? [],
      prefix: token.slice(0, 12),
      hash: hashToken(token),
      expiresAt: opts.expiresAt ?? null,
      personId: opts.personId ?? null,
    },
  });
  return { key, token };
}

export async function issueOperatorCredential(tx: Tx, name: string) {
  const token = newToken('op');
  const credential = await tx.operatorCredential.create({ data: { id: newId('opc'), name, hash: hashToken(token) } });
  return { credential, token };
}
