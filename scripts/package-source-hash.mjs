// The hash of what a package's build reads: its sources, its package.json and tsconfig.build.json, and
// the shared tsconfig they extend. scripts/build-package.mjs writes it to dist/.source-hash; the
// packaging test builds again only when a package's hash differs (CI builds in its static stage).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/**
 * What a package's build reads: every entry below src/ (folders too, with `folders`: a removed file
 * changes its folder's time), its package.json and tsconfig.build.json, and the shared tsconfig.
 */
export function packageInputs(pkgDir, { folders = false } = {}) {
  const inputs = readdirSync(join(pkgDir, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() || (folders && e.isDirectory()))
    .map((e) => join(e.parentPath, e.name));
  if (folders) inputs.push(join(pkgDir, 'src'));
  inputs.push(join(pkgDir, 'package.json'), join(pkgDir, 'tsconfig.build.json'), join(root, 'tsconfig.json'));
  return inputs;
}

export function packageSourceHash(pkgDir) {
  const hash = createHash('sha256');
  for (const file of packageInputs(pkgDir).sort()) {
    hash.update(`${relative(pkgDir, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether the package's dist/ was built from its sources as they are now. */
export function packageBuildIsFresh(pkgDir) {
  const stamp = join(pkgDir, 'dist', '.source-hash');
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === packageSourceHash(pkgDir);
}
