#!/usr/bin/env -S node --import tsx
import { main } from './main.ts';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`svc: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
