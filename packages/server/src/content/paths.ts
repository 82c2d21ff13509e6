import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The content shipped with the server (dictionaries, glossary, crosswalks and the rails' data). */
export const SHIPPED_CONTENT = join(import.meta.dirname, '../../content');

let contentDir: string | undefined;
let generation = 0;

/**
 * The content folder of this process (`SVC_CONTENT_DIR`), set when the server starts; every start
 * reads the rails' data files afresh. They are process-wide: in one process, the server started
 * last decides.
 */
export function useContentDir(dir: string): void {
  contentDir = dir;
  generation++;
}

/** Changes at every `useContentDir`: a cache of a content file keys on it and on the file's path. */
export function contentGeneration(): number {
  return generation;
}

/**
 * A content file or folder: the one in the configured content folder when it holds it, else the
 * shipped one. One rule for every rail's data, so an operator who points the server at a content
 * folder gets all of it from there.
 */
export function contentPath(...parts: string[]): string {
  if (contentDir) {
    const configured = join(contentDir, ...parts);
    if (existsSync(configured)) return configured;
  }
  return join(SHIPPED_CONTENT, ...parts);
}

/** The folders of a content folder whose files are loaded into the database. */
const LOADED_CONTENT = ['frameworks', 'frameworks/changes', 'glossary', 'crosswalks'] as const;

/** SHA-256 over the names and bytes of the content files loaded into the database: equal when none changed. */
export function contentFilesHash(root: string): string {
  const hash = createHash('sha256');
  for (const kind of LOADED_CONTENT) {
    const dir = join(root, kind);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      hash
        .update(`${kind}/${file}\0`)
        .update(readFileSync(join(dir, file)))
        .update('\0');
    }
  }
  return `sha256:${hash.digest('hex')}`;
}
