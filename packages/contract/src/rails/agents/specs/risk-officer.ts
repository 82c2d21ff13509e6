import { z } from 'zod';
import { ALL31, CalendarDate, EXAMPLE_AT, exampleId, Iso, rankedList } from './shared.ts';
import { agentSpec } from './spec.ts';

const RiskBand = z.enum(['low', 'medium', 'high', 'critical']);
const riskOfficerExample = {
  asOf: EXAMPLE_AT,
  appetite: 9,
  summary: {
    risks: 1,
    open: 1,
    inherent: { low: 0, medium: 0, high: 0, critical: 1 },
    residual: { low: 0, medium: 0, high: 1, critical: 0 },
    aboveAppetite: 1,
  },
  topRisks: [
    {
      rank: 1,
      riskId: exampleId('rsk'),
      title: 'Biased scoring',
      domain: 'ai',
      inherent: { likelihood: 4, impact: 5, score: 20, band: 'critical' },
      residual: { likelihood: 2, impact: 5, score: 10, band: 'high' },
      controlEffectiveness: 0.5,
      priority: 10,
      plan: {
        option: 'mitigate',
        source: 'planned',
        treatmentId: exampleId('rtr'),
        description: 'Add a human review of declined applications.',
        projected: { likelihood: 1, impact: 5, score: 5, band: 'medium' },
        withinAppetite: true,
        ownerId: null,
        targetDate: '2026-12-20',
        steps: ['Confirm the owner of the risk.', 'Implement: Add a human review of declined applications.'],
      },
    },
  ],
  untreatable: [],
};

const Point = z
  .object({
    likelihood: z.int().meta({ description: 'Likelihood on the 1 to 5 scale.' }),
    impact: z.int().meta({ description: 'Impact on the 1 to 5 scale.' }),
    score: z.int().meta({ description: 'Likelihood x impact, 1 to 25.' }),
    band: RiskBand.meta({ description: 'Rating band of the score (low < 5, medium < 10, high < 17, critical).' }),
  })
  .meta({ description: 'A point of the 5x5 matrix.' });
const BandCounts = z
  .object({
    low: z.int().meta({ description: 'Number of risks whose score is in the low band (1 to 4).' }),
    medium: z.int().meta({ description: 'Number of risks whose score is in the medium band (5 to 9).' }),
    high: z.int().meta({ description: 'Number of risks whose score is in the high band (10 to 16).' }),
    critical: z.int().meta({ description: 'Number of risks whose score is in the critical band (17 to 25).' }),
  })
  .meta({ description: 'Number of risks in each rating band.' });

export const riskOfficer = agentSpec({
  slug: 'risk-officer',
  title: 'Risk officer',
  purpose:
    'Reads the risk register, recomputes each risk on the 5x5 matrix (inherent, and residual after the implemented treatments), counts the register per band and ranks the treatable risks above appetite with a drafted treatment plan for each.',
  group: 'advisory',
  groupReason: 'It ranks risks by priority and recommends treatments, a judgement the risk owner weighs.',
  catalogues: ALL31,
  input: z
    .strictObject({
      limit: z.int().min(1).max(50).optional().meta({ description: 'How many treatable risks to return, 1 to 50; 5 when absent.' }),
    })
    .meta({ id: 'AgentRiskOfficerInput', examples: [{ limit: 5 }, { limit: 10 }] }),
  output: z
    .object({
      asOf: Iso.meta({ description: 'When the register was read; target dates count from it.' }),
      appetite: z.int().meta({ description: 'Residual score above which a risk needs treatment (the rules’ risk appetite).' }),
      summary: z
        .object({
          risks: z.int().meta({ description: 'Risks in the register.' }),
          open: z.int().meta({ description: 'Risks that are neither accepted nor closed.' }),
          inherent: BandCounts.meta({ description: 'Risks per band of their inherent score.' }),
          residual: BandCounts.meta({ description: 'Risks per band of their residual score.' }),
          aboveAppetite: z.int().meta({ description: 'Open risks whose residual score is above the appetite.' }),
        })
        .meta({ description: 'The register in numbers.' }),
      topRisks: rankedList({
        riskId: z.string().meta({ description: 'Id of the risk.' }),
        title: z.string().meta({ description: 'Title of the risk.' }),
        domain: z.string().meta({ description: 'Domain of the risk.' }),
        inherent: Point.meta({ description: 'The risk before any treatment.' }),
        residual: Point.meta({ description: 'The risk after its implemented treatments, applied in the order they were implemented.' }),
        controlEffectiveness: z.number().meta({ description: 'Share of the inherent score the implemented treatments removed, 0 to 1.' }),
        priority: z.number().meta({ description: 'Ranking value: residual score weighted by the domain weight of the rules.' }),
        plan: z
          .object({
            option: z.enum(['mitigate', 'transfer', 'avoid']).meta({ description: 'The treatment type proposed.' }),
            source: z.enum(['planned', 'catalogue']).meta({
              description: '`planned`: a treatment already planned on the risk; `catalogue`: an option of the rules for its domain.',
            }),
            treatmentId: z.string().nullable().meta({ description: 'Id of the planned treatment, null for a catalogue option.' }),
            description: z.string().meta({ description: 'What the treatment does.' }),
            projected: Point.meta({ description: 'The residual once the treatment is implemented.' }),
            withinAppetite: z.boolean().meta({ description: 'Whether the projected residual is at or below the appetite.' }),
            ownerId: z.string().nullable().meta({ description: 'Accountable owner of the risk, null when none is named.' }),
            targetDate: CalendarDate.meta({
              description: 'Date by which the treatment should be implemented, by the band of the residual.',
            }),
            steps: z.array(z.string()).meta({ description: 'The plan, step by step.' }),
          })
          .meta({ description: 'The drafted treatment plan: the option that lowers the residual most.' }),
      }).meta({ description: 'The treatable risks ranked: open, residual above appetite and a treatment option that lowers it.' }),
      untreatable: z
        .array(
          z.object({
            riskId: z.string().meta({ description: 'Id of the risk (`rsk_...`).' }),
            reason: z.string().meta({
              description:
                'Why it is untreatable: neither a treatment planned on the risk nor a catalogue option of the rules for its domain lowers its residual score.',
            }),
          }),
        )
        .meta({ description: 'Open risks above appetite for which no option lowers the residual, with the reason.' }),
    })
    .meta({ id: 'AgentRiskOfficerOutput', examples: [riskOfficerExample] }),
});
