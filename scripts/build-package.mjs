// Builds the package in the current directory (its `build` script runs this): its JavaScript with
// esbuild (scripts/build-js.mjs; skipped when dist/ already holds it for these sources), then, for a
// package that declares types (`declaration` in its tsconfig.build.json), its declaration files with
// tsc, rewriting the `.ts` specifiers tsc leaves in them: a consumer's tsc without
// allowImportingTsExtensions would otherwise reject them. A script named as its argument runs
// after that, in the same lock, with the build's JavaScript (the server's makes its embedded
// database template: packages/server/scripts/embedded-template.mjs); it decides itself whether
// there is anything to do.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildJs, jsBuildIsFresh, withBuildLock, withJsSpecifiers } from './build-js.mjs';
import { packageSourceHash } from './package-source-hash.mjs';

const pkg = process.cwd();
const dist = join(pkg, 'dist');
const hash = packageSourceHash(pkg);
const stamp = join(dist, '.source-hash');
const built = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
const after = process.argv[2];
// One build of a package at a time: CI builds in the background while tests that need the build
// (the packaging test) may ask for it; the second waits and finds it done. The JavaScript has a
// lock of its own (what `svc serve` waits for), held only while it is written.
await withBuildLock(async () => {
  if (!built()) await buildPackage();
  if (after) execFileSync(process.execPath, ['--conditions=svc-dist', after], { stdio: 'inherit', cwd: pkg });
}, 'package-build');

async function buildPackage() {
  await withBuildLock(async () => {
    if (!jsBuildIsFresh(pkg, hash)) await buildJs(pkg, hash);
  });
  const config = JSON.parse(readFileSync(join(pkg, 'tsconfig.build.json'), 'utf8'));
  if (config.compilerOptions?.declaration) {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    // --noCheck: emit only. The workspace is type-checked as a whole by `pnpm typecheck`, and the
    // packaging test type-checks a consumer against the emitted declarations.
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--emitDeclarationOnly'], {
      stdio: 'inherit',
      cwd: pkg,
    });
    for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
      const file = join(entry.parentPath, entry.name);
      const text = readFileSync(file, 'utf8');
      const fixed = withJsSpecifiers(text);
      if (fixed !== text) writeFileSync(file, fixed);
    }
  }
  // What it was built from: the packaging test builds again only when the sources changed since.
  writeFileSync(stamp, hash);
}
