#!/usr/bin/env node
import { quickAnswer } from './quick.ts';

// The version, the help and the completion script answer without loading the SDK (quick.ts).
const args = process.argv.slice(2);
const quick = quickAnswer(args);
if (quick !== undefined) process.exitCode = quick;
else {
  // `svc serve`: the service's WebAssembly compiles on a background thread while its modules load
  // (@svc/server/prewarm); without the service installed, `serve` says so below.
  if (args[0] === 'serve') (await import('@svc/server/prewarm').catch(() => undefined))?.prewarm();
  const { run } = await import('./main.ts');
  process.exitCode = await run(args);
}
