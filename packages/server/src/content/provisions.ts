import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FrameworkContent } from './framework-schema.ts';

/**
 * The law's dates are stated once: in the dictionaries, where each obligation says from when it
 * applies (and, once repealed, until when). Files beside them that need a provision's date to
 * decide something (the risk classes, the assessment recipes, the incident and DSAR regimes)
 * repeat it for their own use (the classifier reads it from the dictionary itself); this table names, for each such
 * repetition, the dictionary provision it restates, so that the content check fails the day the
 * two say different things (an amendment reached one file and not the other).
 */
export interface DatedProvision {
  /** What the date decides, in words. */
  provision: string;
  /** The statement of record: the obligations citing this clause in the latest dictionary version. */
  dictionary: string;
  clause: string;
  /** The files that restate it, and where in them. */
  restatedIn: { file: string; at: (json: unknown) => unknown }[];
}

type Json = Record<string, unknown> & { items?: Json[]; regimes?: Json[]; recipes?: Json[] };
const item = (list: 'items' | 'regimes' | 'recipes', key: 'id' | 'type', id: string, field: (x: Json) => unknown) => (json: unknown) => {
  const found = ((json as Json)[list] ?? []).find((x) => x[key] === id);
  return found === undefined ? undefined : field(found);
};
const dateOf = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : v);
const basisSince = (x: Json) => (x.legalBasis as Json | undefined)?.since;
const regimeFrom = (x: Json) => dateOf((x.applicableFrom as Json | undefined)?.date ?? x.applicableFrom);

export const DATED_PROVISIONS: DatedProvision[] = [
  {
    provision: 'EU AI Act prohibited practices (Art. 5)',
    dictionary: 'eu-ai-act',
    clause: 'art-5-1-a',
    restatedIn: [
      { file: 'taxonomy/risk-classes.json', at: item('items', 'id', 'prohibited', (x) => x.applicableFrom) },
      { file: 'assessments/recipes.json', at: item('recipes', 'type', 'risk-classification', basisSince) },
    ],
  },
  {
    provision: 'EU AI Act general-purpose AI model duties (Art. 53)',
    dictionary: 'eu-ai-act',
    clause: 'art-53-1-a',
    restatedIn: [{ file: 'taxonomy/risk-classes.json', at: item('items', 'id', 'gpai', (x) => x.applicableFrom) }],
  },
  {
    provision: 'EU AI Act systemic-risk model duties (Art. 55)',
    dictionary: 'eu-ai-act',
    clause: 'art-55-1-a',
    restatedIn: [{ file: 'taxonomy/risk-classes.json', at: item('items', 'id', 'gpai-systemic', (x) => x.applicableFrom) }],
  },
  {
    provision: 'EU AI Act transparency duties (Art. 50)',
    dictionary: 'eu-ai-act',
    clause: 'art-50-1',
    restatedIn: [{ file: 'taxonomy/risk-classes.json', at: item('items', 'id', 'limited', (x) => x.applicableFrom) }],
  },
  {
    provision: 'EU AI Act high-risk requirements, Annex III systems (Art. 6(2), Chapter III)',
    dictionary: 'eu-ai-act',
    clause: 'art-9',
    restatedIn: [{ file: 'taxonomy/risk-classes.json', at: item('items', 'id', 'high', (x) => x.applicableFrom) }],
  },
  {
    provision: 'EU AI Act fundamental-rights impact assessment (Art. 27)',
    dictionary: 'eu-ai-act',
    clause: 'art-27',
    restatedIn: [{ file: 'assessments/recipes.json', at: item('recipes', 'type', 'fria', basisSince) }],
  },
  {
    provision: 'EU AI Act conformity assessment (Art. 43)',
    dictionary: 'eu-ai-act',
    clause: 'art-43',
    restatedIn: [{ file: 'assessments/recipes.json', at: item('recipes', 'type', 'conformity', basisSince) }],
  },
  {
    provision: 'EU AI Act serious-incident reporting (Art. 73)',
    dictionary: 'eu-ai-act',
    clause: 'art-73',
    restatedIn: [{ file: 'incident-disclosures/regimes.json', at: item('regimes', 'id', 'eu-ai-act', regimeFrom) }],
  },
  {
    provision: 'GDPR personal-data breach notification (Arts. 33, 34)',
    dictionary: 'gdpr',
    clause: 'art-33',
    restatedIn: [{ file: 'incident-disclosures/regimes.json', at: item('regimes', 'id', 'gdpr', regimeFrom) }],
  },
  {
    provision: 'NIS2 incident reporting (Art. 23)',
    dictionary: 'nis2',
    clause: 'art-23-1',
    restatedIn: [{ file: 'incident-disclosures/regimes.json', at: item('regimes', 'id', 'nis2', regimeFrom) }],
  },
  {
    provision: 'DORA major ICT-related incident reporting (Art. 19)',
    dictionary: 'dora',
    clause: 'art-19-1',
    restatedIn: [{ file: 'incident-disclosures/regimes.json', at: item('regimes', 'id', 'dora', regimeFrom) }],
  },
  {
    provision: 'LGPD security-incident communication periods (ANPD Resolution 15/2024)',
    dictionary: 'lgpd',
    clause: 'res-15-2024',
    restatedIn: [{ file: 'incident-disclosures/regimes.json', at: item('regimes', 'id', 'lgpd', regimeFrom) }],
  },
  {
    provision: 'GDPR data protection impact assessment (Art. 35)',
    dictionary: 'gdpr',
    clause: 'art-35-1',
    restatedIn: [{ file: 'assessments/recipes.json', at: item('recipes', 'type', 'dpia', basisSince) }],
  },
  {
    provision: 'GDPR right of access and its clock (Arts. 12(3), 15)',
    dictionary: 'gdpr',
    clause: 'art-15',
    restatedIn: [{ file: 'dsar/regimes.json', at: item('regimes', 'id', 'gdpr', regimeFrom) }],
  },
  {
    provision: 'UK GDPR Art. 12A: the stop of the clock of an access request',
    dictionary: 'uk-gdpr',
    clause: 'art-12a',
    restatedIn: [
      {
        file: 'dsar/regimes.json',
        at: item(
          'regimes',
          'id',
          'uk-gdpr',
          (x) => ((x.kinds as Json[] | undefined)?.find((k) => k.id === 'access')?.pause as Json | undefined)?.from,
        ),
      },
    ],
  },
  {
    provision: 'LGPD data-subject rights (Art. 18)',
    dictionary: 'lgpd',
    clause: 'art-18',
    restatedIn: [{ file: 'dsar/regimes.json', at: item('regimes', 'id', 'lgpd', regimeFrom) }],
  },
  {
    provision: "DPDP Data Principal's rights (s. 11)",
    dictionary: 'india-dpdp',
    clause: 'sec-11',
    restatedIn: [{ file: 'dsar/regimes.json', at: item('regimes', 'id', 'dpdp', regimeFrom) }],
  },
];

/**
 * Every restated date that differs from its dictionary's, and every dictionary clause whose
 * obligations disagree among themselves on the date it applies from.
 */
export function checkProvisionDates(root: string, latest: ReadonlyMap<string, FrameworkContent>): string[] {
  const errors: string[] = [];
  const files = new Map<string, unknown>();
  const read = (file: string) => {
    if (!files.has(file)) {
      const p = join(root, file);
      files.set(file, existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : undefined);
    }
    return files.get(file);
  };
  for (const p of DATED_PROVISIONS) {
    const dict = latest.get(p.dictionary);
    if (!dict) {
      errors.push(`dated provision "${p.provision}": no dictionary ${p.dictionary}`);
      continue;
    }
    const dates = [...new Set(dict.obligations.filter((o) => o.clauseRef === p.clause && !o.applicableUntil).map((o) => o.applicableFrom))];
    if (dates.length !== 1) {
      errors.push(
        `dated provision "${p.provision}": ${p.dictionary}@${dict.version} ${p.clause} has ${dates.length === 0 ? 'no obligation in force' : `obligations from ${dates.join(' and ')}`}; the table must name a clause with one date`,
      );
      continue;
    }
    const stated = dates[0];
    for (const r of p.restatedIn) {
      const json = read(r.file);
      if (json === undefined) continue;
      const value = dateOf(r.at(json));
      if (value !== stated)
        errors.push(
          `${r.file}: states ${String(value)} for "${p.provision}", where ${p.dictionary}@${dict.version} (${p.clause}) says ${stated}: state the date once, in the dictionary, and make this file agree`,
        );
    }
  }
  return errors;
}

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
      const dates = new Set(v.obligations.filter((o) => o.clauseRef === d.clause && !o.applicableUntil).map((o) => o.applicableFrom));
      if (dates.size !== 1)
        errors.push(
          `${file}: dates.${key} reads ${v.id}@${v.version} ${d.clause}, which gives ${dates.size === 0 ? 'no date' : [...dates].join(' and ')}`,
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
