import { z } from 'zod';
import { BOTH, d } from './shared.ts';
import { agentSpec } from './spec.ts';

const Coverage = z
  .enum(['full', 'partial'])
  .meta(d('`full` when the other requirement is wholly met by this one, `partial` when only in part.'));
const Requirement = z.object({
  framework: z.string().meta(d('Dictionary id of the requirement.')),
  kind: z.enum(['control', 'clause']).meta(d('Whether the requirement is a control or a clause.')),
  ref: z.string().meta(d('Control id or clause reference.')),
  title: z.string().nullable().meta(d('Title of the requirement in the dictionary; null when the dictionary does not name it.')),
});

export const frameworkMapper = agentSpec({
  slug: 'framework-mapper',
  title: 'Framework mapper',
  purpose:
    'Given a control, lists every framework and requirement it satisfies through the crosswalks, directly or through one intermediate requirement.',
  group: 'deterministic',
  groupReason: 'The answer is the walk of the published crosswalk edges under fixed composition rules, with nothing weighed.',
  catalogues: BOTH,
  input: z
    .strictObject({
      control: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .meta(
          d(
            'The control to map: a control id (`AIA-RMS-01`, `ISO27001-A.5.1`) or `<framework>:<control or clause>` (`iso-27001:A.5.1`, `eu-ai-act:art-9`).',
          ),
        ),
    })
    .meta({ id: 'AgentFrameworkMapperInput', examples: [{ control: 'AIA-RMS-01' }, { control: 'iso-27001:A.5.1' }] }),
  output: z
    .object({
      control: Requirement.extend({
        clauseRefs: z.array(z.string()).meta(d('Clauses of its own dictionary the control cites; the walk starts from them too.')),
      }).meta(d('The control (or clause) the walk started from.')),
      frameworks: z
        .array(
          z.object({
            framework: z.string().meta(d('Dictionary id.')),
            title: z.string().meta(d('Title of the dictionary.')),
            coverage: Coverage,
            requirements: z
              .array(
                Requirement.extend({
                  relationship: z
                    .string()
                    .meta(
                      d(
                        'Relationship of the starting requirement to this one, read from the starting side (`equal`, `subset`, `superset`, `intersect`).',
                      ),
                    ),
                  strength: z
                    .int()
                    .meta(d('Strength of the mapping from 1 to 10; through an intermediate requirement, the weaker of the two edges.')),
                  coverage: Coverage,
                  hops: z.int().meta(d('1 for a direct crosswalk edge, 2 through one intermediate requirement.')),
                  via: Requirement.nullable().meta(d('The intermediate requirement of a two-step mapping; null for a direct one.')),
                  crosswalks: z.array(z.string()).meta(d('Crosswalks whose edges make the mapping.')),
                }),
              )
              .meta(d('Requirements of the dictionary the control satisfies, full coverage first, then by strength.')),
          }),
        )
        .meta(d('Every dictionary reached, grouped, those with full coverage first.')),
      totals: z
        .object({
          frameworks: z.int().meta(d('Number of dictionaries reached.')),
          requirements: z.int().meta(d('Number of requirements reached.')),
          full: z.int().meta(d('Requirements fully covered.')),
          partial: z.int().meta(d('Requirements partly covered.')),
        })
        .meta(d('Counts of the mapping.')),
    })
    .meta({
      id: 'AgentFrameworkMapperOutput',
      examples: [
        {
          control: {
            framework: 'eu-ai-act',
            kind: 'control',
            ref: 'AIA-RMS-01',
            title: 'Lifecycle risk management system',
            clauseRefs: ['art-9'],
          },
          frameworks: [
            {
              framework: 'iso-iec-42001',
              title: 'ISO/IEC 42001',
              coverage: 'partial',
              requirements: [
                {
                  framework: 'iso-iec-42001',
                  kind: 'control',
                  ref: 'ISO42001-6.1.2',
                  title: 'AI risk assessment',
                  relationship: 'intersect',
                  strength: 7,
                  coverage: 'partial',
                  hops: 1,
                  via: null,
                  crosswalks: ['eu-ai-act--iso-iec-42001'],
                },
              ],
            },
          ],
          totals: { frameworks: 1, requirements: 1, full: 0, partial: 1 },
        },
      ],
    }),
});
