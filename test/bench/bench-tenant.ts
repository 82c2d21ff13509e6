import { createTenant, type TenantFixture } from '../support/api.ts';
import type { TestServer } from '../support/server.ts';

/**
 * The tenant the API benchmark loads, made as a client would: eu-ai-act activated and one webhook
 * subscription for `assessment.*`, so every created assessment also writes its outbox rows.
 */
export async function benchTenant(
  server: Pick<TestServer, 'url' | 'operatorToken'>,
  name: string,
): Promise<TenantFixture & { subscriptionId: string }> {
  // createTenant reads only the server's url and operator token: a `svc serve` process has those too.
  const tenant = await createTenant(server as TestServer, { name });
  const act = await tenant.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
  if (act.status !== 200 && act.status !== 201) throw new Error(`activate eu-ai-act: ${act.status} ${JSON.stringify(act.body)}`);
  const sub = await tenant.call('POST', '/v1/webhook-subscriptions', {
    body: { url: 'https://hooks.example.com/svc-bench', eventTypes: ['assessment.*'], description: 'bench outbox' },
  });
  if (sub.status !== 201) throw new Error(`webhook subscription: ${sub.status} ${JSON.stringify(sub.body)}`);
  return Object.assign(tenant, { subscriptionId: sub.body.id as string });
}
