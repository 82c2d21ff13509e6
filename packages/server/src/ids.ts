import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

/** Prefixed, time-sortable id: `asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R`. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

/** URL-safe random string of `bytes` bytes of entropy. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
