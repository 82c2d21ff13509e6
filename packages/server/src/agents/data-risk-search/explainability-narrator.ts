import { groupBAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { clausesOf } from './clauses.ts';
import { cmp, invalid, round } from './common.ts';

/** The explainability narrator: attributions ranked by magnitude and told in sentences from the templates of the rules. */

const rules = {
  maxFeatures: 10,
  /** An attribution smaller than this share of the total moves the prediction too little to call a direction. */
  neutralShare: 0.01,
  methods: {
    shap: 'SHAP values',
    lime: 'LIME local surrogate weights',
    ig: 'integrated gradients',
  } as Record<string, string>,
  citations: ['art-13', 'art-86'],
  sentences: {
    feature: '{feature} {direction} the prediction by {abs} ({percent}% of the attribution).',
    neutral: '{feature} has a negligible effect ({percent}% of the attribution).',
    lead: 'Using {method}, the prediction of {prediction}{baseline} is driven mainly by {top}.',
    baseline: ' against a baseline of {baseline}',
    coverage: 'The {shown} features listed account for {percent}% of the total attribution{rest}.',
    rest: '; {hidden} further features share the remainder',
    balance: 'Features raising the prediction contribute {up}; features lowering it contribute {down}.',
    gap: 'The attributions sum to {sum}, which differs from the prediction minus the baseline ({delta}); the explanation is approximate.',
    legal:
      'This explanation is provided to support the deployer’s interpretation of the output (EU AI Act Art. 13) and the affected person’s right to an explanation of an individual decision (Art. 86).',
  },
  /** Relative tolerance between the sum of attributions and prediction minus baseline before the gap is reported. */
  additivityTolerance: 0.05,
};

const fill = (t: string, vars: Record<string, string | number>) => t.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

export const explainabilityNarrator = defineAgent({
  spec: groupBAgents.explainabilityNarrator,
  ruleSet: { id: 'explainability-narrator-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
  async gather(ctx, input) {
    const names = input.attributions.map((a) => a.feature);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) throw invalid('attributions', `Feature ${dup} is attributed twice.`);
    return { clauses: await clausesOf(ctx, 'eu-ai-act', rules.citations) };
  },
  decide(input, facts, r: typeof rules) {
    const totalAbs = input.attributions.reduce((s, a) => s + Math.abs(a.value), 0);
    const ranked = [...input.attributions].sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || cmp(a.feature, b.feature));
    const shown = ranked.slice(0, r.maxFeatures);
    const features = shown.map((a, i) => {
      const share = totalAbs > 0 ? Math.abs(a.value) / totalAbs : 0;
      const direction = share < r.neutralShare || a.value === 0 ? 'neutral' : a.value > 0 ? 'raises' : 'lowers';
      const vars = { feature: a.feature, direction, abs: round(Math.abs(a.value)), percent: round(100 * share, 1) };
      return {
        rank: i + 1,
        feature: a.feature,
        value: a.value,
        share: round(share),
        direction: direction as 'raises' | 'lowers' | 'neutral',
        sentence: fill(direction === 'neutral' ? r.sentences.neutral : r.sentences.feature, vars),
      };
    });
    const sum = input.attributions.reduce((s, a) => s + a.value, 0);
    const up = input.attributions.filter((a) => a.value > 0).reduce((s, a) => s + a.value, 0);
    const down = input.attributions.filter((a) => a.value < 0).reduce((s, a) => s + a.value, 0);
    const topNames = features
      .filter((f) => f.direction !== 'neutral')
      .slice(0, 2)
      .map((f) => f.feature);
    const shownShare = features.reduce((s, f) => s + f.share, 0);
    const hidden = ranked.length - shown.length;
    const parts = [
      fill(r.sentences.lead, {
        method: r.methods[input.method] ?? input.method,
        prediction: input.prediction,
        baseline: input.baseline === undefined ? '' : fill(r.sentences.baseline, { baseline: input.baseline }),
        top: topNames.length > 0 ? topNames.join(' and ') : 'no single feature',
      }),
      ...features.map((f) => f.sentence),
      fill(r.sentences.coverage, {
        shown: features.length,
        percent: round(100 * shownShare, 1),
        rest: hidden > 0 ? fill(r.sentences.rest, { hidden }) : '',
      }),
      fill(r.sentences.balance, { up: round(up), down: round(down) }),
    ];
    if (input.baseline !== undefined) {
      const delta = input.prediction - input.baseline;
      if (Math.abs(sum - delta) > r.additivityTolerance * Math.max(Math.abs(delta), 1e-9))
        parts.push(fill(r.sentences.gap, { sum: round(sum), delta: round(delta) }));
    }
    parts.push(r.sentences.legal);
    return {
      method: input.method,
      methodLabel: r.methods[input.method] ?? input.method,
      prediction: input.prediction,
      baseline: input.baseline ?? null,
      explainedDelta: round(sum),
      features,
      narrative: parts.join(' '),
      citations: facts.clauses,
    };
  },
});
