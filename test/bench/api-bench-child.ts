/**
 * A child of `pnpm bench` (api-bench.ts): the API, started as the test suite starts it, on the
 * PostgreSQL of DATABASE_URL or, without it, on PGlite in memory. It prepares one tenant the way a
 * client would (eu-ai-act activated, one webhook subscription for `assessment.*`, so every created
 * assessment also writes its outbox rows) and reports url, token and tenant to the parent.
 */
import { failed, onShutdown, ready } from './bench-child-ipc.ts';

try {
  // Loaded only now, after bench-child-ipc.ts has patched pg's Client.prototype.query.
  const { benchTenant } = await import('./bench-tenant.ts');
  const { startTestServer } = await import('../support/server.ts');
  const ts = await startTestServer();
  onShutdown(() => ts.close());
  const kind = ts.server.db.kind;
  const tenant = await benchTenant(ts, `bench ${kind}`);
  ready({ url: ts.url, token: tenant.token, tenantId: tenant.tenantId, database: kind, subscriptionId: tenant.subscriptionId });
} catch (err) {
  failed(err);
}
