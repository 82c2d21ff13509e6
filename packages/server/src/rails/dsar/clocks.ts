import { DSAR_KINDS, DSAR_REGIMES, type DsarKind, type DsarRegime } from '@svc/contract';
import { z } from 'zod';
import { dataFile } from '../../content/data-file.ts';
import { DictionaryDate } from '../../content/provision-dates.ts';

/**
 * The statutory clocks of data-subject requests: the rules are data (`content/dsar/regimes.json`,
 * each clock with its legal source), the calendar arithmetic is here. Every date is computed from
 * the moment the request was received (and, for an extension, from the original due date); none
 * is typed in by hand.
 *
 * Dates are calendar dates in UTC. A period ends at the end of its last day (Regulation (EEC,
 * Euratom) No 1182/71 Art. 3(2)(c) for the EU regimes; the same reading for the others), so a
 * request is late from the first moment of the day after its due date.
 *
 * A request has no statutory due date (its dates are null, `noDueDate` says why) when it was
 * received before its regime, or the right it exercises, applies (`applicableFrom`), or when the
 * law fixes no period for its kind (a clock whose amount and unit are null: LGPD rights other than
 * confirmation and access).
 */

const Unit = z.enum(['days', 'business_days', 'months']);
const Source = z.string().min(5);
const Rule = z.string().min(10);

const ClockSchema = z.strictObject({ amount: z.int().min(1).max(366), unit: Unit, rule: Rule, source: Source });
/** A request the law sets no period for: the rule says so and what applies instead; no due date is computed. */
const UnfixedClockSchema = z.strictObject({ amount: z.null(), unit: z.null(), rule: Rule, source: Source });
const AnswerClockSchema = z.union([ClockSchema, UnfixedClockSchema]);
/** The first date of receipt for which the regime (or a kind's right) applies, with its legal source. */
const ApplicableFromSchema = z.strictObject({ date: DictionaryDate, rule: Rule, source: Source });
const ExtensionSchema = z.strictObject({
  amount: z.int().min(1).max(366),
  unit: Unit,
  rule: Rule,
  source: Source,
  notice: z.strictObject({ rule: Rule, source: Source }),
});

/** The stop of the clock a kind allows while the controller waits for information (UK GDPR Art. 12A), for requests received from `from`. */
const PauseSchema = z.strictObject({ from: DictionaryDate, rule: Rule, source: Source });

/**
 * The period begins with the relevant time, not the receipt (UK GDPR Art. 12A), for requests
 * received from `from`: the latest of receipt and of the identity information asked for.
 */
const RelevantTimeSchema = z.strictObject({ from: DictionaryDate, rule: Rule, source: Source });

const KindSchema = z.strictObject({
  id: z.enum(DSAR_KINDS),
  source: Source,
  /** Present: replaces the regime's clock, extension, receipt confirmation or start for this kind (null: none). */
  clock: AnswerClockSchema.optional(),
  extension: ExtensionSchema.nullable().optional(),
  receiptConfirmation: ClockSchema.nullable().optional(),
  applicableFrom: ApplicableFromSchema.optional(),
  pause: PauseSchema.optional(),
});

const RegimeSchema = z.strictObject({
  id: z.enum(DSAR_REGIMES),
  title: z.string().min(3),
  jurisdiction: z.string().min(2),
  regulator: z.string().min(3),
  applicableFrom: ApplicableFromSchema,
  clock: AnswerClockSchema,
  extension: ExtensionSchema.nullable(),
  receiptConfirmation: ClockSchema.nullable(),
  relevantTime: RelevantTimeSchema.optional(),
  kinds: z.array(KindSchema).min(1),
  answer: z.strictObject({ title: z.string().min(5), source: Source, includes: z.array(z.string().min(3)).min(1) }),
  atRiskDays: z.int().min(0).max(90).optional(),
});

export const DsarRulesSchema = z
  .strictObject({
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    description: z.string().min(20),
    atRiskDays: z.int().min(0).max(90),
    regimes: z.array(RegimeSchema),
  })
  .superRefine((d, ctx) => {
    const ids = d.regimes.map((r) => r.id);
    for (const id of DSAR_REGIMES)
      if (!ids.includes(id)) ctx.addIssue({ code: 'custom', path: ['regimes'], message: `no rules for ${id}` });
    for (const [i, r] of d.regimes.entries()) {
      if (ids.indexOf(r.id) !== i) ctx.addIssue({ code: 'custom', path: ['regimes', i, 'id'], message: `${r.id} twice` });
      const kinds = r.kinds.map((k) => k.id);
      for (const [j, k] of kinds.entries())
        if (kinds.indexOf(k) !== j) ctx.addIssue({ code: 'custom', path: ['regimes', i, 'kinds', j, 'id'], message: `${k} twice` });
      for (const [j, k] of r.kinds.entries()) {
        const path = ['regimes', i, 'kinds', j];
        // An extension extends a due date: a kind without a statutory period has none to extend.
        const clock = k.clock ?? r.clock;
        const extension = k.extension === undefined ? r.extension : k.extension;
        if (clock.amount === null && extension)
          ctx.addIssue({ code: 'custom', path: [...path, 'extension'], message: `${k.id}: no statutory period, so no extension` });
        if (k.applicableFrom && k.applicableFrom.date < r.applicableFrom.date)
          ctx.addIssue({ code: 'custom', path: [...path, 'applicableFrom'], message: `${k.id} applies before its regime` });
      }
    }
  });
export type DsarRules = z.infer<typeof DsarRulesSchema>;
export type DsarRegimeRule = DsarRules['regimes'][number];
type ClockRule = z.infer<typeof ClockSchema>;
type AnswerClockRule = z.infer<typeof AnswerClockSchema>;
type ApplicableFromRule = z.infer<typeof ApplicableFromSchema>;
type ExtensionRule = z.infer<typeof ExtensionSchema>;
type PauseRule = z.infer<typeof PauseSchema>;
type RelevantTimeRule = z.infer<typeof RelevantTimeSchema>;
export type PeriodUnit = z.infer<typeof Unit>;

/** The regimes' DSAR clocks (`content/dsar/regimes.json`). */
export const DSAR_RULES = dataFile('dsar/regimes.json', DsarRulesSchema);
export const DSAR_RULES_PATH = DSAR_RULES.path;
export const readDsarRules = DSAR_RULES.read;
/** The rules of the content folder in use, read and checked once per file. */
export const dsarRules = DSAR_RULES.current;
export const dsarRulesVersion = DSAR_RULES.versionKey;

export function dsarRegimeRule(id: DsarRegime): DsarRegimeRule {
  const r = dsarRules().regimes.find((x) => x.id === id);
  if (!r) throw new Error(`no DSAR rules for regime ${id}`);
  return r;
}

/** The kinds of request a regime grants, in the order of the data file. */
export const kindsOf = (regime: DsarRegime): DsarKind[] => dsarRegimeRule(regime).kinds.map((k) => k.id);

/** The rules that apply to one kind of request under a regime (the kind's own replace the regime's). */
export interface AppliedRules {
  regime: DsarRegimeRule;
  kindSource: string;
  /** The answer period; amount and unit null when the law fixes none for this kind. */
  clock: AnswerClockRule;
  /** From when the regime (or this kind's right, when later) applies. */
  applicableFrom: ApplicableFromRule;
  extension: ExtensionRule | null;
  receiptConfirmation: ClockRule | null;
  /** The stop of the clock the kind allows; null when none. */
  pause: PauseRule | null;
  /** Whether the period may begin after the receipt (the regime's relevant time); null when it never does. */
  relevantTime: RelevantTimeRule | null;
  atRiskDays: number;
}

export function rulesFor(regimeId: DsarRegime, kindId: DsarKind): AppliedRules | undefined {
  const regime = dsarRegimeRule(regimeId);
  const kind = regime.kinds.find((k) => k.id === kindId);
  if (!kind) return undefined;
  return {
    regime,
    kindSource: kind.source,
    clock: kind.clock ?? regime.clock,
    applicableFrom: kind.applicableFrom ?? regime.applicableFrom,
    extension: kind.extension === undefined ? regime.extension : kind.extension,
    receiptConfirmation: kind.receiptConfirmation === undefined ? regime.receiptConfirmation : kind.receiptConfirmation,
    pause: kind.pause ?? null,
    relevantTime: regime.relevantTime ?? null,
    atRiskDays: regime.atRiskDays ?? dsarRules().atRiskDays,
  };
}

// ---------------------------------------------------------------- calendar arithmetic (UTC dates)

const DAY_MS = 86_400_000;

/** The UTC calendar date of a moment, as `YYYY-MM-DD`. */
export const dateOf = (at: Date): string => at.toISOString().slice(0, 10);

const parseDate = (date: string): Date => new Date(`${date}T00:00:00.000Z`);

/**
 * A calendar date plus a period: `days` are calendar days; `business_days` skip Saturdays and
 * Sundays (public holidays are not known); `months` end on the same day number of the month
 * reached, or on that month's last day when the day does not exist (31 January + 1 month =
 * 28 February, 29 in a leap year).
 */
export function addToDate(date: string, amount: number, unit: PeriodUnit): string {
  const d = parseDate(date);
  switch (unit) {
    case 'days':
      return dateOf(new Date(d.getTime() + amount * DAY_MS));
    case 'months': {
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth() + amount;
      const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      return dateOf(new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last))));
    }
    case 'business_days': {
      let t = d.getTime();
      let left = amount;
      while (left > 0) {
        t += DAY_MS;
        const day = new Date(t).getUTCDay();
        if (day !== 0 && day !== 6) left--;
      }
      return dateOf(new Date(t));
    }
  }
}

/** The last moment of a date (UTC): a deadline on that date is met until then. */
export const endOfDate = (date: string): Date => new Date(parseDate(date).getTime() + DAY_MS - 1);

/** Whole calendar days from the date of `at` to `date` (negative when `date` is earlier). */
export const daysBetween = (at: Date, date: string): number =>
  Math.round((parseDate(date).getTime() - parseDate(dateOf(at)).getTime()) / DAY_MS);

export interface ClockPause {
  askedAt: Date;
  answeredAt: Date | null;
}

export interface RequestClockInput {
  regime: DsarRegime;
  kind: DsarKind;
  receivedAt: Date;
  extendedAt: Date | null;
  /** Stops of the clock (where the kind allows them); an open one counts to `at`. */
  pauses?: ClockPause[];
  /** When the identity information the controller asked for arrived (the regime's relevant time, where it has one). */
  identityInformationAt?: Date | null;
  /** The moment an open pause counts to; now when absent. */
  at?: Date;
}

/**
 * Calendar days a pause adds: from the day the controller asks to the day the answer arrives (UK
 * GDPR Art. 12A: that period does not count towards the time for answering). An open pause counts
 * to `at`.
 */
export function pauseDays(p: ClockPause, at: Date): number {
  return Math.max(0, daysBetween(p.askedAt, dateOf(p.answeredAt ?? at)));
}

/** Why a request has no statutory due date, with the rule and source that say so. */
export interface NoDueDate {
  /** `not_yet_applicable`: received before the regime (or the right) applies; `no_statutory_period`: the law fixes none for the kind. */
  reason: 'not_yet_applicable' | 'no_statutory_period';
  rule: string;
  source: string;
}

export interface RequestClocks {
  /** Whether the regime (and the right exercised) applied on the date of receipt; false: no date below is computed. */
  applicable: boolean;
  /** The first date of receipt the regime (or the right) applies to. */
  applicableFrom: string;
  /** Null when the request has a statutory due date; else why it has none (every date below is then null). */
  noDueDate: NoDueDate | null;
  dueDate: string | null;
  dueAt: Date | null;
  extendedDueDate: string | null;
  extendedDueAt: Date | null;
  /** The extended due date when extended, else the original; null without a statutory due date. */
  effectiveDueAt: Date | null;
  effectiveDueDate: string | null;
  receiptConfirmationDate: string | null;
  /** Whether the clock may stand still for this request (the kind allows it and it was received from the rule's date). */
  pausable: boolean;
  /** Days the pauses add to the due date. */
  pausedDays: number;
  /** When the period began: the receipt, or the later relevant time where the regime has one. */
  startedAt: Date;
  rules: AppliedRules;
}

/**
 * The request's dates from its receipt (and extension), by the rules of its regime and kind. A
 * request received before its regime or right applies, or of a kind the law sets no period for,
 * gets no date at all: `noDueDate` says why, and nothing is due or late.
 */
export function requestClocks(input: RequestClockInput): RequestClocks {
  const rules = rulesFor(input.regime, input.kind);
  if (!rules) throw new Error(`${input.regime} grants no ${input.kind} request`);
  const received = dateOf(input.receivedAt);
  const applicable = received >= rules.applicableFrom.date;
  const { clock } = rules;
  if (!applicable || clock.amount === null) {
    const noDueDate: NoDueDate = !applicable
      ? {
          reason: 'not_yet_applicable',
          rule: `Received ${received}, before ${rules.applicableFrom.date}: ${rules.applicableFrom.rule}`,
          source: rules.applicableFrom.source,
        }
      : { reason: 'no_statutory_period', rule: clock.rule, source: clock.source };
    return {
      applicable,
      applicableFrom: rules.applicableFrom.date,
      noDueDate,
      dueDate: null,
      dueAt: null,
      extendedDueDate: null,
      extendedDueAt: null,
      effectiveDueDate: null,
      effectiveDueAt: null,
      receiptConfirmationDate: null,
      pausable: false,
      pausedDays: 0,
      startedAt: input.receivedAt,
      rules,
    };
  }
  const pausable = rules.pause !== null && received >= rules.pause.from;
  const at = input.at ?? new Date();
  const pausedDays = pausable ? (input.pauses ?? []).reduce((n, p) => n + pauseDays(p, at), 0) : 0;
  // The relevant time: identity information asked for and received after the request moves the start.
  const info = input.identityInformationAt;
  const startedAt = rules.relevantTime && received >= rules.relevantTime.from && info && info > input.receivedAt ? info : input.receivedAt;
  const dueDate = addToDate(addToDate(dateOf(startedAt), clock.amount, clock.unit), pausedDays, 'days');
  // The extension counts from the original due date (the end of the first period): GDPR's "two
  // further months" after the first month, CCPA's "additional 45 days" after the first 45.
  const extendedDueDate = input.extendedAt && rules.extension ? addToDate(dueDate, rules.extension.amount, rules.extension.unit) : null;
  const receiptConfirmationDate = rules.receiptConfirmation
    ? addToDate(received, rules.receiptConfirmation.amount, rules.receiptConfirmation.unit)
    : null;
  const effectiveDueDate = extendedDueDate ?? dueDate;
  return {
    applicable,
    applicableFrom: rules.applicableFrom.date,
    noDueDate: null,
    dueDate,
    dueAt: endOfDate(dueDate),
    extendedDueDate,
    extendedDueAt: extendedDueDate ? endOfDate(extendedDueDate) : null,
    effectiveDueDate,
    effectiveDueAt: endOfDate(effectiveDueDate),
    receiptConfirmationDate,
    pausable,
    pausedDays,
    startedAt,
    rules,
  };
}

/** A request's stored pauses (`[{ askedAt, reason, answeredAt }]`), with their moments as dates. */
export function storedPauses(raw: unknown): (ClockPause & { reason: string })[] {
  return (Array.isArray(raw) ? raw : []).map((p: { askedAt: string; answeredAt: string | null; reason: string }) => ({
    askedAt: new Date(p.askedAt),
    answeredAt: p.answeredAt ? new Date(p.answeredAt) : null,
    reason: p.reason,
  }));
}

/** requestClocks of a stored request: its regime, kind, receipt, extension and pauses as its row holds them. */
export function requestClocksOf(
  r: { regime: string; kind: string; receivedAt: Date; extendedAt: Date | null; pauses?: unknown; verifications?: unknown },
  at?: Date,
): RequestClocks {
  return requestClocks({
    regime: r.regime as DsarRegime,
    kind: r.kind as DsarKind,
    receivedAt: new Date(r.receivedAt),
    extendedAt: r.extendedAt ? new Date(r.extendedAt) : null,
    pauses: storedPauses(r.pauses),
    identityInformationAt: identityInformationAt(r.verifications),
    ...(at ? { at } : {}),
  });
}

/** The latest arrival of identity information recorded on a request's identity checks; null when none was recorded. */
export function identityInformationAt(verifications: unknown): Date | null {
  let latest: Date | null = null;
  for (const v of Array.isArray(verifications) ? (verifications as { informationReceivedAt?: string | null }[]) : []) {
    const at = v.informationReceivedAt ? new Date(v.informationReceivedAt) : null;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}
