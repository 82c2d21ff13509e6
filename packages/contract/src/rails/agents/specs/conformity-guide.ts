import { z } from 'zod';
import { BOTH, d, EXAMPLE_SYSTEM, Section, SystemInput } from './shared.ts';
import { agentSpec } from './spec.ts';

export const conformityGuide = agentSpec({
  slug: 'conformity-guide',
  title: 'Conformity-assessment guide',
  purpose:
    'Assembles the conformity-assessment dossier of a high-risk system: the Annex IV technical documentation sections backed by records and those missing, and the route (Annex VI internal control or Annex VII notified body).',
  group: 'deterministic',
  groupReason: 'Sections are backed by named records and the route follows Art. 43 conditions stated as rules.',
  catalogues: BOTH,
  input: SystemInput('AgentConformityGuideInput'),
  output: z
    .object({
      systemId: z.string().meta(d('The system of the dossier.')),
      route: z
        .object({
          annex: z.enum(['VI', 'VII']).meta(d('`VI` internal control, `VII` assessment with a notified body.')),
          procedure: z.string().meta(d('Name of the procedure.')),
          reasons: z.array(z.string()).meta(d('The conditions that chose the route.')),
        })
        .meta(d('The conformity-assessment route of Art. 43.')),
      sections: z.array(Section).meta(d('Annex IV sections in order.')),
      missing: z.array(z.string()).meta(d('Ids of the sections without backing records.')),
      readinessPercent: z.number().meta(d('Share of the sections backed, a partial one counting half, to one decimal.')),
    })
    .meta({
      id: 'AgentConformityGuideOutput',
      examples: [
        {
          systemId: EXAMPLE_SYSTEM,
          route: {
            annex: 'VI',
            procedure: 'Internal control (Annex VI)',
            reasons: ['Annex III point 5 system: internal control applies.'],
          },
          sections: [
            {
              id: 'annex-iv-1',
              ref: 'EU AI Act Annex IV point 1',
              title: 'General description of the AI system',
              status: 'filled',
              content: ['Credit scoring: scores consumer credit applications.'],
              sources: [{ type: 'profile', id: EXAMPLE_SYSTEM }],
              hint: 'Record the system profile.',
            },
          ],
          missing: ['annex-iv-9'],
          readinessPercent: 55.6,
        },
      ],
    }),
});
