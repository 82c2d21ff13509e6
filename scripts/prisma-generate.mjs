// Runs `prisma generate` on machines that cannot download Prisma's native schema engine.
// `generate` does not need that engine, but the CLI insists on finding one: when none is
// installed we point it at a stub. Machines that have the engine keep the normal path.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };

function hasNativeEngine() {
  const dir = join(root, 'node_modules/.pnpm');
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith('@prisma+engines@')) continue;
    const engines = join(dir, entry, 'node_modules/@prisma/engines');
    if (existsSync(engines) && readdirSync(engines).some((f) => f.startsWith('schema-engine'))) return true;
  }
  return false;
}

if (!env.PRISMA_SCHEMA_ENGINE_BINARY && !hasNativeEngine()) {
  const stub = join(root, 'node_modules/.cache/svc/schema-engine-stub');
  mkdirSync(dirname(stub), { recursive: true });
  writeFileSync(stub, '#!/bin/sh\nexit 1\n');
  chmodSync(stub, 0o755);
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}

// The CLI is a dependency of the server package; call it directly so this works under any runner.
const prisma = join(root, 'packages/server/node_modules/.bin/prisma');
execFileSync(prisma, ['generate', '--schema', join(root, 'prisma/schema')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
