import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueOperatorCredential, type RunningServer, startServer } from '@svc/server';

export interface TestServer {
  server: RunningServer;
  url: string;
  operatorToken: string;
  close(): Promise<void>;
}

/**
 * A real server on a random port: PGlite in memory by default, the PostgreSQL of DATABASE_URL when
 * it is set (the suite runs on both). Rate limits for anonymous and operator calls are lifted so
 * that the suite measures the tenant limits it sets up itself.
 */
export async function startTestServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const server = await startServer({
    // No webhook dispatcher unless a test asks for one (SVC_ROLE=all): on a shared PostgreSQL it
    // would claim and send the deliveries of other test files' servers.
    env: { ...process.env, SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'silent', SVC_ROLE: 'api', ...env },
    config: {
      port: 0,
      ...(process.env.DATABASE_URL ? {} : { dataDir: 'memory://' }),
      credentialsFile: join(dir, 'credentials.json'),
    },
    anonymousPerSecond: 100_000,
    operatorPerSecond: 100_000,
  });
  const { token } = await issueOperatorCredential(server.db.prisma, 'test suite');
  return { server, url: server.url, operatorToken: token, close: () => server.close() };
}
