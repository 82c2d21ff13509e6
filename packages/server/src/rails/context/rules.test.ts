import { describe, expect, it } from 'vitest';
import { FRAMEWORK_MIN_POINTS, FRAMEWORK_RULES, MAX_MATCHES_PER_RULE, STOP_WORDS, type TextRule, TYPE_RULES } from './rules.ts';
import { classifyText } from './service.ts';

/**
 * The context rail's rules over text (rules.ts), tested as patterns and through the classifier
 * that applies them (classifyText): a rule counts at most MAX_MATCHES_PER_RULE times, a framework
 * needs FRAMEWORK_MIN_POINTS, the score of N points is N / (N + 3).
 */

const all = (table: Readonly<Record<string, readonly TextRule[]>>) => Object.values(table).flat();
const ruleById = (id: string) => {
  const r = [...all(TYPE_RULES), ...all(FRAMEWORK_RULES)].find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return r;
};
const matches = (id: string, text: string) => {
  const r = ruleById(id);
  return [...text.matchAll(new RegExp(r.pattern, `g${r.flags}u`))].map((m) => m[0]);
};
const frameworksOf = (text: string) => classifyText(text).frameworks.map((f) => f.framework);

describe('the rule tables', () => {
  it('every pattern compiles with its flags, weighs at least 1, and has a unique id under its key', () => {
    const ids = new Set<string>();
    for (const [table, prefix] of [
      [TYPE_RULES, 'type.'],
      [FRAMEWORK_RULES, 'framework.'],
    ] as const) {
      for (const [key, rules] of Object.entries(table)) {
        expect(rules.length, key).toBeGreaterThan(0);
        for (const r of rules) {
          expect(() => new RegExp(r.pattern, `g${r.flags}u`), r.id).not.toThrow();
          expect(r.weight, r.id).toBeGreaterThanOrEqual(1);
          expect(ids.has(r.id), `${r.id} twice`).toBe(false);
          ids.add(r.id);
          if (prefix === 'framework.') expect(r.id.startsWith(`framework.${key}.`), r.id).toBe(true);
          else expect(r.id.startsWith('type.'), r.id).toBe(true);
        }
      }
    }
  });

  it('the limits', () => {
    expect(MAX_MATCHES_PER_RULE).toBe(3);
    expect(FRAMEWORK_MIN_POINTS).toBe(2);
  });

  it('stop words are function words, not the vocabulary of controls', () => {
    for (const w of ['the', 'shall', 'must', 'organisation', 'organization', 'ensure']) expect(STOP_WORDS.has(w), w).toBe(true);
    for (const w of ['security', 'access', 'data', 'risk', 'incident', 'encryption']) expect(STOP_WORDS.has(w), w).toBe(false);
  });
});

describe('patterns', () => {
  it('GDPR by name, but not inside "UK GDPR"', () => {
    expect(matches('framework.gdpr.name', 'Under the GDPR and the General Data Protection Regulation')).toEqual([
      'GDPR',
      'General Data Protection Regulation',
    ]);
    expect(matches('framework.gdpr.name', 'Under the UK GDPR')).toEqual([]);
    expect(matches('framework.uk-gdpr.name', 'Under the UK GDPR and the Data Protection Act 2018')).toEqual([
      'UK GDPR',
      'Data Protection Act 2018',
    ]);
  });

  it('article citations match "Art. 28" and "Article 28", not "Art. 280"', () => {
    expect(matches('type.dpa.article-28', 'Art. 28 and Article 28 and Art.28')).toHaveLength(3);
    expect(matches('type.dpa.article-28', 'Art. 280')).toEqual([]);
    expect(matches('type.dpia.article-35', 'Article 35(7)')).toEqual(['Article 35']);
  });

  it('acronyms and citations are case-sensitive; keywords are not', () => {
    expect(matches('framework.dora.name', 'DORA applies')).toEqual(['DORA']);
    expect(matches('framework.dora.name', 'Dora from accounting')).toEqual([]);
    expect(matches('type.dpia.acronym', 'a dpia')).toEqual([]);
    expect(matches('type.policy.keyword', 'POLICY and Policy')).toEqual(['POLICY', 'Policy']);
  });

  it('ISO standards with or without /IEC, and not a longer number', () => {
    expect(matches('framework.iso-iec-27001.citation', 'ISO/IEC 27001:2022 and ISO 27001')).toEqual(['ISO/IEC 27001', 'ISO 27001']);
    expect(matches('framework.iso-iec-27001.citation', 'ISO 270011')).toEqual([]);
  });

  it('the EU AI Act and the Regulation number', () => {
    expect(matches('framework.eu-ai-act.citation', 'Regulation (EU) 2024/1689')).toEqual(['Regulation (EU) 2024/1689']);
    expect(matches('framework.eu-ai-act.name', 'the EU AI Act')).toEqual(['EU AI Act']);
  });

  it('CCPA by section of the Civil Code', () => {
    expect(matches('framework.ccpa-cpra.name', 'Cal. Civ. Code § 1798.100 and §1798.105')).toEqual(['§ 1798.100', '§1798.105']);
  });
});

describe('classifyText', () => {
  it('empty text: no type, score 0, nothing listed', () => {
    expect(classifyText('')).toEqual({ documentType: null, score: 0, candidates: [], frameworks: [] });
  });

  it('a rule counts at most three times; the score of N points is N / (N + 3)', () => {
    const c = classifyText('policy policy policy policy policy');
    expect(c.documentType).toBe('policy');
    expect(c.candidates[0]).toMatchObject({ documentType: 'policy', points: 6, score: 0.6667 });
    expect(c.candidates[0]?.evidence[0]).toMatchObject({ rule: 'type.policy.keyword', matchCount: 5, weight: 2 });
  });

  it('a framework needs 2 points: one weight-1 keyword is not enough, two are', () => {
    expect(frameworksOf('The data subjects were told.')).toEqual([]);
    expect(classifyText('The data subjects were told; the lawful basis is consent.').frameworks).toMatchObject([
      { framework: 'gdpr', points: 2, score: 0.4 },
    ]);
  });

  it('the type with the most points wins, ties by name', () => {
    const c = classifyText('This Data Processing Agreement (DPA) lists the sub-processors under Art. 28.');
    expect(c.documentType).toBe('data_processing_agreement');
    // dpa keyword 4 + acronym 3 + sub-processors 2 + Art. 28 3 = 12.
    expect(c.candidates[0]).toMatchObject({ points: 12, score: 0.8 });
    expect(c.candidates.map((x) => x.documentType)).toContain('contract');
    // A tie: contract keyword (2) and policy keyword (2): alphabetical.
    expect(classifyText('policy contract').documentType).toBe('contract');
  });

  it('a UK GDPR text is UK GDPR, not EU GDPR', () => {
    expect(frameworksOf('Our processing is governed by the UK GDPR.')).toEqual(['uk-gdpr']);
  });

  it('frameworks are listed by points, then by name', () => {
    expect(frameworksOf('NIS2 and DORA and ISO 27001 apply; see Regulation (EU) 2024/1689, the AI Act.')).toEqual([
      'eu-ai-act',
      'dora',
      'iso-iec-27001',
      'nis2',
    ]);
  });

  // The "AI Act" inside "Colorado AI Act" is the state statute, not the EU regulation.
  it('a text naming only the Colorado AI Act is not listed as the EU AI Act', () => {
    expect(frameworksOf('This assessment covers our duties under the Colorado AI Act.')).toEqual(['colorado-ai-act']);
  });
});
