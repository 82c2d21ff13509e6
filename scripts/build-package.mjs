// Builds the package in the current directory (its `build` script runs this): emits dist/ with
// tsc from its tsconfig.build.json, then rewrites the `.ts` specifiers tsc leaves in declaration files: a
// consumer's tsc without allowImportingTsExtensions would otherwise reject them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageSourceHash } from './package-source-hash.mjs';

const pkg = process.cwd();
const dist = join(pkg, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// --noCheck: emit only. The workspace is type-checked as a whole by `pnpm typecheck` (run by CI
// before any build), and the packaging test type-checks a consumer against the emitted declarations;
// checking each package again here tripled the build's time.
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit', cwd: pkg });
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
  if (fixed !== text) writeFileSync(file, fixed);
}
// What it was built from: the packaging test builds again only when the sources changed since.
writeFileSync(join(dist, '.source-hash'), packageSourceHash(pkg));
