import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    // Servers of the suite (and the processes tests spawn) share one PostgreSQL holding live
    // tenants, where a start without SVC_SECRETS_KEY is refused: the suite configures a fixed
    // key of its own. test/secrets-at-rest.test.ts removes it to exercise the unconfigured paths.
    env: { SVC_SECRETS_KEY: 'dGVzdC1zdWl0ZS1zZWNyZXRzLWtleS0zMi1ieXRlcyE=' },
  },
});
