import { describe, expect, it } from 'vitest';
import { queryCompilerModule } from './query-compiler.ts';
import { pgliteWasmModule, prewarm } from './wasm-modules.ts';

describe('the WebAssembly a start compiles ahead (prewarm)', () => {
  it('compiles each of PGlite’s files once per process, and prewarm starts the same compilations the database open awaits', async () => {
    prewarm({});
    const server = pgliteWasmModule('pglite.wasm');
    expect(pgliteWasmModule('pglite.wasm')).toBe(server);
    const isModule = (m: unknown) => Object.prototype.toString.call(m) === '[object WebAssembly.Module]';
    expect(isModule(await server)).toBe(true);
    expect(isModule(await pgliteWasmModule('initdb.wasm'))).toBe(true);
    expect(isModule(await queryCompilerModule())).toBe(true);
    expect(queryCompilerModule()).toBe(queryCompilerModule());
  });
});
