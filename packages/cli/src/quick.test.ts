import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cliVersion, quickAnswer } from './quick.ts';

/** What `quickAnswer(argv)` returns and writes to stdout. */
function answer(argv: string[]): { code: number | undefined; out: string } {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const code = quickAnswer(argv);
  vi.restoreAllMocks();
  return { code, out };
}

/** The modules a source file imports, by its import statements. */
const importsOf = (file: string) =>
  [...readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(/^import[^'"]*from\s*'([^']+)'/gm)].map((m) => m[1]);

describe('the command lines the CLI answers without the SDK', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers the version, the help and the completion script', () => {
    expect(answer(['--version'])).toEqual({ code: 0, out: `svc ${cliVersion()}\n` });
    expect(answer(['-v']).out).toMatch(/^svc \d+\.\d+\.\d+\n$/);
    expect(answer(['help']).out).toMatch(/^Commands:$/m);
    expect(answer(['help', 'serve']).out).toMatch(/^svc serve: run the service in this process$/m);
    expect(answer(['completion', 'bash']).out).toContain('complete -o default -F _svc svc');
    expect(answer(['completion', 'zsh']).out).toMatch(/^#compdef svc$/m);
  });

  it('leaves every other command line, and a wrong one of these, to main.ts', () => {
    for (const argv of [
      [],
      ['frameworks', 'list'],
      ['--version', '--json'],
      ['help', 'nope'],
      ['help', 'serve', 'x'],
      ['completion'],
      ['completion', 'fish'],
    ]) {
      expect(answer(argv), argv.join(' ')).toEqual({ code: undefined, out: '' });
    }
  });

  it('loads nothing but Node and the help table on the way', () => {
    expect(importsOf('./quick.ts')).toEqual(['node:fs', './help.ts']);
    expect(importsOf('./help.ts')).toEqual([]);
    expect(importsOf('./bin.ts')).toEqual(['./quick.ts']);
  });
});
