import { UsageError } from './help.ts';
import { cliVersion } from './quick.ts';

/** What `svc serve` sets on top of the environment's configuration. */
export interface ServeOverrides {
  port?: number;
  host?: string;
  dataDir?: string;
  credentialsFile?: string;
  /** The service's webhook settings as its loadConfig returns them, with the role `--role` chose. */
  webhooks?: { role: string };
}

/**
 * The part of the service package the CLI drives. The CLI installs without the service (it is an
 * API client first); `svc serve` loads the service when it is there. test/cli-ux.test.ts checks
 * this interface against the real package.
 */
export interface ServerModule {
  loadConfig(env: NodeJS.ProcessEnv, overrides?: ServeOverrides): { webhooks: { role: string } };
  startServer(opts?: { config?: ServeOverrides }): Promise<{
    url: string;
    appUrl: string | undefined;
    adminUrl: string | undefined;
    db: { kind: 'pglite' | 'postgresql' };
    config: { dataDir: string; credentialsFile: string };
    firstStart: { tenantId: string; apiKey: string; operatorToken: string } | undefined;
    close(): Promise<void>;
  }>;
  startWebhookProcess(config: never): Promise<{
    webhookUrl: string | undefined;
    dispatcher: { id: string } | undefined;
    db: { kind: string };
    close(): Promise<void>;
  }>;
}

const SERVER_PACKAGE = '@svc/server';

/** The service package, when it is installed (a literal specifier: the serve bundle holds it, scripts/build-js.mjs). */
export async function loadServer(): Promise<ServerModule> {
  try {
    return (await import('@svc/server')) as unknown as ServerModule;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // Only the service itself missing; a module the installed service fails to find is its own error.
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((err as Error).message).includes(`'${SERVER_PACKAGE}'`);
    if (!missing) throw err;
    throw new UsageError(
      'svc serve runs the service, which is not installed beside this CLI. Install it where the CLI is (`npm install @svc/server@^' +
        cliVersion() +
        '`, or `npm install -g @svc/server` beside a global CLI), run it from its repository (`pnpm install && pnpm start`), or point the CLI at a running one with --url and --key.',
    );
  }
}
