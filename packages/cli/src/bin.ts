#!/usr/bin/env node
import { quickAnswer } from './quick.ts';

// The version, the help and the completion script answer without loading the SDK (quick.ts).
const args = process.argv.slice(2);
const quick = quickAnswer(args);
if (quick !== undefined) process.exitCode = quick;
else {
  const { run } = await import('./main.ts');
  process.exitCode = await run(args);
}
