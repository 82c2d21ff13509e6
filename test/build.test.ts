import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildJs, jsBuildIsFresh } from '../scripts/build-js.mjs';

/**
 * The build `svc serve` runs (scripts/build-js.mjs), on a package of two modules: what it emits, and
 * when the launcher finds it stale. A stale build taken for fresh would serve old code; a fresh one
 * taken for stale would rebuild at every start.
 */
const pkg = mkdtempSync(join(tmpdir(), 'svc-build-'));
afterAll(() => rmSync(pkg, { recursive: true, force: true }));
mkdirSync(join(pkg, 'src'));
writeFileSync(join(pkg, 'package.json'), '{"type":"module"}');
writeFileSync(join(pkg, 'tsconfig.build.json'), '{}');
writeFileSync(join(pkg, 'src/a.ts'), "import { b } from './b.ts';\nexport const a: number = b + 1;\n");
writeFileSync(join(pkg, 'src/b.ts'), 'export const b: number = 2;\n');
writeFileSync(join(pkg, 'src/a.test.ts'), "throw new Error('a test file is not built');\n");

/** Gives a file a modification time after the build's stamp, as an edit or a checkout would. */
const touchLater = (file: string) => {
  const later = new Date(Date.now() + 60_000);
  utimesSync(file, later, later);
};

describe('the JavaScript build', () => {
  it('emits one module per source file with .js specifiers, and no test files', async () => {
    expect(jsBuildIsFresh(pkg)).toBe(false);
    await buildJs(pkg);
    expect(readFileSync(join(pkg, 'dist/a.js'), 'utf8')).toContain('./b.js');
    expect(() => readFileSync(join(pkg, 'dist/a.test.js'))).toThrow();
    const mod = (await import(pathToFileURL(join(pkg, 'dist/a.js')).href)) as { a: number };
    expect(mod.a).toBe(3);
    expect(jsBuildIsFresh(pkg)).toBe(true);
  });

  it('stays fresh when a file is newer but unchanged, and is stale once a file changes or goes', async () => {
    touchLater(join(pkg, 'src/b.ts'));
    expect(jsBuildIsFresh(pkg)).toBe(true);
    writeFileSync(join(pkg, 'src/b.ts'), 'export const b: number = 5;\n');
    touchLater(join(pkg, 'src/b.ts'));
    expect(jsBuildIsFresh(pkg)).toBe(false);
    await buildJs(pkg);
    expect(jsBuildIsFresh(pkg)).toBe(true);
    rmSync(join(pkg, 'src/a.test.ts'));
    touchLater(join(pkg, 'src'));
    expect(jsBuildIsFresh(pkg)).toBe(false);
  });
});
