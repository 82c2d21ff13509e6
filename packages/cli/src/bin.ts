#!/usr/bin/env -S node --import tsx
import { run } from './main.ts';

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
