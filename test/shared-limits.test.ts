import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant } from './support/api.ts';
import { redisAvailable as available, REDIS_URL } from './support/redis.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe.skipIf(!available)('two server processes share one limit through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ REDIS_URL });
    b = await startTestServer({ REDIS_URL });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a tenant allowed 4/s gets 4 in one second across both processes', async () => {
    // Both servers see one database, as two processes on one PostgreSQL do: on the embedded pass
    // the servers of a worker share its in-memory database (test/support/server.ts).
    const tenantA = await createTenant(a, { tier: 'enterprise', rateLimitPerSecond: 4 });
    const tokenB = tenantA.token;
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 ? b.url : a.url, 'GET', '/v1/frameworks?limit=1', { token: i % 2 ? tokenB : tenantA.token }),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(4);
    expect(results.filter((r) => r.status === 429)).toHaveLength(6);
  });
});
