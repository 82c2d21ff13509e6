import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The command line of `svc <args>` (`serve`) as a test's child process, as `pnpm start` runs it: node
 * with the `svc-dist` export condition running packages/cli/bin/svc.mjs, which builds the packages'
 * JavaScript first when it is missing or older than the sources (scripts/build-js.mjs, under a lock
 * shared with CI's package build) and then runs it in this one process, so that a signal sent to the
 * child reaches the service itself. The compiled service listens after about two thirds of the time
 * and CPU the TypeScript sources through tsx took (3.2 s against 4.8 s; 5 s of CPU against 7.5 s).
 */
export function svcServe(args: string[]): [command: string, args: string[]] {
  return [process.execPath, ['--conditions=svc-dist', join(ROOT, 'packages/cli/bin/svc.mjs'), 'serve', ...args]];
}
