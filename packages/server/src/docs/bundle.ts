/**
 * The browser bundle behind /docs, served by the service itself so the reference works offline
 * (Scalar's middleware would load it from a CDN by default).
 *
 * Looked up in this order: `SVC_DOCS_BUNDLE` (a path to a standalone API-reference script); the
 * copy of `@scalar/api-reference`'s standalone build that an installed package carries
 * (`vendor/scalar-api-reference/standalone.js`, made when it is packed: scripts/pack-assets.mjs);
 * that build (`dist/browser/standalone.js`) in any node_modules above this package or above
 * @scalar/express-api-reference (the repository, where it is a development dependency); else the
 * small reference renderer shipped in content/docs/reference.js, which offers the same
 * `Scalar.createApiReference` entry and renders the live OpenAPI document as plain HTML (operations
 * by tag, parameters, bodies, responses, code samples).
 */
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DocsBundle {
  /** Absolute path of the script. */
  readonly file: string;
  /** `scalar` for Scalar's standalone build, `builtin` for the shipped renderer. */
  readonly kind: 'scalar' | 'builtin';
}

const HERE = dirname(fileURLToPath(import.meta.url));
/** packages/server */
const PACKAGE_DIR = resolve(HERE, '../..');
export const BUILTIN_BUNDLE = join(PACKAGE_DIR, 'content/docs/reference.js');
const STANDALONE = join('@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
/** The copy a packed package carries. */
const VENDORED = join(PACKAGE_DIR, 'vendor', 'scalar-api-reference', 'standalone.js');

/** `dir/node_modules/<STANDALONE>` for dir and each of its ancestors. */
function searchUp(start: string): string | undefined {
  let dir = start;
  const { root } = parse(dir);
  for (;;) {
    const candidate = join(dir, 'node_modules', STANDALONE);
    if (existsSync(candidate)) return candidate;
    if (dir === root) return undefined;
    dir = dirname(dir);
  }
}

function expressIntegrationDir(): string | undefined {
  try {
    const entry = createRequire(join(PACKAGE_DIR, 'package.json')).resolve('@scalar/express-api-reference');
    return dirname(realpathSync(entry));
  } catch {
    try {
      // ESM-only package: find its folder without resolving an entry.
      const dir = join(PACKAGE_DIR, 'node_modules', '@scalar', 'express-api-reference');
      return existsSync(dir) ? realpathSync(dir) : undefined;
    } catch {
      return undefined;
    }
  }
}

let found: DocsBundle | undefined;

export function findDocsBundle(env: NodeJS.ProcessEnv = process.env): DocsBundle {
  const configured = env.SVC_DOCS_BUNDLE;
  if (configured && existsSync(configured)) return { file: resolve(configured), kind: 'scalar' };
  if (found) return found;
  if (existsSync(VENDORED)) {
    found = { file: VENDORED, kind: 'scalar' };
    return found;
  }
  const starts = [PACKAGE_DIR, expressIntegrationDir()].filter((d): d is string => d !== undefined);
  for (const start of starts) {
    const file = searchUp(start);
    if (file) {
      found = { file, kind: 'scalar' };
      return found;
    }
  }
  found = { file: BUILTIN_BUNDLE, kind: 'builtin' };
  return found;
}
