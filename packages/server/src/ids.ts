import { randomBytes, randomFillSync } from 'node:crypto';

/** Crockford's base 32, the ULID alphabet (sortable as ASCII). */
const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random bytes drawn in blocks: one system call per 256 ids instead of one per character. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function random16(): Buffer {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const out = pool.subarray(poolAt, poolAt + 16);
  poolAt += 16;
  return out;
}

let lastTime = -1;
/** The 80 random bits of the last id, as 16 base-32 digits (5 bits each), for monotonic increments. */
const lastRandom = new Uint8Array(16);

/**
 * A ULID (48-bit millisecond time + 80 random bits, 26 characters), monotonic within the process:
 * two ids of the same millisecond differ by one in their random part, so ids sort in the order
 * they were made even when the clock does not move.
 */
function ulid(): string {
  let now = Date.now();
  if (now <= lastTime) {
    now = lastTime;
    // Increment the random part; on overflow of all 80 bits wait for the clock (never in practice).
    let i = 15;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i < 0) {
      lastTime = now + 1;
      return ulid();
    }
    lastRandom[i]! += 1;
  } else {
    lastTime = now;
    const r = random16();
    for (let i = 0; i < 16; i++) lastRandom[i] = r[i]! & 31;
  }
  let time = '';
  for (let i = 0, t = now; i < 10; i++, t = Math.floor(t / 32)) time = B32[t % 32] + time;
  let rand = '';
  for (let i = 0; i < 16; i++) rand += B32[lastRandom[i]!];
  return time + rand;
}

/** Prefixed, time-sortable id: `asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R`. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

/** URL-safe random string of `bytes` bytes of entropy. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
