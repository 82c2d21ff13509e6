import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { clauseDates, type FrameworkContent } from './framework-schema.ts';

/**
 * The law's dates are stated once: in the dictionaries, where each obligation says from when it
 * applies (and, once repealed, until when). The classifier's rules and the rails' data files that
 * need such a date (the risk classes, the assessment recipes, the incident and DSAR regimes) name
 * the provision and read its date (provision-dates.ts); the checks below keep it that way.
 */

/**
 * The classifier reads its classes' dates from the dictionary (the obligations of one clause per
 * class, in every version): each version must give each such clause one date.
 */
export function checkClassifierDates(root: string, versions: FrameworkContent[]): string[] {
  const file = 'agents/classifier-rules.json';
  const p = join(root, file);
  if (!existsSync(p)) return [];
  const rules = JSON.parse(readFileSync(p, 'utf8')) as { dates?: Record<string, { clause: string }> };
  const errors: string[] = [];
  for (const v of versions)
    for (const [key, d] of Object.entries(rules.dates ?? {})) {
      const dates = clauseDates(v.obligations, d.clause);
      if (dates.length !== 1)
        errors.push(
          `${file}: dates.${key} reads ${v.id}@${v.version} ${d.clause}, which gives ${dates.length === 0 ? 'no date' : dates.join(' and ')}`,
        );
    }
  return errors;
}

/**
 * A date written into the server's code is a date of law stated twice: every `'YYYY-MM-DD'` literal
 * in `packages/server/src` (tests and generated code aside) is reported.
 */
export function checkCodeDates(serverSrc: string): string[] {
  const errors: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'generated' && name !== 'node_modules') walk(p);
        continue;
      }
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      readFileSync(p, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/['"`](?!9999)\d{4}-\d{2}-\d{2}['"`]/.test(line))
            errors.push(
              `${relative(join(serverSrc, '..', '..', '..'), p)}:${i + 1}: a date literal in code; state dates of law in the content files`,
            );
        });
    }
  };
  walk(serverSrc);
  return errors;
}
