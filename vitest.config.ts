import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.ts';

/**
 * Files whose behaviour does not depend on the database under the server: the contract's document,
 * the SDK against mocks, the shipped content, the docs, examples, the CLI, the browser, the MCP
 * server, the classifier's labelled set, the packed packages, the Python and Go SDKs. They run on the
 * embedded pass only: with DATABASE_URL (CI's PostgreSQL pass) the `db` project leaves them out.
 */
const ONCE = [
  'test/openapi.test.ts',
  'test/sdk-msw.test.ts',
  'test/content.test.ts',
  'test/supply-chain.test.ts',
  'test/examples.test.ts',
  'test/web.test.ts',
  'test/web-assessments.test.ts',
  'test/mcp.test.ts',
  'test/cli.test.ts',
  'test/cli-ux.test.ts',
  'test/cli-assessments.test.ts',
  'test/packaging.test.ts',
  'test/docs.test.ts',
  'test/classifier.test.ts',
  'test/log-secrets.test.ts',
  'test/build.test.ts',
  'test/sdk-python.test.ts',
  'test/sdk-go.test.ts',
  'test/cli-install.test.ts',
  'test/embedded-dump.test.ts',
];

export default defineConfig({
  test: {
    // No `include` here: each project's own (an `extends` project adds its arrays to the root's).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs its files one after another in one process and module graph: the server and
    // its dependencies are imported once per worker instead of once per file (the suite took twice
    // as long). Every file starts servers of its own; env-restore puts back what a file set in
    // process.env.
    isolate: false,
    setupFiles: ['test/support/env-restore.ts'],
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
    // `pnpm test:coverage`: v8 coverage of the packages' sources, what the suite runs in its own
    // processes (the servers it starts in-process; not the CLI and servers it spawns).
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // The figures are worth having when a test failed too (a timeout on a loaded machine).
      reportOnFailure: true,
    },
    // Servers of the suite (and the processes tests spawn) share one PostgreSQL holding live
    // tenants, where a start without SVC_SECRETS_KEY is refused: the suite configures a fixed
    // key of its own. test/secrets-at-rest.test.ts removes it to exercise the unconfigured paths.
    env: { SVC_SECRETS_KEY: 'dGVzdC1zdWl0ZS1zZWNyZXRzLWtleS0zMi1ieXRlcyE=' },
    // One project per pass, so that a worker imports the server once and takes files from one queue
    // to the end (a worker that switched project imported it again, and the two workers idled
    // between projects: about 25 s of the embedded pass). On the embedded pass (no DATABASE_URL),
    // `all`: every test file, the pure rules beside their code (`packages/*/src/**/*.test.ts`)
    // included. With DATABASE_URL, `db`: the files whose behaviour depends on the database, which
    // CI runs again on PostgreSQL (`pnpm test --project db`); the ONCE files would only repeat the
    // embedded pass. `pnpm test packages/` runs the pure rules alone (no snapshot is built for them).
    projects: process.env.DATABASE_URL
      ? [{ extends: true, test: { name: 'db', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ONCE] } }]
      : [{ extends: true, test: { name: 'all', include: ['test/**/*.test.ts', 'packages/*/src/**/*.test.ts'] } }],
  },
});
