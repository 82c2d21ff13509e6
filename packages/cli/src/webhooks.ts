import type { SvcClient } from '@svc/sdk';
import { UsageError } from './help.ts';
import { print as printOut, table } from './output.ts';
import { loadServer, type ServeOverrides } from './server-module.ts';

export const SERVE_ROLES = ['all', 'api', 'dispatcher', 'webhooks'] as const;
export type ServeRole = (typeof SERVE_ROLES)[number];

/** Config overrides of `svc serve --role R`: the role on top of what the environment says. */
export async function withRole(overrides: ServeOverrides, role: string | undefined): Promise<ServeOverrides> {
  if (role === undefined) return overrides;
  if (!(SERVE_ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${SERVE_ROLES.join(', ')}`);
  const base = (await loadServer()).loadConfig(process.env, overrides);
  return { ...overrides, webhooks: { ...base.webhooks, role: role as ServeRole } };
}

/**
 * `svc serve --role dispatcher|webhooks`: only the outbound dispatcher, or only the inbound webhook
 * worker, without the API; stops cleanly on SIGINT or SIGTERM.
 */
export async function serveWebhookRole(overrides: ServeOverrides): Promise<number> {
  const { loadConfig, startWebhookProcess } = await loadServer();
  const proc = await startWebhookProcess(loadConfig(process.env, overrides) as never);
  const out = (line: string) => process.stderr.write(`${line}\n`);
  if (proc.webhookUrl) out(`svc webhook worker listening on ${proc.webhookUrl} (database: ${proc.db.kind})`);
  if (proc.dispatcher) out(`svc webhook dispatcher ${proc.dispatcher.id} running (database: ${proc.db.kind})`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  out('svc stopping');
  await proc.close();
  return 0;
}

export interface WebhooksCommandOptions {
  json: boolean;
  tenant?: string | undefined;
  since?: string | undefined;
  /** Print progress lines on stderr. */
  progress?: boolean;
}

/**
 * `svc webhooks dlq list [--tenant ID]` and `svc webhooks dlq replay DELIVERY_ID | --since ISO [--tenant ID]`,
 * through the operator endpoints.
 */
export async function webhooksCommand(svc: SvcClient, args: string[], opts: WebhooksCommandOptions): Promise<number> {
  const [group, action, target] = args;
  const print = (value: unknown, human: () => string) => printOut(opts.json, value, human);
  if (group !== 'dlq') throw new UsageError('usage: svc webhooks dlq list|replay');
  if (action === 'list') {
    const rows: Awaited<ReturnType<typeof svc.webhooks.listDeadLetters>>['data'] = [];
    for await (const row of svc.paginate(svc.webhooks.listDeadLetters, {
      query: { limit: 200, ...(opts.tenant ? { tenantId: opts.tenant } : {}) },
    })) {
      rows.push(row);
    }
    print(rows, () =>
      table(
        rows.map((r) => ({ ...r, lastError: r.attempts.at(-1)?.error ?? '' })),
        ['id', 'tenantId', 'eventId', 'eventType', 'attemptCount', 'deadLetteredAt', 'lastError'],
      ),
    );
    return 0;
  }
  if (action === 'replay') {
    if (!target && !opts.since) throw new UsageError('usage: svc webhooks dlq replay DELIVERY_ID | --since ISO [--tenant ID]');
    const body = target ? { deliveryId: target } : { since: opts.since as string, ...(opts.tenant ? { tenantId: opts.tenant } : {}) };
    if (opts.progress)
      process.stderr.write(`replaying ${target ? `delivery ${target}` : `deliveries dead-lettered since ${opts.since}`}…\n`);
    const result = await svc.webhooks.replayDeadLetters({ body });
    if (opts.progress) process.stderr.write(`replayed ${result.replayed}\n`);
    print(result, () => `replayed ${result.replayed} deliveries${result.replayed ? `: ${result.deliveryIds.join(', ')}` : ''}`);
    return 0;
  }
  throw new UsageError('usage: svc webhooks dlq list|replay');
}
