#!/usr/bin/env node
// The CLI runs from its TypeScript sources: the server it embeds (Prisma's WASM engine, PGlite)
// cannot be bundled, so this launcher registers tsx's loader and hands over to src/main.ts.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/main.ts');
process.exitCode = await run(process.argv.slice(2));
