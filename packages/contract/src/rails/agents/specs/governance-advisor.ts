import { z } from 'zod';
import { CORE14, d, EXAMPLE_SYSTEM, rankedList } from './shared.ts';
import { agentSpec } from './spec.ts';

export const governanceAdvisor = agentSpec({
  slug: 'governance-advisor',
  title: 'Governance advisor',
  purpose:
    'Checks the governance records (RACI, decision rights, approvals, delegations, conflicts) against governance rules and ranks the recommendations.',
  group: 'advisory',
  groupReason: 'It weighs findings by severity and ranks recommendations for a person to act on.',
  catalogues: CORE14,
  input: z
    .strictObject({
      scope: z
        .enum(['all', 'systems', 'decision-rights', 'approvals', 'delegations', 'conflicts'])
        .optional()
        .meta(d('Which rules to check; all when absent.')),
    })
    .meta({ id: 'AgentGovernanceAdvisorInput', examples: [{}, { scope: 'delegations' }] }),
  output: z
    .object({
      recommendations: rankedList({
        rule: z.string().meta(d('The governance rule broken.')),
        severity: z.enum(['high', 'medium', 'low']).meta(d('Severity of the rule.')),
        score: z.number().meta(d('Severity weight × the number of records concerned, with a cap.')),
        subjects: z.array(z.string()).meta(d('Ids of the records concerned, sorted.')),
        recommendation: z.string().meta(d('What to do.')),
      }).meta(d('Findings to act on, highest score first.')),
      checked: z.array(z.string()).meta(d('Rules checked.')),
      passed: z.array(z.string()).meta(d('Rules without a finding.')),
    })
    .meta({
      id: 'AgentGovernanceAdvisorOutput',
      examples: [
        {
          recommendations: [
            {
              rank: 1,
              rule: 'accountable-owner',
              severity: 'high',
              score: 10,
              subjects: [EXAMPLE_SYSTEM],
              recommendation: 'Assign exactly one accountable owner to each high-risk system.',
            },
          ],
          checked: ['accountable-owner', 'expired-delegation'],
          passed: ['expired-delegation'],
        },
      ],
    }),
});
