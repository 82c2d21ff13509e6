import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildJs, buildServeBundle, jsBuildIsFresh, serveBundleIsFresh } from '../scripts/build-js.mjs';

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

/**
 * The one module `svc serve` runs (`buildServeBundle`), made of a package whose modules read files
 * beside themselves and import a dependency: each must find its file as in dist/, and the dependency
 * must stay the file it is (not copied in). Made inside the repository, where `express` resolves.
 */
describe('the serve bundle', () => {
  const cache = join(import.meta.dirname, '..', 'node_modules', '.cache', 'svc');
  mkdirSync(cache, { recursive: true });
  const app = mkdtempSync(join(cache, 'bundle-test-'));
  const out = join(app, 'bundle', 'svc.js');
  afterAll(() => rmSync(app, { recursive: true, force: true }));
  mkdirSync(join(app, 'src', 'deep', 'er'), { recursive: true });
  writeFileSync(join(app, 'package.json'), '{"type":"module"}');
  writeFileSync(join(app, 'tsconfig.build.json'), '{}');
  writeFileSync(join(app, 'data.txt'), 'beside the package');
  writeFileSync(
    join(app, 'src', 'deep', 'er', 'reader.ts'),
    [
      "import { readFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      "import express from 'express';",
      "export const byUrl = (): string => readFileSync(new URL('../../../data.txt', import.meta.url), 'utf8');",
      "export const byDirname = (): string => readFileSync(join(import.meta.dirname, '../../../data.txt'), 'utf8');",
      'export const where = (): string => import.meta.url;',
      "export const hasExpress = (): boolean => typeof express === 'function';",
    ].join('\n'),
  );
  writeFileSync(
    join(app, 'src', 'bin.ts'),
    [
      "const { byUrl, byDirname, where, hasExpress } = await import('./deep/er/reader.ts');",
      'console.log(JSON.stringify({ byUrl: byUrl(), byDirname: byDirname(), where: where(), express: hasExpress() }));',
    ].join('\n'),
  );

  it('runs as the modules would: files found beside each, dependencies imported from where they are', async () => {
    await buildJs(app);
    expect(serveBundleIsFresh([app], out)).toBe(false);
    await buildServeBundle([app], out);
    expect(serveBundleIsFresh([app], out)).toBe(true);
    const printed = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(printed).toEqual({
      byUrl: 'beside the package',
      byDirname: 'beside the package',
      where: pathToFileURL(join(app, 'dist', 'deep', 'er', 'reader.js')).href,
      express: true,
    });
    // The dependency is imported, not copied: no chunk holds express's own source.
    const chunks = readdirSync(join(app, 'bundle')).filter((f) => f.endsWith('.js'));
    const text = chunks.map((f) => readFileSync(join(app, 'bundle', f), 'utf8')).join('\n');
    expect(text).toMatch(/from "\.\.\/.*node_modules\/.*express\/index\.js"/);
    expect(text).not.toContain('createApplication');
  });

  it('is stale once a package it holds is built again from other sources', async () => {
    writeFileSync(join(app, 'data.txt'), 'unchanged sources keep it fresh');
    expect(serveBundleIsFresh([app], out)).toBe(true);
    writeFileSync(join(app, 'src', 'bin.ts'), "console.log('{}');\n");
    await buildJs(app);
    expect(serveBundleIsFresh([app], out)).toBe(false);
  });
});
