import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The module holding Prisma's query compiler for PostgreSQL as base64 (what the generated client names). */
export const QUERY_COMPILER_WASM = '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs';

/**
 * The runtime's `WebAssembly.compile` (the project's type library, ES2023 without the DOM, declares
 * WebAssembly's types but not its functions): on V8's background thread.
 */
const compileWasm = (bytes: Uint8Array): Promise<WebAssembly.Module> =>
  (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly.compile(bytes);

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/**
 * The WebAssembly named `key`, compiled once per process from the bytes `read` returns. They are
 * read at once, not on the event loop, so that the compilation starts at the first call
 * (db/wasm-modules.ts prewarm calls it just before the service's modules are evaluated, a second or
 * two during which no callback runs); a failure to read is the promise's rejection.
 */
export function compileOnce(key: string, read: () => Uint8Array): Promise<WebAssembly.Module> {
  let module = compiled.get(key);
  if (!module) {
    try {
      module = compileWasm(read());
    } catch (err) {
      module = Promise.reject(err);
    }
    compiled.set(key, module);
  }
  return module;
}

/**
 * Prisma's query compiler, compiled once per process: what the generated client asks for at its
 * first query (scripts/prisma-generate.mjs puts this call in it), and what `openDatabase` starts
 * before the database opens, so that the compilation runs on V8's background thread while the
 * database starts on the main one. The file is read as text, not imported: an imported module's
 * 4.5 MB source would stay in memory for the life of the process.
 */
export function queryCompilerModule(specifier: string = QUERY_COMPILER_WASM): Promise<WebAssembly.Module> {
  return compileOnce(specifier, () => {
    const text = readFileSync(createRequire(import.meta.url).resolve(specifier), 'utf8');
    const literal = /"([A-Za-z0-9+/=]+)"/.exec(text);
    if (!literal) throw new Error(`${specifier} holds no base64 literal of the query compiler's WebAssembly`);
    return Buffer.from(literal[1] as string, 'base64');
  });
}
