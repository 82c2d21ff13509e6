import { z } from 'zod';
import { ALL31, exampleId } from './shared.ts';
import { agentSpec } from './spec.ts';

const QuestionId = z.string().meta({ description: 'Id of the question in the questionnaire.' });
const vendorExample = {
  vendorId: null,
  answered: 1,
  unanswered: 0,
  coverage: 1,
  answers: [
    {
      questionId: 'q1',
      status: 'answered',
      answer: 'Yes. Supported by: Access control policy (collected 2026-10-01).',
      controls: ['ISO27-A.5.15'],
      evidence: [{ evidenceId: exampleId('evd'), title: 'Access control policy', match: 'control' }],
      confidence: 'high',
    },
  ],
  gaps: [],
};
export const vendorPrefillBot = agentSpec({
  slug: 'vendor-prefill-bot',
  title: 'Vendor questionnaire pre-fill',
  purpose:
    'Pre-fills a security or privacy questionnaire from the tenant’s evidence: matches each question to evidence by control reference and keywords, drafts the answer citing the evidence and returns the gap list of questions it could not answer.',
  group: 'deterministic',
  groupReason: 'Each answer is the evidence that the matching rules find for the question.',
  catalogues: ALL31,
  input: z
    .strictObject({
      vendorId: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'The vendor (`ven_...`) the questionnaire concerns, when it is one of the tenant’s.' }),
      questionnaire: z
        .array(
          z.strictObject({
            id: z.string().min(1).max(100).meta({ description: 'Id of the question in the questionnaire.' }),
            question: z.string().min(1).max(2000).meta({ description: 'Text of the question.' }),
            control: z.string().min(1).max(64).optional().meta({ description: 'Control the question maps to (`ISO27-A.5.15`).' }),
          }),
        )
        .min(1)
        .max(300)
        .optional()
        .meta({ description: 'The questions to pre-fill; either this or `template`.' }),
      template: z.enum(['baseline']).optional().meta({
        description:
          'A questionnaire of the rules to use instead of `questionnaire`: `baseline` covers security, privacy, resilience and compliance.',
      }),
    })
    .meta({
      id: 'AgentVendorPrefillBotInput',
      examples: [{ questionnaire: [{ id: 'q1', question: 'Do you encrypt customer data at rest?' }] }, { template: 'baseline' }],
    }),
  output: z
    .object({
      vendorId: z.string().nullable().meta({ description: 'The vendor the questionnaire concerns, null when none was given.' }),
      answered: z.int().meta({ description: 'Questions with the status `answered`.' }),
      unanswered: z.int().meta({ description: 'Questions not answered: those `partial` or `unanswered`.' }),
      coverage: z.number().meta({ description: 'Share of questions answered, 0 to 1.' }),
      answers: z
        .array(
          z.object({
            questionId: QuestionId,
            status: z.enum(['answered', 'partial', 'unanswered']).meta({
              description:
                '`answered` when valid (unexpired) evidence supports it, `partial` when only expired evidence matches, `unanswered` when no evidence matches.',
            }),
            answer: z.string().nullable().meta({ description: 'The drafted answer, null when nothing supports one.' }),
            controls: z.array(z.string()).meta({
              description:
                'Controls the answer bears on: the question’s own control and those the supporting valid evidence cites, sorted.',
            }),
            evidence: z
              .array(
                z.object({
                  evidenceId: z.string().meta({ description: 'Id of the evidence (`evd_...`).' }),
                  title: z.string().meta({ description: 'Title of the evidence.' }),
                  match: z.enum(['control', 'keyword']).meta({
                    description:
                      '`control` when the evidence cites the question’s control, `keyword` when it shares enough keywords with the question.',
                  }),
                }),
              )
              .meta({
                description: 'Evidence matched to the question, valid or expired: control matches first, then keyword matches by hits.',
              }),
            confidence: z.enum(['high', 'medium', 'low', 'none']).meta({
              description:
                '`high` with valid evidence citing the control, `medium` with valid keyword matches only, `low` with only expired evidence, `none` without a match.',
            }),
          }),
        )
        .meta({ description: 'One drafted answer per question, in questionnaire order.' }),
      gaps: z
        .array(
          z.object({
            questionId: QuestionId,
            question: z.string().meta({ description: 'Text of the question.' }),
            reason: z.string().meta({
              description: 'Why it is listed: no matching evidence, only expired evidence, or keyword matches only that need confirming.',
            }),
          }),
        )
        .meta({ description: 'Questions left without an answer or with a partial one, and why.' }),
    })
    .meta({ id: 'AgentVendorPrefillBotOutput', examples: [vendorExample] }),
});
