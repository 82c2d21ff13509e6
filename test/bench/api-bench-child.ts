/**
 * A child of `pnpm bench` (api-bench.ts): the API, started as the test suite starts it, on the
 * PostgreSQL of DATABASE_URL or, without it, on PGlite in memory. It prepares one tenant the way a
 * client would (eu-ai-act activated, one webhook subscription for `assessment.*`, so every created
 * assessment also writes its outbox rows) and reports url, token and tenant to the parent.
 */
import { failed, onShutdown, ready } from './bench-child-ipc.ts';

try {
  // Loaded only now, after bench-child-ipc.ts has patched pg's Client.prototype.query.
  const { createTenant } = await import('../support/api.ts');
  const { startTestServer } = await import('../support/server.ts');
  const ts = await startTestServer();
  onShutdown(() => ts.close());
  const kind = ts.server.db.kind;
  const tenant = await createTenant(ts, { name: `bench ${kind}` });
  const act = await tenant.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
  if (act.status !== 200 && act.status !== 201) throw new Error(`activate eu-ai-act: ${act.status} ${JSON.stringify(act.body)}`);
  const sub = await tenant.call('POST', '/v1/webhook-subscriptions', {
    body: { url: 'https://hooks.example.com/svc-bench', eventTypes: ['assessment.*'], description: 'bench outbox' },
  });
  if (sub.status !== 201) throw new Error(`webhook subscription: ${sub.status} ${JSON.stringify(sub.body)}`);
  ready({ url: ts.url, token: tenant.token, tenantId: tenant.tenantId, database: kind, subscriptionId: sub.body.id });
} catch (err) {
  failed(err);
}
