import { groupBAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { clausesOf } from './clauses.ts';
import { invalid, round } from './common.ts';

/**
 * The bias evaluator: fairness metrics from per-group outcome counts, flagged against the
 * thresholds of the rules, with a summary citing the EU AI Act's data-governance and accuracy
 * clauses as the pinned dictionary words them.
 */

const rules = {
  /** The four-fifths rule: a group selected at less than 80% of the best group's rate shows adverse impact. */
  disparateImpactMin: 0.8,
  demographicParityMax: 0.1,
  equalOpportunityMax: 0.1,
  citations: ['art-10-2', 'art-15'],
  sentences: {
    rates: 'Selection rates by {attribute} range from {low} ({lowGroup}) to {high} ({highGroup}).',
    impact: '{group} is selected at {percent}% of the rate of {reference}, below the four-fifths threshold of {threshold}.',
    parity: 'The demographic parity difference is {value}, above the tolerance of {threshold}.',
    opportunity: 'The equal opportunity difference (true positive rates) is {value}, above the tolerance of {threshold}.',
    pass: 'No metric crosses its threshold.',
    flagged:
      'Under the EU AI Act the training, validation and testing data must be examined for possible biases (Art. 10(2)(f)) and the system must perform consistently (Art. 15): document the mitigation before deployment.',
  },
};

const fill = (t: string, vars: Record<string, string | number>) => t.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

export const biasEvaluator = defineAgent({
  spec: groupBAgents.biasEvaluator,
  ruleSet: { id: 'bias-evaluator-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
  async gather(ctx, input) {
    for (const [i, g] of input.groups.entries()) {
      if (g.selected > g.total)
        throw invalid(`groups.${i}.selected`, `Group ${g.name}: selected (${g.selected}) exceeds total (${g.total}).`);
      if ((g.truePositives === undefined) !== (g.positives === undefined))
        throw invalid(`groups.${i}.positives`, `Group ${g.name}: give both truePositives and positives, or neither.`);
      if (g.truePositives !== undefined && g.positives !== undefined && g.truePositives > g.positives)
        throw invalid(`groups.${i}.truePositives`, `Group ${g.name}: truePositives exceeds positives.`);
    }
    const names = input.groups.map((g) => g.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) throw invalid('groups', `Group ${dup} is given twice.`);
    return { clauses: await clausesOf(ctx, 'eu-ai-act', rules.citations) };
  },
  decide(input, facts, r: typeof rules) {
    const rated = input.groups.map((g) => ({
      ...g,
      rate: g.selected / g.total,
      tpr: g.truePositives !== undefined && g.positives !== undefined && g.positives > 0 ? g.truePositives / g.positives : null,
    }));
    // Highest rate first; ties by input order, so the reference group does not depend on a sort's stability.
    const reference = rated.reduce((best, g) => (g.rate > best.rate ? g : best));
    const lowest = rated.reduce((worst, g) => (g.rate < worst.rate ? g : worst));
    // Metrics are compared after rounding, so that 0.8 - 0.7 is 0.1 and not 0.10000000000000009.
    const dpd = round(reference.rate - lowest.rate);
    const di = round(reference.rate > 0 ? lowest.rate / reference.rate : 1);
    const tprs = rated.map((g) => g.tpr).filter((t): t is number => t !== null);
    const eod = tprs.length >= 2 && tprs.length === rated.length ? round(Math.max(...tprs) - Math.min(...tprs)) : null;

    const groups = rated.map((g) => {
      const ratio = round(reference.rate > 0 ? g.rate / reference.rate : 1);
      const flags = [
        ...(ratio < r.disparateImpactMin ? ['four_fifths'] : []),
        ...(round(reference.rate - g.rate) > r.demographicParityMax ? ['parity'] : []),
      ];
      return {
        name: g.name,
        total: g.total,
        selected: g.selected,
        selectionRate: round(g.rate),
        impactRatio: round(ratio),
        truePositiveRate: g.tpr === null ? null : round(g.tpr),
        flags,
      };
    });
    const findings = [
      { metric: 'disparate_impact_ratio', value: round(di), threshold: r.disparateImpactMin, flagged: di < r.disparateImpactMin },
      {
        metric: 'demographic_parity_difference',
        value: round(dpd),
        threshold: r.demographicParityMax,
        flagged: dpd > r.demographicParityMax,
      },
      {
        metric: 'equal_opportunity_difference',
        value: eod === null ? null : round(eod),
        threshold: r.equalOpportunityMax,
        flagged: eod !== null && eod > r.equalOpportunityMax,
      },
    ];
    const flagged = findings.some((f) => f.flagged);
    const sentences = [
      fill(r.sentences.rates, {
        attribute: input.protectedAttribute,
        low: round(lowest.rate),
        lowGroup: lowest.name,
        high: round(reference.rate),
        highGroup: reference.name,
      }),
      ...groups
        .filter((g) => g.flags.includes('four_fifths'))
        .map((g) =>
          fill(r.sentences.impact, {
            group: g.name,
            percent: round(100 * g.impactRatio, 2),
            reference: reference.name,
            threshold: r.disparateImpactMin,
          }),
        ),
      ...(findings[1]?.flagged ? [fill(r.sentences.parity, { value: round(dpd), threshold: r.demographicParityMax })] : []),
      ...(findings[2]?.flagged ? [fill(r.sentences.opportunity, { value: round(eod ?? 0), threshold: r.equalOpportunityMax })] : []),
      flagged ? r.sentences.flagged : r.sentences.pass,
    ];
    return {
      protectedAttribute: input.protectedAttribute,
      referenceGroup: reference.name,
      groups,
      metrics: {
        demographicParityDifference: round(dpd),
        disparateImpactRatio: round(di),
        equalOpportunityDifference: eod === null ? null : round(eod),
      },
      findings,
      verdict: flagged ? ('flagged' as const) : ('pass' as const),
      citations: facts.clauses,
      summary: sentences.join(' '),
    };
  },
});
