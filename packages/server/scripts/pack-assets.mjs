// What a packed @svc/server carries that lives elsewhere in the repository. `prepack` copies it into
// the package, `postpack` removes the copies again:
// - the SQL migrations of the root prisma/ folder, which the service applies at start, into the
//   package's prisma/migrations (where src/db/migrate.ts finds them once the package is installed:
//   in the repository it reads the root folder);
// - the one file of @scalar/api-reference the service uses, its standalone browser build (the
//   bundle behind /docs, src/docs/bundle.ts), with a notice of its name, version and licence, into
//   vendor/scalar-api-reference. The package depends on that file, not on @scalar/api-reference
//   itself, whose dependencies (a Vue application, an AI chat client, icon sets) are most of the
//   size of an install and none of which the service runs.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { permissive } from '../../../scripts/check-licences.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const copy = join(pkg, 'prisma');
const source = join(pkg, '..', '..', 'prisma', 'migrations');
/** Where src/docs/bundle.ts looks first in an installed package. */
const vendor = join(pkg, 'vendor', 'scalar-api-reference');

function copyDocsBundle() {
  // The package's own development dependency (its exports name no package.json to resolve).
  const from = join(pkg, 'node_modules', '@scalar', 'api-reference');
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  // What the package ships is held to the licence rule of its run-time dependencies (pnpm deps:check).
  if (!permissive(String(manifest.license)))
    throw new Error(`${manifest.name} ${manifest.version}: licence ${manifest.license} is not permissive`);
  rmSync(vendor, { recursive: true, force: true });
  mkdirSync(vendor, { recursive: true });
  cpSync(join(from, 'dist', 'browser', 'standalone.js'), join(vendor, 'standalone.js'));
  writeFileSync(
    join(vendor, 'NOTICE'),
    `standalone.js is the browser build of ${manifest.name} ${manifest.version}, unchanged.\n` +
      `Licence: ${manifest.license}. Source: ${manifest.homepage}\n`,
  );
}

const action = process.argv[2];
if (action === 'copy') {
  if (!existsSync(join(pkg, 'dist', 'index.js'))) {
    console.error('@svc/server: dist/ is missing; build it first (pnpm build:packages)');
    process.exit(1);
  }
  rmSync(copy, { recursive: true, force: true });
  cpSync(source, join(copy, 'migrations'), { recursive: true });
  copyDocsBundle();
} else if (action === 'clean') {
  rmSync(copy, { recursive: true, force: true });
  rmSync(join(pkg, 'vendor'), { recursive: true, force: true });
} else {
  console.error('usage: node scripts/pack-assets.mjs copy|clean');
  process.exit(1);
}
