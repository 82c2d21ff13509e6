import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Node's flags in the root package.json's `start` script (`node <flags> packages/cli/bin/svc.mjs
 * serve`): the one place they are written, read here so that what the tests and `pnpm bench` start
 * is what `pnpm start` starts.
 */
export const START_NODE_FLAGS: readonly string[] = (() => {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const words = start.split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json: the start script runs ${words[0]}, not node`);
  return words.slice(1).filter((w) => w.startsWith('--'));
})();

/**
 * The command line of `svc <args>` (`serve`) as a test's child process, as `pnpm start` runs it: node
 * with the start script's flags (the `svc-dist` export condition among them) running
 * packages/cli/bin/svc.mjs, which builds the packages' JavaScript first when it is missing or older
 * than the sources (scripts/build-js.mjs, under a lock shared with CI's package build) and then runs
 * it in this one process, so that a signal sent to the child reaches the service itself. The
 * compiled service listens after about two thirds of the time and CPU the TypeScript sources
 * through tsx took (3.2 s against 4.8 s; 5 s of CPU against 7.5 s).
 */
export function svcServe(args: string[]): [command: string, args: string[]] {
  return [process.execPath, [...START_NODE_FLAGS, join(ROOT, 'packages/cli/bin/svc.mjs'), 'serve', ...args]];
}
