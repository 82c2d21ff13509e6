import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

export interface WindowResult {
  /** Requests counted in the window, this one included. */
  count: number;
  /** Epoch milliseconds at which the window ends. */
  resetAt: number;
}

/** Fixed-window counters; in memory for one process, in Redis for many. */
export interface CounterStore {
  hit(key: string, windowStart: number, windowEnd: number): Promise<WindowResult>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, WindowResult>();
  private sweeps = 0;

  async hit(key: string, windowStart: number, windowEnd: number): Promise<WindowResult> {
    const id = `${key}:${windowStart}`;
    const current = this.counters.get(id);
    const next = { count: (current?.count ?? 0) + 1, resetAt: windowEnd };
    this.counters.set(id, next);
    if (++this.sweeps % 1000 === 0) this.sweep();
    return next;
  }

  private sweep() {
    const now = Date.now();
    for (const [id, v] of this.counters) if (v.resetAt < now) this.counters.delete(id);
  }

  async close() {}
}

/** The longest a request waits for Redis before it is refused (503) instead. */
const REDIS_WAIT_MS = 1000;

/**
 * The Redis client, loaded by the first store that needs it (0.2 s at a start that uses no Redis
 * otherwise); ioredis is CommonJS, so a synchronous require loads it.
 */
export function loadRedis(): typeof Redis {
  return (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;
}

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  constructor(url: string) {
    this.redis = new (loadRedis())(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    // Connection errors surface on the request that needs Redis, as 503; keep the process alive.
    this.redis.on('error', () => {});
  }

  async hit(key: string, windowStart: number, windowEnd: number): Promise<WindowResult> {
    // While the connection is known to be lost, refuse at once: queued behind the reconnection
    // attempts (up to 2 s apart) a request would wait seconds for the same refusal.
    if (this.redis.status === 'reconnecting' || this.redis.status === 'end') throw new Error('Redis is not connected');
    const id = `svc:rl:${key}:${windowStart}`;
    const ttl = Math.max(1, windowEnd - Date.now() + 1000);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_WAIT_MS} ms`)), REDIS_WAIT_MS);
    });
    try {
      // Still connecting (at start, or between two reconnection attempts): wait, but not for long.
      const res = await Promise.race([this.redis.multi().incr(id).pexpire(id, ttl).exec(), timeout]);
      const count = Number(res?.[0]?.[1] ?? 0);
      return { count, resetAt: windowEnd };
    } finally {
      clearTimeout(timer);
    }
  }

  async close() {
    await this.redis.quit().catch(() => {});
  }
}

export function createCounterStore(redisUrl: string | undefined): CounterStore {
  return redisUrl ? new RedisCounterStore(redisUrl) : new MemoryCounterStore();
}

export function monthWindow(now: Date): { start: number; end: number } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return { start, end };
}
