import { INCIDENT_REGIMES, type IncidentClock, type IncidentFactors, type IncidentRegime } from '@svc/contract';
import { z } from 'zod';
import { dataFile } from '../../content/data-file.ts';
import { DictionaryDate } from '../../content/provision-dates.ts';

/**
 * The notification clocks of the incident regimes: the rules are data
 * (`content/incident-disclosures/regimes.json`, each stage with its legal source), the arithmetic
 * is here. Every deadline is computed from the moment the incident became known, the DORA
 * classification time or the filing of an earlier stage; none is typed in by hand.
 */

const Unit = z.enum(['hours', 'days', 'business_days', 'months']);
const Factor = z.enum(['highRiskToDataSubjects', 'death', 'widespreadInfringement', 'criticalInfrastructure']);
const Source = z.string().min(5);

const ClockSchema = z.strictObject({
  from: z.enum(['aware', 'classified', 'submission']),
  stage: z.string().optional(),
  amount: z.int().min(1),
  unit: Unit,
  cap: z.strictObject({ from: z.enum(['aware']), amount: z.int().min(1), unit: Unit }).optional(),
});

const StageSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  title: z.string().min(3),
  clock: ClockSchema.nullable(),
  when: Factor.optional(),
  variants: z
    .array(z.strictObject({ when: Factor, amount: z.int().min(1), unit: Unit, source: Source, rule: z.string().min(10) }))
    .optional(),
  rule: z.string().min(10),
  source: Source,
  fields: z.array(z.string()).min(1),
});

const RegimeSchema = z.strictObject({
  id: z.enum(INCIDENT_REGIMES),
  title: z.string().min(3),
  jurisdiction: z.string().min(2),
  authority: z.string().min(3),
  /** In the file the provision (`{ dictionary, clause }`) whose date starts the regime's clocks; the start of that day once read. */
  applicableFrom: DictionaryDate.transform((day) => `${day}T00:00:00.000Z`).optional(),
  applicableFromSource: Source.optional(),
  stages: z.array(StageSchema).min(1),
});

export const RegimeRulesSchema = z
  .strictObject({
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    description: z.string().min(20),
    regimes: z.array(RegimeSchema),
  })
  .superRefine((d, ctx) => {
    const ids = d.regimes.map((r) => r.id);
    for (const id of INCIDENT_REGIMES)
      if (!ids.includes(id)) ctx.addIssue({ code: 'custom', path: ['regimes'], message: `no rules for ${id}` });
    for (const [i, r] of d.regimes.entries()) {
      if (ids.indexOf(r.id) !== i) ctx.addIssue({ code: 'custom', path: ['regimes', i, 'id'], message: `${r.id} twice` });
      for (const [j, s] of r.stages.entries()) {
        const after = s.clock?.from === 'submission' ? s.clock.stage : undefined;
        if (s.clock?.from === 'submission' && !r.stages.slice(0, j).some((p) => p.id === after))
          ctx.addIssue({ code: 'custom', path: ['regimes', i, 'stages', j, 'clock', 'stage'], message: 'must name an earlier stage' });
      }
    }
  });
export type RegimeRules = z.infer<typeof RegimeRulesSchema>;
export type RegimeRule = RegimeRules['regimes'][number];
export type StageRule = RegimeRule['stages'][number];

/** The regimes' notification clocks (`content/incident-disclosures/regimes.json`). */
export const REGIME_RULES = dataFile('incident-disclosures/regimes.json', RegimeRulesSchema);
export const REGIME_RULES_PATH = REGIME_RULES.path;
export const readRegimeRules = REGIME_RULES.read;
/** The rules of the content folder in use, read and checked once per file. */
export const regimeRules = REGIME_RULES.current;
export const rulesVersion = REGIME_RULES.versionKey;

export function regimeRule(id: IncidentRegime): RegimeRule {
  const r = regimeRules().regimes.find((x) => x.id === id);
  if (!r) throw new Error(`no rules for regime ${id}`);
  return r;
}

const HOUR = 3_600_000;

/**
 * `start` plus an amount of a unit, in UTC: hours and days exactly; a month to the same day and
 * time of the next month, or that month's last day when the day does not exist (31 January +
 * 1 month = 28 or 29 February); business days skip Saturdays and Sundays (holidays are not known).
 */
export function addPeriod(start: Date, amount: number, unit: z.infer<typeof Unit>): Date {
  switch (unit) {
    case 'hours':
      return new Date(start.getTime() + amount * HOUR);
    case 'days':
      return new Date(start.getTime() + amount * 24 * HOUR);
    case 'months': {
      const y = start.getUTCFullYear();
      const m = start.getUTCMonth() + amount;
      const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      const d = new Date(start);
      d.setUTCFullYear(y, m, Math.min(start.getUTCDate(), last));
      return d;
    }
    case 'business_days': {
      const d = new Date(start);
      let left = amount;
      while (left > 0) {
        d.setUTCDate(d.getUTCDate() + 1);
        const day = d.getUTCDay();
        if (day !== 0 && day !== 6) left--;
      }
      return d;
    }
  }
}

export interface SubmissionRecord {
  regime: IncidentRegime;
  stage: string;
  submittedAt: string;
  channelId: string | null;
  reference: string | null;
  recordedBy: string;
}

export interface ClockInput {
  regimes: readonly IncidentRegime[];
  knownAt: Date;
  classifiedMajorAt: Date | null;
  factors: z.infer<typeof IncidentFactors>;
  submissions: readonly SubmissionRecord[];
}

type Clock = z.infer<typeof IncidentClock>;

/** The stages of a regime that apply to an incident with these factors. */
export function applicableStages(regime: RegimeRule, factors: ClockInput['factors']): StageRule[] {
  return regime.stages.filter((s) => !s.when || factors[s.when] === true);
}

/** Every clock of the incident at `now`, earliest deadline first (stages without one last). */
export function computeClocks(input: ClockInput, now: Date): Clock[] {
  const out: Clock[] = [];
  for (const id of input.regimes) {
    const regime = regimeRule(id);
    const applies = !regime.applicableFrom || input.knownAt >= new Date(regime.applicableFrom);
    const due = new Map<string, Date | null>();
    for (const stage of applicableStages(regime, input.factors)) {
      const filed = input.submissions.find((s) => s.regime === id && s.stage === stage.id);
      const submittedAt = filed ? new Date(filed.submittedAt) : null;
      const base = { regime: id, stage: stage.id, title: stage.title, submittedAt: filed?.submittedAt ?? null };
      if (!applies) {
        out.push({
          ...base,
          dueAt: null,
          basis: 'aware',
          rule: `Not applicable: the incident became known before ${regime.applicableFrom?.slice(0, 10)}.`,
          source: regime.applicableFromSource ?? stage.source,
          state: 'not_applicable',
        });
        continue;
      }
      const clock = stage.clock;
      if (!clock) {
        due.set(stage.id, null);
        out.push({
          ...base,
          dueAt: null,
          basis: 'aware',
          rule: stage.rule,
          source: stage.source,
          state: submittedAt ? 'submitted' : 'no_deadline',
        });
        continue;
      }
      let from: Date | null;
      let basis: string;
      if (clock.from === 'aware') {
        from = input.knownAt;
        basis = 'aware';
      } else if (clock.from === 'classified') {
        // Not classified yet: only the outer bound counted from awareness runs.
        from = input.classifiedMajorAt;
        basis = input.classifiedMajorAt ? 'classified' : 'aware';
      } else {
        const prior = input.submissions.find((s) => s.regime === id && s.stage === clock.stage);
        from = prior ? new Date(prior.submittedAt) : (due.get(clock.stage as string) ?? null);
        basis = `${prior ? 'submission' : 'provisional'}:${clock.stage}`;
      }
      // The shortest applicable variant wins (a death and a widespread infringement: 2 days).
      let pick = { amount: clock.amount, unit: clock.unit, rule: stage.rule, source: stage.source };
      let dueAt = from ? addPeriod(from, pick.amount, pick.unit) : null;
      for (const v of stage.variants ?? []) {
        if (input.factors[v.when] !== true || !from) continue;
        const candidate = addPeriod(from, v.amount, v.unit);
        if (dueAt && candidate < dueAt) {
          dueAt = candidate;
          pick = v;
        }
      }
      if (clock.cap) {
        const cap = addPeriod(input.knownAt, clock.cap.amount, clock.cap.unit);
        if (!dueAt || cap < dueAt) {
          dueAt = cap;
          basis = 'aware';
        }
      }
      due.set(stage.id, dueAt);
      const state: Clock['state'] = submittedAt
        ? dueAt && submittedAt > dueAt
          ? 'submitted_late'
          : 'submitted'
        : dueAt && now > dueAt
          ? 'late'
          : 'pending';
      out.push({ ...base, dueAt: dueAt ? dueAt.toISOString() : null, basis, rule: pick.rule, source: pick.source, state });
    }
  }
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => {
      if (a.c.dueAt === b.c.dueAt) return a.i - b.i;
      if (a.c.dueAt === null) return 1;
      if (b.c.dueAt === null) return -1;
      return a.c.dueAt < b.c.dueAt ? -1 : 1;
    })
    .map((x) => x.c);
}
