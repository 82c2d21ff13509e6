import { afterAll } from 'vitest';

/**
 * Test files share their worker process (vitest's `isolate: false`, which saves importing the
 * server once per file): whatever a file sets in process.env is put back when it ends, so no file
 * sees another's settings.
 */
const before = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  Object.assign(process.env, before);
});
