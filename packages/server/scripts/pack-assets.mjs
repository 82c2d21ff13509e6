// What a packed @svc/server carries that lives elsewhere in the repository: the SQL migrations of
// the root prisma/ folder, which the service applies at start. `prepack` copies them into the
// package's prisma/migrations (where src/db/migrate.ts finds them once the package is installed:
// in the repository it reads the root folder), `postpack` removes the copy again.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const copy = join(pkg, 'prisma');
const source = join(pkg, '..', '..', 'prisma', 'migrations');

const action = process.argv[2];
if (action === 'copy') {
  if (!existsSync(join(pkg, 'dist', 'index.js'))) {
    console.error('@svc/server: dist/ is missing; build it first (pnpm build:packages)');
    process.exit(1);
  }
  rmSync(copy, { recursive: true, force: true });
  cpSync(source, join(copy, 'migrations'), { recursive: true });
} else if (action === 'clean') {
  rmSync(copy, { recursive: true, force: true });
} else {
  console.error('usage: node scripts/pack-assets.mjs copy|clean');
  process.exit(1);
}
