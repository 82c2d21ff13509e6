import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compileOnce, queryCompilerModule } from './query-compiler.ts';

/** PGlite's dist folder: its WebAssembly files, and its package.json one folder up. */
export function pgliteDist(): string {
  return dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
}

/**
 * One of PGlite's WebAssembly files (`pglite.wasm`, the PostgreSQL server; `initdb.wasm`, what
 * creates a cluster), compiled once per process on V8's background thread (compileOnce).
 */
export function pgliteWasmModule(file: 'pglite.wasm' | 'initdb.wasm'): Promise<WebAssembly.Module> {
  return compileOnce(`@electric-sql/pglite/${file}`, () => readFileSync(join(pgliteDist(), file)));
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
