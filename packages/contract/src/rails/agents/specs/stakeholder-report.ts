import { z } from 'zod';
import { ALL_TYPES, BOTH, exampleReport, reportFields, SystemId, TemplateId } from './shared.ts';
import { agentSpec } from './spec.ts';

const stakeholderPreset = { id: 'stakeholder-report', allowedTypes: ALL_TYPES, defaultType: 'internal' as const, blocks: null };
export const stakeholderReport = agentSpec({
  slug: 'stakeholder-report',
  title: 'Stakeholder report composer',
  purpose:
    'Reads who the report is for in plain words (`our board`, `the market-surveillance authority`, `Shariah supervisory board`), picks the matching one of the 13 report types by its keyword rules, and composes that report from the tenant’s records as a draft with its recommended reviewers.',
  group: 'deterministic',
  groupReason: 'The type follows from keyword rules applied to the words given, and the report from a fixed recipe applied to the records.',
  catalogues: BOTH,
  input: z
    .strictObject({
      stakeholder: z.string().trim().min(1).max(200).meta({
        description:
          'Who will read the report, in plain words (`board of directors`, `our auditors’ committee`, `a prospective customer`).',
      }),
      systemId: SystemId.optional(),
    })
    .meta({
      id: 'AgentStakeholderReportInput',
      examples: [
        { stakeholder: 'board of directors' },
        { stakeholder: 'market surveillance authority', systemId: 'sys_credit_scoring_v2' },
      ],
    }),
  output: z
    .object({
      ...reportFields,
      selection: z
        .object({
          stakeholder: z.string().meta({ description: 'The words given.' }),
          type: TemplateId.meta({ description: 'The report type they map to.' }),
          matchedKeywords: z.array(z.string()).meta({ description: 'The keywords of that type found in the words, longest first.' }),
        })
        .meta({ description: 'How the report type was chosen.' }),
    })
    .meta({
      id: 'AgentStakeholderReportOutput',
      examples: [
        {
          ...exampleReport({ ...stakeholderPreset, defaultType: 'board' }),
          preset: stakeholderPreset,
          selection: { stakeholder: 'board of directors', type: 'board', matchedKeywords: ['board of directors', 'board'] },
        },
      ],
    }),
});
