// Writes packages/contract/openapi.json from the contract; with --check, fails when the committed
// document differs from what the contract generates; with --out FILE, writes FILE instead (to
// compare a change's document with the committed one).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiDocument } from '@svc/contract';

const file = join(import.meta.dirname, '../packages/contract/openapi.json');
const fresh = `${JSON.stringify(generateOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {}
  if (committed !== fresh) {
    console.error('packages/contract/openapi.json is stale: run `pnpm generate` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.json is up to date.');
} else if (process.argv.includes('--out')) {
  const out = process.argv[process.argv.indexOf('--out') + 1];
  if (!out) throw new Error('--out needs a file');
  writeFileSync(out, fresh);
  console.log(`wrote ${out}`);
} else {
  writeFileSync(file, fresh);
  console.log(`wrote ${file}`);
}
