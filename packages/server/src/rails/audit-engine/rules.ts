import { readFileSync } from 'node:fs';
import { AUDIT_CHECKS, AUDIT_SEVERITIES } from '@svc/contract';
import { z } from 'zod';
import { canonicalHash } from '../taxonomy/service.ts';

/**
 * The evaluation of an audit-engine run, as a pure function of its stored inputs and the rules
 * (content/audit-engine/rules.json): no clock, no database. The job that evaluates a run and the
 * replay of a completed run call the same function, so a replay of unchanged inputs and rules
 * gives byte-identical findings.
 */

type Severity = (typeof AUDIT_SEVERITIES)[number];
export type Check = (typeof AUDIT_CHECKS)[number];

const SeverityOrNull = z.enum(AUDIT_SEVERITIES).nullable();
const TierSeverities = z.record(z.string(), SeverityOrNull);

export const AuditRules = z.strictObject({
  id: z.string(),
  version: z.string(),
  description: z.string(),
  estimate: z.strictObject({ baseSeconds: z.number().min(0), perControlSeconds: z.number().min(0) }),
  freshnessDays: z.record(z.string(), z.int().min(1)).refine((r) => r.default !== undefined, 'freshnessDays needs a default'),
  attestation: z.strictObject({ validityDays: z.int().min(1), requiredForTiers: z.array(z.string()) }),
  tiers: z
    .array(
      z.strictObject({
        id: z.string(),
        description: z.string(),
        clausePrefixes: z.record(z.string(), z.array(z.string())).optional(),
      }),
    )
    .min(2),
  severities: z.strictObject(Object.fromEntries(AUDIT_CHECKS.map((c) => [c, TierSeverities])) as Record<Check, typeof TierSeverities>),
  /** `requirement_not_met` of a control assessed partially compliant: per tier, no higher than non-compliant's. */
  partiallyCompliantSeverities: TierSeverities,
  titles: z.strictObject(Object.fromEntries(AUDIT_CHECKS.map((c) => [c, z.string()])) as Record<Check, z.ZodString>),
});
export type AuditRules = z.infer<typeof AuditRules>;

let cached: { rules: AuditRules; hash: string } | undefined;

/** 0 for critical, 3 for low. */
const rank = (s: Severity) => AUDIT_SEVERITIES.indexOf(s);

/** The shipped rules with their hash; a broken file fails loudly at first use. */
export function auditRules(): { rules: AuditRules; hash: string } {
  if (!cached) {
    const raw = JSON.parse(readFileSync(new URL('../../../content/audit-engine/rules.json', import.meta.url), 'utf8')) as unknown;
    const rules = AuditRules.parse(raw);
    const tierIds = rules.tiers.map((t) => t.id);
    // The two tiers every framework has, whatever its clause lists.
    for (const fixed of ['in_force', 'not_in_force']) {
      if (!tierIds.includes(fixed)) throw new Error(`audit-engine rules: the tier ${fixed} is missing`);
    }
    for (const [check, bySeverity] of Object.entries(rules.severities)) {
      for (const tier of tierIds) {
        if (!(tier in bySeverity)) throw new Error(`audit-engine rules: severities.${check} has no entry for tier ${tier}`);
      }
    }
    for (const tier of tierIds) {
      if (!(tier in rules.partiallyCompliantSeverities)) {
        throw new Error(`audit-engine rules: partiallyCompliantSeverities has no entry for tier ${tier}`);
      }
      const partial = rules.partiallyCompliantSeverities[tier] ?? null;
      const full = rules.severities.requirement_not_met[tier] ?? null;
      if (partial !== null && (full === null || rank(partial) < rank(full))) {
        throw new Error(`audit-engine rules: partiallyCompliantSeverities.${tier} is more severe than requirement_not_met's`);
      }
    }
    cached = { rules, hash: canonicalHash(rules) };
  }
  return cached;
}

// ---------------------------------------------------------------- inputs

export interface InputControl {
  id: string;
  title: string;
  clauseRefs: string[];
}
export interface InputObligation {
  /** The dictionary's obligation id (`AIA-OBL-018`). */
  id: string;
  title: string;
  clauseRef: string;
  applicableFrom: string;
}
export interface InputEvidence {
  id: string;
  kind: string;
  controlIds: string[];
  collectedAt: string;
  expiresAt: string | null;
}
export interface InputAttestation {
  id: string;
  controlId: string;
  attestedAt: string;
}

/**
 * The latest gap analysis of the run's framework approved by the run's `asOf` (of the scope's AI
 * system for a `system:` scope): its id, approval and the requirement status of each control in
 * scope it assessed.
 */
export interface InputGapAnalysis {
  assessmentId: string;
  systemId: string;
  dictionaryVersion: string | null;
  approvedAt: string;
  /** Sorted by control id. */
  requirements: { controlId: string; status: string }[];
}

/** What a run evaluates, stored on the run: every list sorted by id. */
export interface AuditInputs {
  asOf: string;
  framework: string;
  dictionaryVersion: string;
  scope: string;
  controls: InputControl[];
  obligations: InputObligation[];
  evidence: InputEvidence[];
  attestations: InputAttestation[];
  /** Null when no gap analysis was approved; absent from the inputs of runs made before the check existed. */
  gapAnalysis?: InputGapAnalysis | null;
}

export interface EvaluatedFinding {
  controlId: string;
  check: Check;
  severity: Severity;
  title: string;
  facts: Record<string, unknown>;
}

const DAY_MS = 86_400_000;
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const REQUIREMENT_WORDS: Record<string, string> = { non_compliant: 'non-compliant', partially_compliant: 'partially compliant' };

/** `art-9` covers `art-9` and `art-9-2`, not `art-90`. */
const under = (ref: string, prefix: string) => ref === prefix || ref.startsWith(`${prefix}-`);

/** Days between two ISO instants, rounded down. */
const daysBetween = (from: string, to: string) => Math.floor((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * The tier of a control from its in-force obligations: the first tier of the rules whose clauses
 * one of them falls under, else `in_force`; `not_in_force` when none applies yet.
 */
function tierOf(rules: AuditRules, framework: string, inForce: readonly InputObligation[]): string {
  if (inForce.length === 0) return 'not_in_force';
  for (const tier of rules.tiers) {
    const prefixes = tier.clausePrefixes?.[framework];
    if (prefixes && inForce.some((o) => prefixes.some((p) => under(o.clauseRef, p)))) return tier.id;
  }
  return 'in_force';
}

/**
 * Evaluates every control of the inputs: evidence present, evidence fresh (collected within the
 * window of its kind and not expired), obligations met (each linked obligation in force has
 * current evidence on the control), attestation current (for the tiers that need one), requirement
 * met (the latest approved gap analysis did not assess it non-compliant or partially compliant). One
 * finding per failed check, severity from the rules by the control's tier, sorted by control and
 * check.
 */
export function evaluate(inputs: AuditInputs, rules: AuditRules): EvaluatedFinding[] {
  const asOf = inputs.asOf;
  const findings: EvaluatedFinding[] = [];
  const title = (check: Check, c: InputControl, requirement = '') =>
    rules.titles[check]
      .replaceAll('{control}', c.id)
      .replaceAll('{title}', c.title)
      .replaceAll('{requirement}', REQUIREMENT_WORDS[requirement] ?? requirement);
  const gap = inputs.gapAnalysis ?? null;
  const requirementOf = new Map((gap?.requirements ?? []).map((r) => [r.controlId, r.status]));
  const windowOf = (kind: string) => rules.freshnessDays[kind] ?? (rules.freshnessDays.default as number);

  for (const control of [...inputs.controls].sort((a, b) => byString(a.id, b.id))) {
    // Linked obligations: the dictionary's obligations on a clause the control cites (as the ontology links them).
    const linked = inputs.obligations
      .filter((o) => control.clauseRefs.includes(o.clauseRef))
      .sort((a, b) => byString(a.id, b.id))
      .map((o) => ({ ...o, inForce: o.applicableFrom <= asOf }));
    const inForce = linked.filter((o) => o.inForce);
    const tier = tierOf(rules, inputs.framework, inForce);

    const evidence = inputs.evidence
      .filter((e) => e.controlIds.includes(control.id) && e.collectedAt <= asOf)
      .sort((a, b) => byString(a.id, b.id))
      .map((e) => {
        const ageDays = daysBetween(e.collectedAt, asOf);
        const windowDays = windowOf(e.kind);
        const expired = e.expiresAt !== null && e.expiresAt <= asOf;
        return {
          id: e.id,
          kind: e.kind,
          collectedAt: e.collectedAt,
          expiresAt: e.expiresAt,
          ageDays,
          windowDays,
          expired,
          current: ageDays <= windowDays && !expired,
        };
      });
    const current = evidence.filter((e) => e.current);

    const attestations = inputs.attestations
      .filter((a) => a.controlId === control.id && a.attestedAt <= asOf)
      .sort((a, b) => byString(b.attestedAt, a.attestedAt) || byString(a.id, b.id))
      .map((a) => ({ id: a.id, attestedAt: a.attestedAt, ageDays: daysBetween(a.attestedAt, asOf) }));

    const base = {
      tier,
      obligations: linked.map((o) => ({ id: o.id, clauseRef: o.clauseRef, applicableFrom: o.applicableFrom, inForce: o.inForce })),
    };
    const add = (check: Check, facts: Record<string, unknown>, severity = rules.severities[check][tier] ?? null, requirement = '') => {
      if (severity === null) return;
      findings.push({ controlId: control.id, check, severity, title: title(check, control, requirement), facts: { ...base, ...facts } });
    };

    if (evidence.length === 0) add('evidence_missing', { evidence: [] });
    else if (current.length === 0) add('evidence_stale', { evidence });

    if (inForce.length > 0 && current.length === 0) {
      add('obligation_unmet', { unmet: inForce.map((o) => o.id), evidencePresent: evidence.length > 0, currentEvidence: 0 });
    }

    if (rules.attestation.requiredForTiers.includes(tier)) {
      const validityDays = rules.attestation.validityDays;
      const newest = attestations[0];
      if (!newest) add('attestation_missing', { attestations: [], validityDays });
      else if (newest.ageDays > validityDays) add('attestation_expired', { attestations, validityDays });
    }

    const requirement = requirementOf.get(control.id);
    if (gap && (requirement === 'non_compliant' || requirement === 'partially_compliant')) {
      const severity =
        requirement === 'non_compliant'
          ? (rules.severities.requirement_not_met[tier] ?? null)
          : (rules.partiallyCompliantSeverities[tier] ?? null);
      add(
        'requirement_not_met',
        {
          requirement,
          assessment: {
            id: gap.assessmentId,
            approvedAt: gap.approvedAt,
            systemId: gap.systemId,
            dictionaryVersion: gap.dictionaryVersion,
          },
          source: `gap-analysis:${gap.assessmentId}`,
        },
        severity,
        requirement,
      );
    }
  }
  return findings;
}

/** The canonical findings list a run's hash covers: what was found, not the ids the run gave it. */
export function findingsHash(findings: readonly Pick<EvaluatedFinding, 'controlId' | 'check' | 'severity' | 'facts'>[]): string {
  const canonical = [...findings]
    .map((f) => ({ controlId: f.controlId, check: f.check, severity: f.severity, facts: f.facts }))
    .sort((a, b) => byString(a.controlId, b.controlId) || byString(a.check, b.check));
  return canonicalHash(canonical);
}

/** Counts of a run's findings over its controls. */
export function countsOf(controls: number, findings: readonly Pick<EvaluatedFinding, 'controlId' | 'check' | 'severity'>[]) {
  const bySeverity = { critical: 0, high: 0, medium: 0, low: 0 };
  const byCheck: Record<string, number> = {};
  for (const f of findings) {
    bySeverity[f.severity] += 1;
    byCheck[f.check] = (byCheck[f.check] ?? 0) + 1;
  }
  const failing = new Set(findings.map((f) => f.controlId)).size;
  return { controls, controlsPassed: controls - failing, findings: findings.length, bySeverity, byCheck };
}

/** When a run over `controls` controls should complete, from the rules' cost model. */
export function estimateCompletion(start: Date, controls: number, rules: AuditRules): Date {
  const seconds = rules.estimate.baseSeconds + controls * rules.estimate.perControlSeconds;
  return new Date(start.getTime() + Math.ceil(seconds * 1000));
}
