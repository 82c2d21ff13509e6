#!/usr/bin/env node
// The CLI from a checkout of the repository. `svc serve` runs the compiled JavaScript of the
// workspace: packages/*/dist bundled into one module (packages/cli/bundle/svc.js), built by
// scripts/build-js.mjs when missing or older than the sources, in a few seconds. The bundle's
// dependencies resolve as the packages' own would under the `svc-dist` export condition, which Node
// reads only at its own start, so a process started without it starts one child with it
// (`pnpm start` passes it and runs in one process). The other commands, quick clients of a running service, run
// from the TypeScript sources through tsx, a development tool. SVC_FROM_SOURCE=1 runs `serve` from
// the sources too (a debugger on the .ts files). The published CLI has its own entry (dist/bin.js).
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const compiled = args[0] === 'serve' && process.env.SVC_FROM_SOURCE !== '1';

if (!compiled) {
  const { register } = await import('tsx/esm/api');
  register();
  const { run } = await import('../src/main.ts');
  process.exitCode = await run(args);
} else {
  const { ensureJsBuild, SERVE_BUNDLE } = await import('../../../scripts/build-js.mjs');
  await ensureJsBuild(undefined, (line) => process.stderr.write(`svc: ${line}\n`));
  const distEntry = pathToFileURL(SERVE_BUNDLE);
  // Resolves to dist/ when this process runs with the condition, to src/ otherwise.
  if (import.meta.resolve('@svc/contract').includes('/dist/')) {
    await import(distEntry.href);
  } else {
    // --v8-pool-size=1, as `pnpm start` runs it: one V8 helper thread per process (see the README's
    // "Starting"); the service scales by processes, not by threads.
    const pool = process.execArgv.some((a) => a.startsWith('--v8-pool-size')) ? [] : ['--v8-pool-size=1'];
    const child = spawn(process.execPath, ['--conditions=svc-dist', ...pool, ...process.execArgv, distEntry.pathname, ...args], {
      stdio: 'inherit',
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => {
      process.exitCode = code ?? (signal ? 128 : 1);
    });
  }
}
