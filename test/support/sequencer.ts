import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the longest files took in CI's embedded pass (2 workers, 2 cores; measured 2026-11-30).
 * Only their order matters: a stale figure makes the run a little longer, never wrong.
 */
const SECONDS: Readonly<Record<string, number>> = {
  'test/cli-install.test.ts': 107,
  'test/hostile.test.ts': 79,
  'test/packaging.test.ts': 60,
  'test/sdk-go.test.ts': 49,
  'test/sign-in-abuse.test.ts': 46,
  'test/conformance.test.ts': 44,
  'test/idempotency-crash.test.ts': 37,
  'test/cli.test.ts': 36,
  'test/sdk-python.test.ts': 34,
  'test/web-assessments.test.ts': 29,
  'test/security.test.ts': 27,
  'test/web.test.ts': 19,
  'test/secrets-at-rest.test.ts': 17,
  'test/webhooks.test.ts': 14,
  'test/notifications.test.ts': 14,
  'test/cli-ux.test.ts': 14,
  'test/openapi.test.ts': 12,
  'test/log-secrets.test.ts': 12,
  'test/deadline-alerts.test.ts': 12,
  'test/audit-engine.test.ts': 11,
  'test/taxonomy.test.ts': 10,
  'test/search.test.ts': 10,
  'test/errors.test.ts': 9,
  'test/embedded-dump.test.ts': 9,
  'test/agents-data.test.ts': 8,
  'test/sdk.test.ts': 7,
};

/**
 * Longest first: two workers take files from one queue, and a long file taken last keeps one of
 * them busy alone at the end. Each pass is one project (vitest.config.ts); were there several, they
 * would stay one after another, as vitest orders them, since a worker that switches project imports
 * the server again (mixing them took the embedded pass's imports from 49 s to 136 s). Without a
 * figure a file counts a second per 3 kB of source, about what the others take.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const cost = new Map(
      files.map((f) => {
        const path = relative(root, f.moduleId);
        return [f, SECONDS[path] ?? statSync(f.moduleId).size / 3_000] as const;
      }),
    );
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return (cost.get(b) ?? 0) - (cost.get(a) ?? 0);
    });
  }
}
