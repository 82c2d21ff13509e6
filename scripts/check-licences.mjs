#!/usr/bin/env node
// Licences of everything the shipped packages (contract, server, SDK, CLI) bring at run time, read
// from the lockfile's install by `pnpm licenses list`. Only permissive licences pass; anything
// else (copyleft such as GPL, LGPL, AGPL, MPL, EPL, SSPL, EUPL, or a licence the list does not
// know) fails the check unless `scripts/licence-waivers.json` names the package with a reason.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SHIPPED = ['@svc/contract', '@svc/server', '@svc/sdk', '@svc/cli'];
const PERMISSIVE = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'Apache-2.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
  'Zlib',
  'Python-2.0',
]);

/** An SPDX expression passes when an OR offers a permissive choice and every AND part is permissive. */
export function permissive(expr) {
  const e = expr.trim().replace(/^\((.*)\)$/, '$1');
  if (/ OR /i.test(e)) return e.split(/ OR /i).some(permissive);
  if (/ AND /i.test(e)) return e.split(/ AND /i).every(permissive);
  return PERMISSIVE.has(e);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const waivers = JSON.parse(readFileSync(new URL('./licence-waivers.json', import.meta.url), 'utf8'));
  const args = ['licenses', 'list', '--prod', '--json', ...SHIPPED.flatMap((p) => ['--filter', p])];
  const byLicence = JSON.parse(execFileSync('pnpm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  let count = 0;
  const refused = [];
  for (const [licence, pkgs] of Object.entries(byLicence)) {
    for (const p of pkgs) {
      count++;
      if (permissive(licence)) continue;
      const waiver = waivers[p.name];
      if (waiver?.reason) console.log(`waived: ${p.name} (${licence}): ${waiver.reason}`);
      else refused.push(`${p.name}@${p.versions.join(',')} (${licence})`);
    }
  }
  console.log(`licences: ${count} run-time packages of ${SHIPPED.join(', ')}; ${Object.keys(byLicence).join(', ')}`);
  if (refused.length > 0) {
    console.error(`not permissive, and not waived in scripts/licence-waivers.json:\n  ${refused.join('\n  ')}`);
    process.exit(1);
  }
}
