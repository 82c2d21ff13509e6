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
  // As `svc serve` runs by default: a request log line per request at `info` (the child's stdout
  // goes nowhere) and idle collection on (the test suite's servers are silent and turn it off:
  // many share a process there; here the API is this process's only server).
  const ts = await startTestServer({
    SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'info',
    SVC_IDLE_GC_SECONDS: process.env.SVC_IDLE_GC_SECONDS ?? '5',
  });
  onShutdown(() => ts.close());
  const kind = ts.server.db.kind;
  const tenant = await benchTenant(ts, `bench ${kind}`);
  ready({ url: ts.url, token: tenant.token, tenantId: tenant.tenantId, database: kind, subscriptionId: tenant.subscriptionId });
} catch (err) {
  failed(err);
}
