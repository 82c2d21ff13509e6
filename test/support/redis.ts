import { createConnection } from 'node:net';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = createConnection({ host: hostname, port: Number(port || 6379) });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Whether the tests that share state through Redis can run: always in CI (.ci/run starts Redis,
 * so a missing one fails there), elsewhere when one answers at REDIS_URL.
 */
export const redisAvailable: boolean = process.env.CI ? true : await reachable(REDIS_URL);
