import { z } from 'zod';
import { BOTH, d, rankedList } from './shared.ts';
import { agentSpec } from './spec.ts';

export const workflowCatalogue = agentSpec({
  slug: 'workflow-catalogue',
  title: 'Workflow catalogue',
  purpose:
    "Recommends workflows of the 20-workflow catalogue ranked by fit to the tenant's activated frameworks, its evidence gaps, a stakeholder and a goal, and composes them into a sequence.",
  group: 'advisory',
  groupReason: 'It scores the fit of each workflow and ranks them; a person chooses what to run.',
  catalogues: BOTH,
  input: z
    .strictObject({
      framework: z.string().trim().min(1).max(64).optional().meta(d('Favour workflows citing this dictionary.')),
      stakeholder: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .meta(d('Favour workflows this stakeholder role takes part in (`dpo`, `system-owner`, ...).')),
      goal: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .optional()
        .meta(d('What the tenant wants to achieve, in words (`prepare for an AI Act audit`).')),
      limit: z.int().min(1).max(20).optional().meta(d('How many workflows to recommend; 5 when absent.')),
    })
    .meta({
      id: 'AgentWorkflowCatalogueInput',
      examples: [{}, { framework: 'eu-ai-act', goal: 'assess a high-risk AI system before release' }],
    }),
  output: z
    .object({
      recommendations: rankedList({
        workflowId: z.string().meta(d('Workflow of the catalogue.')),
        title: z.string().meta(d('Its title.')),
        score: z.number().meta(d('Fit score, to two decimals.')),
        reasons: z.array(z.string()).meta(d('What the score is made of.')),
        gapControls: z.array(z.string()).meta(d('Controls the workflow cites that have no evidence yet, sorted.')),
      }).meta(d('Workflows by fit, best first.')),
      sequence: z
        .array(
          z.object({
            position: z.int().meta(d('Position in the sequence, 1 first.')),
            workflowId: z.string().meta(d('Workflow to run.')),
            phase: z.string().meta(d('Phase of the compliance cycle the workflow belongs to.')),
            steps: z
              .array(z.string())
              .meta(d('Step keys to run; a step owned by the same role with the same references as an earlier one is left out.')),
          }),
        )
        .meta(d('The recommended workflows composed in phase order.')),
    })
    .meta({
      id: 'AgentWorkflowCatalogueOutput',
      examples: [
        {
          recommendations: [
            {
              rank: 1,
              workflowId: 'ai-act-risk-classification',
              title: 'AI Act risk classification',
              score: 7.5,
              reasons: ['Cites an activated framework: eu-ai-act.'],
              gapControls: ['AIA-CLS-02'],
            },
          ],
          sequence: [{ position: 1, workflowId: 'ai-act-risk-classification', phase: 'scope', steps: ['inventory', 'classify'] }],
        },
      ],
    }),
});
