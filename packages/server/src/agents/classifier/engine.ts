import { readFileSync } from 'node:fs';
import { clauseDates } from '../../content/framework-schema.ts';

/**
 * The EU AI Act classifier's engine: plain-language descriptions are normalised, matched against
 * the concepts of the rule set (phrase patterns kept as data in
 * `content/agents/classifier-rules.json`), and the rules that fire decide the class. Everything
 * here is pure: the same description, facts and rules give the same answer, byte for byte.
 */

export type RiskLevel = 'prohibited' | 'high' | 'gpai' | 'limited' | 'minimal';

export interface Rule {
  id: string;
  level: RiskLevel;
  area: string;
  provision: string;
  title: string;
  clauses: string[];
  all?: string[];
  any?: string[];
  none?: string[];
  derogable?: boolean;
  duties?: string[];
  /** The basis of the Art. 27 fundamental rights impact assessment for a deployer of this Annex III use (a key of `fria.bases`). */
  fria?: string;
  exceptionNote?: string;
  /** Sentences added to the rationale when the rule decides the class (for example where the system is registered). */
  notes?: string[];
}

interface Condition {
  clause: string;
  title: string;
  all: string[];
}

export interface ClassifierRules {
  id: string;
  version: string;
  dictionary: string;
  normalise: { replace: [string, string][]; keepWords: string[] };
  precedence: RiskLevel[];
  levels: Record<RiskLevel, { label: string; clauses: string[]; appliesFrom: string | null }>;
  derogation: { provision: string; grounds: Condition[]; blockedBy: string; clauses: string[] };
  /**
   * Art. 27(1): which deployers of an Annex III system owe a fundamental rights impact assessment. Each basis is
   * `always` or `publicDeployer` (only when `publicDeployerConcept` matches the description or the system profile).
   */
  fria: {
    provision: string;
    clauses: string[];
    publicDeployerConcept: string;
    bases: Record<string, { due: 'always' | 'publicDeployer'; reason: string }>;
  };
  gpai: { systemicRiskFlops: number; systemicRiskClauses: string[]; designationConcept: string; computePatterns: string[] };
  transparencyDuties: Record<string, { holder: string; duty: string }>;
  profileFlags: Record<string, string>;
  roles: { byProviderKind: Record<string, string[]>; default: string[]; gpaiActor: string };
  /**
   * The dates a class applies from are the dictionary's, read from the obligations of `clause` (the
   * one statement of the date); `source` names the provision that sets it as enacted.
   */
  dates: Record<string, { clause: string; source: string }>;
  /* Rule sets before 1.2.0 stated the dates themselves (`date`, `asEnacted`); their decisions replay on them. */
  templates: Record<
    | 'fired'
    | 'none'
    | 'minimalSignal'
    | 'exception'
    | 'derogationApplies'
    | 'derogationBlocked'
    | 'alsoGpai'
    | 'systemic'
    | 'transparency'
    | 'fria'
    | 'friaUnknown',
    string
  >;
  concepts: Record<string, string[]>;
  rules: Rule[];
}

export const classifierRules = JSON.parse(
  readFileSync(new URL('../../../content/agents/classifier-rules.json', import.meta.url), 'utf8'),
) as ClassifierRules;

/** Every clause id the rules can cite: gather reads exactly these from the dictionary. */
export function citedClauses(rules: ClassifierRules): string[] {
  const refs = new Set<string>();
  for (const r of rules.rules) for (const c of r.clauses) refs.add(c);
  for (const l of Object.values(rules.levels)) for (const c of l.clauses) refs.add(c);
  for (const c of rules.derogation.clauses) refs.add(c);
  for (const g of rules.derogation.grounds) refs.add(g.clause);
  for (const c of rules.gpai.systemicRiskClauses) refs.add(c);
  for (const c of rules.fria.clauses) refs.add(c);
  for (const c of Object.keys(rules.transparencyDuties)) refs.add(c);
  return [...refs].sort();
}

// ---------------------------------------------------------------- normalisation

const WORD = '[a-z0-9]';

function stem(word: string, keep: ReadonlySet<string>): string {
  if (word.length <= 3 || keep.has(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/**
 * Lowercase, accents and punctuation removed, possessives dropped, plural endings stemmed:
 * "Students' essays" and "student essay" read the same. Patterns go through the same steps, so
 * the two sides always agree.
 */
export function normalise(text: string, rules: ClassifierRules, keep: ReadonlySet<string> = new Set(rules.normalise.keepWords)): string {
  let s = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  for (const [from, to] of rules.normalise.replace) s = s.split(from).join(to);
  s = s.replace(/['’]s\b/g, '').replace(/['’]/g, '');
  return s
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => stem(w, keep))
    .join(' ');
}

// ---------------------------------------------------------------- patterns

interface Compiled {
  keep: ReadonlySet<string>;
  concepts: Map<string, { source: string; regex: RegExp }[]>;
  compute: RegExp[];
}

const compiledCache = new WeakMap<ClassifierRules, Compiled>();

/** One pattern to a regular-expression body over normalised text (see the rule set's `syntax`). */
function patternBody(pattern: string, rules: ClassifierRules, keep: ReadonlySet<string>, depth: number): string {
  const parts: string[] = [];
  let gap = 0;
  for (const token of pattern.split(/\s+/).filter((t) => t.length > 0)) {
    const g = /^~(\d+)$/.exec(token);
    if (g) {
      gap = Number(g[1]);
      continue;
    }
    let el: string;
    if (token.startsWith('@')) {
      el = conceptBody(token.slice(1), rules, keep, depth + 1);
    } else {
      const alts = token.split('|').map((alt) => {
        if (alt.endsWith('*')) return `${normalise(alt.slice(0, -1), rules, new Set([alt.slice(0, -1)]))}${WORD}*`;
        return normalise(alt, rules, keep);
      });
      el = alts.length === 1 ? (alts[0] ?? '') : `(?:${alts.join('|')})`;
    }
    if (parts.length === 0) parts.push(el);
    else parts.push(` ${gap > 0 ? `(?:${WORD}+ ){0,${gap}}` : ''}${el}`);
    gap = 0;
  }
  return parts.join('');
}

function conceptBody(name: string, rules: ClassifierRules, keep: ReadonlySet<string>, depth: number): string {
  const patterns = rules.concepts[name];
  if (!patterns) throw new Error(`classifier rules: unknown concept @${name}`);
  if (depth > 4) throw new Error(`classifier rules: concept references nest too deep at @${name}`);
  return `(?:${patterns.map((p) => patternBody(p, rules, keep, depth)).join('|')})`;
}

function compile(rules: ClassifierRules): Compiled {
  const cached = compiledCache.get(rules);
  if (cached) return cached;
  const keep = new Set(rules.normalise.keepWords);
  const concepts = new Map<string, { source: string; regex: RegExp }[]>();
  for (const [name, patterns] of Object.entries(rules.concepts)) {
    concepts.set(
      name,
      patterns.map((p) => ({ source: p, regex: new RegExp(`(?<!${WORD})${patternBody(p, rules, keep, 0)}(?!${WORD})`) })),
    );
  }
  const compiled = { keep, concepts, compute: rules.gpai.computePatterns.map((p) => new RegExp(p, 'g')) };
  compiledCache.set(rules, compiled);
  return compiled;
}

// ---------------------------------------------------------------- classification

export interface Segment {
  source: 'name' | 'purpose' | 'persons' | 'systemProfile';
  text: string;
}

export interface Hit {
  concept: string;
  phrase: string;
  source: string;
}

export interface Description {
  segments: Segment[];
  /** Flags of the tenant's system profile that stand for a concept (rules.profileFlags). */
  flags: string[];
  providerKind: string | null;
  trainingComputeFlops: number | null;
  /**
   * Who deploys, when the request says so (Art. 27(1)): a body governed by public law, a private
   * entity providing public services, or a private deployer. Null: read from the texts.
   */
  deployerType?: 'public_body' | 'public_service' | 'private' | null;
}

/** A class's date as the dictionary states it, and the date as enacted when an amendment moved it. */
export interface TimelineEntry {
  date: string;
  source: string;
  /** The day the amendment that set `date` entered into force; before it, `asEnacted` applied. Null when none moved it. */
  amendedFrom: string | null;
  asEnacted: { date: string; source: string } | null;
}

export interface ClassifierFacts {
  asOf: string;
  dictionary: string;
  /**
   * Per key of the rules' `dates`: read from the dictionary's versions up to the one the decision
   * uses. Absent in the facts of decisions made under rule sets before 1.2.0, which stated the dates.
   */
  timeline?: Record<string, TimelineEntry>;
  clauses: { ref: string; title: string }[];
  obligations: { id: string; title: string; clauseRef: string; actor: string; applicableFrom: string }[];
  profile: {
    systemId: string;
    name: string;
    purpose: string;
    deployerContext: string | null;
    flags: string[];
  } | null;
}

export interface Classification {
  riskLevel: RiskLevel;
  area: string;
  rationale: string;
  applicableClauses: string[];
  matched: { rule: string; level: RiskLevel; area: string; provision: string; title: string; phrases: Hit[] }[];
  exceptions: { rule: string; provision: string; reason: string; phrases: Hit[] }[];
  derogation: {
    applies: boolean;
    grounds: { clause: string; title: string; phrases: Hit[] }[];
    blockedBy: Hit | null;
    rules: string[];
  } | null;
  transparencyDuties: { clause: string; title: string; holder: string; duty: string; rule: string }[];
  systemicRisk: boolean;
  trainingComputeFlops: number | null;
  obligations: { id: string; title: string; clauseRef: string; actor: string; applicableFrom: string }[];
  appliesFrom: { date: string; source: string; asEnacted: { date: string; source: string } | null; inEffect: boolean } | null;
}

const quote = (hits: Hit[]) => hits.map((h) => `"${h.phrase}"`).join(', ');
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

export function classify(d: Description, facts: ClassifierFacts, rules: ClassifierRules): Classification {
  const { keep, concepts, compute } = compile(rules);
  const segments = d.segments.map((s) => ({ source: s.source, text: normalise(s.text, rules, keep) }));

  // Concept matches, memoised per call; the first pattern (in the rule set's order) that matches
  // any segment gives the phrase reported.
  const memo: Record<string, Hit | null> = {};
  const flagged = new Set(d.flags.map((f) => rules.profileFlags[f]).filter((c): c is string => c !== undefined));
  const match = (concept: string): Hit | null => {
    if (concept in memo) return memo[concept] ?? null;
    let hit: Hit | null = null;
    for (const p of concepts.get(concept) ?? []) {
      for (const s of segments) {
        const m = p.regex.exec(s.text);
        if (m) {
          hit = { concept, phrase: m[0], source: s.source };
          break;
        }
      }
      if (hit) break;
    }
    if (!hit && flagged.has(concept)) hit = { concept, phrase: `declared in the system profile (${concept})`, source: 'systemProfile' };
    memo[concept] = hit;
    return hit;
  };

  type Fired = { rule: Rule; phrases: Hit[] };
  const fired: Fired[] = [];
  const exceptions: Classification['exceptions'] = [];
  for (const rule of rules.rules) {
    const allHits = (rule.all ?? []).map(match);
    if (allHits.some((h) => h === null)) continue;
    const anyHits = (rule.any ?? []).map(match).filter((h): h is Hit => h !== null);
    if ((rule.any?.length ?? 0) > 0 && anyHits.length === 0) continue;
    const phrases = [...(allHits as Hit[]), ...anyHits];
    const blocker = (rule.none ?? []).map(match).find((h): h is Hit => h !== null);
    if (blocker) {
      exceptions.push({ rule: rule.id, provision: rule.provision, reason: rule.exceptionNote ?? rule.title, phrases: [blocker] });
      continue;
    }
    fired.push({ rule, phrases });
  }

  // Art. 6(3): an Annex III use is not high-risk when the system only performs one of the listed
  // tasks, and never when it profiles natural persons.
  let derogation: Classification['derogation'] = null;
  let effective = fired;
  const derogable = fired.filter((f) => f.rule.derogable);
  if (derogable.length > 0) {
    const grounds = rules.derogation.grounds
      .map((g) => ({ clause: g.clause, title: g.title, phrases: g.all.map(match) }))
      .filter((g) => g.phrases.every((h) => h !== null))
      .map((g) => ({ ...g, phrases: g.phrases as Hit[] }));
    if (grounds.length > 0) {
      const blockedBy = match(rules.derogation.blockedBy);
      derogation = { applies: blockedBy === null, grounds, blockedBy, rules: derogable.map((f) => f.rule.id) };
      if (blockedBy === null) effective = fired.filter((f) => !f.rule.derogable);
    }
  }

  const riskLevel = rules.precedence.find((level) => level !== 'minimal' && effective.some((f) => f.rule.level === level)) ?? 'minimal';
  const atLevel = effective.filter((f) => f.rule.level === riskLevel);
  const primary = atLevel[0];
  const area = primary?.rule.area ?? 'minimal';
  const gpaiFired = effective.filter((f) => f.rule.level === 'gpai');

  // Training compute: stated in the request, or written in the description ("3 x 10^25 FLOPs").
  let flops = d.trainingComputeFlops;
  if (flops === null) {
    for (const s of d.segments) {
      for (const re of compute) {
        re.lastIndex = 0;
        for (const m of s.text.toLowerCase().matchAll(re)) {
          // Parsed as one literal (`3e25`), not multiplied, so that 3 x 10^25 reads exactly 3e25.
          const v = Number(`${m[1] || '1'}e${m[2]}`);
          if (Number.isFinite(v) && (flops === null || v > flops)) flops = v;
        }
      }
    }
  }
  const designated = match(rules.gpai.designationConcept);
  const systemicRisk = gpaiFired.length > 0 && ((flops !== null && flops > rules.gpai.systemicRiskFlops) || designated !== null);

  // Duties of Art. 50 hold alongside every class except a prohibited practice, which may not be placed at all.
  const transparencyDuties: Classification['transparencyDuties'] = [];
  const titles = new Map(facts.clauses.map((c) => [c.ref, c.title]));
  if (riskLevel !== 'prohibited') {
    const seen = new Set<string>();
    for (const f of effective) {
      for (const clause of f.rule.duties ?? []) {
        const duty = rules.transparencyDuties[clause];
        if (!duty || seen.has(clause)) continue;
        seen.add(clause);
        transparencyDuties.push({ clause, title: titles.get(clause) ?? clause, holder: duty.holder, duty: duty.duty, rule: f.rule.id });
      }
    }
    transparencyDuties.sort((a, b) => (a.clause < b.clause ? -1 : a.clause > b.clause ? 1 : 0));
  }

  // Clauses: those of the class, of every rule that fired (obligations cumulate, except beside a
  // prohibition), of the derogation and of systemic risk; in the dictionary's order, and only
  // those the pinned dictionary has.
  const cited = new Set<string>(rules.levels[riskLevel].clauses);
  for (const f of effective) {
    if (riskLevel === 'prohibited' && f.rule.level !== 'prohibited') continue;
    if (riskLevel !== 'minimal' && f.rule.level === 'minimal') continue;
    for (const c of f.rule.clauses) cited.add(c);
  }
  if (derogation?.applies) {
    for (const c of rules.derogation.clauses) cited.add(c);
    for (const g of derogation.grounds) cited.add(g.clause);
  }
  if (systemicRisk && riskLevel !== 'prohibited') for (const c of rules.gpai.systemicRiskClauses) cited.add(c);

  // Art. 27(1): the impact assessment is owed by the deployer of an Annex III use (not point 2) when the use names
  // every deployer (points 5(b) and 5(c)) or only public ones, or when the deployer is a body governed by public
  // law or a private entity providing public services, as the description or the system profile tells.
  const friaReasons: string[] = [];
  let friaUnknown = false;
  if (riskLevel === 'high') {
    // A deployer type the request declares decides; without it, the texts and the profile tell.
    const declared = d.deployerType ?? null;
    const publicDeployer: Hit | null =
      declared === 'private'
        ? null
        : declared !== null
          ? { concept: rules.fria.publicDeployerConcept, phrase: `deployer declared as ${declared.replace('_', ' ')}`, source: 'request' }
          : match(rules.fria.publicDeployerConcept);
    for (const f of effective) {
      const basis = f.rule.level === 'high' && f.rule.fria !== undefined ? rules.fria.bases[f.rule.fria] : undefined;
      if (!basis) continue;
      const reason =
        basis.due === 'always'
          ? `${f.rule.provision}: ${basis.reason}`
          : publicDeployer
            ? `${basis.reason}, ${quote([publicDeployer])}`
            : null;
      if (reason === null) {
        if (declared === null) friaUnknown = true;
      } else if (!friaReasons.includes(reason)) friaReasons.push(reason);
    }
    if (friaReasons.length > 0) for (const c of rules.fria.clauses) cited.add(c);
  }
  const applicableClauses = facts.clauses.map((c) => c.ref).filter((ref) => cited.has(ref));
  const applicable = new Set(applicableClauses);

  const roles = new Set((d.providerKind !== null ? rules.roles.byProviderKind[d.providerKind] : undefined) ?? rules.roles.default);
  if (gpaiFired.length > 0) roles.add(rules.roles.gpaiActor);
  const obligations = facts.obligations
    .filter((o) => applicable.has(o.clauseRef) && roles.has(o.actor))
    .map((o) => ({ id: o.id, title: o.title, clauseRef: o.clauseRef, actor: o.actor, applicableFrom: o.applicableFrom }));

  const dateKey =
    riskLevel === 'high' ? (area === 'annex-i' ? 'high-annex-i' : 'high-annex-iii') : (rules.levels[riskLevel].appliesFrom ?? null);
  const date = dateKey ? (facts.timeline?.[dateKey] ?? statedDate(rules.dates[dateKey])) : undefined;
  const appliesFrom = date ? timelineOn(date, facts.asOf.slice(0, 10)) : null;

  // The rationale cites the provisions and the phrases that triggered them.
  const label = rules.levels[riskLevel].label;
  const t = rules.templates;
  const sentences: string[] = [];
  if (riskLevel === 'minimal') {
    const signals = atLevel.flatMap((f) => f.phrases);
    sentences.push(fill(t.none, { label }));
    if (signals.length > 0) sentences.push(fill(t.minimalSignal, { phrases: quote(signals) }));
  } else {
    for (const f of atLevel) {
      sentences.push(fill(t.fired, { label, provision: f.rule.provision, title: f.rule.title, phrases: quote(f.phrases) }));
    }
    for (const note of new Set(atLevel.flatMap((f) => f.rule.notes ?? []))) sentences.push(note);
  }
  if (friaReasons.length > 0) sentences.push(fill(t.fria, { reasons: friaReasons.join('; ') }));
  else if (friaUnknown) sentences.push(t.friaUnknown);
  if (riskLevel === 'high' && gpaiFired.length > 0)
    sentences.push(fill(t.alsoGpai, { phrases: quote(gpaiFired.flatMap((f) => f.phrases)) }));
  for (const e of exceptions) sentences.push(fill(t.exception, { provision: e.provision, reason: e.reason, phrases: quote(e.phrases) }));
  if (derogation) {
    const grounds = derogation.grounds.map((g) => `${g.title} (${quote(g.phrases)})`).join('; ');
    if (derogation.applies) {
      const provisions = [...new Set(derogable.map((f) => f.rule.provision))].join(', ');
      sentences.push(fill(t.derogationApplies, { provisions, grounds }));
    } else if (derogation.blockedBy) {
      sentences.push(fill(t.derogationBlocked, { grounds, phrases: quote([derogation.blockedBy]) }));
    }
  }
  if (systemicRisk && riskLevel !== 'prohibited') {
    const reason =
      flops !== null && flops > rules.gpai.systemicRiskFlops
        ? `: training compute ${flops.toExponential()} FLOPs exceeds ${rules.gpai.systemicRiskFlops.toExponential()}`
        : designated
          ? ` (${quote([designated])})`
          : '';
    sentences.push(fill(t.systemic, { reason }));
  }
  if (transparencyDuties.length > 0 && riskLevel !== 'limited') {
    sentences.push(fill(t.transparency, { duties: transparencyDuties.map((x) => `${x.title} (${x.clause})`).join('; ') }));
  }

  return {
    riskLevel,
    area,
    rationale: sentences.join(' '),
    applicableClauses,
    matched: effective.map((f) => ({
      rule: f.rule.id,
      level: f.rule.level,
      area: f.rule.area,
      provision: f.rule.provision,
      title: f.rule.title,
      phrases: f.phrases,
    })),
    exceptions,
    derogation,
    transparencyDuties,
    systemicRisk,
    trainingComputeFlops: flops,
    obligations,
    appliesFrom,
  };
}

/**
 * The date a class applies from, as the law stated it on `day`: the amended date once the amendment
 * is in force (with the date as enacted beside it), the date as enacted before that (with the
 * amended date beside it, as the one that will apply).
 */
export function timelineOn(
  d: TimelineEntry,
  day: string,
): { date: string; source: string; asEnacted: { date: string; source: string } | null; inEffect: boolean } {
  if (d.asEnacted && d.amendedFrom && day < d.amendedFrom)
    return {
      date: d.asEnacted.date,
      source: d.asEnacted.source,
      asEnacted: { date: d.date, source: d.source },
      inEffect: day >= d.asEnacted.date,
    };
  return { date: d.date, source: d.source, asEnacted: d.asEnacted ?? null, inEffect: day >= d.date };
}

/** One version of the dictionary as the timeline reads it: its obligations' dates and the act that made it. */
export interface TimelineVersion {
  version: string;
  publishedAt: string;
  amendingAct: { title: string; reference: string | null; inForceFrom: string | null } | null;
  obligations: { clauseRef: string; applicableFrom: string; applicableUntil?: string | null }[];
}

/**
 * The classes' dates from the dictionary's versions, oldest first, up to the one the decision uses:
 * each key's date is that of the obligations citing its clause in the last version; where an
 * earlier version said otherwise, the first version's date is the one as enacted and the version
 * that moved it names its amending act and the day that act entered into force.
 */
export function timelineOf(dates: ClassifierRules['dates'], versions: TimelineVersion[]): Record<string, TimelineEntry> {
  const dateIn = (v: TimelineVersion, clause: string) => {
    const found = clauseDates(v.obligations, clause);
    if (found.length !== 1) throw new Error(`dictionary ${v.version}: clause ${clause} has ${found.length} dates (${found.join(', ')})`);
    return found[0] as string;
  };
  const out: Record<string, TimelineEntry> = {};
  const first = versions[0];
  const last = versions.at(-1);
  if (!first || !last) throw new Error('no dictionary version to read the dates from');
  for (const [key, d] of Object.entries(dates)) {
    const date = dateIn(last, d.clause);
    const enacted = dateIn(first, d.clause);
    if (date === enacted) {
      out[key] = { date, source: d.source, amendedFrom: null, asEnacted: null };
      continue;
    }
    const mover = versions.find((v) => dateIn(v, d.clause) === date) ?? last;
    const act = mover.amendingAct;
    const amendedFrom = act?.inForceFrom ?? mover.publishedAt;
    const by = act ? `as amended by ${act.reference ?? act.title}` : `as corrected in dictionary version ${mover.version}`;
    out[key] = { date, source: `${d.source} ${by} (in force ${amendedFrom})`, amendedFrom, asEnacted: { date: enacted, source: d.source } };
  }
  return out;
}

/** The date a rule set before 1.2.0 stated itself, for the replay of its decisions. */
function statedDate(d: unknown): TimelineEntry | undefined {
  const old = d as { date?: string; source: string; amendedFrom?: string; asEnacted?: { date: string; source: string } } | undefined;
  if (!old?.date) return undefined;
  return { date: old.date, source: old.source, amendedFrom: old.amendedFrom ?? null, asEnacted: old.asEnacted ?? null };
}
