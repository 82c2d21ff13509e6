import { groupBAgents, SEARCH_KIND_IDS, SEARCH_KINDS, type SearchFacet, type SearchKindId } from '@svc/contract';
import type { Database, Prisma } from '../../db/client.ts';
import { type SearchIndexes, searchIndexesFor } from '../../search/indexes.ts';
import { searchMultiIndex } from '../../search/service.ts';
import { type AgentDef, defineAgent } from '../types.ts';
import { addDays, cmp, invalid, round } from './common.ts';

/**
 * Three search facades over the one search engine (search/service.ts, BM25 with facet filters):
 * each translates a natural-language query into BM25 terms, kinds, facet filters and a date
 * condition by the same rules, with its own preset of kinds, boosts and limit. Gather runs the
 * engine and keeps its hits in the facts; decide applies the date condition, the boosts and the
 * limit to those hits, so a replay ranks the same hits the same way.
 */

interface Preset {
  kinds: SearchKindId[];
  boosts: Partial<Record<SearchKindId, number>>;
  limit: number;
}

const rules = {
  /** Hits asked of the engine, before the date condition and the limit. */
  fetch: 100,
  /** Words naming a kind of record (matched as whole words, longest phrase first). */
  kindWords: {
    evidence: ['evidence', 'artefacts', 'artifacts', 'artefact', 'artifact'],
    control: ['controls'],
    clause: ['clauses', 'articles', 'article'],
    requirement: ['requirements'],
    question: ['questions', 'questionnaire'],
    glossary_term: ['glossary', 'definition', 'definitions', 'terms'],
    crosswalk: ['crosswalk', 'crosswalks', 'mappings'],
    workflow: ['workflows', 'workflow'],
    profile: ['profiles'],
    framework: ['frameworks', 'regulations', 'standards'],
    assessment: ['assessments', 'assessment', 'systems', 'system'],
    attestation: ['attestations', 'attestation'],
    obligation: ['obligations', 'duties'],
    finding: ['findings', 'finding', 'gaps'],
    policy: ['policies', 'policy'],
    label: ['labels', 'tags'],
    certification: ['certifications', 'certificates'],
    sub_processor: ['sub-processors', 'subprocessors', 'sub-processor'],
    person: ['people', 'persons'],
    specialist: ['specialists', 'consultants'],
  } as Record<string, string[]>,
  /** Phrases turned into facet filters: facet -> value -> phrases. */
  facetWords: {
    framework: {
      'eu-ai-act': ['eu ai act', 'ai act', 'aia'],
      'uk-gdpr': ['uk gdpr', 'uk-gdpr'],
      gdpr: ['gdpr'],
      'iso-iec-27001': ['iso 27001', 'iso/iec 27001', '27001'],
      'iso-iec-27701': ['27701'],
      'iso-iec-42001': ['iso 42001', '42001'],
      'iso-iec-23894': ['23894'],
      'nist-ai-rmf': ['ai rmf', 'nist ai rmf'],
      'nist-csf-2': ['nist csf', 'csf'],
      'soc2-tsc': ['soc 2', 'soc2'],
      'pci-dss-4': ['pci dss', 'pci'],
      'ccpa-cpra': ['ccpa', 'cpra'],
      dora: ['dora'],
      nis2: ['nis2', 'nis 2'],
      hipaa: ['hipaa'],
      lgpd: ['lgpd'],
      'india-dpdp': ['dpdp'],
      'cyber-resilience-act': ['cyber resilience act', 'cra'],
    },
    severity: { critical: ['critical'], high: ['high severity', 'high-severity'], medium: ['medium severity'], low: ['low severity'] },
    status: { open: ['open'], draft: ['draft', 'drafts'], resolved: ['resolved'], active: ['active'] },
  } as Record<string, Record<string, string[]>>,
  /** Date conditions: `older than N days|weeks|months` and `in the last N days|weeks|months`. */
  datePatterns: {
    before: '\\b(?:older than|before|more than)\\s+(\\d{1,4})\\s+(day|week|month)s?(?:\\s+old)?\\b',
    after: '\\b(?:newer than|within|in the last|last|past)\\s+(\\d{1,4})\\s+(day|week|month)s?\\b',
  },
  unitDays: { day: 1, week: 7, month: 30 } as Record<string, number>,
  /** The date field of each kind a date condition applies to. */
  dateFields: {
    evidence: 'collectedAt',
    finding: 'createdAt',
    attestation: 'attestedAt',
    obligation: 'dueDate',
    certification: 'validUntil',
  } as Record<string, string>,
  /** Words left out of the terms once the rest is understood. */
  fillerWords: [
    'show',
    'find',
    'list',
    'me',
    'all',
    'the',
    'in',
    'of',
    'for',
    'with',
    'about',
    'our',
    'my',
    'that',
    'are',
    'which',
    'than',
  ],
  presets: {
    'svc-search': { kinds: [...SEARCH_KIND_IDS], boosts: { control: 1.2, evidence: 1.2, clause: 1.1, finding: 1.1 }, limit: 10 },
    'alt1-search': {
      kinds: ['evidence', 'finding', 'policy', 'attestation', 'obligation', 'certification', 'sub_processor', 'assessment'],
      boosts: { evidence: 1.5, finding: 1.3, policy: 1.2 },
      limit: 10,
    },
    'alt2-search': {
      kinds: ['clause', 'control', 'requirement', 'glossary_term', 'question', 'crosswalk', 'framework'],
      boosts: { clause: 1.3, glossary_term: 1.2, control: 1.1 },
      limit: 10,
    },
  } as Record<string, Preset>,
};

type Rules = typeof rules;
type FacadeRules = Omit<Rules, 'presets'> & { preset: Preset };
const { presets: _presets, ...shared } = rules;
const FACETS_OF = new Map<string, readonly string[]>(SEARCH_KINDS.map((k) => [k.id, k.facets as readonly string[]]));
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const phrase = (p: string) => new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(p)}(?![\\p{L}\\p{N}-])`, 'iu');

export interface Parsed {
  terms: string;
  kinds: string[];
  filters: Record<string, string[]>;
  dateFilter: { field: string; before: string | null; after: string | null } | null;
  matched: string[];
}

/** The query as the rules read it; pure (the date condition counts from `asOf`). */
export function parseQuery(query: string, given: readonly string[] | undefined, preset: Preset, asOf: string, r: Rules = rules): Parsed {
  let text = ` ${query.toLowerCase()} `;
  const matched: string[] = [];
  const take = (p: string) => {
    const re = phrase(p);
    if (!re.test(text)) return false;
    text = text.replace(new RegExp(re.source, 'giu'), ' ');
    return true;
  };

  const bounds: { before: string | null; after: string | null } = { before: null, after: null };
  for (const side of ['before', 'after'] as const) {
    const m = new RegExp(r.datePatterns[side], 'i').exec(text);
    if (!m) continue;
    const days = Number(m[1]) * (r.unitDays[m[2] as string] ?? 1);
    bounds[side] = addDays(asOf, -days);
    matched.push(`date: "${m[0].trim()}" -> ${side} ${bounds[side]}`);
    text = text.replace(m[0], ' ');
  }
  let dateFilter: Parsed['dateFilter'] = bounds.before || bounds.after ? { field: '', ...bounds } : null;

  const named: string[] = [];
  const kindPhrases = Object.entries(r.kindWords)
    .flatMap(([kind, ps]) => ps.map((p) => ({ kind, p })))
    .sort((a, b) => b.p.length - a.p.length || cmp(a.p, b.p));
  for (const { kind, p } of kindPhrases)
    if (take(p)) {
      if (!named.includes(kind)) named.push(kind);
      matched.push(`kind: "${p}" -> ${kind}`);
    }
  // Kinds given in the input win; kinds named in the query replace the preset's.
  let kinds: string[] = given ? [...given] : named.length > 0 ? named : [...preset.kinds];

  const filters: Record<string, string[]> = {};
  for (const [facet, values] of Object.entries(r.facetWords)) {
    const withFacet = kinds.filter((k) => FACETS_OF.get(k)?.includes(facet));
    if (withFacet.length === 0) continue; // none of the kinds can be filtered on it: the words stay terms
    const entries = Object.entries(values)
      .flatMap(([value, ps]) => ps.map((p) => ({ value, p })))
      .sort((a, b) => b.p.length - a.p.length || cmp(a.p, b.p));
    for (const { value, p } of entries)
      if (take(p)) {
        filters[facet] = [...new Set([...(filters[facet] ?? []), value])];
        matched.push(`${facet}: "${p}" -> ${value}`);
      }
    if (filters[facet]) kinds = withFacet;
  }
  if (dateFilter) {
    const dated = kinds.filter((k) => r.dateFields[k]);
    if (dated.length > 0) {
      kinds = dated;
      dateFilter.field = kinds.map((k) => `${k}.${r.dateFields[k]}`).join(',');
    } else {
      // None of the kinds has a date the condition could apply to: it is reported, not applied.
      matched.push('date: no kind searched has a date field; the condition is not applied');
      dateFilter = null;
    }
  }
  const terms = (text.match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? []).filter((w) => !r.fillerWords.includes(w)).join(' ');
  return { terms, kinds: [...new Set(kinds)].sort(cmp), filters, dateFilter, matched };
}

// ---------------------------------------------------------------- the engine

/**
 * The agents reach the engine through the search rail's indexes of the same database client
 * (searchIndexesFor); where no app registered them (a process without the API), through a set of
 * their own that reads its watermarks with SQL through the ORM client of the agent context.
 */
function indexesFor(prisma: Prisma): SearchIndexes {
  // The search rail's, when the app registered them for this client; else a set of their own, reading through Prisma.
  const db = {
    prisma,
    sql: { query: (text: string, values: readonly unknown[] = []) => prisma.$queryRawUnsafe(text, ...values) },
  } as unknown as Database;
  return searchIndexesFor(db);
}

interface Hit {
  kind: string;
  id: string;
  title: string;
  score: number;
  snippet: string | null;
  fields: Record<string, unknown>;
}
interface Facts {
  asOf: string;
  parsed: Parsed;
  hits: Hit[];
}

function facade(spec: (typeof groupBAgents)['svcSearch']): AgentDef<(typeof groupBAgents)['svcSearch'], Facts> {
  const slug = spec.slug;
  return defineAgent({
    spec,
    // Each facade's rules are the shared translation rules plus its own preset.
    ruleSet: { id: `${slug}-rules`, version: '1.0.0', rules: { ...shared, preset: rules.presets[slug] } },
    dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
    async gather(ctx, input): Promise<Facts> {
      const unknown = (input.kinds ?? []).filter((k) => !(SEARCH_KIND_IDS as readonly string[]).includes(k));
      if (unknown.length > 0) throw invalid('kinds', `Unknown kinds: ${unknown.join(', ')}; see GET /v1/search/kinds.`);
      const asOf = ctx.now.toISOString();
      const parsed = parseQuery(input.query, input.kinds, rules.presets[slug] as Preset, asOf);
      const query: Record<string, unknown> & { q: string; limit: number } = {
        q: parsed.terms,
        limit: rules.fetch,
        kinds: parsed.kinds.join(','),
      };
      for (const [facet, values] of Object.entries(parsed.filters)) query[facet as SearchFacet] = values.join(',');
      const res = await searchMultiIndex(indexesFor(ctx.prisma), ctx.tenantId, query);
      return {
        asOf,
        parsed,
        hits: res.data.map((h) => ({ kind: h.kind, id: h.id, title: h.title, score: h.score, snippet: h.snippet, fields: h.fields })),
      };
    },
    decide(input, facts, r: FacadeRules) {
      const preset = r.preset;
      const d = facts.parsed.dateFilter;
      const inDate = (h: Hit) => {
        if (!d) return true;
        const field = r.dateFields[h.kind];
        const value = field ? h.fields[field] : undefined;
        if (typeof value !== 'string') return false;
        const day = value.slice(0, 10);
        return (d.before === null || day < d.before) && (d.after === null || day >= d.after);
      };
      const ranked = facts.hits
        .filter(inDate)
        .map((h, position) => ({ h, position, score: round(h.score * ((preset.boosts as Record<string, number>)[h.kind] ?? 1), 4) }))
        .sort((a, b) => b.score - a.score || a.position - b.position);
      const limit = input.limit ?? preset.limit;
      return {
        parsed: facts.parsed,
        total: ranked.length,
        hits: ranked.slice(0, limit).map((x, i) => ({
          rank: i + 1,
          kind: x.h.kind,
          id: x.h.id,
          title: x.h.title,
          score: x.score,
          engineScore: x.h.score,
          snippet: x.h.snippet,
          fields: x.h.fields,
        })),
      };
    },
  });
}

export const searchAgents = [facade(groupBAgents.svcSearch), facade(groupBAgents.alt1Search), facade(groupBAgents.alt2Search)];
