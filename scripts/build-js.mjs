// The JavaScript build of the workspace's packages: what `svc serve` runs and what the published
// packages ship. Each TypeScript file of a package's src/ becomes one ES module in its dist/, at the
// same relative path (so that paths the code derives from import.meta.url hold in both), with a
// linked source map. esbuild transpiles file by file, without type information: the code is written
// for that (isolatedModules, verbatimModuleSyntax), and `pnpm typecheck` checks the types. Relative
// `.ts` specifiers become `.js`; bare specifiers stay (`@svc/*` resolve to dist/ under the `svc-dist`
// export condition, see packages/cli/bin/svc.mjs).
//
// A build stamps dist/.js-source-hash with the hash of what it read; `ensureJsBuild` builds only
// the packages whose stamp differs, under a lock, so that two processes starting at once (the CI's
// package build and a test's `svc serve`) build once and never read a half-written dist/.
//
// `svc serve` then runs one file: the four packages' modules bundled (`buildServeBundle`), which
// Node loads faster than the 473 modules it holds, each resolved, read and linked on its own.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageInputs, packageSourceHash } from './package-source-hash.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages `svc serve` runs, in dependency order. */
export const RUNTIME_PACKAGES = ['contract', 'sdk-ts', 'server', 'cli'].map((p) => join(root, 'packages', p));

const JS_STAMP = '.js-source-hash';
const RELATIVE_TS = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"\n]+?)\.ts\2/g;

/** Relative `.ts` specifiers of emitted JavaScript or declarations, as `.js` (what Node and a consumer's tsc resolve). */
export const withJsSpecifiers = (text) => text.replace(RELATIVE_TS, '$1$2$3.js$2');

function sources(pkgDir) {
  return readdirSync(join(pkgDir, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Whether anything the build reads (or a folder of it: a file removed) changed after `time`. */
function changedSince(pkgDir, time) {
  return packageInputs(pkgDir, { folders: true }).some(
    (file) => (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY) > time,
  );
}

/**
 * Whether dist/ holds the JavaScript of the package's sources as they are now. Hashing the sources
 * takes about a second, so it is done only when a file or folder is newer than the stamp (an edit,
 * a checkout); when the hash still matches, the stamp is touched and the next check is a stat walk.
 */
export function jsBuildIsFresh(pkgDir, hash) {
  const stamp = join(pkgDir, 'dist', JS_STAMP);
  const stamped = statSync(stamp, { throwIfNoEntry: false });
  if (!stamped) return false;
  if (hash === undefined && !changedSince(pkgDir, stamped.mtimeMs)) return true;
  if (readFileSync(stamp, 'utf8') !== (hash ?? packageSourceHash(pkgDir))) return false;
  const now = new Date();
  utimesSync(stamp, now, now);
  return true;
}

/** Emits the package's JavaScript into dist/ (replacing what was there) and stamps it. */
export async function buildJs(pkgDir, hash = packageSourceHash(pkgDir)) {
  const esbuild = await import('esbuild');
  const dist = join(pkgDir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: sources(pkgDir),
    outbase: join(pkgDir, 'src'),
    outdir: dist,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const text = file.path.endsWith('.js') ? withJsSpecifiers(file.text) : file.text;
    writeFileSync(file.path, text);
  }
  writeFileSync(join(dist, JS_STAMP), hash);
}

/**
 * The single module `svc serve` runs (packages/cli/bin/svc.mjs): the CLI, the SDK, the contract and
 * the server, bundled from their dist/ by esbuild (not published: the published packages keep one
 * module per file). What the bundle does not hold is imported from where the package that imports it
 * finds it (each bare specifier resolved from its importer, then written as a path relative to the
 * bundle), so every dependency is the same file, and the same module instance, as without the bundle.
 * A module's `import.meta.url` and `import.meta.dirname` are its own file's in dist/, so that the data
 * each reads beside itself (content, migrations, web assets, the query compiler) is found as before.
 */
export const SERVE_BUNDLE = join(root, 'packages', 'cli', 'bundle', 'svc.js');
const bundleStamp = (out) => join(dirname(out), '.source-hashes');

/** The stamps of the packages' builds the bundle is made of: the bundle is fresh while they match its own. */
const bundleInputs = (pkgDirs) => pkgDirs.map((p) => readFileSync(join(p, 'dist', JS_STAMP), 'utf8')).join('\n');

export function serveBundleIsFresh(pkgDirs = RUNTIME_PACKAGES, out = SERVE_BUNDLE) {
  try {
    return readFileSync(bundleStamp(out), 'utf8') === bundleInputs(pkgDirs) && statSync(out, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Builds `out` (SERVE_BUNDLE) from the packages' dist/ (built first), the last package's dist/bin.js
 * its entry, and stamps it with their stamps.
 */
export async function buildServeBundle(pkgDirs = RUNTIME_PACKAGES, out = SERVE_BUNDLE) {
  const esbuild = await import('esbuild');
  // A path written into the bundle, relative to it, as an ES module specifier.
  const fromBundle = (file) => {
    const rel = relative(dirname(out), file).split(sep).join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const distRoots = pkgDirs.map((p) => join(p, 'dist') + sep);
  const inWorkspace = (file) => distRoots.some((d) => file.startsWith(d));
  const plugin = {
    name: 'svc-serve-bundle',
    setup(build) {
      // A bare specifier outside the workspace: resolved from the module that imports it, kept outside.
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@svc/') || args.path.startsWith('node:') || args.pluginData?.resolving) return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (found.errors.length > 0 || found.external || !found.path.startsWith('/')) return undefined;
        return { path: fromBundle(found.path), external: true };
      });
      // Each module keeps the location of its own file in dist/.
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!inWorkspace(args.path)) return undefined;
        let text = readFileSync(args.path, 'utf8');
        const own = `new URL(${JSON.stringify(fromBundle(args.path))}, import.meta.url)`;
        text = text
          .replaceAll('import.meta.url', `${own}.href`)
          .replaceAll('import.meta.dirname', `decodeURIComponent(new URL(".", ${own}).pathname).slice(0, -1)`);
        if (/import\.meta\.(filename|resolve)/.test(text)) {
          throw new Error(`${args.path}: import.meta.filename and import.meta.resolve are not kept by the serve bundle`);
        }
        return { contents: text, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  rmSync(dirname(out), { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  await esbuild.build({
    entryPoints: { [basename(out, '.js')]: join(pkgDirs[pkgDirs.length - 1], 'dist', 'bin.js') },
    outdir: dirname(out),
    bundle: true,
    // What the code imports dynamically (the MCP server, the PDF writer, PGlite) is a chunk of its
    // own, loaded when first used: one bundle would import every external module at start.
    splitting: true,
    // In the entry's folder: the paths written relative to the bundle hold in every chunk.
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['svc-dist'],
    // The contract declares itself free of side effects for its consumers' bundlers; its modules
    // that register (id prefixes) are imported for that alone, and must stay.
    ignoreAnnotations: true,
    sourcemap: 'linked',
    banner: { js: "globalThis.svcBuild = 'bundle';" },
    plugins: [plugin],
    logLevel: 'warning',
  });
  writeFileSync(bundleStamp(out), bundleInputs(pkgDirs));
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A lock held by one process at a time (a directory: mkdir is atomic); a dead holder's lock is taken over. */
async function withLock(fn, name = 'build') {
  const lock = join(root, 'node_modules', '.cache', 'svc', `${name}.lock`);
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let holder = 0;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {}
      const alive = holder > 0 && isAlive(holder);
      // A lock without a live holder (or without a pid written after 10 s) is left over: take it.
      const age = Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if ((holder > 0 && !alive) || (holder === 0 && age > 10_000)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another build holds ${lock}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds the JavaScript of the packages whose build is missing or stale, then (for the runtime
 * packages, or with `bundle`) the serve bundle when it is missing or was made from other builds;
 * returns the names of those built. `log` is told before a build starts.
 */
export async function ensureJsBuild(pkgDirs = RUNTIME_PACKAGES, log = () => {}, { bundle = pkgDirs === RUNTIME_PACKAGES } = {}) {
  const stale = () => pkgDirs.filter((p) => !jsBuildIsFresh(p));
  if (stale().length === 0 && (!bundle || serveBundleIsFresh(pkgDirs))) return [];
  return withLock(async () => {
    const built = [];
    for (const pkg of stale()) {
      log(`building ${relative(root, pkg)} (its build is missing or older than its sources)`);
      await buildJs(pkg);
      built.push(relative(root, pkg));
    }
    if (bundle && !serveBundleIsFresh(pkgDirs)) {
      log(`bundling ${relative(root, SERVE_BUNDLE)} (what svc serve runs) from the packages' builds`);
      await buildServeBundle(pkgDirs);
      built.push(relative(root, SERVE_BUNDLE));
    }
    return built;
  });
}

export { withLock as withBuildLock };
