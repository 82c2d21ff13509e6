import { z } from 'zod';
import { ALL31, Clause } from './shared.ts';
import { agentSpec } from './spec.ts';

const explainExample = {
  method: 'shap',
  methodLabel: 'SHAP values',
  prediction: 0.82,
  baseline: 0.4,
  explainedDelta: 0.42,
  features: [
    {
      rank: 1,
      feature: 'income',
      value: 0.3,
      share: 0.6,
      direction: 'raises',
      sentence: 'income raises the prediction by 0.3 (60% of the attribution).',
    },
  ],
  narrative: 'Using SHAP values, the prediction of 0.82 against a baseline of 0.4 is driven mainly by income.',
  citations: [{ ref: 'art-13', title: 'Transparency and provision of information to deployers' }],
};
export const explainabilityNarrator = agentSpec({
  slug: 'explainability-narrator',
  title: 'Explainability narrator',
  purpose:
    'Turns SHAP, LIME or integrated-gradients attributions into auditor-readable prose: ranks features by absolute attribution, computes their shares and direction and cites the EU AI Act’s transparency and explanation clauses.',
  group: 'deterministic',
  groupReason: 'The ranking, shares and prose follow from the attributions and fixed templates.',
  catalogues: ALL31,
  input: z
    .strictObject({
      method: z.enum(['shap', 'lime', 'ig']).meta({ description: 'Attribution method: SHAP, LIME or integrated gradients.' }),
      prediction: z.number().meta({ description: 'The model output explained.' }),
      baseline: z.number().optional().meta({ description: 'The reference output (expected value) the attributions are relative to.' }),
      attributions: z
        .array(
          z.strictObject({
            feature: z.string().min(1).max(200).meta({ description: 'Name of the feature.' }),
            value: z.number().meta({
              description: 'Signed attribution of the feature: its contribution to the prediction, in the units of the model output.',
            }),
          }),
        )
        .min(1)
        .max(500)
        .meta({ description: 'Attribution of each feature.' }),
    })
    .meta({
      id: 'AgentExplainabilityNarratorInput',
      examples: [
        {
          method: 'shap',
          prediction: 0.82,
          baseline: 0.4,
          attributions: [
            { feature: 'income', value: 0.3 },
            { feature: 'debt_ratio', value: -0.1 },
            { feature: 'tenure_months', value: 0.1 },
          ],
        },
      ],
    }),
  output: z
    .object({
      method: z.enum(['shap', 'lime', 'ig']).meta({ description: 'Attribution method, as given.' }),
      methodLabel: z.string().meta({ description: 'Readable name of the method (`SHAP values`).' }),
      prediction: z.number().meta({ description: 'The model output explained, as given.' }),
      baseline: z.number().nullable().meta({ description: 'The reference output, as given; null when none was.' }),
      explainedDelta: z.number().meta({ description: 'Sum of the attributions.' }),
      features: z
        .array(
          z.object({
            rank: z.int().meta({ description: 'Position by absolute attribution, 1 for the largest.' }),
            feature: z.string().meta({ description: 'Name of the feature.' }),
            value: z.number().meta({ description: 'Signed attribution of the feature, as given.' }),
            share: z.number().meta({ description: '|value| over the sum of |values|, 0 to 1.' }),
            direction: z.enum(['raises', 'lowers', 'neutral']).meta({
              description:
                '`raises` for a positive attribution, `lowers` for a negative one, `neutral` when it is zero or under 1% of the total absolute attribution.',
            }),
            sentence: z.string().meta({ description: 'The feature’s effect in one sentence.' }),
          }),
        )
        .meta({ description: 'Features by absolute attribution, largest first (at most the rules’ limit).' }),
      narrative: z.string().meta({ description: 'The explanation in prose for an auditor or the affected person.' }),
      citations: z.array(Clause).meta({ description: 'Clauses of the EU AI Act the narrative cites (Art. 13 and Art. 86).' }),
    })
    .meta({ id: 'AgentExplainabilityNarratorOutput', examples: [explainExample] }),
});
