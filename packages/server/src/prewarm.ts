/**
 * `@svc/server/prewarm`: what the CLI calls before it imports the service (db/wasm-modules.ts). A
 * module of its own that imports nothing of the service, so that calling it costs a few
 * milliseconds and the service's modules are evaluated while the WebAssembly compiles.
 */
export { prewarm } from './db/wasm-modules.ts';
