/**
 * `pnpm content:check`: validates the dictionaries, glossary and crosswalks and prints their
 * counts; exit 1 on any problem. `--strict` (implied by CI=true) also fails on unlocked files and
 * dangling glossary links. `pnpm content:lock` records the hashes of new versions; `--readme`
 * rewrites the README's list of dictionaries, sources and licences.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkContent, README_END, README_START, readmeContentBlock, updateLock } from '../packages/server/src/content/check.ts';
import { checkRailData } from '../packages/server/src/content/rail-data.ts';

const args = process.argv.slice(2);
const strict = args.includes('--strict') || process.env.CI === 'true';
const report = checkContent(undefined, { strict });
// The rails' data files (profiles, workflows, taxonomy) are checked and locked the same way.
const railData = checkRailData(undefined, { strict });
report.errors.push(...railData.errors);
report.warnings.push(...railData.warnings);
Object.assign(report.hashes, railData.hashes);

const rows = report.dictionaries.map((d) => [`${d.id}@${d.version}`, d.clauses, d.controls, d.questions, d.obligations, d.terms, d.edges]);
const head = ['dictionary', 'clauses', 'controls', 'questions', 'obligations', 'terms', 'edges'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r: (string | number)[]) =>
  r.map((v, i) => (i === 0 ? String(v).padEnd(widths[i] ?? 0) : String(v).padStart(widths[i] ?? 0))).join('  ');
console.log(line(head));
for (const r of rows) console.log(line(r));
const t = report.totals;
console.log(
  `\n${t.dictionaries} dictionaries, ${t.terms} glossary terms, ${t.edges} crosswalk edges in ${t.crosswalks} crosswalks (${t.officialEdges} from official mappings)`,
);
console.log(`rail data: ${railData.files.map((f) => `${f.key} (${f.items})`).join(', ')}`);

if (args.includes('--lock')) {
  if (report.errors.length > 0) {
    console.error('\nnot locking: fix the problems first');
  } else {
    const added = updateLock(undefined, report.hashes);
    console.log(added.length > 0 ? `\nlocked: ${added.join(', ')}` : '\nlock already up to date');
    report.warnings = report.warnings.filter((w) => !w.includes('is not in content.lock.json'));
  }
}
if (args.includes('--readme')) {
  const readme = join(import.meta.dirname, '..', 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) {
    console.error(`README.md has no ${README_START} ... ${README_END} block`);
    process.exit(1);
  }
  writeFileSync(readme, text.slice(0, start) + readmeContentBlock() + text.slice(end + README_END.length));
  console.log('\nREADME.md content list rewritten');
}
for (const w of report.warnings) console.log(`warning: ${w}`);
for (const e of report.errors) console.error(`error: ${e}`);
if (report.errors.length > 0) {
  console.error(`\n${report.errors.length} problem(s)`);
  process.exit(1);
}
console.log('\ncontent ok');
