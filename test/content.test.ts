/**
 * The reference content as checked data: the check passes on what ships and fails on each kind of
 * defect it promises to catch, and a set of facts a reviewer can check against the sources is
 * pinned here (deadlines, article contents, control counts of the standards).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_ROOT, checkContent, README_END, README_START, readContent, readmeContentBlock } from '@svc/server/content';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRailData } from '../packages/server/src/content/rail-data.ts';

const DICTIONARIES = [
  'eu-ai-act',
  'gdpr',
  'iso-iec-42001',
  'nis2',
  'dora',
  'cyber-resilience-act',
  'uk-gdpr',
  'ccpa-cpra',
  'lgpd',
  'india-dpdp',
  'hipaa',
  'nist-csf-2',
  'nist-sp-800-53',
  'nist-ai-rmf',
  'nist-privacy-framework',
  'nist-ssdf',
  'iso-iec-27001',
  'iso-iec-27701',
  'iso-iec-23894',
  'soc2-tsc',
  'pci-dss-4',
  'cis-controls-8',
  'csa-ccm',
  'colorado-ai-act',
  'nis2-ir-2024-2690',
  'dora-rts-2024-1774',
  'dora-rts-2024-1772',
  'iso-iec-27701-2025',
  'eu-data-act',
];

/**
 * Delegated acts that are short by nature hold fewer provisions than a regulation or a standard:
 * their floor is what the text holds, not padding. Regulation (EU) 2024/1772 has 13 articles.
 */
const NARROW: Record<string, { clauses?: number; controls?: number; questions?: number; obligations?: number; terms?: number }> = {
  'dora-rts-2024-1772': { controls: 20, questions: 20, obligations: 20, terms: 15 },
  'dora-rts-2024-1774': { terms: 25 },
};

const set = readContent();
const dict = (id: string) => {
  const d = set.frameworks.find((f) => f.data.id === id)?.data;
  if (!d) throw new Error(`dictionary ${id} missing`);
  return d;
};
const clause = (id: string, ref: string) => dict(id).clauses.find((c) => c.ref === ref);
const obligationsOf = (id: string, refPrefix: string) =>
  dict(id).obligations.filter((o) => o.clauseRef === refPrefix || o.clauseRef.startsWith(`${refPrefix}-`));
const text = (xs: { title: string; description: string }[]) => xs.map((x) => `${x.title} ${x.description}`).join(' ');

describe('content check', () => {
  it('passes on the shipped content, strictly, with the promised breadth', () => {
    const report = checkContent(undefined, { strict: true });
    expect(report.errors).toEqual([]);
    expect(checkRailData(undefined, { strict: true }).errors).toEqual([]);
    expect(report.dictionaries.map((d) => d.id).sort()).toEqual([...DICTIONARIES].sort());
    expect(report.totals.terms).toBeGreaterThanOrEqual(760);
    expect(report.totals.edges).toBeGreaterThanOrEqual(500);
    for (const d of report.dictionaries) {
      const floor = (kind: keyof (typeof NARROW)[string]) => NARROW[d.id]?.[kind] ?? 30;
      expect(d.clauses, d.id).toBeGreaterThanOrEqual(floor('clauses'));
      expect(d.controls, d.id).toBeGreaterThanOrEqual(floor('controls'));
      expect(d.questions, d.id).toBeGreaterThanOrEqual(floor('questions'));
      expect(d.obligations, d.id).toBeGreaterThanOrEqual(floor('obligations'));
      expect(d.terms, d.id).toBeGreaterThanOrEqual(floor('terms'));
    }
  });

  it('holds at least 30 edges each between the AI Act and ISO/IEC 42001 and the AI Act and the AI RMF', () => {
    const between = (a: string, b: string) =>
      set.crosswalks
        .filter((x) => (x.data.from === a && x.data.to === b) || (x.data.from === b && x.data.to === a))
        .reduce((n, x) => n + x.data.edges.length, 0);
    expect(between('eu-ai-act', 'iso-iec-42001')).toBeGreaterThanOrEqual(30);
    expect(between('eu-ai-act', 'nist-ai-rmf')).toBeGreaterThanOrEqual(30);
    expect(between('gdpr', 'iso-iec-27701')).toBeGreaterThanOrEqual(30);
  });

  it("keeps the README's list of dictionaries, sources and licences true (pnpm content:check --readme rewrites it)", () => {
    const readme = readFileSync(join(CONTENT_ROOT, '../../../README.md'), 'utf8');
    const block = readme.slice(readme.indexOf(README_START), readme.indexOf(README_END) + README_END.length);
    expect(block).toBe(readmeContentBlock());
  });

  it('states a source and a licence for every dictionary, and keeps copyrighted standards to paraphrase', () => {
    for (const { data } of set.frameworks) {
      expect(data.license.length, data.id).toBeGreaterThan(30);
      expect(data.sourceUrl, data.id).toMatch(/^https:\/\//);
    }
    for (const id of [
      'iso-iec-27001',
      'iso-iec-27701',
      'iso-iec-42001',
      'iso-iec-23894',
      'soc2-tsc',
      'pci-dss-4',
      'cis-controls-8',
      'csa-ccm',
    ])
      expect(dict(id).license, id).toMatch(/paraphrase/i);
  });

  describe('fails on each defect it promises to catch', () => {
    let root: string;
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'svc-content-'));
      cpSync(CONTENT_ROOT, root, { recursive: true });
    });
    const edit = (file: string, change: (json: any) => void) => {
      const p = join(root, file);
      const json = JSON.parse(readFileSync(p, 'utf8'));
      change(json);
      writeFileSync(p, JSON.stringify(json));
    };
    const fresh = () => {
      const r = mkdtempSync(join(tmpdir(), 'svc-content-'));
      cpSync(CONTENT_ROOT, r, { recursive: true });
      return r;
    };

    it('a control citing a clause that does not exist', () => {
      root = fresh();
      edit('frameworks/gdpr.json', (j) => {
        j.version = '1.0.1';
        j.controls[0].clauseRefs = ['art-999'];
      });
      expect(checkContent(root).errors.join('\n')).toMatch(/unknown clause art-999/);
    });

    it('an edge to an unknown requirement', () => {
      root = fresh();
      edit('crosswalks/eu-ai-act--iso-iec-42001.json', (j) => {
        j.version = '1.0.1';
        j.edges[0].to = 'control:ISO42001-Z.9.9';
      });
      expect(checkContent(root).errors.join('\n')).toMatch(/unknown control iso-iec-42001#ISO42001-Z\.9\.9/);
    });

    it('a term tied to an unknown dictionary, or linking a term that does not exist (strict)', () => {
      root = fresh();
      edit('glossary/gdpr.json', (j) => {
        j.version = '1.0.1';
        j.terms[0].related.push({ term: 'gdpr:no-such-term', relation: 'related' });
      });
      expect(checkContent(root, { strict: true }).errors.join('\n')).toMatch(/links unknown term gdpr:no-such-term/);
      writeFileSync(
        join(root, 'glossary/atlantis-act.json'),
        JSON.stringify({
          dictionary: 'atlantis-act',
          version: '1.0.0',
          terms: [
            {
              id: 'atlantis-act:x',
              term: 'X',
              definition: 'A term of a dictionary nobody wrote.',
              clauseRef: null,
              synonyms: [],
              related: [],
            },
          ],
        }),
      );
      expect(checkContent(root).errors.join('\n')).toMatch(/terms tied to unknown dictionary atlantis-act/);
    });

    it('a duplicate id, and the same text twice', () => {
      root = fresh();
      edit('frameworks/nis2.json', (j) => {
        j.version = '1.0.1';
        j.controls.push({ ...j.controls[0] });
      });
      expect(checkContent(root).errors.join('\n')).toMatch(/duplicate control/);
      root = fresh();
      edit('frameworks/nis2.json', (j) => {
        j.version = '1.0.1';
        j.clauses[1].summary = j.clauses[0].summary;
      });
      expect(checkContent(root).errors.join('\n')).toMatch(/same text as frameworks\/nis2\.json clause/);
    });

    it('two terms that describe their link in contradicting ways', () => {
      root = fresh();
      const first = JSON.parse(readFileSync(join(root, 'glossary/gdpr.json'), 'utf8')).terms[0].id;
      edit('glossary/uk-gdpr.json', (j) => {
        j.version = '1.0.1';
        j.terms[0].related = [{ term: first, relation: 'broader' }];
      });
      edit('glossary/gdpr.json', (j) => {
        j.version = '1.0.1';
        j.terms[0].related = [
          { term: JSON.parse(readFileSync(join(root, 'glossary/uk-gdpr.json'), 'utf8')).terms[0].id, relation: 'equivalent' },
        ];
      });
      expect(checkContent(root).errors.join('\n')).toMatch(/calls .* but .* calls it/);
    });

    it('an empty or title-only summary', () => {
      root = fresh();
      edit('frameworks/dora.json', (j) => {
        j.version = '1.0.1';
        j.clauses[0].summary = j.clauses[0].title;
        j.clauses[1].summary = 'tbd';
      });
      const errors = checkContent(root).errors.join('\n');
      expect(errors).toMatch(/summary only repeats the title/);
      expect(errors).toMatch(/text too short/);
    });

    it('a changed content hash without a new version', () => {
      root = fresh();
      edit('frameworks/gdpr.json', (j) => {
        j.clauses[0].summary = `${j.clauses[0].summary} Edited without a version bump.`;
      });
      expect(checkContent(root).errors.join('\n')).toMatch(/content of gdpr@1\.0\.0 changed without a new version/);
    });

    it("the rails' data files: a profile, workflow or taxonomy reference that does not resolve", () => {
      root = fresh();
      edit('profiles/industry-profiles.json', (j) => {
        j.version = '1.0.1';
        j.profiles[0].frameworks[0].id = 'atlantis-act';
      });
      edit('workflows/stock-workflows.json', (j) => {
        j.version = '1.0.1';
        j.workflows[0].steps[0].refs[0].ref = 'art-999';
      });
      edit('taxonomy/roles.json', (j) => {
        j.version = '1.0.1';
        j.items[0].definedBy[0].clauseRef = 'art-999';
      });
      const errors = checkRailData(root).errors.join('\n');
      expect(errors).toMatch(/industry-profiles\.json: .*atlantis-act/);
      expect(errors).toMatch(/stock-workflows\.json: .*art-999/);
      expect(errors).toMatch(/taxonomy: .*art-999/);
    });

    it("the rails' data files: a change without a new version, and a file the lock does not know (strict)", () => {
      root = fresh();
      edit('taxonomy/regulators.json', (j) => {
        j.items[0].description = `${j.items[0].description} Edited without a version bump.`;
      });
      expect(checkRailData(root).errors.join('\n')).toMatch(/taxonomy\/regulators@1\.0\.0: content changed without a new version/);
      root = fresh();
      edit('workflows/stock-workflows.json', (j) => {
        j.version = '1.1.0';
      });
      expect(checkRailData(root).errors).toEqual([]);
      expect(checkRailData(root, { strict: true }).errors.join('\n')).toMatch(
        /workflows\/stock-workflows@1\.1\.0 is not in content\.lock\.json/,
      );
    });
  });
});

describe('facts a reviewer can check against the sources', () => {
  it('GDPR Art. 33(1): a personal-data breach goes to the authority within 72 hours', () => {
    expect(text(obligationsOf('gdpr', 'art-33'))).toMatch(/72 hours/);
    expect(text(obligationsOf('uk-gdpr', 'art-33'))).toMatch(/72 hours/);
  });

  it('NIS2 Art. 23(4): early warning within 24 hours, notification within 72 hours, final report within a month', () => {
    const t = text(obligationsOf('nis2', 'art-23'));
    expect(t).toMatch(/24 hours/);
    expect(t).toMatch(/72 hours/);
    expect(t).toMatch(/one month|1 month/i);
  });

  it('DORA Art. 18: major ICT-related incidents are classified by criteria that include clients, duration and data losses', () => {
    const art18 = dict('dora').clauses.filter((c) => c.ref === 'art-18' || c.ref.startsWith('art-18-'));
    const t = art18.map((c) => c.summary).join(' ');
    expect(t).toMatch(/client/i);
    expect(t).toMatch(/duration/i);
    expect(t).toMatch(/data/i);
  });

  it('AI Act Art. 5(1)(f): emotion inference in the workplace and education is prohibited', () => {
    const c = clause('eu-ai-act', 'art-5-1-f');
    expect(c?.summary).toMatch(/emotion/i);
    expect(c?.summary).toMatch(/work/i);
  });

  it('ISO/IEC 27001:2022 Annex A has 93 controls: 37 organisational, 8 people, 14 physical, 34 technological', () => {
    const ids = dict('iso-iec-27001')
      .controls.map((c) => c.id)
      .filter((id) => /^ISO27001-A\.\d+\.\d+$/.test(id));
    expect(ids).toHaveLength(93);
    const theme = (n: number) => ids.filter((id) => id.startsWith(`ISO27001-A.${n}.`)).length;
    expect([theme(5), theme(6), theme(7), theme(8)]).toEqual([37, 8, 14, 34]);
  });

  it('NIST CSF 2.0 has 6 functions, 22 categories and 106 subcategories', () => {
    const refs = dict('nist-csf-2').clauses.map((c) => c.ref);
    expect(refs.filter((r) => /^[A-Z]{2}$/.test(r)).sort()).toEqual(['DE', 'GV', 'ID', 'PR', 'RC', 'RS']);
    expect(refs.filter((r) => /^[A-Z]{2}\.[A-Z]{2}$/.test(r))).toHaveLength(22);
    expect(dict('nist-csf-2').controls.filter((c) => /^CSF-[A-Z]{2}\.[A-Z]{2}-\d{2}$/.test(c.id))).toHaveLength(106);
  });

  it('NIST AI RMF 1.0 has 72 subcategories across GOVERN, MAP, MEASURE and MANAGE', () => {
    expect(dict('nist-ai-rmf').controls.filter((c) => /^AIRMF-(GOVERN|MAP|MEASURE|MANAGE)-\d+\.\d+$/.test(c.id))).toHaveLength(72);
  });

  it('CIS Controls v8 has 18 controls and 153 safeguards', () => {
    expect(dict('cis-controls-8').controls.filter((c) => /^CIS-\d+\.\d+$/.test(c.id))).toHaveLength(153);
    expect(dict('cis-controls-8').clauses.filter((c) => /^\d+$/.test(c.ref))).toHaveLength(18);
  });

  it('CCPA/CPRA: 45 days to answer, extendable once by 45 days', () => {
    expect(text(dict('ccpa-cpra').obligations)).toMatch(/45 (calendar )?days/);
  });

  it('LGPD Art. 19: a full answer within 15 days', () => {
    expect(text(obligationsOf('lgpd', 'art-19'))).toMatch(/15 days/);
  });

  it('HIPAA breach notification: individuals within 60 days of discovery', () => {
    expect(text(dict('hipaa').obligations)).toMatch(/60 (calendar )?days/);
  });

  it('AI Act application dates: prohibitions from 2 February 2025, general application 2 August 2026', () => {
    const from = (ref: string) => obligationsOf('eu-ai-act', ref).map((o) => o.applicableFrom);
    expect(from('art-5')).toContain('2025-02-02');
    expect(dict('eu-ai-act').obligations.map((o) => o.applicableFrom)).toContain('2026-08-02');
  });
});
