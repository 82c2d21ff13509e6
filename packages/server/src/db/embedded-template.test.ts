import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { packagedTemplateArchive, unpackPackagedTemplate, writePackagedTemplate } from './embedded-template.ts';

const log = createLogger('silent');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('the template archive a built package ships', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-template-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A cluster's folder as the cache keeps it: files, nested folders and an empty one. */
  function cluster(at: string): void {
    mkdirSync(join(at, 'base', '1'), { recursive: true });
    mkdirSync(join(at, 'pg_tblspc'), { recursive: true });
    writeFileSync(join(at, 'PG_VERSION'), '17\n');
    writeFileSync(join(at, 'base', '1', '1259'), Buffer.alloc(8192, 7));
  }

  it('round-trips a cluster: files, folders and empty folders; replaces the archives of other templates', () => {
    const packaged = join(dir, 'package', 'embedded-template');
    mkdirSync(packaged, { recursive: true });
    writeFileSync(join(packaged, 'embedded-0000.zip'), 'an older template');
    const made = { dir: join(dir, 'made', 'embedded-abc123'), present: true };
    cluster(made.dir);
    const archive = writePackagedTemplate(made, packaged);
    expect(archive).toBe(packagedTemplateArchive(made, packaged));
    expect(readdirSync(packaged)).toEqual(['embedded-abc123.zip']);
    // Nothing of the write is left beside the folder a pack takes.
    expect(readdirSync(join(dir, 'package'))).toEqual(['embedded-template']);

    const cached = { dir: join(dir, 'cache', 'embedded-abc123'), present: false };
    expect(unpackPackagedTemplate(cached, log, packaged)).toBe(true);
    expect(readFileSync(join(cached.dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(readFileSync(join(cached.dir, 'base', '1', '1259'))).toEqual(Buffer.alloc(8192, 7));
    expect(readdirSync(join(cached.dir, 'pg_tblspc'))).toEqual([]);
    expect(readdirSync(join(dir, 'cache'))).toEqual(['embedded-abc123']);
  });

  it('finds no archive for another template', () => {
    const cached = { dir: join(dir, 'cache', 'embedded-other'), present: false };
    expect(unpackPackagedTemplate(cached, log, join(dir, 'nothing-here'))).toBe(false);
    expect(existsSync(join(dir, 'cache'))).toBe(false);
  });

  it('refuses an archive with an entry outside the template, or without a cluster, and leaves nothing', () => {
    const packaged = join(dir, 'embedded-template');
    mkdirSync(packaged);
    const cached = { dir: join(dir, 'cache', 'embedded-evil'), present: false };
    writeFileSync(
      packagedTemplateArchive(cached, packaged),
      zipSync({ PG_VERSION: bytes('17\n'), '..': { '..': { escaped: bytes('written outside') } } }),
    );
    expect(unpackPackagedTemplate(cached, log, packaged)).toBe(false);
    expect(existsSync(join(dir, 'escaped'))).toBe(false);
    expect(readdirSync(join(dir, 'cache'))).toEqual([]);

    writeFileSync(packagedTemplateArchive(cached, packaged), zipSync({ base: { '1': { '1259': bytes('x') } } }));
    expect(unpackPackagedTemplate(cached, log, packaged)).toBe(false);
    expect(readdirSync(join(dir, 'cache'))).toEqual([]);
  });
});
