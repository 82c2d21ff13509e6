/**
 * Runs `start` with Node's event loop held alive until it settles.
 *
 * When the event loop runs out of work for a moment (every pending step of a start is a promise
 * about to resolve, no timer or socket yet), Node waits for every task queued on V8's background
 * threads to finish before going on. During a start those threads are compiling PGlite's
 * WebAssembly (its optimised tier, several hundred milliseconds), so the start stood still for
 * 200-300 ms at a time, each time, with nothing to wait for. A timer kept pending while starting
 * keeps the loop alive: the start goes on while the compilation finishes beside it.
 */
export async function withLoopAwake<T>(start: () => Promise<T>): Promise<T> {
  const awake = setInterval(() => {}, 2 ** 30);
  try {
    return await start();
  } finally {
    clearInterval(awake);
  }
}
