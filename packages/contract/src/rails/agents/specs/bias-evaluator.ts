import { z } from 'zod';
import { ALL31, Clause } from './shared.ts';
import { agentSpec } from './spec.ts';

const biasExample = {
  protectedAttribute: 'sex',
  referenceGroup: 'male',
  groups: [
    { name: 'male', total: 100, selected: 80, selectionRate: 0.8, impactRatio: 1, truePositiveRate: null, flags: [] },
    { name: 'female', total: 100, selected: 60, selectionRate: 0.6, impactRatio: 0.75, truePositiveRate: null, flags: ['four_fifths'] },
  ],
  metrics: { demographicParityDifference: 0.2, disparateImpactRatio: 0.75, equalOpportunityDifference: null },
  findings: [{ metric: 'disparate_impact_ratio', value: 0.75, threshold: 0.8, flagged: true }],
  verdict: 'flagged',
  citations: [{ ref: 'art-10-2', title: 'Data governance practices' }],
  summary: 'Selection rates by sex differ: female is selected at 0.6, 75% of the rate of male (0.8).',
};
export const biasEvaluator = agentSpec({
  slug: 'bias-evaluator',
  title: 'Bias evaluator',
  purpose:
    'Computes fairness metrics from per-group outcome counts (selection rates, demographic parity difference, disparate impact ratio under the four-fifths rule, equal opportunity difference), flags them against the rules’ thresholds and writes a summary citing the EU AI Act.',
  group: 'deterministic',
  groupReason: 'The metrics are arithmetic on the counts and the flags are fixed thresholds.',
  catalogues: ALL31,
  input: z
    .strictObject({
      protectedAttribute: z.string().min(1).max(100).meta({ description: 'The attribute the groups split on (`sex`, `age_band`).' }),
      groups: z
        .array(
          z.strictObject({
            name: z.string().min(1).max(100).meta({ description: 'Name of the group.' }),
            selected: z.int().min(0).meta({ description: 'Members of the group with the favourable outcome.' }),
            total: z.int().min(1).meta({ description: 'Members of the group evaluated.' }),
            truePositives: z.int().min(0).optional().meta({ description: 'Qualified members who got the favourable outcome.' }),
            positives: z.int().min(0).optional().meta({ description: 'Qualified members (ground truth positives).' }),
          }),
        )
        .min(2)
        .max(50)
        .meta({ description: 'Outcome counts per group, at least two groups.' }),
    })
    .meta({
      id: 'AgentBiasEvaluatorInput',
      examples: [
        {
          protectedAttribute: 'sex',
          groups: [
            { name: 'male', selected: 80, total: 100 },
            { name: 'female', selected: 60, total: 100 },
          ],
        },
      ],
    }),
  output: z
    .object({
      protectedAttribute: z.string().meta({ description: 'The attribute the groups split on, as given.' }),
      referenceGroup: z.string().meta({ description: 'The group with the highest selection rate, against which ratios are taken.' }),
      groups: z
        .array(
          z.object({
            name: z.string().meta({ description: 'Name of the group.' }),
            total: z.int().meta({ description: 'Members of the group evaluated.' }),
            selected: z.int().meta({ description: 'Members of the group with the favourable outcome.' }),
            selectionRate: z.number().meta({ description: 'Selected over total, 0 to 1, to 4 decimals.' }),
            impactRatio: z.number().meta({ description: 'Selection rate over the reference group’s.' }),
            truePositiveRate: z.number().nullable().meta({
              description: 'True positives over positives, 0 to 1, to 4 decimals; null when they were not given or positives is 0.',
            }),
            flags: z.array(z.string()).meta({
              description:
                '`four_fifths` when the impact ratio is below 0.8; `parity` when the selection rate is more than 0.1 below the reference group’s.',
            }),
          }),
        )
        .meta({ description: 'Each group with its rates and flags, in input order.' }),
      metrics: z
        .object({
          demographicParityDifference: z.number().meta({ description: 'Highest minus lowest selection rate.' }),
          disparateImpactRatio: z.number().meta({ description: 'Lowest over highest selection rate.' }),
          equalOpportunityDifference: z
            .number()
            .nullable()
            .meta({ description: 'Highest minus lowest true positive rate; null without truePositives and positives.' }),
        })
        .meta({ description: 'The fairness metrics.' }),
      findings: z
        .array(
          z.object({
            metric: z.string().meta({
              description: 'The metric: `disparate_impact_ratio`, `demographic_parity_difference` or `equal_opportunity_difference`.',
            }),
            value: z.number().nullable().meta({
              description:
                'Value of the metric, to 4 decimals; null for the equal opportunity difference when true positives and positives were not given for every group.',
            }),
            threshold: z.number().meta({
              description: 'Threshold of the rules: the minimum 0.8 for the disparate impact ratio, the maximum 0.1 for each difference.',
            }),
            flagged: z
              .boolean()
              .meta({ description: 'Whether the value crosses the threshold (a ratio below it, a difference above it).' }),
          }),
        )
        .meta({ description: 'Each metric against its threshold.' }),
      verdict: z.enum(['pass', 'flagged']).meta({ description: '`flagged` when any finding is flagged, `pass` otherwise.' }),
      citations: z.array(Clause).meta({ description: 'Clauses of the EU AI Act the summary cites.' }),
      summary: z.string().meta({ description: 'The evaluation in prose, for a reviewer.' }),
    })
    .meta({ id: 'AgentBiasEvaluatorOutput', examples: [biasExample] }),
});
