import { z } from 'zod';
import { ALL31, exampleId } from './shared.ts';
import { agentSpec } from './spec.ts';

const redTeamExample = {
  runId: exampleId('rtr'),
  status: 'completed',
  overall: 72.5,
  categories: [{ category: 'prompt_injection', score: 50, probes: 4, passed: 2, failed: 2, errored: 0, rank: 1, grade: 'weak' }],
  weakest: ['prompt_injection'],
  retestPlan: [{ order: 1, probeId: 'pi-001', category: 'prompt_injection', severity: 'critical', reason: 'failed' }],
  summary: 'Robustness 72.5 of 100; weakest category prompt_injection at 50.',
};
export const redTeamAttacker = agentSpec({
  slug: 'red-team-attacker',
  title: 'Red-team attacker',
  purpose:
    'Reads a red-team run and its results, reports the severity-weighted robustness score per category as the red-team rail scores it, ranks the weakest categories and plans which probes to rerun first.',
  group: 'advisory',
  groupReason: 'It ranks weaknesses and prioritises retests, a judgement the security team weighs.',
  catalogues: ALL31,
  input: z
    .strictObject({
      runId: z.string().min(1).optional().meta({ description: 'Id of a red-team run; the latest run of the tenant when absent.' }),
    })
    .meta({ id: 'AgentRedTeamAttackerInput', examples: [{}, { runId: exampleId('rtr') }] }),
  output: z
    .object({
      runId: z.string().nullable().meta({ description: 'The run read, null when the tenant has none.' }),
      status: z.string().nullable().meta({ description: 'State of the run.' }),
      overall: z
        .number()
        .nullable()
        .meta({ description: 'Severity-weighted pass rate of the run, 0 to 100; null when nothing was judged.' }),
      categories: z
        .array(
          z.object({
            category: z.string().meta({ description: 'Probe category (`prompt_injection`).' }),
            score: z.number().nullable().meta({
              description:
                'Severity-weighted pass rate of the judged probes of the category, 0 to 100 to one decimal; null when none was judged.',
            }),
            probes: z.int().meta({ description: 'Results recorded for the category in the run.' }),
            passed: z.int().meta({ description: 'Probes of the category judged passed.' }),
            failed: z.int().meta({ description: 'Probes of the category judged failed.' }),
            errored: z.int().meta({ description: 'Probes of the category that errored and were not judged.' }),
            rank: z.int().meta({ description: 'Weakest first.' }),
            grade: z.enum(['strong', 'adequate', 'weak', 'untested']).meta({
              description: '`strong` for a score of 90 or more, `adequate` from 70, `weak` below 70, `untested` without a score.',
            }),
          }),
        )
        .meta({ description: 'Categories of the run, weakest first.' }),
      weakest: z.array(z.string()).meta({ description: 'Categories graded weak, weakest first.' }),
      retestPlan: z
        .array(
          z.object({
            order: z.int().meta({ description: 'Position in the retest order, 1 first.' }),
            probeId: z.string().meta({ description: 'Id of the probe in the red-team corpus.' }),
            category: z.string().meta({ description: 'Category of the probe.' }),
            severity: z.string().meta({ description: 'Severity of the probe in the corpus (`critical`, `high`, ...).' }),
            reason: z.string().meta({
              description:
                'Why it is rerun: `failed`, `errored` (not judged) or `not_run` (a probe of the run’s categories without a result).',
            }),
          }),
        )
        .meta({ description: 'Probes to rerun first: failed and errored probes by severity and category weakness.' }),
      summary: z.string().meta({
        description: 'The run’s robustness and weakest categories in one sentence, or how to queue a run when the tenant has none.',
      }),
    })
    .meta({ id: 'AgentRedTeamAttackerOutput', examples: [redTeamExample] }),
});
