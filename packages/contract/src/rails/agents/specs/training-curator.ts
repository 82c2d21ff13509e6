import { z } from 'zod';
import { BOTH, d, EXAMPLE_SYSTEM, exampleId, Id, Timestamp } from './shared.ts';
import { agentSpec } from './spec.ts';

export const trainingCurator = agentSpec({
  slug: 'training-curator',
  title: 'Training curator',
  purpose:
    'Builds a personalised AI-literacy (Art. 4) and role-specific training plan from a module catalogue, minus what the person’s valid training records already cover, by priority.',
  group: 'deterministic',
  groupReason:
    'Modules are selected by role and system traits and removed by matching completions; the priority is a fixed sum of rule weights.',
  catalogues: BOTH,
  input: z
    .strictObject({
      role: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .meta(
          d(
            'Role of the catalogue (`developer`, `deployer-operator`, `executive`, `compliance`, `data-protection`, `procurement`, `hr`, `general`).',
          ),
        ),
      systems: z
        .array(Id('An AI system id.'))
        .max(50)
        .optional()
        .meta(d('AI systems the person works on; their profiles add system-specific modules.')),
      personId: Id('A person of the stakeholders rail whose training records are subtracted.').optional(),
    })
    .meta({
      id: 'AgentTrainingCuratorInput',
      examples: [{ role: 'developer' }, { role: 'deployer-operator', systems: [EXAMPLE_SYSTEM], personId: exampleId('usr') }],
    }),
  output: z
    .object({
      role: z.string().meta(d('The catalogue role planned for.')),
      personId: z.string().nullable().meta(d('The person whose records were subtracted; null when none was named.')),
      plan: z
        .array(
          z.object({
            moduleId: z.string().meta(d('Module of the catalogue.')),
            title: z.string().meta(d('Title of the module.')),
            priority: z.int().meta(d('Priority: higher first.')),
            hours: z.number().meta(d('Expected duration in hours.')),
            reasons: z.array(z.string()).meta(d('Why the module is in the plan.')),
            references: z.array(z.string()).meta(d('Provisions the module answers.')),
          }),
        )
        .meta(d('Modules to complete, highest priority first.')),
      covered: z
        .array(
          z.object({
            moduleId: z.string().meta(d('Module of the catalogue already covered.')),
            recordId: z.string().meta(d('Training record that covers it.')),
            expiresAt: Timestamp.nullable().meta(d('When that completion stops counting; null when never.')),
          }),
        )
        .meta(d('Modules the person’s valid records already cover.')),
      totalHours: z.number().meta(d('Sum of the hours of the plan.')),
    })
    .meta({
      id: 'AgentTrainingCuratorOutput',
      examples: [
        {
          role: 'developer',
          personId: null,
          plan: [
            {
              moduleId: 'ai-literacy-foundations',
              title: 'AI literacy foundations',
              priority: 100,
              hours: 2,
              reasons: ['Art. 4 requires a sufficient level of AI literacy of every person dealing with AI systems.'],
              references: ['eu-ai-act art-4'],
            },
          ],
          covered: [],
          totalHours: 2,
        },
      ],
    }),
});
