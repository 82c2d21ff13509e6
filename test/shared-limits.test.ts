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
    // Both servers see one database only on PostgreSQL; with PGlite each has its own, so the
    // tenant is created on each with the same id through the shared operator path below.
    const tenantA = await createTenant(a, { tier: 'enterprise', rateLimitPerSecond: 4 });
    let tokenB = tenantA.token;
    if (!process.env.DATABASE_URL) {
      // Separate embedded databases: mirror the tenant and key rows into b's database.
      const tenant = await a.server.db.prisma.tenant.findUniqueOrThrow({ where: { id: tenantA.tenantId } });
      const key = await a.server.db.prisma.apiKey.findFirstOrThrow({ where: { tenantId: tenant.id } });
      await b.server.db.prisma.tenant.create({ data: tenant });
      await b.server.db.prisma.apiKey.create({ data: key });
      tokenB = tenantA.token;
    }
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
