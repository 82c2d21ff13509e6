// Runs `prisma generate` on machines that cannot download Prisma's native schema engine.
// `generate` does not need that engine, but the CLI insists on finding one: when none is
// installed we point it at a stub. Machines that have the engine keep the normal path.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

// The generated client imports the query compiler's WebAssembly as a module holding it in base64
// (4.5 MB). An ES module's source text stays in memory for the life of the process, so importing it
// keeps the text and its string literal (9 MB of heap, about 5% of the service's idle memory) to
// compile the module once. The service's db/query-compiler.ts reads the same file as text instead,
// which leaves both to the garbage collector, and compiles it off the main thread while the
// database opens. The replaced code is matched exactly: a Prisma upgrade that changes it stops the
// generation here instead of silently keeping the copy.
const clientClass = join(root, 'packages/server/src/generated/prisma/internal/class.ts');
const importedWasm =
  /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_fast_bg\.\w+\.wasm-base64\.mjs)"\)\n\s*return await decodeBase64AsWasm\(wasm\)/;
const generated = readFileSync(clientClass, 'utf8');
const found = importedWasm.exec(generated);
if (!found) {
  throw new Error(`${clientClass}: the query compiler's WebAssembly is no longer imported as expected; update scripts/prisma-generate.mjs`);
}
writeFileSync(
  clientClass,
  generated.replace(
    importedWasm,
    `// Read as text, not imported, and compiled once per process (db/query-compiler.ts, scripts/prisma-generate.mjs).
    const { queryCompilerModule } = await import('../../../db/query-compiler.ts')
    return await queryCompilerModule(${JSON.stringify(found[1])})`,
  ),
);
