import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import type { SignInLimits } from '../config.ts';
import { loadRedis } from '../http/rate-limit.ts';

/**
 * What stands between a password form and scrypt: limits on failures per client address and per
 * network (/24, /64), a per-account backoff that doubles up to a cap (so a stranger can delay an
 * account, never lock it for long, and a correct password from an address the account signed in
 * from before still passes), and a cap on the password hashes the process computes at once.
 *
 * The counters live where the API's rate limits live (http/rate-limit.ts): in Redis when REDIS_URL
 * is set, so every process sees the same failures, otherwise in this process's memory. Attempts are
 * counted before the hash and refunded when they succeed (or were never hashed), so a burst of
 * parallel guesses cannot all pass the check before the first failure is written.
 */

/** Fixed windows of the address and network limits. */
const WINDOW_MS = 15 * 60_000;
/** Failures an account may have before the backoff starts. */
const FREE_FAILURES = 5;
/** The first delay; it doubles with each further failure up to the configured cap. */
const BACKOFF_BASE_MS = 5000;
/** An account without a failed attempt for this long starts over. */
const BACKOFF_RESET_MS = 3600_000;
/** How long an address stays known to an account after a sign-in from it, and how many are kept. */
const KNOWN_TTL_MS = 90 * 86_400_000;
const KNOWN_KEEP = 20;
/** Password hashes that may wait for a free slot, per slot; beyond them the answer is 503. */
const QUEUE_PER_SLOT = 4;

/** The state of an account's backoff after an attempt was counted. */
export interface AccountStep {
  admitted: boolean;
  /** The state before this attempt (what a refund puts back). */
  previous: { failures: number; lockedUntil: number };
  /** Attempts counted since the last success (this one included when admitted). */
  failures: number;
  /** Epoch ms until which further attempts are refused; 0: none. */
  lockedUntil: number;
}

/** The store's primitives; each is one atomic step in Redis. */
export interface SignInStore {
  /** Adds one to a counter that expires `ttlMs` after its first hit; the new count. */
  incr(key: string, ttlMs: number): Promise<number>;
  decr(key: string): Promise<void>;
  /** Counts an attempt on an account unless it is locked (and `bypass` is false), and locks it as the policy says. */
  attempt(key: string, now: number, bypass: boolean, policy: BackoffPolicy): Promise<AccountStep>;
  /** Takes back the attempt that produced `step`, unless another attempt was counted since. */
  undo(key: string, step: AccountStep): Promise<void>;
  clear(key: string): Promise<void>;
  isKnown(key: string, member: string): Promise<boolean>;
  remember(key: string, member: string, now: number): Promise<void>;
  close(): Promise<void>;
}

export interface BackoffPolicy {
  free: number;
  baseMs: number;
  maxMs: number;
  resetMs: number;
}

/** The lock an account gets after its `failures`-th counted attempt. */
export function backoffMs(failures: number, p: BackoffPolicy): number {
  if (failures < p.free) return 0;
  return Math.min(p.maxMs, p.baseMs * 2 ** Math.min(failures - p.free, 30));
}

export class MemorySignInStore implements SignInStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private readonly accounts = new Map<string, { failures: number; lockedUntil: number; expiresAt: number }>();
  private readonly known = new Map<string, Map<string, number>>();
  private ops = 0;

  async incr(key: string, ttlMs: number): Promise<number> {
    this.tick();
    const now = Date.now();
    const c = this.counters.get(key);
    const next = c && c.expiresAt > now ? { count: c.count + 1, expiresAt: c.expiresAt } : { count: 1, expiresAt: now + ttlMs };
    this.counters.set(key, next);
    return next.count;
  }

  async decr(key: string): Promise<void> {
    const c = this.counters.get(key);
    if (c && c.count > 0) c.count -= 1;
  }

  async attempt(key: string, now: number, bypass: boolean, p: BackoffPolicy): Promise<AccountStep> {
    this.tick();
    const a = this.accounts.get(key);
    const current = a && a.expiresAt > now ? a : { failures: 0, lockedUntil: 0, expiresAt: 0 };
    const previous = { failures: current.failures, lockedUntil: current.lockedUntil };
    if (current.lockedUntil > now && !bypass)
      return { admitted: false, previous, failures: current.failures, lockedUntil: current.lockedUntil };
    const failures = current.failures + 1;
    const lock = backoffMs(failures, p);
    const lockedUntil = lock > 0 ? now + lock : 0;
    this.accounts.set(key, { failures, lockedUntil, expiresAt: now + p.resetMs });
    return { admitted: true, previous, failures, lockedUntil };
  }

  async undo(key: string, step: AccountStep): Promise<void> {
    const a = this.accounts.get(key);
    if (a && a.failures === step.failures && a.lockedUntil === step.lockedUntil) {
      a.failures = step.previous.failures;
      a.lockedUntil = step.previous.lockedUntil;
    }
  }

  async clear(key: string): Promise<void> {
    this.accounts.delete(key);
  }

  async isKnown(key: string, member: string): Promise<boolean> {
    const at = this.known.get(key)?.get(member);
    return at !== undefined && at + KNOWN_TTL_MS > Date.now();
  }

  async remember(key: string, member: string, now: number): Promise<void> {
    const set = this.known.get(key) ?? new Map<string, number>();
    set.delete(member);
    set.set(member, now);
    // Insertion order is age order: drop the oldest beyond the few kept.
    while (set.size > KNOWN_KEEP) set.delete(set.keys().next().value as string);
    this.known.set(key, set);
  }

  /** Expired entries go now and then; the maps never grow past a bound an attacker could push. */
  private tick() {
    if (++this.ops % 1000 !== 0) return;
    const now = Date.now();
    for (const [k, v] of this.counters) if (v.expiresAt <= now) this.counters.delete(k);
    for (const [k, v] of this.accounts) if (v.expiresAt <= now) this.accounts.delete(k);
    for (const map of [this.counters, this.accounts, this.known] as Map<string, unknown>[]) {
      while (map.size > 200_000) map.delete(map.keys().next().value as string);
    }
  }

  async close() {}
}

/** The longest a sign-in waits for Redis before it is refused (503) instead, as in http/rate-limit.ts. */
const REDIS_WAIT_MS = 1000;

const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local bypass = ARGV[2] == '1'
local free, base, max, reset = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local f = tonumber(redis.call('HGET', KEYS[1], 'f') or '0')
local u = tonumber(redis.call('HGET', KEYS[1], 'u') or '0')
local pf, pu = f, u
if u > now and not bypass then return {0, f, u, pf, pu} end
f = f + 1
local lock = 0
if f >= free then lock = math.min(max, base * 2 ^ math.min(f - free, 30)) end
if lock > 0 then u = now + lock else u = 0 end
redis.call('HSET', KEYS[1], 'f', f, 'u', u)
redis.call('PEXPIRE', KEYS[1], reset)
return {1, f, u, pf, pu}
`;

const UNDO_SCRIPT = `
local f = tonumber(redis.call('HGET', KEYS[1], 'f') or '-1')
local u = tonumber(redis.call('HGET', KEYS[1], 'u') or '-1')
if f == tonumber(ARGV[1]) and u == tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'f', ARGV[3], 'u', ARGV[4])
end
return 1
`;

export class RedisSignInStore implements SignInStore {
  private readonly redis: Redis;
  constructor(url: string) {
    this.redis = new (loadRedis())(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    // Connection errors surface on the sign-in that needs Redis, as 503; keep the process alive.
    this.redis.on('error', () => {});
  }

  private async run<T>(op: (r: Redis) => Promise<T>): Promise<T> {
    if (this.redis.status === 'reconnecting' || this.redis.status === 'end') throw new Error('Redis is not connected');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_WAIT_MS} ms`)), REDIS_WAIT_MS);
    });
    try {
      return await Promise.race([op(this.redis), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    const id = `svc:signin:${key}`;
    const res = await this.run((r) => r.multi().incr(id).pexpire(id, ttlMs, 'NX').exec());
    return Number(res?.[0]?.[1] ?? 0);
  }

  async decr(key: string): Promise<void> {
    const id = `svc:signin:${key}`;
    await this.run((r) =>
      r.eval("if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end return 1", 1, id),
    );
  }

  async attempt(key: string, now: number, bypass: boolean, p: BackoffPolicy): Promise<AccountStep> {
    const res = (await this.run((r) =>
      r.eval(ATTEMPT_SCRIPT, 1, `svc:signin:${key}`, now, bypass ? '1' : '0', p.free, p.baseMs, p.maxMs, p.resetMs),
    )) as [number, number, number, number, number];
    return {
      admitted: res[0] === 1,
      failures: Number(res[1]),
      lockedUntil: Number(res[2]),
      previous: { failures: Number(res[3]), lockedUntil: Number(res[4]) },
    };
  }

  async undo(key: string, step: AccountStep): Promise<void> {
    await this.run((r) =>
      r.eval(UNDO_SCRIPT, 1, `svc:signin:${key}`, step.failures, step.lockedUntil, step.previous.failures, step.previous.lockedUntil),
    );
  }

  async clear(key: string): Promise<void> {
    await this.run((r) => r.del(`svc:signin:${key}`));
  }

  async isKnown(key: string, member: string): Promise<boolean> {
    const score = await this.run((r) => r.zscore(`svc:signin:${key}`, member));
    return score !== null && Number(score) + KNOWN_TTL_MS > Date.now();
  }

  async remember(key: string, member: string, now: number): Promise<void> {
    const id = `svc:signin:${key}`;
    await this.run((r) =>
      r
        .multi()
        .zadd(id, now, member)
        .zremrangebyrank(id, 0, -(KNOWN_KEEP + 1))
        .pexpire(id, KNOWN_TTL_MS)
        .exec(),
    );
  }

  async close() {
    await this.redis.quit().catch(() => {});
  }
}

export function createSignInStore(redisUrl: string | undefined): SignInStore {
  return redisUrl ? new RedisSignInStore(redisUrl) : new MemorySignInStore();
}

const hashOf = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 32);

/**
 * The client's network: the /24 of an IPv4 address, the /64 of an IPv6 one (a home or a host
 * usually has a whole /64, so its single addresses say little). IPv4-mapped IPv6 counts as IPv4.
 */
export function networkOf(address: string): string {
  const a = normaliseAddress(address);
  if (isIPv4(a)) return `${a.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(a)) return a;
  return `${expandIPv6(a).slice(0, 4).join(':')}::/64`;
}

/** Without a zone index, and an IPv4-mapped IPv6 address as the IPv4 address it is. */
export function normaliseAddress(address: string): string {
  const a = address.replace(/%.*$/, '');
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a)?.[1] ?? a;
}

/** The eight groups of an IPv6 address, without leading zeros ("::" expanded, an IPv4 tail converted). */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...fill, ...right].map((g) => Number.parseInt(g || '0', 16).toString(16));
}

/** The address an account remembers: the address itself, for IPv6 its /64. */
const knownMemberOf = (address: string) => hashOf(isIPv6(address) ? networkOf(address) : address);

export type Refusal = { reason: 'address' | 'network' | 'account'; retryAfterMs: number };

/** An admitted attempt: report its outcome (`succeeded`) or hand it back (`refund`) exactly once. */
export interface Attempt {
  succeeded(): Promise<void>;
  /** The attempt was never checked (no hash slot): it costs the account and the address nothing. */
  refund(): Promise<void>;
}

export class SignInGuard {
  private readonly policy: BackoffPolicy;
  constructor(
    private readonly store: SignInStore,
    private readonly limits: SignInLimits,
  ) {
    this.policy = {
      free: FREE_FAILURES,
      baseMs: Math.min(BACKOFF_BASE_MS, limits.backoffMaxMs),
      maxMs: limits.backoffMaxMs,
      resetMs: Math.max(BACKOFF_RESET_MS, limits.backoffMaxMs * 4),
    };
  }

  /**
   * Counts one attempt of `address` on `email` (the account, whether or not it exists: an unknown
   * address is throttled alike, so the answers do not tell which exist), or says why not and for how long.
   */
  async admit(email: string, clientAddress: string, now = Date.now()): Promise<{ ok: true; attempt: Attempt } | ({ ok: false } & Refusal)> {
    const address = normaliseAddress(clientAddress);
    const windowStart = now - (now % WINDOW_MS);
    const windowEnd = windowStart + WINDOW_MS;
    const ttl = windowEnd - now + 1000;
    const addrKey = `a:${address}:${windowStart}`;
    const netKey = `n:${networkOf(address)}:${windowStart}`;
    const account = `u:${hashOf(email)}`;
    const knownKey = `k:${hashOf(email)}`;
    const member = knownMemberOf(address);

    // One address over its limit stops here, before it counts against its network (or it could
    // spend the budget of everyone around it with requests that cost it nothing).
    if ((await this.store.incr(addrKey, ttl)) > this.limits.failuresPerAddress) {
      return { ok: false, reason: 'address', retryAfterMs: windowEnd - now };
    }
    if ((await this.store.incr(netKey, ttl)) > this.limits.failuresPerSubnet) {
      await this.store.decr(addrKey);
      return { ok: false, reason: 'network', retryAfterMs: windowEnd - now };
    }
    const known = await this.store.isKnown(knownKey, member);
    const step = await this.store.attempt(account, now, known, this.policy);
    if (!step.admitted) {
      await Promise.all([this.store.decr(addrKey), this.store.decr(netKey)]);
      return { ok: false, reason: 'account', retryAfterMs: Math.max(1000, step.lockedUntil - now) };
    }
    let settled = false;
    const once = async (fn: () => Promise<unknown>) => {
      if (settled) return;
      settled = true;
      await fn();
    };
    return {
      ok: true,
      attempt: {
        // Only failures count against the address and its network; a success also ends the backoff.
        succeeded: () =>
          once(() =>
            Promise.all([
              this.store.decr(addrKey),
              this.store.decr(netKey),
              this.store.clear(account),
              this.store.remember(knownKey, member, Date.now()),
            ]),
          ),
        refund: () => once(() => Promise.all([this.store.decr(addrKey), this.store.decr(netKey), this.store.undo(account, step)])),
      },
    };
  }

  /**
   * The person proved who they are another way (a sign-in link an operator issued): their backoff
   * ends and the address they used becomes one of theirs.
   */
  async vouch(email: string, clientAddress: string, now = Date.now()): Promise<void> {
    await Promise.all([
      this.store.clear(`u:${hashOf(email)}`),
      this.store.remember(`k:${hashOf(email)}`, knownMemberOf(normaliseAddress(clientAddress)), now),
    ]);
  }

  close() {
    return this.store.close();
  }
}

/**
 * At most `slots` password hashes at once (scrypt takes 32 MiB and a thread of the pool every
 * request shares), a few more waiting in line; beyond that `enter` answers undefined at once, and
 * the caller refuses with 503 rather than letting a queue of hashes grow without bound.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: { start(): void }[] = [];
  constructor(readonly slots: number) {}

  /** A place (a slot, or one in the line): `ready` resolves when its hash may run; `release` after it, or to give up the place. */
  enter(): { ready: Promise<void>; release(): void } | undefined {
    if (this.running >= this.slots && this.waiting.length >= this.slots * QUEUE_PER_SLOT) return undefined;
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    let resolve!: () => void;
    const ready = new Promise<void>((r) => {
      resolve = r;
    });
    const waiter = {
      start: () => {
        state = 'running';
        this.running++;
        resolve();
      },
    };
    if (this.running < this.slots) waiter.start();
    else this.waiting.push(waiter);
    return {
      ready,
      release: () => {
        if (state === 'done') return;
        if (state === 'waiting') {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
        } else {
          this.running--;
          this.waiting.shift()?.start();
        }
        state = 'done';
      },
    };
  }
}
