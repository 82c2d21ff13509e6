import { readFileSync } from 'node:fs';
import { groupBAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { invalid } from './common.ts';

/**
 * The data classifier: the classification dictionary (`content/agents/data-classification.json`)
 * is the rule set; a field's level is the highest level of the categories whose patterns match
 * its name, description or sample.
 */

type Level = 'public' | 'internal' | 'confidential' | 'restricted' | 'regulated';
interface Category {
  id: string;
  level: Level;
  special: string | null;
  basis: string;
  retentionDays: number;
  patterns: string[];
  samplePatterns: string[];
}
export interface ClassificationRules {
  version: string;
  levels: { id: Level; rank: number; handling: string[] }[];
  default: { level: Level; basis: string; retentionDays: number };
  categories: Category[];
  jurisdictions: Record<string, { regime: string; specialBasis: string | null; bases: Record<string, string> }>;
  defaultJurisdiction: string;
}

export const classificationRules = JSON.parse(
  readFileSync(new URL('../../../content/agents/data-classification.json', import.meta.url), 'utf8'),
) as ClassificationRules;

/** Field names as words: `dateOfBirth`, `date_of_birth` and `date-of-birth` all read `date of birth`. */
export const normalise = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase();

export interface Classified {
  name: string;
  level: Level;
  categories: string[];
  matched: string[];
  specialCategory: boolean;
  specialCategoryBasis: string | null;
  retentionFloorDays: number;
  lawfulBasis: string;
}

/** Classifies one field by the dictionary; shared with the data mapper, which classifies store categories. */
export function classify(
  rules: ClassificationRules,
  jurisdiction: string,
  field: { name: string; description?: string | undefined; sample?: string | undefined },
): Classified {
  const j = rules.jurisdictions[jurisdiction] ?? rules.jurisdictions[rules.defaultJurisdiction];
  const rank = (l: Level) => rules.levels.find((x) => x.id === l)?.rank ?? 0;
  const text = normalise(`${field.name} ${field.description ?? ''}`);
  const hits: { c: Category; why: string }[] = [];
  for (const c of rules.categories) {
    const p = c.patterns.find((pat) => new RegExp(pat, 'i').test(text));
    if (p) {
      hits.push({ c, why: `${c.id}: text matches /${p}/` });
      continue;
    }
    const s =
      field.sample === undefined ? undefined : c.samplePatterns.find((pat) => new RegExp(pat, 'i').test(field.sample?.trim() ?? ''));
    if (s) hits.push({ c, why: `${c.id}: sample matches /${s}/` });
  }
  // The most demanding category decides the level and the basis; ties go to the first in the dictionary.
  const top = hits.reduce<Category | undefined>((best, h) => (!best || rank(h.c.level) > rank(best.level) ? h.c : best), undefined);
  const special = hits.find((h) => h.c.special !== null)?.c;
  const basisKind = special?.basis ?? top?.basis ?? rules.default.basis;
  return {
    name: field.name,
    level: top?.level ?? rules.default.level,
    categories: hits.map((h) => h.c.id),
    matched: hits.map((h) => h.why),
    specialCategory: special !== undefined,
    specialCategoryBasis: special ? `${j?.specialBasis ?? j?.regime ?? ''} ${special.special}`.trim() : null,
    retentionFloorDays: Math.max(rules.default.retentionDays, ...hits.map((h) => h.c.retentionDays)),
    lawfulBasis: j?.bases[basisKind] ?? basisKind,
  };
}

export const dataClassifier = defineAgent({
  spec: groupBAgents.dataClassifier,
  ruleSet: { id: 'data-classifier-rules', version: classificationRules.version, rules: classificationRules },
  dictionaryVersion: (ctx) => ctx.versionOf('gdpr'),
  async gather(ctx, input) {
    if (!input.fields && input.datasetDescription === undefined) {
      throw invalid('fields', 'Give `fields` (the fields to classify) or `datasetDescription`.', 'missing');
    }
    const jurisdiction = (input.jurisdiction ?? classificationRules.defaultJurisdiction).toLowerCase();
    if (!classificationRules.jurisdictions[jurisdiction]) {
      throw invalid(
        'jurisdiction',
        `No classification rules for jurisdiction ${jurisdiction}; one of ${Object.keys(classificationRules.jurisdictions).join(', ')}.`,
      );
    }
    return { jurisdiction, asOf: ctx.now.toISOString() };
  },
  decide(input, facts, rules: ClassificationRules) {
    const fields = [
      ...(input.fields ?? []),
      ...(input.datasetDescription === undefined ? [] : [{ name: 'dataset', description: input.datasetDescription }]),
    ].map((f) => classify(rules, facts.jurisdiction, f));
    const rank = (l: Level) => rules.levels.find((x) => x.id === l)?.rank ?? 0;
    const top = fields.reduce((best, f) => (rank(f.level) > rank(best.level) ? f : best), fields[0] as Classified);
    const counts = { public: 0, internal: 0, confidential: 0, restricted: 0, regulated: 0 };
    for (const f of fields) counts[f.level]++;
    const special = fields.find((f) => f.specialCategory);
    return {
      jurisdiction: facts.jurisdiction,
      fields,
      overall: {
        level: top.level,
        specialCategory: special !== undefined,
        retentionFloorDays: Math.max(...fields.map((f) => f.retentionFloorDays)),
        lawfulBasis: (special ?? top).lawfulBasis,
        counts,
      },
      handling: rules.levels.find((l) => l.id === top.level)?.handling ?? [],
    };
  },
});
