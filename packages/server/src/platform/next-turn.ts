/**
 * Resolves on a later turn of the event loop, after the I/O that waits: what long work in slices
 * (a chain verified a page at a time, a sweep, an index build) awaits between slices, so that the
 * process's requests are not held for the whole of it.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
