import { z } from 'zod';
import { BOTH, d, EXAMPLE_SYSTEM, Section, SystemInput } from './shared.ts';
import { agentSpec } from './spec.ts';

export const fria = agentSpec({
  slug: 'fria',
  title: 'Fundamental-rights impact assessment author',
  purpose:
    'Drafts the EU AI Act Art. 27 fundamental-rights impact assessment of a system from its records, section (a) to (f), and lists what is missing.',
  group: 'deterministic',
  groupReason: 'Each section is filled from named records by fixed rules; nothing is scored or weighed.',
  catalogues: BOTH,
  input: SystemInput('AgentFriaInput'),
  output: z
    .object({
      systemId: z.string().meta(d('The system assessed.')),
      systemName: z.string().nullable().meta(d('Name from the disclosure profile; null without one.')),
      required: z
        .boolean()
        .meta(
          d(
            'Whether Art. 27 requires the assessment of this deployer role (a deployer or provider-and-deployer); true when the role is unknown.',
          ),
        ),
      sections: z.array(Section).meta(d('Sections (a) to (f) of Art. 27(1), in order.')),
      missing: z.array(z.string()).meta(d('Ids of the sections the records do not fill.')),
      completenessPercent: z.number().meta(d('Share of the sections filled, a partial one counting half, to one decimal.')),
    })
    .meta({
      id: 'AgentFriaOutput',
      examples: [
        {
          systemId: EXAMPLE_SYSTEM,
          systemName: 'Credit scoring',
          required: true,
          sections: [
            {
              id: 'a-processes',
              ref: 'EU AI Act Art. 27(1)(a)',
              title: "Deployer's processes in which the system is used",
              status: 'filled',
              content: ['Scores consumer credit applications.'],
              sources: [{ type: 'profile', id: EXAMPLE_SYSTEM }],
              hint: 'Record the system profile with its purpose and deployer context.',
            },
          ],
          missing: ['b-period-frequency'],
          completenessPercent: 83.3,
        },
      ],
    }),
});
