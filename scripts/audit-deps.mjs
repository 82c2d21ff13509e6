#!/usr/bin/env node
// Known vulnerabilities in the run-time dependencies of the shipped packages: `pnpm audit` against
// the registry's advisory service. High and critical advisories fail the check unless
// `scripts/audit-waivers.json` waives them by advisory id with a reason (and, if it likes, an
// expiry date after which the waiver no longer counts). `--from FILE` reads a saved `pnpm audit
// --json` answer instead of asking the service.
//
// Where the advisory service cannot be reached (a registry mirror without it), the check says so
// and passes, unless SVC_REQUIRE_AUDIT=1 makes that a failure: a check that silently passed would
// be worse than one that states it did not run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const FAILING = new Set(['high', 'critical']);

export function evaluate(report, waivers, now = new Date()) {
  const refused = [];
  const waived = [];
  for (const [id, a] of Object.entries(report.advisories ?? {})) {
    if (!FAILING.has(a.severity)) continue;
    const w = waivers[id] ?? waivers[String(a.github_advisory_id ?? '')];
    const live = w?.reason && (!w.expires || new Date(w.expires) > now);
    (live ? waived : refused).push(
      `${a.severity} ${a.module_name} ${a.vulnerable_versions ?? ''}: ${a.title} (${a.url ?? id})${live ? ` - waived: ${w.reason}` : ''}`,
    );
  }
  return { refused, waived };
}

function readReport() {
  const from = process.argv.indexOf('--from');
  if (from > 0) return JSON.parse(readFileSync(process.argv[from + 1], 'utf8'));
  try {
    return JSON.parse(execFileSync('pnpm', ['audit', '--prod', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (err) {
    // pnpm audit exits non-zero when it finds anything; its JSON is still on stdout.
    const out = String(err.stdout ?? '');
    if (out.trim().startsWith('{') && !out.includes('ERR_PNPM_AUDIT')) return JSON.parse(out);
    return { unreachable: `${out}${err.stderr ?? ''}`.split('\n').find((l) => l.trim()) ?? String(err) };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = readReport();
  if (report.unreachable) {
    console.log(`dependency audit: the advisory service could not be asked (${report.unreachable.trim()})`);
    process.exit(process.env.SVC_REQUIRE_AUDIT === '1' ? 1 : 0);
  }
  const waivers = JSON.parse(readFileSync(new URL('./audit-waivers.json', import.meta.url), 'utf8'));
  const { refused, waived } = evaluate(report, waivers);
  for (const w of waived) console.log(`waived: ${w}`);
  const counts = report.metadata?.vulnerabilities ?? {};
  console.log(`dependency audit: ${JSON.stringify(counts)}`);
  if (refused.length > 0) {
    console.error(`high or critical advisories not waived in scripts/audit-waivers.json:\n  ${refused.join('\n  ')}`);
    process.exit(1);
  }
}
