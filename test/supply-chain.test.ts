import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency checks `.ci/run` runs: licences of the shipped packages' run-time dependencies
 * (permissive only, or waived with a reason) and known vulnerabilities (high and critical fail
 * unless waived). The rules are checked here on fixtures; the licence check also on the real tree.
 */
const ROOT = join(import.meta.dirname, '..');
type Advisory = { module_name: string; severity: string; title: string; url?: string };
const { permissive } = (await import(join(ROOT, 'scripts/check-licences.mjs') as string)) as { permissive: (e: string) => boolean };
const { evaluate } = (await import(join(ROOT, 'scripts/audit-deps.mjs') as string)) as {
  evaluate: (
    report: { advisories: Record<string, Advisory> },
    waivers: Record<string, { reason?: string; expires?: string }>,
    now?: Date,
  ) => { refused: string[]; waived: string[] };
};

describe('licences', () => {
  it('admits permissive licences and expressions with a permissive choice, refuses copyleft and unknown ones', () => {
    for (const ok of ['MIT', 'Apache-2.0', 'BSD-3-Clause', '(MIT OR GPL-3.0-or-later)', '(MIT AND Zlib)', 'ISC'])
      expect([ok, permissive(ok)]).toEqual([ok, true]);
    for (const no of [
      'GPL-3.0-only',
      'AGPL-3.0',
      'LGPL-2.1',
      'MPL-2.0',
      'SSPL-1.0',
      '(MIT AND GPL-2.0)',
      'UNLICENSED',
      'Custom: see LICENSE',
    ]) {
      expect([no, permissive(no)]).toEqual([no, false]);
    }
  });

  it('the shipped packages depend on nothing but permissive licences', () => {
    const out = execFileSync('node', [join(ROOT, 'scripts/check-licences.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toMatch(/^licences: \d+ run-time packages/m);
  });
});

describe('known vulnerabilities', () => {
  const report = {
    advisories: {
      '1001': { module_name: 'left-pad', severity: 'critical', title: 'prototype pollution' },
      '1002': { module_name: 'right-pad', severity: 'high', title: 'ReDoS' },
      '1003': { module_name: 'up-pad', severity: 'moderate', title: 'minor' },
    },
  };
  it('fails on high and critical advisories that no waiver with a reason covers', () => {
    expect(evaluate(report, {}).refused).toHaveLength(2);
    const r = evaluate(report, { '1001': { reason: 'not reachable: the vulnerable function is never called' }, '1002': {} });
    expect(r.waived).toHaveLength(1);
    expect(r.refused).toEqual([expect.stringContaining('right-pad')]);
  });

  it('a waiver past its expiry no longer counts', () => {
    const waivers = { '1001': { reason: 'fix pending upstream', expires: '2026-01-01' }, '1002': { reason: 'x', expires: '2099-01-01' } };
    expect(evaluate(report, waivers, new Date('2026-06-01')).refused).toEqual([expect.stringContaining('left-pad')]);
  });
});
