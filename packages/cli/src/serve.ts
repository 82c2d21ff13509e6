import { loadServer, type ServeOverrides } from './server-module.ts';
import { serveWebhookRole } from './webhooks.ts';

/** Starts the service in this process and stops it cleanly on SIGINT or SIGTERM. */
export async function serve(overrides: ServeOverrides): Promise<number> {
  const role = overrides.webhooks?.role;
  if (role === 'dispatcher' || role === 'webhooks') return serveWebhookRole(overrides);
  const { startServer } = await loadServer();
  const server = await startServer({ config: overrides });
  const out = (line: string) => process.stderr.write(`${line}\n`);
  out(`svc listening on ${server.url} (database: ${server.db.kind === 'pglite' ? `embedded, ${server.config.dataDir}` : 'PostgreSQL'})`);
  if (server.appUrl) out(`web application:     ${server.appUrl}`);
  if (server.adminUrl) out(`operator console:    ${server.adminUrl}`);
  if (server.firstStart) {
    out(`sandbox tenant:      ${server.firstStart.tenantId}`);
    out(`owner API key:       ${server.firstStart.apiKey}`);
    out(`operator credential: ${server.firstStart.operatorToken}`);
    out(`credentials file:    ${server.config.credentialsFile} (the secrets are shown only this once)`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  out('svc stopping');
  await server.close();
  return 0;
}
