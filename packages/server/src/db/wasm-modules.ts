import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compileWasm, queryCompilerModule } from './query-compiler.ts';

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/**
 * One of PGlite's WebAssembly files (`pglite.wasm`, the PostgreSQL server; `initdb.wasm`, what
 * creates a cluster), compiled once per process on V8's background thread. The file is read at
 * once, not on the event loop: `prewarm` calls this just before the service's modules are
 * evaluated, a second or two of the main thread during which no callback runs, while the
 * compilation goes on beside it.
 */
export function pgliteWasmModule(file: 'pglite.wasm' | 'initdb.wasm'): Promise<WebAssembly.Module> {
  let module = compiled.get(file);
  if (!module) {
    try {
      const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
      module = compileWasm(readFileSync(join(dist, file)));
    } catch (err) {
      module = Promise.reject(err);
    }
    compiled.set(file, module);
  }
  return module;
}

/**
 * Starts compiling the WebAssembly a start needs (Prisma's query compiler; PGlite's, for the
 * embedded database, which a start uses unless `DATABASE_URL` is set) on V8's background thread:
 * the CLI calls it before it imports the service, so that the compilation runs while the service's
 * modules are evaluated rather than after, when the database opens. The database's open awaits the
 * same compilations; one that fails is reported there, or PGlite compiles its files itself.
 */
export function prewarm(env: NodeJS.ProcessEnv = process.env): void {
  queryCompilerModule().catch(() => {});
  if (env.DATABASE_URL) return;
  pgliteWasmModule('pglite.wasm').catch(() => {});
  pgliteWasmModule('initdb.wasm').catch(() => {});
}
