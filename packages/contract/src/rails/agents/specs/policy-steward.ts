import { z } from 'zod';
import { BOTH, d, exampleId, Id } from './shared.ts';
import { agentSpec } from './spec.ts';

export const policySteward = agentSpec({
  slug: 'policy-steward',
  title: 'Policy steward',
  purpose:
    'Drafts or updates a policy skeleton for a topic from the frameworks the tenant activated, computes the next version and the approver route; it returns the draft and does not write it.',
  group: 'deterministic',
  groupReason:
    'The skeleton is the topic template filtered by activated frameworks, and the route is the approval chain read from the records.',
  catalogues: BOTH,
  input: z
    .strictObject({
      policyId: Id('A policy of the tenant (`pol_...`) to update.').optional(),
      topic: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .meta(
          d(
            'Topic of the template (`ai-governance`, `data-protection`, `information-security`, `incident-response`, `acceptable-use`); inferred from the policy title when absent.',
          ),
        ),
    })
    .superRefine((v, ctx) => {
      if (!v.policyId && !v.topic) ctx.addIssue({ code: 'custom', path: ['topic'], message: 'Give a topic, or a policyId to update.' });
    })
    .meta({ id: 'AgentPolicyStewardInput', examples: [{ topic: 'ai-governance' }, { policyId: exampleId('pol') }] }),
  output: z
    .object({
      topic: z.string().meta(d('Topic of the template used.')),
      policyId: z.string().nullable().meta(d('The policy updated; null for a new draft.')),
      title: z.string().meta(d('Title of the draft.')),
      nextVersion: z.int().meta(d('Number the draft would take: 1 for a new policy, the current version plus one otherwise.')),
      sections: z
        .array(
          z.object({
            heading: z.string().meta(d('Heading of the section.')),
            status: z.enum(['present', 'new']).meta(d('`present` when the current text has the heading, `new` when the draft adds it.')),
            frameworks: z.array(z.string()).meta(d('Activated dictionaries that call for the section.')),
            controlIds: z.array(z.string()).meta(d('Controls the section answers.')),
            text: z.string().meta(d('Skeleton text of the section.')),
          }),
        )
        .meta(d('Sections of the draft in template order.')),
      draft: z.string().meta(d('The full draft text.')),
      controlIds: z.array(z.string()).meta(d('Every control the draft answers, sorted.')),
      route: z
        .object({
          chainId: z.string().nullable().meta(d('Approval chain the publication would walk; null when none fits.')),
          approvers: z
            .array(
              z.object({
                step: z.int().meta(d('Step, 1 first.')),
                personId: z.string().meta(d('Approver.')),
                name: z.string().nullable().meta(d('Name of the approver; null when unknown.')),
                issues: z.array(z.string()).meta(d('Why the approver cannot act now (inactive, conflict declared); empty when they can.')),
              }),
            )
            .meta(d('Approvers in order.')),
          blocked: z.boolean().meta(d('Whether a step of the route cannot be acted on.')),
        })
        .meta(d('The approver route of the draft.')),
    })
    .meta({
      id: 'AgentPolicyStewardOutput',
      examples: [
        {
          topic: 'ai-governance',
          policyId: null,
          title: 'AI governance policy',
          nextVersion: 1,
          sections: [{ heading: 'Purpose and scope', status: 'new', frameworks: [], controlIds: [], text: 'This policy sets ...' }],
          draft: '# AI governance policy\n\n## Purpose and scope\n\nThis policy sets ...',
          controlIds: [],
          route: { chainId: null, approvers: [], blocked: true },
        },
      ],
    }),
});
