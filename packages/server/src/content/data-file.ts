import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { contentGeneration, contentPath } from './paths.ts';

/**
 * A rail's data file (rules, a corpus, a template) under the content folder: read and checked
 * with its zod schema, a broken file failing loudly with every problem named, and cached per
 * content generation so that a start pointed at another content folder reads it afresh.
 */
export interface DataFile<T extends { version: string }> {
  /** Path under the content folder (`dsar/regimes.json`). */
  readonly path: string;
  /** Reads and checks the file at `file` (the content check reads candidate folders with it). */
  read(file: string): T;
  /** The file of the content folder in use. */
  current(): T;
  /** `<path without .json>@<version>`: the key of the lock and of the records that cite it. */
  versionKey(): string;
}

export function dataFile<S extends z.ZodType<{ version: string }>>(path: string, schema: S): DataFile<z.infer<S>> {
  let cached: { generation: number; data: z.infer<S> } | undefined;
  const read = (file: string): z.infer<S> => {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return parsed.data;
  };
  // Resolved once per content generation: which folder holds the file is looked up (a stat) only
  // when the content folder changes, not at each request that reads the data.
  const current = (): z.infer<S> => {
    if (cached?.generation !== contentGeneration()) {
      cached = { generation: contentGeneration(), data: read(contentPath(path)) };
    }
    return cached.data;
  };
  return { path, read, current, versionKey: () => `${path.replace(/\.json$/, '')}@${current().version}` };
}
