import { z } from 'zod';
import { CORE14, d, exampleId, Rank } from './shared.ts';
import { agentSpec } from './spec.ts';

const Ranked = z.object({
  rank: Rank,
  kind: z
    .enum(['risk', 'control_gap'])
    .meta(d('A risk of the register, or a control of an activated framework without evidence or covering policy.')),
  id: z.string().meta(d('Risk id or control id.')),
  title: z.string().meta(d('Title of the risk or the control.')),
  framework: z.string().nullable().meta(d('Dictionary of the control gap or of the most weighty control the risk cites; null when none.')),
  score: z.number().meta(d('Severity × exposure × regulatory weight, to two decimals.')),
  factors: z
    .object({
      severity: z.number().meta(d('Residual likelihood × impact for a risk, the category severity for a control gap.')),
      exposure: z.number().meta(d('Product of the exposure multipliers that apply.')),
      regulatoryWeight: z.number().meta(d('Weight of the domain or the dictionary.')),
    })
    .meta(d('The three factors of the score.')),
  explanation: z.array(z.string()).meta(d('Why the item ranks where it does, one statement per factor.')),
});
export const riskNavigator = agentSpec({
  slug: 'risk-navigator',
  title: 'Risk navigator',
  purpose:
    "Ranks the tenant's open risks and control gaps to address next by severity × exposure × regulatory weight and explains each rank.",
  group: 'advisory',
  groupReason: 'It scores and ranks what to do next; the ranking is a judgement a person weighs.',
  catalogues: CORE14,
  input: z
    .strictObject({
      framework: z.string().trim().min(1).max(64).optional().meta(d('Only gaps of this dictionary and risks citing its controls.')),
      limit: z.int().min(1).max(100).optional().meta(d('How many items to return; 10 when absent.')),
    })
    .meta({ id: 'AgentRiskNavigatorInput', examples: [{}, { framework: 'eu-ai-act', limit: 5 }] }),
  output: z
    .object({
      items: z.array(Ranked).meta(d('The items to address next, best first.')),
      considered: z
        .object({
          risks: z.int().meta(d('Open risks of the register in scope (those citing a control of `framework` when it is given).')),
          controlGaps: z.int().meta(d('Controls of the activated frameworks in scope covered by neither evidence nor a published policy.')),
        })
        .meta(d('How many open risks and control gaps were ranked.')),
    })
    .meta({
      id: 'AgentRiskNavigatorOutput',
      examples: [
        {
          items: [
            {
              rank: 1,
              kind: 'risk',
              id: exampleId('rsk'),
              title: 'Biased credit decisions',
              framework: 'eu-ai-act',
              score: 30,
              factors: { severity: 20, exposure: 1, regulatoryWeight: 1.5 },
              explanation: ['Residual likelihood 4 × impact 5 = 20.'],
            },
          ],
          considered: { risks: 1, controlGaps: 0 },
        },
      ],
    }),
});
