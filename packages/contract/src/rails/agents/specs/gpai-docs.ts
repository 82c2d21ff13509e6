import { z } from 'zod';
import { BOTH, d, exampleId, Id, Source } from './shared.ts';
import { agentSpec } from './spec.ts';

export const gpaiDocs = agentSpec({
  slug: 'gpai-docs',
  title: 'GPAI disclosure pack',
  purpose:
    'Builds the general-purpose AI model provider disclosure pack (Art. 53(1)(a)-(d), Annex XI and XII items) from the training-content summaries and the public-disclosure records, with the items missing.',
  group: 'deterministic',
  groupReason: 'Each item is present or missing by a fixed check on named records; the systemic-risk flag is a fixed compute threshold.',
  catalogues: BOTH,
  input: z
    .strictObject({
      summaryId: Id('A training-content summary of the tenant (`gps_...`).').optional(),
      modelName: z.string().trim().min(1).max(200).optional().meta(d('Only the summaries of models with this name.')),
    })
    .meta({ id: 'AgentGpaiDocsInput', examples: [{}, { modelName: 'Atlas' }] }),
  output: z
    .object({
      models: z
        .array(
          z.object({
            summaryId: z.string().meta(d('The training-content summary.')),
            modelName: z.string().meta(d('Model name.')),
            modelVersion: z.string().meta(d('Model version.')),
            systemicRiskPresumed: z
              .boolean()
              .nullable()
              .meta(
                d('Whether Art. 51(2) presumes systemic risk from the training compute; null without an energy and compute disclosure.'),
              ),
            items: z
              .array(
                z.object({
                  id: z.string().meta(d('Item id.')),
                  ref: z.string().meta(d('Provision of the item.')),
                  title: z.string().meta(d('What the item discloses.')),
                  present: z.boolean().meta(d('Whether the records give it.')),
                  sources: z.array(Source).meta(d('Records that give it.')),
                }),
              )
              .meta(d('Items of the pack, in the order of Art. 53(1).')),
            missing: z.array(z.string()).meta(d('Ids of the items missing.')),
            completenessPercent: z.number().meta(d('Share of the items present, to one decimal.')),
          }),
        )
        .meta(d('One pack per model summary, by id.')),
      missing: z
        .array(z.string())
        .meta(d('Items missing from any pack (`<summaryId>:<item>`), sorted; `summary` when the tenant records no summary.')),
    })
    .meta({
      id: 'AgentGpaiDocsOutput',
      examples: [
        {
          models: [
            {
              summaryId: exampleId('gps'),
              modelName: 'Atlas',
              modelVersion: '2.1',
              systemicRiskPresumed: false,
              items: [
                {
                  id: 'training-content-summary',
                  ref: 'EU AI Act Art. 53(1)(d)',
                  title: 'Public summary of training content',
                  present: true,
                  sources: [],
                },
              ],
              missing: [],
              completenessPercent: 100,
            },
          ],
          missing: [],
        },
      ],
    }),
});
